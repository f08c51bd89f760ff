"""Training callbacks: self-play snapshots and the duplicate-deal evaluation."""

from __future__ import annotations

import json
import random
import time
from dataclasses import asdict, dataclass, field

from stable_baselines3.common.callbacks import BaseCallback

from ..agents.registry import make_player
from ..engine.rules import Rules
from ..evaluation.baselines import against_baselines
from ..learned.mlp import MLPPlayer
from .export import policy_from_sb3


class SelfPlayCallback(BaseCallback):
    """Every ``every`` steps, take a snapshot of the learner and give each environment its players.

    The partner is the latest snapshot when ``partner == "self"``, else the named player.
    Environment ``i`` plays against ``opponents[i % len(opponents)]``: a player spec, or
    ``"self"`` for two snapshots drawn from the pool of the last ``pool_size`` (self-play).
    With ``batched=True`` the environment is one ``SB3VecEnv``, built with its opponents and
    partner: the callback only gives it the snapshot as partner (``partner == "self"``),
    played on all its deals at once by ``MLPPolicy.best_actions``.
    """

    def __init__(
        self, every: int, partner: str, opponents: tuple[str, ...], pool_size: int, seed: int, batched: bool = False
    ):
        super().__init__()
        self.batched = batched
        self.every = every
        self.partner = partner
        self.opponents = tuple(opponents)
        self.pool_size = pool_size
        self.pool: list[MLPPlayer] = []
        self.rng = random.Random(seed)
        self._last = 0

    def _snapshot(self) -> None:
        snapshot = MLPPlayer(policy_from_sb3(self.model), name=f"snapshot@{self.num_timesteps}")
        self.pool = (self.pool + [snapshot])[-self.pool_size :]
        env = self.training_env
        if self.batched:
            if self.partner == "self":
                env.set_attr("partner", snapshot.policy.best_actions)
            return
        for i in range(env.num_envs):
            partner = snapshot if self.partner == "self" else make_player(self.partner)
            spec = self.opponents[i % len(self.opponents)]
            if spec == "self":
                opponents = [self.rng.choice(self.pool), self.rng.choice(self.pool)]
            else:
                opponents = [make_player(spec)] * 2
            env.env_method("set_players", partner, opponents, indices=[i])

    def _on_training_start(self) -> None:
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
    """Every ``every`` steps, play the learner (both seats of a team) against baselines on duplicate boards.

    Unlike SB3's episode-mean evaluation this cancels the cards' luck, so a few hundred boards
    already give a tight confidence interval. Results go to ``history`` and to the SB3 logger
    (TensorBoard when enabled): ``eval/vs_<baseline>`` is the mean points per hand.
    """

    def __init__(self, every: int, baselines: list[str], boards: int, rules: Rules, seed: int = 0, history_path=None):
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

    def evaluate_now(self) -> EvalPoint:
        learner = MLPPlayer(policy_from_sb3(self.model), name="learner")
        point = EvalPoint(self.num_timesteps, time.perf_counter() - self._start)
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
        if self.history_path is not None:
            self.history_path.write_text(json.dumps([asdict(p) for p in self.history], indent=2))
        return point

    def _on_step(self) -> bool:
        if self.num_timesteps - self._last >= self.every:
            self._last = self.num_timesteps
            self.evaluate_now()
        return True
