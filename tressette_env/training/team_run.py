"""``train`` with ``team_play``: a ``tressette train`` run of ``team_play.TeamPlayPPO``.

``team_play.py`` is the algorithm, usable on its own (``examples/train_team_play.py``); this is a
run of it made from a ``TrainConfig``: the opponents' pool from ``opponents`` (``_batched_opponent``),
the rollouts rounded to whole ones, the warm start, the evaluations and the final files of every
run (``run_files``); no checkpoints.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .config import TrainConfig, TrainResult, policy_kwargs
from .resume import whole_rollouts
from .run_files import finish_run, start_run


def train_team_play(config: TrainConfig, rules: Any, eval_rules: Any, run: Path) -> TrainResult:
    """``train`` with ``team_play``: TeamPlayPPO on the batched engine (no checkpoints)."""
    from .callbacks import DuplicateEvalCallback
    from .masking import MaskablePolicy
    from .team_play import SnapshotCallback, TeamPlayPPO

    learners = "all" if config.opponents == ("self",) else "team"
    pool = tuple(_batched_opponent(name, config.game) for name in config.opponents)
    model = TeamPlayPPO(
        MaskablePolicy, num_deals=config.team_play, learners=learners,
        opponent="heuristic" if learners == "all" else pool, dense_reward=config.dense_reward,
        n_steps=config.n_steps, seed=config.seed, rules=config.rules, history=config.history, game=config.game,
        learning_rate=config.learning_rate, batch_size=config.batch_size, n_epochs=config.n_epochs,
        gamma=config.gamma, gae_lambda=config.gae_lambda, ent_coef=config.ent_coef,
        policy_kwargs=policy_kwargs(config),
        tensorboard_log=str(run / "tensorboard") if config.tensorboard else None, verbose=0,
    )  # fmt: skip
    rows = model.rows.num_rows
    rollout = config.n_steps * rows
    whole_hands = model.rows.decisions_per_hand is None  # a rollout is whole hands: at least `rollout` samples
    # Whole hands: the run ends with the rollout that passes total_timesteps, one rollout at least (its target for
    # the progress bar, which showed 51,250/100 for --total-timesteps 100).
    target = max(config.total_timesteps, rollout) if whole_hands else whole_rollouts(config.total_timesteps, 0, rollout)
    who = (
        "every seat learning"
        if learners == "all"
        else f"one team of each learning against {', '.join(config.opponents)}"
        if not whole_hands
        else f"the players of one parity of each deal learning, {', '.join(config.opponents)} the others"
    )
    print(
        f"team play: {config.team_play} deals, {who} ({rows} seat rows); rollouts of "
        + (f"whole hands, at least {rollout} samples" if whole_hands else f"{rollout} samples")
        + (
            f"; total_timesteps={config.total_timesteps} rounded up to "
            + (f"one rollout, at least {target} samples" if whole_hands else str(target))
            if target != config.total_timesteps
            else ""
        ),
        flush=True,
    )
    start_run(model, config, rules, run)
    evaluator = DuplicateEvalCallback(
        config.eval_every, list(config.eval_against), config.eval_boards, eval_rules, config.seed,
        run / "history.json",
    )  # fmt: skip
    callbacks = [evaluator]
    if model.snapshot_slots:
        callbacks.append(SnapshotCallback(config.snapshot_every))
    model.learn(target, callback=callbacks, progress_bar=config.progress_bar, tb_log_name="ppo")
    model_path = run / "model.zip"
    model.save(model_path)
    return finish_run(model, model_path, evaluator, config, eval_rules, run)


def _batched_opponent(name: str, game: str) -> Any:
    """A team-play opponent: a built-in batched player's name, ``"self"`` as it is, or ``ppo``'s batched policy.

    ``ppo`` is the model shipped for ``game`` (a ``ValueError`` naming the games with one where it has none).
    """
    if name != "ppo":
        return name
    from ..learned.loading import shipped_model_path
    from ..learned.mlp import MLPPolicy

    shipped = MLPPolicy.load(shipped_model_path(game))
    if shipped.observation != "default":
        raise ValueError(
            f"the shipped model reads the {shipped.observation} observation; team play's ppo needs the default"
        )
    size = shipped.layers[0][0].shape[1]  # the default observation: the first entries of the history one

    def ppo(observations: Any, masks: Any) -> Any:
        return shipped.best_actions(observations[:, :size], masks)

    return ppo
