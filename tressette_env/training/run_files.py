"""The two ends every training run shares, PPO on environments (``train``) or team play (``team_run``).

``start_run``: the run's folder, its ``config.json`` and the warm start (``imitation.json``).
``finish_run``: the last evaluation, ``curve.png``, ``policy.npz``, ``final.md`` and the final table
against the baselines, and the ``TrainResult``.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from .config import TrainConfig, TrainResult


def start_run(model, config: TrainConfig, rules: Any, run: Path) -> None:
    """The run's folder and ``config.json``, then the warm start (``imitate``; none on a resume)."""
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.json").write_text(json.dumps(asdict(config), indent=2))
    if not config.resume and config.imitate and config.imitate.lower() != "none":
        from .imitation import imitate

        print(  # minutes of silence otherwise (about 3.5 at the defaults on one core: docs/training.md)
            f"warm start: the policy clones {config.imitate}'s play over {config.imitation_decisions:,} decisions "
            f"({config.imitation_epochs} epoch{'s' if config.imitation_epochs != 1 else ''}; imitate='none', --imitate none "
            "on the command line, skips it)...",
            flush=True,
        )
        fit = imitate(
            model, config.imitate, config.imitation_decisions, config.imitation_epochs, rules, config.seed,
            config.reward_scale, config.history,
        )  # fmt: skip
        (run / "imitation.json").write_text(json.dumps(fit, indent=2))
        print(f"imitation of {fit['teacher']}: {fit['agreement']:.1%} agreement on held-out decisions", flush=True)


def finish_run(model, model_path: Path, evaluator, config: TrainConfig, eval_rules: Any, run: Path) -> TrainResult:
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
