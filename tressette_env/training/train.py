"""Train a MaskablePPO player (sb3-contrib) on the single-seat environment.

``train(TrainConfig(...))`` is what ``tressette train`` and ``examples/train_ppo.py`` run:

0. Unless ``imitate`` is None, a warm start: the policy clones a teacher's play (by default
   the heuristic) and the value head learns its returns (``imitation``).
1. ``n_envs`` copies of ``SingleSeatEnv`` (the learner in a random seat each deal), rewards
   scaled by ``reward_scale``; the masks reach MaskablePPO through ``action_masks()``.
2. The learner's partner is a copy of the learner (``partner="self"``, refreshed every
   ``snapshot_every`` steps) or a named player; its opponents are named players
   (default: the heuristic), frozen snapshots of the learner (``"self"``), or a mix.
3. Every ``eval_every`` steps a duplicate-deal evaluation against ``eval_against``.
4. Checkpoints every ``checkpoint_every`` steps; ``resume`` continues from one.
5. At the end: the model (``model.zip``), its NumPy policy (``policy.npz``, playable with
   ``tressette eval <path>``), ``history.json``, a learning curve (``curve.png``) and the
   final table against the baselines.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path

from ..engine.rules import make_rules


@dataclass
class TrainConfig:
    """Everything a training run needs; every field is a ``tressette train`` option."""

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
    """A checkpoint (``.zip``) to continue from."""
    tensorboard: bool = False
    """Also log to TensorBoard (``<run>/tensorboard``)."""
    progress_bar: bool = True
    torch_threads: int = 1
    """Torch threads: on small machines more than one makes training several times slower."""


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


def train(config: TrainConfig) -> TrainResult:
    """Run a training as configured; see the module docstring for what it writes."""
    os.environ.setdefault("OMP_NUM_THREADS", str(config.torch_threads))
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import CallbackList, CheckpointCallback
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from ..agents.registry import make_player
    from ..evaluation.duplicate import duplicate
    from ..evaluation.report import results_table
    from ..learned.mlp import MLPPlayer
    from .callbacks import DuplicateEvalCallback, SelfPlayCallback
    from .curves import plot_curve
    from .export import policy_from_sb3

    torch.set_num_threads(config.torch_threads)
    rules = make_rules(**config.rules)
    name = config.run_name or f"tressette__ppo__{config.seed}__{int(time.time())}"
    run = Path(config.run_dir) / name
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.json").write_text(json.dumps(asdict(config), indent=2))

    dense = config.dense_reward and not rules.is_match
    makers = [
        partial(_make_env, config.rules, config.seed + i, config.reward_scale, dense) for i in range(config.n_envs)
    ]
    venv = SubprocVecEnv(makers) if config.subproc else DummyVecEnv(makers)
    tensorboard = str(run / "tensorboard") if config.tensorboard else None
    if config.resume:
        model = MaskablePPO.load(config.resume, env=venv, tensorboard_log=tensorboard)
    else:
        model = MaskablePPO(
            "MlpPolicy",
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
        SelfPlayCallback(config.snapshot_every, config.partner, config.opponents, config.pool_size, config.seed),
        evaluator,
        CheckpointCallback(max(config.checkpoint_every // config.n_envs, 1), str(run / "checkpoints"), "model"),
    ]
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
    finals = [
        duplicate(
            learner, make_player(b), config.final_boards, config.seed + 1, rules, progress=False, names=("learner", b)
        )
        for b in config.eval_against
    ]
    policy.info["final"] = {r.players[1]: r.to_json() for r in finals}
    policy_path = policy.save(run / "policy.npz")
    table = results_table(finals)
    (run / "final.md").write_text(table + "\n")
    print(table)
    print(f"\nrun written to {run}: model.zip, policy.npz, history.json, curve.png")
    return TrainResult(run, model_path, policy_path, policy.info["final"], history)
