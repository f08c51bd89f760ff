"""A training run's settings and their checks: ``TrainConfig``, and ``TrainResult``, what a run gives back.

``TrainConfig``'s fields are ``tressette train``'s options (their docstrings are its help);
``TrainConfig.check`` refuses a bad setting or a missing package before any work, and
``evaluation_rules`` gives the rules the duplicate evaluations play. The constants name the
groups of settings that ``train`` and a resume treat alike. How a run uses them is
``tressette_env.training.train``'s docstring.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from ..catalog import names as game_names
from ..envs.spec import game_spec
from ..learned.files import MAX_LAYERS, MAX_PARAMETERS, MAX_WIDTH
from ..learned.loading import TRAIN_HINT
from ..messages import shown
from .checkpoint import checkpoint_game, checkpoint_path, read_info
from .imitation import one_hand

FOUR_SEAT = "tressette"
"""The four-seat game's name: the only game with a fixed partner (its batched environment is ``TressetteVectorEnv``)."""
TEAM_PLAY_OPPONENTS = ("self", "ppo")
"""Team play's opponents besides the batched engine's players: a frozen copy of the learner, the shipped model."""

MODEL_SETTINGS = (
    "learning_rate", "n_steps", "batch_size", "n_epochs", "gamma", "gae_lambda", "ent_coef", "net_arch", "bf16_update",
)  # fmt: skip
"""The fields that shape the model: a resumed run takes them from its checkpoint, not from the config."""

ENV_SETTINGS = ("game", "seed", "n_envs", "batched", "rules", "dense_reward", "reward_scale", "history")
"""The settings that make the environments and the random streams: a resume restores a checkpoint's
environments and streams when these are the checkpoint's, and starts new ones (seeded apart from the
first run's) when they are not."""

PLAYER_SETTINGS = ("opponents", "partner", "pool_size")
"""The settings that choose the environments' players: changed on a resume, players are dealt anew."""

_LEAST = {
    "seed": (0, ""),
    "eval_every": (0, " (0: evaluate only at the first step and at the end)"),
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
        except ImportError as error:  # a ModuleNotFoundError naming the missing package, as the import's own
            raise ModuleNotFoundError(f"{error}: {what}", name=getattr(error, "name", None) or module) from error


@dataclass
class TrainConfig:
    """Everything a training run needs; every field is a ``tressette train`` option.

    The field docstrings are the command's help, so they are written in plain words, with
    values as they are typed on the command line.

    With ``resume``, the model settings (``MODEL_SETTINGS``: ``learning_rate``, ``n_steps``,
    ``batch_size``, ``n_epochs``, ``gamma``, ``gae_lambda``, ``ent_coef``, ``net_arch``, ``bf16_update``) come
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
    """Train on one batched environment of this many deals instead (SB3VecEnv; 0: the --n-envs
    single-deal environments): the four-seat game's TressetteVectorEnv, or another game's
    FamilyVectorEnv where the game has a batched engine (the learner a random player each deal).
    Its opponents are one built-in player (random, or heuristic where the game's heuristic is
    batched) for every other player; the four-seat partner self, random or heuristic; --n-steps
    then counts steps per deal."""
    team_play: int = 0
    """Train every learning seat of this many batched deals at once (TeamPlayPPO: team self-play on
    the game's batched engine, every game of the package; one hand per episode, no calling_out; 0:
    off). With --opponents self the learner plays every seat and every decision is a sample; otherwise
    one side of each deal (in a game without fixed partners, the players of one parity) learns against
    --opponents: a pool of random, heuristic, ppo (the shipped model) and self (a frozen copy of the
    learner, renewed every --snapshot-every samples), deals 2k and 2k+1 played by the k-th of them in
    turn. --n-steps then counts decisions per seat, a multiple of the game's decisions per seat in a
    hand (10 in the four-seat game; a wrong one is refused with the game's; where a hand's count
    varies, a rollout is whole hands). Such a run writes no checkpoints and cannot be resumed; it writes model.zip and policy.npz
    at the end."""
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
    bf16_update: bool = False
    """Run PPO's update with the networks' layers in bfloat16 (autocast; the weights, Adam and the
    rollouts stay float32): the main job took a quarter less CPU time on a CPU with AVX512-BF16
    (not measured on CPUs without bfloat16 instructions); rounds the update's numbers, so a run is not
    the float32 run, and two seeds of the main job ended lower against random (docs/training.md)."""
    reward_scale: float = 1 / 11
    """Rewards are points, times this: 1/11 makes a hand worth about 1."""
    eval_every: int = 25_000
    """Steps between duplicate evaluations (0: only at the first step, the curve's start, and at the end). They play the game's rules; col morto
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
    net-arch, bf16-update) come from the checkpoint, and their options are ignored."""
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
            if isinstance(f.default, bool) and not isinstance(getattr(self, f.name), (bool, np.bool_)):
                raise ValueError(f"{f.name}={getattr(self, f.name)!r}: must be True or False")
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
        if not isinstance(self.game, str) or self.game not in game_names():
            raise ValueError(f"game={self.game!r}: must be one of {', '.join(game_names())}")
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
                unknown = str(error).startswith("unknown player")
                other = {"opponents": " (or self: the learner itself)", "partner": " (or self: the learner itself)",
                         "imitate": " (or none: no warm start)"}.get(name, "") if unknown else ""  # fmt: skip
                raise ValueError(f"{name}: {error}{other}") from None
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
        if self.batched:
            self._check_batched_game(rules)
            from ..vector.env import BUILTIN_POLICIES as BATCHED_PLAYERS

            if len(set(self.opponents)) != 1 or self.opponents[0] not in BATCHED_PLAYERS:
                who = "both opponents" if four_seat else "every other player"
                raise ValueError(
                    f"opponents={self.opponents!r}: a batched environment plays one of {', '.join(BATCHED_PLAYERS)} "
                    f"as {who} (mixes and self-play opponents need the single-deal environments: batched=0)"
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

    def _check_batched_game(self, rules: Any) -> None:
        """``batched`` in a game other than the four-seat one: its batched engine must play these settings."""
        if self.game == FOUR_SEAT:
            return
        from .. import catalog

        entry = catalog.entry(self.game)
        why = f"batched={self.batched}"
        if entry.batch is None:
            with_batch = [FOUR_SEAT, *(e.name for e in catalog.entries() if e.batch is not None)]
            raise ValueError(
                f"{why}: {self.game} has no batched engine; games with one: {', '.join(with_batch)} "
                f"(train {self.game} on --n-envs single-deal environments: leave batched out)"
            )
        if self.history:
            raise ValueError(f"{why}: the history observation is batched in the four-seat game only")
        if self.opponents[0] == "heuristic" and not hasattr(entry.batch_type(), "heuristic_actions"):
            raise ValueError(
                f"{why}: {self.game}'s heuristic is not batched yet; --opponents random, or batched=0 "
                "(the single-deal environments play the heuristic)"
            )
        if getattr(rules, "match_end", None) == "elimination":
            raise ValueError(
                f"{why}: in an elimination match the learner may leave the table, which the batched "
                "environment does not follow; batched=0"
            )

    def _check_team_play(self, rules: Any) -> None:
        """``team_play``'s own limits (``check``)."""
        from .. import catalog
        from ..vector.env import BUILTIN_POLICIES as BATCHED_PLAYERS

        why = f"team_play={self.team_play}"
        batched = [e.name for e in catalog.entries() if e.name == FOUR_SEAT or e.batch]
        if self.game not in batched:
            raise ValueError(
                f"{why}: team play needs a batched engine; games with one: {', '.join(batched)} (not {self.game})"
            )
        if rules.episode == "match" or getattr(rules, "calling_out", False):
            has_calling_out = any(f.name == "calling_out" for f in fields(rules))
            needs = 'episode="hand"' + (" and no calling_out" if has_calling_out else "")
            got = f"episode={rules.episode!r}" + (f", calling_out={rules.calling_out!r}" if has_calling_out else "")
            raise ValueError(f"{why}: team play learns one hand at a time, which needs {needs} (got {got})")
        if self.history and self.game != FOUR_SEAT:
            raise ValueError(f"{why}: the history observation is batched in the four-seat game only")
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
        per_hand = (
            10 if self.game == FOUR_SEAT else catalog.entry(self.game).batch_type()(1, **self.rules).decisions_per_hand
        )
        if per_hand is not None and self.n_steps % per_hand:
            raise ValueError(
                f"n_steps={self.n_steps}: with team_play, decisions per seat per rollout, a multiple of {per_hand} "
                f"(whole hands; e.g. --n-steps {2 * per_hand})"
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


def policy_kwargs(config: TrainConfig) -> dict[str, Any]:
    """``MaskablePolicy``'s arguments of a run: its layers, and ``bf16_update`` where it is on."""
    kwargs: dict[str, Any] = {"net_arch": list(config.net_arch)}
    if config.bf16_update is not False:  # (left out when off, as MaskablePolicy leaves it out of a saved model)
        kwargs["bf16_update"] = config.bf16_update  # (not a bool: check() and MaskablePolicy refuse it)
    return kwargs
