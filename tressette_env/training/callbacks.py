"""Training callbacks: self-play snapshots, the duplicate-deal evaluation, checkpoints between rollouts.

Each keeps its clock (the step of its last action) and its random stream as attributes that
``tressette_env.training.checkpoint`` saves and ``restore`` puts back, so that a resumed run
takes its snapshots, evaluations and checkpoints at the steps the uninterrupted run would.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback

from ..agents.registry import make_player
from ..evaluation.baselines import against_baselines
from ..learned.mlp import MLPPlayer
from .export import policy_from_sb3


class SelfPlayCallback(BaseCallback):
    """Every ``every`` steps, take a snapshot of the learner and give each environment its players.

    The four-seat game (``others=None``; ``SingleSeatEnv.set_players``): the partner is the
    latest snapshot when ``partner == "self"``, else the named player. Environment ``i`` plays
    against ``opponents[i % len(opponents)]``: a player spec, or ``"self"`` for two snapshots
    drawn from the pool of the last ``pool_size`` (self-play).
    With ``batched=True`` the environment is one ``SB3VecEnv``, built with its opponents and
    partner: the callback only gives it the snapshot as partner (the four-seat game, ``partner
    == "self"``), played on all its deals at once by ``MLPPolicy.best_actions``; another game's
    batched environment keeps the players it was built with.

    Another game (``others``: its number of agents other than the learner;
    ``SingleAgentEnv.set_others``): no partner (``partner`` must be ``"self"`` and is unused);
    ``opponents[i % len(opponents)]`` plays every other agent of environment ``i``, ``"self"``
    as one snapshot drawn from the pool for each.
    """

    def __init__(
        self,
        every: int,
        partner: str,
        opponents: tuple[str, ...],
        pool_size: int,
        seed: int,
        batched: bool = False,
        others: int | None = None,
    ):
        super().__init__()
        if others is not None and partner != "self":
            raise ValueError(f"a game of {others + 1} agents has no fixed partner: partner must be 'self', "
                             f"got {partner!r}")  # fmt: skip
        self.others = others
        self.batched = batched
        self.every = every
        self.partner = partner
        self.opponents = tuple(opponents)
        self.pool_size = pool_size
        self.pool: list[MLPPlayer] = []
        self.rng = random.Random(seed)
        self._last = 0
        self._restored = False
        self._reassign = False

    @property
    def snapshot_at(self) -> int:
        """The step of the last snapshot (a checkpoint's clock; ``restore`` takes it back)."""
        return self._last

    def _snapshot(self) -> None:
        snapshot = MLPPlayer(policy_from_sb3(self.model), name=f"snapshot@{self.num_timesteps}")
        snapshot.pool_key = self.num_timesteps  # how a checkpoint's environments refer to it (see checkpoint.py)
        self.pool = (self.pool + [snapshot])[-self.pool_size :]
        self.assign(self.training_env)

    def assign(self, env) -> None:
        """Give each environment its partner and opponents from the pool (its last snapshot is the partner copy)."""
        snapshot = self.pool[-1]
        if self.batched:  # built with its players; the four-seat partner copy is the snapshot
            if self.partner == "self" and self.others is None:
                env.set_attr("partner", snapshot.policy.best_actions)
            return
        for i in range(env.num_envs):
            spec = self.opponents[i % len(self.opponents)]
            if self.others is not None:
                if spec == "self":
                    others = [self.rng.choice(self.pool) for _ in range(self.others)]
                else:
                    others = [make_player(spec)] * self.others
                env.env_method("set_others", others, indices=[i])
                continue
            partner = snapshot if self.partner == "self" else make_player(self.partner)
            if spec == "self":
                opponents = [self.rng.choice(self.pool), self.rng.choice(self.pool)]
            else:
                opponents = [make_player(spec)] * 2
            env.env_method("set_players", partner, opponents, indices=[i])

    def restore(self, pool: list[MLPPlayer], rng_state: tuple, last: int, reassign: bool) -> None:
        """Continue from a checkpoint: its pool, RNG and last snapshot step, and no new snapshot at the start.

        Args:
            pool: the checkpoint's snapshots, oldest first (the last ``pool_size`` are kept).
            rng_state: ``random.Random.getstate()`` of the checkpoint's callback.
            last: the step of the checkpoint's last snapshot.
            reassign: give the environments new players from the pool when training starts
                (their players changed: other settings, or new environments).
        """
        if not pool:
            raise ValueError("a checkpoint's self-play pool is empty")
        self.pool = list(pool)[-self.pool_size :]
        self.rng.setstate(rng_state)
        self._last = last
        self._restored, self._reassign = True, reassign

    def _on_training_start(self) -> None:
        if self._restored:
            if self._reassign:
                self.assign(self.training_env)
            return
        self._snapshot()
        self._last = self.num_timesteps

    def _on_step(self) -> bool:
        if self.num_timesteps - self._last >= self.every:
            self._snapshot()
            self._last = self.num_timesteps
        return True


@dataclass
class EvalPoint:
    """The learner against each baseline at one moment of training."""

    timesteps: int
    seconds: float
    results: dict[str, dict] = field(default_factory=dict)


class DuplicateEvalCallback(BaseCallback):
    """Every ``every`` steps, play the learner (every seat of a side) against baselines on duplicate boards of ``rules``' game.

    Unlike SB3's episode-mean evaluation this cancels the cards' luck, so a few hundred boards
    already give a tight confidence interval. Results go to ``history`` and to the SB3 logger
    (TensorBoard when enabled): ``eval/vs_<baseline>`` is the mean points per hand. ``every=0``:
    at the first step only (the run's end evaluates once more, ``finish_run``), however far a
    rollout of whole hands runs past the run's last step.
    """

    def __init__(self, every: int, baselines: list[str], boards: int, rules: Any, seed: int = 0, history_path=None):
        super().__init__()
        self.history_path = history_path
        self.every = every
        self.baselines = baselines
        self.boards = boards
        self.rules = rules
        self.seed = seed
        self.history: list[EvalPoint] = []
        self._last = -every
        self._start = time.perf_counter()

    @property
    def evaluated_at(self) -> int:
        """The step of the last evaluation (a checkpoint's clock; ``restore`` takes it back)."""
        return self._last

    def seconds(self) -> float:
        """The evaluation clock: seconds of training so far (a resumed run's clock goes on from its checkpoint's)."""
        return time.perf_counter() - self._start

    def restore(self, history: list[dict], last: int, seconds: float) -> None:
        """Continue from a checkpoint: its history, the step of its last evaluation, its clock."""
        self.history = [EvalPoint(**p) for p in history]
        self._last = last
        self._start = time.perf_counter() - seconds
        self.write_history()

    def write_history(self) -> None:
        if self.history_path is not None:
            self.history_path.write_text(json.dumps([asdict(p) for p in self.history], indent=2))

    def evaluate_now(self) -> EvalPoint:
        learner = MLPPlayer(policy_from_sb3(self.model), name="learner")
        point = EvalPoint(self.num_timesteps, self.seconds())
        results = against_baselines(
            learner, self.baselines, self.boards, self.seed, self.rules, workers=1, progress=False
        )
        for name, result in zip(self.baselines, results, strict=True):
            point.results[name] = result.to_json()
            self.logger.record(f"eval/vs_{name}", result.mean_points_diff)
        self.history.append(point)
        scores = ", ".join(
            f"vs {name} {r['mean_points_diff']:+.2f} [{r['ci95'][0]:+.2f}, {r['ci95'][1]:+.2f}]"
            for name, r in point.results.items()
        )
        print(f"step {point.timesteps:>9} ({point.seconds:7.0f} s): {scores}", flush=True)
        self.write_history()
        return point

    def _on_step(self) -> bool:
        if (self.every == 0 and self.history) or self.num_timesteps - self._last < self.every:
            return True
        self._last = self.num_timesteps
        self.evaluate_now()
        return True


class RolloutCheckpointCallback(BaseCallback):
    """Save a checkpoint at the first rollout boundary at or after every ``every`` steps.

    SB3's ``CheckpointCallback`` saves in the middle of a rollout, whose collected half is
    then lost; between rollouts (when the next one starts, PPO's update done) the model, the
    environments and the random streams are all at one moment, so a resume continues exactly.

    Args:
        every: steps between checkpoints.
        directory: where ``model_<steps>_steps.zip`` files go.
        save: writes a checkpoint to the path it is given (model and run state).
    """

    def __init__(self, every: int, directory: Path, save: Callable[[Path], None]):
        super().__init__()
        self.every = every
        self.directory = Path(directory)
        self.save = save
        self.last = 0
        """The step of the last checkpoint."""

    def save_if_due(self) -> Path | None:
        """Save now if a multiple of ``every`` was passed since the last checkpoint; the path written, or None."""
        steps = self.model.num_timesteps
        if steps // self.every <= self.last // self.every:
            return None
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / f"model_{steps}_steps.zip"
        self.last = steps
        self.save(path)
        return path

    def _on_rollout_start(self) -> None:
        self.save_if_due()

    def _on_step(self) -> bool:
        return True
