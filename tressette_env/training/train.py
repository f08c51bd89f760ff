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
   rounding). With ``batched=N``, one batched ``SB3VecEnv`` of N deals instead (one built-in
   player for the opponents; ``n_steps`` per deal): ``TressetteVectorEnv`` in the four-seat
   game, ``FamilyVectorEnv`` in another game with a batched engine (the catalog's ``batch``).
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

This module is the run (``train``) and its environments; the settings and their checks are
``config`` (``TrainConfig``, ``evaluation_rules``; re-exported here), the resume plumbing and the
checkpoints' run state ``resume`` (the file format: ``checkpoint``), a team-play run ``team_run``
(its algorithm: ``team_play``), and the warm start and the final files every run shares ``run_files``.
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path
from typing import Any

from .checkpoint import run_folder
from .config import (
    ENV_SETTINGS,
    FOUR_SEAT,
    MODEL_SETTINGS,
    PLAYER_SETTINGS,
    TEAM_PLAY_OPPONENTS,
    TrainConfig,
    TrainResult,
    evaluation_rules,
    policy_kwargs,
)
from .resume import (
    Resume,
    RunCheckpoints,
    _env_seeds,  # noqa: F401  (imported from here by the tests, as before the split)
    whole_rollouts,
)
from .run_files import finish_run, start_run
from .team_run import (
    _batched_opponent,  # noqa: F401  (imported from here by the tests, as before the split)
    train_team_play,
)

__all__ = [
    "ENV_SETTINGS",
    "FOUR_SEAT",
    "MODEL_SETTINGS",
    "PLAYER_SETTINGS",
    "TEAM_PLAY_OPPONENTS",
    "TrainConfig",
    "TrainResult",
    "evaluation_rules",
    "train",
    "whole_rollouts",
]


def train(config: TrainConfig) -> TrainResult:
    """Run a training as configured; see the module docstring for what it writes.

    Raises ``ValueError`` or ``ImportError`` (``TrainConfig.check``) before writing anything,
    and ``ModelFileError`` (a ``ValueError``) for a ``resume`` checkpoint that cannot be loaded.
    """
    config.check()
    import torch
    from stable_baselines3.common.callbacks import CallbackList

    from .callbacks import DuplicateEvalCallback, SelfPlayCallback
    from .export import policy_from_sb3

    torch.set_num_threads(config.torch_threads)
    rules = config.game_rules()
    eval_rules = evaluation_rules(rules)
    resume = Resume.of(config)
    run = _run_folder(config, resume)
    if config.team_play:
        return train_team_play(config, rules, eval_rules, run)

    if config.dense_reward and rules.is_match:
        print(
            "dense_reward: a match pays each agent at its end only (dense rewards are a single hand's): this run "
            "learns from the match's rewards",
            flush=True,
        )
    venv = _make_venv(config, config.dense_reward and not rules.is_match, resume)
    tensorboard = str(run / "tensorboard") if config.tensorboard else None
    state = None
    if resume.path:
        model, state = resume.load(config, venv, tensorboard)
        config = resume.resumed_config(config, model, run)
    else:
        model = _new_model(config, venv, tensorboard)
    # SB3 trains in whole rollouts: aim at the step count it will reach, so the bar and the run agree.
    start = model.num_timesteps if resume.path else 0
    target = _target_steps(config, model, venv, start)
    if eval_rules != rules:
        print(
            f"the duplicate evaluations play single hands: {config.game} for three players changes partnerships "
            "from hand to hand, and a duplicate board swaps fixed sides",
            flush=True,
        )
    start_run(model, config, rules, run)
    evaluator = DuplicateEvalCallback(
        config.eval_every,
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
    checkpoints = RunCheckpoints(model, config, venv, evaluator, selfplay, run / "checkpoints")
    if resume.info:
        resume.restore(config, state, evaluator, selfplay, checkpoints.callback)
    if (
        config.batched and config.game == FOUR_SEAT and config.partner == "self" and not resume.continued
    ):  # already for the deals learn() deals
        partner = selfplay.pool[-1].policy if resume.info else policy_from_sb3(model)
        venv.set_attr("partner", partner.best_actions)
    model.learn(
        target - start,
        callback=CallbackList([selfplay, evaluator, checkpoints.callback]),
        progress_bar=config.progress_bar,
        reset_num_timesteps=not resume.path,
        tb_log_name="ppo",
    )
    checkpoints.callback.save_if_due()
    model_path = run / "model.zip"
    checkpoints.save(model_path)  # resumable: a resume from it goes on as one longer run
    try:
        return finish_run(model, model_path, evaluator, config, eval_rules, run)
    finally:
        venv.close()  # after the last evaluation, which asks the environments for their observation


def _run_folder(config: TrainConfig, resume: Resume) -> Path:
    """``<run_dir>/<run_name>``, or on a resume without ``run_name`` the checkpoint's run: it goes on in its own folder."""
    if resume.path and config.run_name is None:
        return run_folder(resume.path)
    return Path(config.run_dir) / (config.run_name or f"{config.game}__ppo__{config.seed}__{int(time.time())}")


def _make_venv(config: TrainConfig, dense: bool, resume: Resume) -> Any:
    """The learner's environments: ``batched`` deals in one ``SB3VecEnv``, or ``n_envs`` single-deal ones."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    if config.batched:
        return _make_batched_env(config, dense, resume.env_seeds(config.seed, 1)[0])
    seeds = resume.env_seeds(config.seed, config.n_envs)
    makers = [
        partial(_make_env, config.rules, s, config.reward_scale, dense, config.game, config.history) for s in seeds
    ]
    return SubprocVecEnv(makers) if config.subproc else DummyVecEnv(makers)


def _new_model(config: TrainConfig, venv: Any, tensorboard: str | None) -> Any:
    """A new MaskablePPO model with the config's settings (``MODEL_SETTINGS``)."""
    from sb3_contrib import MaskablePPO

    from .masking import MaskablePolicy
    from .minibatches import without_single_samples

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
        policy_kwargs=policy_kwargs(config),
        tensorboard_log=tensorboard,
        seed=config.seed,
        verbose=0,
    )
    return without_single_samples(model)


def _target_steps(config: TrainConfig, model: Any, venv: Any, start: int) -> int:
    """The step count the run reaches: ``total_timesteps`` rounded up to whole rollouts from ``start``; says so when it rounds."""
    rollout = model.n_steps * venv.num_envs
    target = whole_rollouts(config.total_timesteps, start, rollout)
    if target != config.total_timesteps:
        what = f"{config.batched} deals" if config.batched else f"{venv.num_envs} environments"
        print(
            f"total_timesteps={config.total_timesteps} rounded up to {target}: PPO trains in whole rollouts "
            f"of {model.n_steps} steps x {what} ({rollout} steps)",
            flush=True,
        )
    return target


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

    if config.game != FOUR_SEAT:
        from ..vector.family_env import FamilyVectorEnv

        family = FamilyVectorEnv(
            config.batched,
            config.game,
            others=config.opponents[0],
            agent="random",
            seed=seed,
            dense_reward=dense_reward,
            **config.rules,
        )
        return ScaledRewards(VecMonitor(SB3VecEnv(family)))
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
