"""Train a MaskablePPO player (sb3-contrib) on the single-seat environment.

``train(TrainConfig(...))`` is what ``tressette train`` and ``examples/train_ppo.py`` run:

0. Unless ``imitate`` is None, a warm start: the policy clones a teacher's play (by default
   the heuristic) and the value head learns its returns (``imitation``).
1. ``n_envs`` copies of ``SingleSeatEnv`` (the learner in a random seat each deal), rewards
   scaled by ``reward_scale``; the masks reach MaskablePPO through ``action_masks()``. The
   policy is ``masking.MaskablePolicy``: sb3-contrib's ``"MlpPolicy"`` with a faster masked
   distribution (the same numbers up to float rounding). With ``batched=N``, one batched
   ``SB3VecEnv`` of N deals instead (one built-in opponent player; ``n_steps`` per deal).
2. The learner's partner is a copy of the learner (``partner="self"``, refreshed every
   ``snapshot_every`` steps) or a named player; its opponents are named players
   (default: the heuristic), frozen snapshots of the learner (``"self"``), or a mix.
3. Every ``eval_every`` steps a duplicate-deal evaluation against ``eval_against``.
4. Checkpoints every ``checkpoint_every`` steps; ``resume`` continues from one (with the
   checkpoint's model settings, which ``config.json`` then records).
5. At the end: the model (``model.zip``), its NumPy policy (``policy.npz``, playable with
   ``tressette eval <path>``), ``history.json``, a learning curve (``curve.png``) and the
   final table against the baselines.
"""

from __future__ import annotations

import importlib
import json
import os
import time
from dataclasses import asdict, dataclass, field, fields, replace
from functools import partial
from pathlib import Path

from ..engine.rules import make_rules

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

    With ``resume``, the model settings (``MODEL_SETTINGS``: ``learning_rate``, ``n_steps``,
    ``batch_size``, ``n_epochs``, ``gamma``, ``gae_lambda``, ``ent_coef``, ``net_arch``) come
    from the checkpoint and the values given here are ignored; the run's ``config.json`` and
    its ``policy.npz`` record the checkpoint's values (and ``imitate=None``: no warm start).
    ``check()`` names a bad setting or a missing package; ``train`` calls it before any work.
    """

    total_timesteps: int = 50_000
    """Learner decisions to train for."""
    seed: int = 0
    """Seeds the environments, the network and the evaluations."""
    opponents: tuple[str, ...] = ("heuristic",)
    """Opponents' player specs, given to the environments in turn; ``self`` draws frozen
    snapshots of the learner from the pool (self-play): ``("self",)`` is pure self-play."""
    partner: str = "self"
    """``"self"`` (a copy of the learner) or a player spec."""
    dense_reward: bool = True
    """Pay each trick's thirds as they are taken (``episode="hand"``; see ``SingleSeatEnv``)."""
    imitate: str | None = "heuristic"
    """Before PPO, clone this player's play (a warm start; ``none`` to start from scratch)."""
    imitation_decisions: int = 300_000
    """Teacher decisions to clone."""
    imitation_epochs: int = 8
    pool_size: int = 8
    """Snapshots kept in the self-play pool."""
    snapshot_every: int = 20_000
    """Steps between snapshots (the partner copy and the self-play pool)."""
    n_envs: int = 32
    """Environments stepped together (many amortise the network's per-call cost)."""
    subproc: bool = False
    """Step the environments in subprocesses (SubprocVecEnv) instead of in this one."""
    batched: int = 0
    """Train on one batched environment of this many deals instead (``SB3VecEnv``; 0: the
    n_envs single-deal environments). Its opponents are one built-in player (random or
    heuristic), its partner self, random or heuristic; n_steps then counts steps per deal."""
    rules: dict = field(default_factory=dict)
    """Rule switches of the environment (default: the standard rules, one hand per episode)."""
    net_arch: tuple[int, ...] = (256, 256)
    """Hidden layers of the policy and value networks."""
    learning_rate: float = 3e-4
    n_steps: int = 128
    """Steps per environment per rollout."""
    batch_size: int = 1024
    n_epochs: int = 4
    gamma: float = 1.0
    """No discount: a hand is ten decisions and only its result counts."""
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    reward_scale: float = 1 / 11
    """Rewards are points; scaled so that a hand is worth about 1."""
    eval_every: int = 25_000
    """Steps between duplicate evaluations (0: only at the end)."""
    eval_boards: int = 200
    """Boards per baseline in the periodic evaluations."""
    final_boards: int = 1000
    """Boards per baseline in the final evaluation."""
    eval_against: tuple[str, ...] = ("random", "heuristic")
    checkpoint_every: int = 100_000
    run_dir: str = "runs"
    """Where runs are written: ``<run_dir>/<run_name>/``."""
    run_name: str | None = None
    """Default: ``tressette__ppo__<seed>__<unix time>``."""
    resume: str | None = None
    """A checkpoint (``.zip``) to continue from, without a warm start. The model settings
    (learning_rate, n_steps, batch_size, n_epochs, gamma, gae_lambda, ent_coef, net_arch)
    come from the checkpoint: their options are ignored, and config.json records the checkpoint's."""
    tensorboard: bool = False
    """Also log to TensorBoard (``<run>/tensorboard``)."""
    progress_bar: bool = True
    torch_threads: int = 1
    """Torch threads. On 2 cores a second one sped up batched training 1.6x and left single-deal training as it was."""

    def check(self) -> None:
        """Raise ``ValueError`` naming a bad setting, or ``ImportError`` naming a missing package.

        Plays no game and writes nothing; ``train`` calls it first.
        """
        from ..agents.registry import make_player

        for f in fields(self):
            if isinstance(f.default, int) and not isinstance(f.default, bool):
                value = getattr(self, f.name)
                least, why = _LEAST.get(f.name, (1, ""))
                if isinstance(value, bool) or not isinstance(value, int) or value < least:
                    raise ValueError(f"{f.name}={value!r}: must be an integer >= {least}{why}")
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
        if not self.net_arch or any(isinstance(w, bool) or not isinstance(w, int) or w < 1 for w in self.net_arch):
            raise ValueError(f"net_arch={self.net_arch!r}: hidden layer widths, one or more integers >= 1")
        try:
            make_rules(**self.rules)
        except TypeError as error:
            raise ValueError(str(error)) from None
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
                make_player(spec)
            except ValueError as error:
                raise ValueError(f"{name}: {error}") from None
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
        if self.resume is not None and not any(Path(p).is_file() for p in (self.resume, self.resume + ".zip")):
            raise ValueError(f"resume={self.resume!r}: no checkpoint file there")
        os.environ.setdefault("OMP_NUM_THREADS", str(self.torch_threads))  # before torch is first imported
        _require(
            ("torch", "stable_baselines3", "sb3_contrib"),
            'training needs torch, stable-baselines3 and sb3-contrib: pip install "tressette-env[train]"',
        )
        if self.progress_bar:
            _require(
                ("tqdm", "rich"), "the progress bar needs tqdm and rich: pip install tqdm rich, or --no-progress-bar"
            )
        if self.tensorboard:
            _require(("tensorboard",), "TensorBoard logging needs tensorboard: pip install tensorboard")


@dataclass
class TrainResult:
    """Where a run wrote its files, and its final evaluation."""

    run_path: Path
    model_path: Path
    policy_path: Path
    final: dict
    history: list = field(default_factory=list)


def _make_env(rules: dict, seed: int, reward_scale: float, dense_reward: bool):
    import gymnasium
    from stable_baselines3.common.monitor import Monitor

    from ..wrappers.single_seat import SingleSeatEnv

    # The players are set by SelfPlayCallback before the first step.
    env = SingleSeatEnv(seat="random", partner="random", opponents="random", dense_reward=dense_reward, **rules)
    env.reset(seed=seed)
    return gymnasium.wrappers.TransformReward(Monitor(env), lambda r: r * reward_scale)


def _make_batched_env(config: TrainConfig, dense_reward: bool):
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
        seed=config.seed,
        **config.rules,
    )
    return ScaledRewards(VecMonitor(env))


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


def train(config: TrainConfig) -> TrainResult:
    """Run a training as configured; see the module docstring for what it writes.

    Raises ``ValueError`` or ``ImportError`` (``TrainConfig.check``) before writing anything.
    """
    config.check()
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import CallbackList, CheckpointCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from ..evaluation.baselines import against_baselines
    from ..evaluation.report import results_table
    from ..learned.mlp import MLPPlayer
    from .callbacks import DuplicateEvalCallback, SelfPlayCallback
    from .curves import plot_curve
    from .export import policy_from_sb3
    from .masking import MaskablePolicy

    torch.set_num_threads(config.torch_threads)
    rules = make_rules(**config.rules)
    name = config.run_name or f"tressette__ppo__{config.seed}__{int(time.time())}"
    run = Path(config.run_dir) / name

    dense = config.dense_reward and not rules.is_match
    if config.batched:
        venv = _make_batched_env(config, dense)
    else:
        makers = [
            partial(_make_env, config.rules, config.seed + i, config.reward_scale, dense) for i in range(config.n_envs)
        ]
        venv = SubprocVecEnv(makers) if config.subproc else DummyVecEnv(makers)
    tensorboard = str(run / "tensorboard") if config.tensorboard else None
    if config.resume:
        model = MaskablePPO.load(
            config.resume, env=venv, tensorboard_log=tensorboard, custom_objects={"policy_class": MaskablePolicy}
        )
        config = replace(config, **_model_settings(model), imitate=None)
        settings = ", ".join(f"{k}={getattr(config, k)}" for k in MODEL_SETTINGS)
        print(f"resuming {config.resume}: the model settings come from the checkpoint ({settings})", flush=True)
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
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.json").write_text(json.dumps(asdict(config), indent=2))
    if not config.resume and config.imitate and config.imitate.lower() != "none":
        from .imitation import imitate

        fit = imitate(
            model, config.imitate, config.imitation_decisions, config.imitation_epochs, rules, config.seed,
            config.reward_scale,
        )  # fmt: skip
        (run / "imitation.json").write_text(json.dumps(fit, indent=2))
        print(f"imitation of {fit['teacher']}: {fit['agreement']:.1%} agreement on held-out decisions", flush=True)
    history_path = run / "history.json"
    evaluator = DuplicateEvalCallback(
        config.eval_every or config.total_timesteps + 1,
        list(config.eval_against),
        config.eval_boards,
        rules,
        config.seed,
        history_path,
    )
    if config.resume and history_path.exists():
        from .callbacks import EvalPoint

        evaluator.history = [EvalPoint(**p) for p in json.loads(history_path.read_text())]
    callbacks = [
        SelfPlayCallback(
            config.snapshot_every, config.partner, config.opponents, config.pool_size, config.seed, config.batched > 0
        ),
        evaluator,
        CheckpointCallback(max(config.checkpoint_every // venv.num_envs, 1), str(run / "checkpoints"), "model"),
    ]
    if config.batched and config.partner == "self":  # already for the deals dealt when learn() resets
        venv.set_attr("partner", policy_from_sb3(model).best_actions)
    model.learn(
        config.total_timesteps,
        callback=CallbackList(callbacks),
        progress_bar=config.progress_bar,
        reset_num_timesteps=not config.resume,
        tb_log_name="ppo",
    )
    venv.close()

    model_path = run / "model.zip"
    model.save(model_path)
    evaluator.evaluate_now()
    history = [asdict(p) for p in evaluator.history]
    plot_curve(history, run / "curve.png", list(config.eval_against))

    info = {"timesteps": model.num_timesteps, "config": asdict(config)}
    policy = policy_from_sb3(model, info)
    learner = MLPPlayer(policy, name="learner")
    finals = against_baselines(
        learner, config.eval_against, config.final_boards, config.seed + 1, rules, progress=False
    )
    policy.info["final"] = {r.players[1]: r.to_json() for r in finals}
    policy_path = policy.save(run / "policy.npz")
    table = results_table(finals)
    (run / "final.md").write_text(table + "\n")
    print(table)
    print(f"\nrun written to {run}: model.zip, policy.npz, history.json, curve.png")
    return TrainResult(run, model_path, policy_path, policy.info["final"], history)
