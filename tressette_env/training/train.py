"""Train a MaskablePPO player (sb3-contrib) on one seat of a game of the family.

``train(TrainConfig(...))`` is what ``tressette train`` and ``examples/train_ppo.py`` run.
``game`` picks the game: ``"tressette"`` (the four-seat game, the default) or another game of
the family (``"tressette_in_due"``, ``"tressette_col_morto"``, ``"tressette_a_perdere"``,
``"calabresella"``, ``"tressette_a_chiamare"``); ``rules`` are that game's switches.

0. Unless ``imitate`` is None, a warm start: the policy clones a teacher's play (by default
   the heuristic) and the value head learns its returns (``imitation``), on single hands of
   the game.
1. ``n_envs`` copies of ``SingleSeatEnv`` (the four-seat game; the learner in a random seat
   each deal) or of ``SingleAgentEnv`` (another game; the learner a random agent each
   deal), rewards scaled by ``reward_scale``; the masks reach MaskablePPO through
   ``action_masks()``. The policy is ``masking.MaskablePolicy``: sb3-contrib's
   ``"MlpPolicy"`` with a faster masked distribution (the same numbers up to float
   rounding). With ``batched=N`` (the four-seat game only), one batched ``SB3VecEnv`` of N
   deals instead (one built-in opponent player; ``n_steps`` per deal).
2. In the four-seat game the learner's partner is a copy of the learner (``partner="self"``,
   refreshed every ``snapshot_every`` steps) or a named player; its opponents are named
   players (default: the heuristic), frozen snapshots of the learner (``"self"``), or a mix.
   The other games have no fixed partner (col morto for three players pairs the two players
   who do not deal, so the learner's partner changes from hand to hand): an ``opponents``
   spec plays every other agent, and ``partner`` must stay ``"self"`` (unused).
3. Every ``eval_every`` steps a duplicate-deal evaluation against ``eval_against``, under the
   game's rules (``evaluation_rules``: in col morto for three players, single hands even
   when an episode is a match, since a duplicate board swaps fixed sides).
4. Checkpoints every ``checkpoint_every`` steps, between rollouts (``checkpoint``: the model
   and everything a resume needs). ``resume`` continues a run from one of them as if it had
   never stopped: in the checkpoint's run folder (unless ``run_name`` is given), with its
   self-play pool, its history up to the checkpoint, its clocks, its environments (the deals in
   progress) and its random streams; ``total_timesteps`` is the whole run's total. The model
   settings come from the checkpoint, which ``config.json`` then records. Only checkpoints
   written here are taken, and they must be trusted: SB3's ``load`` unpickles them.
5. At the end: the model (``model.zip``, a checkpoint too, so a finished run can be made
   longer), its NumPy policy (``policy.npz``, for the game trained on; ``tressette eval
   --game <game> <path>`` plays either, without unpickling), ``history.json``, a learning
   curve (``curve.png``) and the final table against the baselines.

With ``team_play=N`` (the four-seat game, single hands) ``team_play.TeamPlayPPO`` replaces 1
and 2: every learning seat of N batched deals is a row of the rollout (all four seats with
``opponents=("self",)``, one team of each deal against a pool of opponents otherwise: random,
heuristic, ppo and self, a frozen copy of the learner renewed every ``snapshot_every``); the
warm start, the evaluations and the files of 5 are the same, and there are no checkpoints (4).
``history=True`` trains on the history observation in every mode.

SB3 trains in whole rollouts (``n_steps`` times the number of environments), so the run ends
at ``total_timesteps`` rounded up to whole rollouts; it says so when it rounds.
"""

from __future__ import annotations

import importlib
import json
import os
import time
from dataclasses import asdict, dataclass, field, fields, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from ..envs.spec import GAME_NAMES, game_spec
from ..learned.files import MAX_LAYERS, MAX_PARAMETERS, MAX_WIDTH
from ..learned.loading import TRAIN_HINT
from ..learned.mlp import ModelFileError
from ..messages import reason, shown
from .checkpoint import checkpoint_game, checkpoint_path, read_info
from .imitation import one_hand

FOUR_SEAT = "tressette"
"""The four-seat game's name: the only game with a fixed partner and a batched environment."""
TEAM_PLAY_OPPONENTS = ("self", "ppo")
"""Team play's opponents besides the batched engine's players: a frozen copy of the learner, the shipped model."""

MODEL_SETTINGS = ("learning_rate", "n_steps", "batch_size", "n_epochs", "gamma", "gae_lambda", "ent_coef", "net_arch")
"""The fields that shape the model: a resumed run takes them from its checkpoint, not from the config."""

_LEAST = {
    "seed": (0, ""),
    "eval_every": (0, " (0: evaluate only at the end)"),
    "imitation_decisions": (20, " (1 in 20 is held out to measure the warm start)"),
    "n_steps": (2, ""),
    "batch_size": (2, " (PPO normalises the advantages of each batch)"),
    "eval_boards": (2, " (a duplicate evaluation plays at least 2 boards)"),
    "final_boards": (2, " (a duplicate evaluation plays at least 2 boards)"),
    "batched": (0, " (0: single-deal environments)"),
    "team_play": (0, " (0: no team play)"),
}
"""The least value of an int field, and why, where it is not 1."""


def _require(modules: tuple[str, ...], what: str) -> None:
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError as error:
            raise ImportError(f"{error}: {what}") from error


@dataclass
class TrainConfig:
    """Everything a training run needs; every field is a ``tressette train`` option.

    The field docstrings are the command's help, so they are written in plain words, with
    values as they are typed on the command line.

    With ``resume``, the model settings (``MODEL_SETTINGS``: ``learning_rate``, ``n_steps``,
    ``batch_size``, ``n_epochs``, ``gamma``, ``gae_lambda``, ``ent_coef``, ``net_arch``) come
    from the checkpoint and the values given here are ignored; the run's ``config.json`` and
    its ``policy.npz`` record the checkpoint's values (and ``imitate=None``: no warm start).
    ``total_timesteps`` is the whole run's total, the checkpoint's steps included.
    ``check()`` names a bad setting or a missing package; ``train`` calls it before any work.
    """

    game: str = FOUR_SEAT
    """The game: tressette (the four-seat game), tressette_in_due, tressette_col_morto (three players
    by default, --rule players=2 for two), tressette_a_perdere (four players by default, --rule
    players=N for 3 to 8), calabresella (three players, --rule players=4 for four) or
    tressette_a_chiamare (five players). Its rule switches are --rule's, and the evaluations and the saved policy
    are of that game."""
    total_timesteps: int = 50_000
    """Learner decisions to train for, in the whole run: with --resume too (the run stops when its
    step count reaches this, so the first run's command with --resume finishes that run). PPO
    trains in whole rollouts (--n-steps times the environments), so this is rounded up to them."""
    seed: int = 0
    """Seeds the environments, the network and the evaluations."""
    opponents: tuple[str, ...] = ("heuristic",)
    """The opponents' players, given to the environments in turn; self draws frozen
    snapshots of the learner from the pool (self-play): --opponents self is pure self-play.
    In a game other than the four-seat one each plays every other agent (in col morto for three
    players that includes the learner's partner of the hand: the two who do not deal)."""
    partner: str = "self"
    """The four-seat game's partner: self (a copy of the learner) or a player. The other games have
    no fixed partner (--opponents plays every other agent) and take only self, which is then unused."""
    dense_reward: bool = True
    """Pay each trick's thirds as they are taken (one hand per episode only; see SingleAgentEnv)."""
    history: bool = False
    """Train on the history observation (docs/observation.md): the default observation, then each
    card's trick and place, each trick's leader and winner and each lead's signal. The saved policy
    records it, and plays with it."""
    imitate: str | None = "heuristic"
    """Before PPO, clone this player's play (a warm start; none to start from scratch)."""
    imitation_decisions: int = 300_000
    """Teacher decisions to clone."""
    imitation_epochs: int = 8
    """Passes over the teacher's decisions."""
    pool_size: int = 8
    """Snapshots kept in the self-play pool."""
    snapshot_every: int = 20_000
    """Steps between snapshots (the partner copy, the self-play pool, team play's self opponents)."""
    n_envs: int = 32
    """Environments stepped together (many amortise the network's per-call cost)."""
    subproc: bool = False
    """Step the environments in subprocesses (SubprocVecEnv) instead of in this one."""
    batched: int = 0
    """Train on one batched environment of this many deals instead (SB3VecEnv, the four-seat game
    only; 0: the --n-envs single-deal environments). Its opponents are one built-in player (random or
    heuristic), its partner self, random or heuristic; --n-steps then counts steps per deal."""
    team_play: int = 0
    """Train every learning seat of this many batched deals at once (TeamPlayPPO: team self-play on
    the batched engine, the four-seat game, one hand per episode, no calling_out; 0: off). With
    --opponents self the learner plays all four seats and every card is a sample; otherwise one team
    of each deal learns against --opponents: a pool of random, heuristic, ppo (the shipped model) and
    self (a frozen copy of the learner, renewed every --snapshot-every samples), deals 2k and 2k+1
    played by the k-th of them in turn. --n-steps then counts decisions
    per seat, a multiple of 10 (whole hands). Such a run writes no checkpoints and cannot be
    resumed; it writes model.zip and policy.npz at the end."""
    rules: dict = field(default_factory=dict)
    """Rule switches of the game (default: its standard rules, one hand per episode)."""
    net_arch: tuple[int, ...] = (256, 256)
    """Hidden layers of the policy and value networks."""
    learning_rate: float = 3e-4
    """Adam's step size."""
    n_steps: int = 128
    """Steps per environment per rollout."""
    batch_size: int = 1024
    """Minibatch size of PPO's update."""
    n_epochs: int = 4
    """Passes over each rollout in PPO's update."""
    gamma: float = 1.0
    """Discount; 1 is none: a hand is ten decisions (twenty in Tressette in due with a stock) and
    only its result counts."""
    gae_lambda: float = 0.95
    """The lambda of PPO's advantage estimate (GAE)."""
    ent_coef: float = 0.01
    """Weight of the entropy bonus."""
    reward_scale: float = 1 / 11
    """Rewards are points, times this: 1/11 makes a hand worth about 1."""
    eval_every: int = 25_000
    """Steps between duplicate evaluations (0: only at the end). They play the game's rules; col morto
    for three players plays single hands there even when an episode is a match."""
    eval_boards: int = 200
    """Boards per baseline in the periodic evaluations."""
    final_boards: int = 1000
    """Boards per baseline in the final evaluation."""
    eval_against: tuple[str, ...] = ("random", "heuristic")
    """The players the learner is evaluated against."""
    checkpoint_every: int = 100_000
    """Steps between checkpoints (checkpoints/model_<steps>_steps.zip, taken at the first rollout
    boundary at or after each multiple, so that a resume continues exactly)."""
    run_dir: str = "runs"
    """Where runs are written: <run_dir>/<run_name>/."""
    run_name: str | None = None
    """The run's folder (default: <game>__ppo__<seed>__<unix time>; with --resume, the folder of
    the checkpoint's run, so that the resumed run goes on writing there)."""
    resume: str | None = None
    """Continue a run from one of its checkpoints (checkpoints/model_<steps>_steps.zip, or its model.zip).
    The file must be trusted: it is loaded with stable-baselines3, which unpickles it and so can run
    code stored in it; files that tressette train did not write are refused. The run goes on as if it
    had never stopped (the self-play pool, the history up to the checkpoint, the clocks, the
    environments' deals and every random stream), given the first run's options again. No warm start;
    the model settings (learning-rate, n-steps, batch-size, n-epochs, gamma, gae-lambda, ent-coef,
    net-arch) come from the checkpoint, and their options are ignored."""
    tensorboard: bool = False
    """Also log to TensorBoard (<run>/tensorboard)."""
    progress_bar: bool = True
    """Show a progress bar of the PPO steps."""
    torch_threads: int = 1
    """Torch threads; docs/training.md (linked from the README) measures what a second one does."""

    def check(self) -> None:
        """Raise ``ValueError`` naming a bad setting, or ``ImportError`` naming a missing package.

        Plays no game and writes nothing; ``train`` calls it first. A ``resume`` file that is
        damaged or not a checkpoint of ours raises ``ModelFileError`` (a ``ValueError``); only
        its JSON entry is read here.
        """
        from ..agents.registry import make_player

        for f in fields(self):
            if isinstance(f.default, int) and not isinstance(f.default, bool):
                value = getattr(self, f.name)
                least, why = _LEAST.get(f.name, (1, ""))
                if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < least:
                    raise ValueError(f"{f.name}={value!r}: must be an integer >= {least}{why}")
                setattr(self, f.name, int(value))  # a NumPy integer (a seed drawn by rng.integers) as its value
        for name, ok, allowed in (
            ("learning_rate", lambda x: x > 0, "> 0"),
            ("gamma", lambda x: 0 < x <= 1, "in (0, 1]"),
            ("gae_lambda", lambda x: 0 <= x <= 1, "in [0, 1]"),
            ("ent_coef", lambda x: x >= 0, ">= 0"),
            ("reward_scale", lambda x: x > 0, "> 0"),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not ok(value):
                raise ValueError(f"{name}={value!r}: must be a number {allowed}")
        if (
            not self.net_arch
            or len(self.net_arch) >= MAX_LAYERS
            or any(
                isinstance(w, (bool, np.bool_)) or not isinstance(w, (int, np.integer)) or not 1 <= w <= MAX_WIDTH
                for w in self.net_arch
            )
        ):
            raise ValueError(
                f"net_arch={shown(self.net_arch)}: hidden layer widths, 1 to {MAX_LAYERS - 1} integers from 1 to "
                f"{MAX_WIDTH} (what a model file may hold: learned.files)"
            )
        if not isinstance(self.game, str) or self.game not in GAME_NAMES:
            raise ValueError(f"game={self.game!r}: must be one of {', '.join(GAME_NAMES)}")
        rules = self.game_rules()
        evaluation_rules(rules)
        widths = (
            game_spec(self.game).observation_for(rules, self.history).size,
            *self.net_arch,
            rules.game.num_actions,
        )
        numbers = sum(a * b + b for a, b in zip(widths[:-1], widths[1:], strict=True))
        if numbers > MAX_PARAMETERS:
            raise ValueError(
                f"net_arch={shown(self.net_arch)}: a policy of {numbers} numbers (weights and biases, from the "
                f"{widths[0]} observation entries to the {widths[-1]} actions); a model file holds at most {MAX_PARAMETERS}"
            )
        if not self.opponents:
            raise ValueError("opponents: name at least one player (or self)")
        imitate = () if self.imitate is None or self.imitate.lower() == "none" else (self.imitate,)
        specs = [("opponents", s) for s in self.opponents if s != "self"]
        specs += [("partner", self.partner)] if self.partner != "self" else []
        specs += [("eval_against", s) for s in self.eval_against] + [("imitate", s) for s in imitate]
        for name, spec in specs:
            if spec == "self":
                raise ValueError(f"{name}='self': only opponents and partner may be the learner itself (self)")
            try:
                player = make_player(spec)
                if hasattr(player, "check_game"):  # a player that plays some games only
                    player.check_game(rules)
            except ValueError as error:
                raise ValueError(f"{name}: {error}") from None
        four_seat = self.game == FOUR_SEAT
        if not four_seat and self.partner != "self":
            why = (
                "the two players who do not deal play together, so the partner changes from hand to hand"
                if rules.game.agents(rules) == 3
                else "each player plays for himself"
            )
            raise ValueError(
                f"partner={self.partner!r}: a fixed partner is the four-seat game's (game=tressette); in {self.game} "
                f"{why}: --opponents plays every other agent (leave partner out)"
            )
        if self.team_play:
            self._check_team_play(rules)
        if self.batched and not four_seat:
            raise ValueError(
                f"batched={self.batched}: the batched environment plays the four-seat game only (game=tressette); "
                f"train {self.game} on --n-envs single-deal environments (leave batched out)"
            )
        if self.batched:
            from ..vector.env import BUILTIN_POLICIES as BATCHED_PLAYERS

            if len(set(self.opponents)) != 1 or self.opponents[0] not in BATCHED_PLAYERS:
                raise ValueError(
                    f"opponents={self.opponents!r}: a batched environment plays one of {', '.join(BATCHED_PLAYERS)} "
                    "as both opponents (mixes and self-play opponents need the single-deal environments: batched=0)"
                )
            if self.partner not in ("self", *BATCHED_PLAYERS):
                raise ValueError(
                    f"partner={self.partner!r}: a batched environment's partner is self, random or heuristic"
                )
            if self.subproc:
                raise ValueError(
                    "subproc=True: a batched environment runs in this process; drop subproc or use batched=0"
                )
            if self.n_envs != TrainConfig.n_envs:  # the default
                raise ValueError(
                    f"n_envs={self.n_envs}: the number of single-deal environments; with batched={self.batched} "
                    "the batched environment's deals take its place (leave n_envs out)"
                )
        if self.resume is not None:
            path = checkpoint_path(self.resume)
            if path is None:
                raise ValueError(f"resume={self.resume!r}: no checkpoint file there")
            info = read_info(path)  # plain JSON: refuses files that are not our checkpoints
            game = checkpoint_game(info)
            if game != self.game:
                raise ValueError(
                    f"game={self.game!r}: {path} is a checkpoint of {game} (its policy takes that game's "
                    f"observation and actions); resume it with --game {game}"
                )
            theirs = bool(info["config"].get("history", False))
            if theirs != self.history:
                flag = "--history" if theirs else "--no-history"
                raise ValueError(
                    f"history={self.history}: {path} was trained on the {'history' if theirs else 'default'} "
                    f"observation (its policy takes that observation's entries); resume it with {flag}"
                )
            done = info["num_timesteps"]
            if self.total_timesteps <= done:
                raise ValueError(
                    f"total_timesteps={self.total_timesteps}: the whole run's total, and {path} is already at "
                    f"{done} steps; give more (e.g. --total-timesteps {done + self.total_timesteps} for "
                    f"{self.total_timesteps} more)"
                )
        os.environ.setdefault("OMP_NUM_THREADS", str(self.torch_threads))  # before torch is first imported
        _require(
            ("torch", "stable_baselines3", "sb3_contrib"),
            f"training needs torch, stable-baselines3 and sb3-contrib: {TRAIN_HINT}",
        )
        if self.progress_bar:
            _require(
                ("tqdm", "rich"), "the progress bar needs tqdm and rich: pip install tqdm rich, or --no-progress-bar"
            )
        if self.tensorboard:
            _require(("tensorboard",), "TensorBoard logging needs tensorboard: pip install tensorboard")

    def _check_team_play(self, rules: Any) -> None:
        """``team_play``'s own limits (``check``)."""
        from ..vector.env import BUILTIN_POLICIES as BATCHED_PLAYERS

        why = f"team_play={self.team_play}"
        if self.game != FOUR_SEAT:
            raise ValueError(f"{why}: team self-play on the batched engine is the four-seat game's (game=tressette)")
        if rules.is_match or rules.calling_out:
            raise ValueError(
                f'{why}: every seat decides ten times a hand only with episode="hand" and no calling_out '
                f"(got episode={rules.episode!r}, calling_out={rules.calling_out!r})"
            )
        pool = (*BATCHED_PLAYERS, *TEAM_PLAY_OPPONENTS)
        if any(name not in pool for name in self.opponents):
            raise ValueError(
                f"opponents={self.opponents!r}: with team_play, self alone (every seat learns) or a pool of "
                f"{', '.join(pool)} (one team of each deal learns against them; self: a frozen copy of the learner, "
                "renewed every --snapshot-every samples; ppo: the shipped model)"
            )
        if self.opponents != ("self",) and self.team_play < 2 * len(self.opponents):
            raise ValueError(
                f"team_play={self.team_play} with {len(self.opponents)} opponents: each opponent plays two deals "
                f"of every {2 * len(self.opponents)} (one each side), so team_play needs at least "
                f"{2 * len(self.opponents)} deals"
            )
        if self.partner != "self":
            raise ValueError(f"partner={self.partner!r}: with team_play the learner's partner is the learner")
        for name, given, default in (("batched", self.batched, 0), ("n_envs", self.n_envs, TrainConfig.n_envs)):
            if given != default:
                raise ValueError(f"{name}={given}: with team_play the {self.team_play} batched deals take its place")
        if self.subproc:
            raise ValueError(f"subproc=True: {why} runs in this process")
        if self.resume is not None:
            raise ValueError(f"resume: a {why} run writes no checkpoints; start a new run")
        if self.n_steps % 10:
            raise ValueError(
                f"n_steps={self.n_steps}: with team_play, decisions per seat per rollout, a multiple of 10 "
                "(whole hands; e.g. --n-steps 20)"
            )

    def game_rules(self) -> Any:
        """The game's rules record with ``rules``' switches; a ``ValueError`` names the game and the bad switch."""
        try:
            return game_spec(self.game).make_rules(**self.rules)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{self.game}: {error}") from None


def evaluation_rules(rules: Any) -> Any:
    """The rules of the duplicate evaluations: ``rules``, or single hands of them where a board cannot be a match.

    A duplicate board swaps two fixed sides; col morto for three players pairs the two players who
    do not deal, so its partnerships change from hand to hand and its boards are single hands.
    """
    from ..evaluation.duplicate import check_duplicate

    try:
        check_duplicate(rules)
        return rules
    except ValueError:
        if not rules.is_match:
            raise
    hands = one_hand(rules)
    check_duplicate(hands)
    return hands


@dataclass
class TrainResult:
    """Where a run wrote its files, and its final evaluation."""

    run_path: Path
    model_path: Path
    policy_path: Path
    final: dict
    history: list = field(default_factory=list)


ENV_SETTINGS = ("game", "seed", "n_envs", "batched", "rules", "dense_reward", "reward_scale", "history")
"""The settings that make the environments and the random streams: a resume restores a checkpoint's
environments and streams when these are the checkpoint's, and starts new ones (seeded apart from the
first run's) when they are not."""

PLAYER_SETTINGS = ("opponents", "partner", "pool_size")
"""The settings that choose the environments' players: changed on a resume, players are dealt anew."""


def _make_env(
    rules: dict, seed: int, reward_scale: float, dense_reward: bool, game: str = FOUR_SEAT, history: bool = False
):
    import gymnasium
    from stable_baselines3.common.monitor import Monitor

    from .checkpoint import Resumable

    # The players are set by SelfPlayCallback before the first step.
    if game == FOUR_SEAT:
        from ..wrappers.single_seat import SingleSeatEnv

        env = SingleSeatEnv(
            seat="random", partner="random", opponents="random", dense_reward=dense_reward, history=history, **rules
        )
    else:
        from ..wrappers.single_agent import SingleAgentEnv

        env = SingleAgentEnv(game, agent="random", others="random", dense_reward=dense_reward, history=history, **rules)
    env.reset(seed=seed)
    return Resumable(gymnasium.wrappers.TransformReward(Monitor(env), lambda r: r * reward_scale))


def _make_batched_env(config: TrainConfig, dense_reward: bool, seed: int):
    """One ``SB3VecEnv`` of ``config.batched`` deals, with SB3's episode statistics, rewards times ``reward_scale``."""
    from stable_baselines3.common.vec_env import VecEnvWrapper, VecMonitor

    from ..vector.sb3 import SB3VecEnv

    class ScaledRewards(VecEnvWrapper):
        def reset(self):
            return self.venv.reset()

        def step_wait(self):
            obs, rewards, dones, infos = self.venv.step_wait()
            return obs, rewards * config.reward_scale, dones, infos

    env = SB3VecEnv(
        num_envs=config.batched,
        opponent=config.opponents[0],
        partner="heuristic" if config.partner == "self" else config.partner,  # SelfPlayCallback sets the copy
        learner_seat="random",
        dense_reward=dense_reward,
        seed=seed,
        history=config.history,
        **config.rules,
    )
    return ScaledRewards(VecMonitor(env))


def _env_seeds(seed: int, count: int, resumed_at: int | None) -> list[int]:
    """Seeds of ``count`` environments: ``seed + i`` for a new run.

    For new environments of a resumed run, seeds drawn from ``(seed, resumed_at)``, so that
    they do not replay the deals the run has already played.
    """
    if resumed_at is None:
        return [seed + i for i in range(count)]

    return [int(x) for x in np.random.SeedSequence([seed, resumed_at]).generate_state(count, np.uint32)]


def _capture_envs(venv, batched: bool):
    """The environments' whole state (see ``checkpoint.py``).

    One pickle per single-deal environment, or the batched environment and its episode statistics.
    """
    if not batched:
        return venv.env_method("get_resume_state")
    import cloudpickle

    monitor = venv.venv  # ScaledRewards(VecMonitor(SB3VecEnv))
    counters = {k: getattr(monitor, k) for k in ("episode_returns", "episode_lengths", "episode_count")}
    return {"vector": cloudpickle.dumps(monitor.venv.env), "monitor": counters}


def _restore_envs(venv, batched: bool, saved, pool) -> None:
    import pickle

    if not batched:
        by_key = {player.pool_key: player for player in pool}
        for i, blob in enumerate(saved):
            venv.env_method("set_resume_state", blob, by_key, indices=[i])
        return
    monitor = venv.venv
    monitor.venv.env = pickle.loads(saved["vector"])
    for key, value in saved["monitor"].items():
        setattr(monitor, key, value)


def _rng_states() -> dict:
    import random

    import torch

    return {"torch": torch.get_rng_state(), "numpy": np.random.get_state(), "python": random.getstate()}


def _set_rng_states(states: dict) -> None:
    import random

    import torch

    torch.set_rng_state(states["torch"])
    np.random.set_state(states["numpy"])
    random.setstate(states["python"])


def _model_settings(model) -> dict:
    """The ``MODEL_SETTINGS`` a loaded MaskablePPO model trains with."""
    rate = model.learning_rate
    arch = model.policy.net_arch
    return {
        "learning_rate": float(rate(1.0) if callable(rate) else rate),
        "n_steps": int(model.n_steps),
        "batch_size": int(model.batch_size),
        "n_epochs": int(model.n_epochs),
        "gamma": float(model.gamma),
        "gae_lambda": float(model.gae_lambda),
        "ent_coef": float(model.ent_coef),
        "net_arch": tuple(arch) if isinstance(arch, list) else arch,
    }


def _as_json(value):
    """A value as ``config.json`` holds it (tuples as lists), to compare settings with a checkpoint's."""
    return json.loads(json.dumps(value))


def whole_rollouts(total: int, start: int, rollout: int) -> int:
    """The step count a run reaches: ``start`` plus whole rollouts, the fewest that reach ``total``.

    Example:
        >>> whole_rollouts(250_000, 0, 4096), whole_rollouts(1024, 512, 256), whole_rollouts(300, 0, 64)
        (253952, 1024, 320)
    """
    return start + -(-(total - start) // rollout) * rollout


def train(config: TrainConfig) -> TrainResult:
    """Run a training as configured; see the module docstring for what it writes.

    Raises ``ValueError`` or ``ImportError`` (``TrainConfig.check``) before writing anything,
    and ``ModelFileError`` (a ``ValueError``) for a ``resume`` checkpoint that cannot be loaded.
    """
    config.check()
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import CallbackList
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from . import checkpoint
    from .callbacks import DuplicateEvalCallback, RolloutCheckpointCallback, SelfPlayCallback
    from .export import policy_from_sb3
    from .masking import MaskablePolicy

    torch.set_num_threads(config.torch_threads)
    rules = config.game_rules()
    eval_rules = evaluation_rules(rules)
    resume_path = checkpoint_path(config.resume) if config.resume else None
    info = checkpoint.read_info(resume_path) if resume_path else None
    if resume_path and config.run_name is None:
        run = checkpoint.run_folder(resume_path)  # the run goes on in its own folder
    else:
        run = Path(config.run_dir) / (config.run_name or f"{config.game}__ppo__{config.seed}__{int(time.time())}")
    # A resume continues the checkpoint's environments and random streams when they were made the same way.
    differ = []
    if info:
        mine, theirs = _as_json(asdict(config)), {"game": checkpoint_game(info), **info["config"]}
        differ = [k for k in ENV_SETTINGS if mine.get(k) != theirs.get(k)]
    continued = info is not None and not differ
    resumed_at = info["num_timesteps"] if info and not continued else None

    if config.team_play:
        return _train_team_play(config, rules, eval_rules, run)
    dense = config.dense_reward and not rules.is_match
    if config.batched:
        venv = _make_batched_env(config, dense, _env_seeds(config.seed, 1, resumed_at)[0])
    else:
        seeds = _env_seeds(config.seed, config.n_envs, resumed_at)
        makers = [
            partial(_make_env, config.rules, s, config.reward_scale, dense, config.game, config.history) for s in seeds
        ]
        venv = SubprocVecEnv(makers) if config.subproc else DummyVecEnv(makers)
    tensorboard = str(run / "tensorboard") if config.tensorboard else None
    state = None
    if resume_path:
        try:
            state = checkpoint.read_state(resume_path)  # trusted: --resume takes only our own checkpoints
            model = MaskablePPO.load(
                resume_path, env=venv, tensorboard_log=tensorboard, force_reset=not continued,
                custom_objects={"policy_class": MaskablePolicy},
            )  # fmt: skip
            if continued:
                _restore_envs(venv, config.batched > 0, state["envs"], state["pool"])
                _set_rng_states(state["rng"])
            else:
                model.set_random_seed(_env_seeds(config.seed, 1, resumed_at)[0])
        except Exception as error:
            venv.close()
            if isinstance(error, ModelFileError):
                raise
            raise ModelFileError(resume_path, f"a damaged checkpoint ({reason(error)})") from None
        config = replace(config, **_model_settings(model), imitate=None)
        settings = ", ".join(f"{k}={getattr(config, k)}" for k in MODEL_SETTINGS)
        print(f"resuming {resume_path} at step {model.num_timesteps}, in {run}: the model settings come from the "
              f"checkpoint ({settings})", flush=True)  # fmt: skip
        if differ:
            print(
                f"{', '.join(differ)} differ from the checkpoint's run: new environments and random streams, "
                "seeded from the seed and the checkpoint's step",
                flush=True,
            )
    else:
        model = MaskablePPO(
            MaskablePolicy,
            venv,
            learning_rate=config.learning_rate,
            n_steps=config.n_steps,
            batch_size=config.batch_size,
            n_epochs=config.n_epochs,
            gamma=config.gamma,
            gae_lambda=config.gae_lambda,
            ent_coef=config.ent_coef,
            policy_kwargs={"net_arch": list(config.net_arch)},
            tensorboard_log=tensorboard,
            seed=config.seed,
            verbose=0,
        )
    # SB3 trains in whole rollouts: aim at the step count it will reach, so the bar and the run agree.
    start = model.num_timesteps if resume_path else 0
    rollout = model.n_steps * venv.num_envs
    target = whole_rollouts(config.total_timesteps, start, rollout)
    if target != config.total_timesteps:
        what = f"{config.batched} deals" if config.batched else f"{venv.num_envs} environments"
        print(
            f"total_timesteps={config.total_timesteps} rounded up to {target}: PPO trains in whole rollouts "
            f"of {model.n_steps} steps x {what} ({rollout} steps)",
            flush=True,
        )
    if eval_rules != rules:
        print(
            f"the duplicate evaluations play single hands: {config.game} for three players changes partnerships "
            "from hand to hand, and a duplicate board swaps fixed sides",
            flush=True,
        )
    _start_run(model, config, rules, run)
    evaluator = DuplicateEvalCallback(
        config.eval_every or target + 1,
        list(config.eval_against),
        config.eval_boards,
        eval_rules,
        config.seed,
        run / "history.json",
    )
    others = None if config.game == FOUR_SEAT else rules.game.agents(rules) - 1
    selfplay = SelfPlayCallback(
        config.snapshot_every, config.partner, config.opponents, config.pool_size, config.seed, config.batched > 0,
        others,
    )  # fmt: skip

    def save(path: Path) -> None:
        """The model (SB3) and everything else a resume needs (``checkpoint.py``)."""
        model.save(path)
        clocks = {
            "evaluated_at": evaluator._last,
            "eval_seconds": evaluator.seconds(),
            "snapshot_at": selfplay._last,
            "checkpoint_at": checkpoints.last,
        }
        run_info = {
            "num_timesteps": model.num_timesteps,
            "config": _as_json(asdict(config)),
            "history": [asdict(p) for p in evaluator.history],
            "clocks": clocks,
        }
        state = {
            "pool": selfplay.pool,
            "selfplay_rng": selfplay.rng.getstate(),
            "envs": _capture_envs(venv, config.batched > 0),
            "rng": _rng_states(),
        }
        checkpoint.write(path, run_info, state)

    checkpoints = RolloutCheckpointCallback(config.checkpoint_every, run / "checkpoints", save)
    if info:
        clocks = info["clocks"]
        evaluator.restore(info["history"], clocks["evaluated_at"], clocks["eval_seconds"])
        theirs = info["config"]
        players_changed = any(_as_json(getattr(config, k)) != theirs.get(k) for k in PLAYER_SETTINGS)
        selfplay.restore(state["pool"], state["selfplay_rng"], clocks["snapshot_at"], not continued or players_changed)
        checkpoints.last = clocks["checkpoint_at"]
    if config.batched and config.partner == "self" and not continued:  # already for the deals learn() deals
        partner = selfplay.pool[-1].policy if info else policy_from_sb3(model)
        venv.set_attr("partner", partner.best_actions)
    model.learn(
        target - start,
        callback=CallbackList([selfplay, evaluator, checkpoints]),
        progress_bar=config.progress_bar,
        reset_num_timesteps=not resume_path,
        tb_log_name="ppo",
    )
    checkpoints.save_if_due()
    model_path = run / "model.zip"
    save(model_path)  # resumable: a resume from it goes on as one longer run
    try:
        return _finish(model, model_path, evaluator, config, eval_rules, run)
    finally:
        venv.close()  # after the last evaluation, which asks the environments for their observation


def _start_run(model, config: TrainConfig, rules: Any, run: Path) -> None:
    """The run's folder and ``config.json``, then the warm start (``imitate``; none on a resume)."""
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.json").write_text(json.dumps(asdict(config), indent=2))
    if not config.resume and config.imitate and config.imitate.lower() != "none":
        from .imitation import imitate

        fit = imitate(
            model, config.imitate, config.imitation_decisions, config.imitation_epochs, rules, config.seed,
            config.reward_scale, config.history,
        )  # fmt: skip
        (run / "imitation.json").write_text(json.dumps(fit, indent=2))
        print(f"imitation of {fit['teacher']}: {fit['agreement']:.1%} agreement on held-out decisions", flush=True)


def _finish(model, model_path: Path, evaluator, config: TrainConfig, eval_rules: Any, run: Path) -> TrainResult:
    """The last evaluation, the curve, the policy file and the final table against the baselines."""
    from ..evaluation.baselines import against_baselines
    from ..evaluation.report import results_table
    from ..learned.mlp import MLPPlayer
    from .curves import plot_curve
    from .export import policy_from_sb3

    evaluator.evaluate_now()
    history = [asdict(p) for p in evaluator.history]
    plot_curve(history, run / "curve.png", list(config.eval_against))

    info = {"timesteps": model.num_timesteps, "config": asdict(config)}
    policy = policy_from_sb3(model, info, config.history)
    learner = MLPPlayer(policy, name="learner")
    finals = against_baselines(
        learner, config.eval_against, config.final_boards, config.seed + 1, eval_rules, progress=False
    )
    policy.info["final"] = {r.players[1]: r.to_json() for r in finals}
    policy_path = policy.save(run / "policy.npz")
    table = results_table(finals)
    (run / "final.md").write_text(table + "\n")
    print(table)
    print(f"\nrun written to {run}: model.zip, policy.npz, history.json, curve.png")
    return TrainResult(run, model_path, policy_path, policy.info["final"], history)


def _train_team_play(config: TrainConfig, rules: Any, eval_rules: Any, run: Path) -> TrainResult:
    """``train`` with ``team_play``: TeamPlayPPO on the batched engine (no checkpoints)."""
    from .callbacks import DuplicateEvalCallback
    from .masking import MaskablePolicy
    from .team_play import SnapshotCallback, TeamPlayPPO

    learners = "all" if config.opponents == ("self",) else "team"
    pool = tuple(_batched_opponent(name) for name in config.opponents)
    model = TeamPlayPPO(
        MaskablePolicy, num_deals=config.team_play, learners=learners,
        opponent="heuristic" if learners == "all" else pool, dense_reward=config.dense_reward,
        n_steps=config.n_steps, seed=config.seed, rules=config.rules, history=config.history,
        learning_rate=config.learning_rate, batch_size=config.batch_size, n_epochs=config.n_epochs,
        gamma=config.gamma, gae_lambda=config.gae_lambda, ent_coef=config.ent_coef,
        policy_kwargs={"net_arch": list(config.net_arch)},
        tensorboard_log=str(run / "tensorboard") if config.tensorboard else None, verbose=0,
    )  # fmt: skip
    rows = model.rows.num_rows
    rollout = config.n_steps * rows
    target = whole_rollouts(config.total_timesteps, 0, rollout)
    who = (
        "every seat learning"
        if learners == "all"
        else f"one team of each learning against {', '.join(config.opponents)}"
    )
    print(
        f"team play: {config.team_play} deals, {who} ({rows} seat rows); rollouts of {rollout} samples"
        + (
            f"; total_timesteps={config.total_timesteps} rounded up to {target}"
            if target != config.total_timesteps
            else ""
        ),
        flush=True,
    )
    _start_run(model, config, rules, run)
    evaluator = DuplicateEvalCallback(
        config.eval_every or target + 1, list(config.eval_against), config.eval_boards, eval_rules, config.seed,
        run / "history.json",
    )  # fmt: skip
    callbacks = [evaluator]
    if model.snapshot_slots:
        callbacks.append(SnapshotCallback(config.snapshot_every))
    model.learn(target, callback=callbacks, progress_bar=config.progress_bar, tb_log_name="ppo")
    model_path = run / "model.zip"
    model.save(model_path)
    return _finish(model, model_path, evaluator, config, eval_rules, run)


def _batched_opponent(name: str) -> Any:
    """A team-play opponent: a built-in batched player's name, ``"self"`` as it is, or ``ppo``'s batched policy."""
    if name != "ppo":
        return name
    from ..learned.loading import shipped_model_path
    from ..learned.mlp import MLPPolicy

    shipped = MLPPolicy.load(shipped_model_path())
    if shipped.observation != "default":
        raise ValueError(
            f"the shipped model reads the {shipped.observation} observation; team play's ppo needs the default"
        )
    size = shipped.layers[0][0].shape[1]  # the default observation: the first entries of the history one

    def ppo(observations: Any, masks: Any) -> Any:
        return shipped.best_actions(observations[:, :size], masks)

    return ppo
