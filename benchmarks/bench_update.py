"""How fast MaskablePPO's update runs with each policy: sb3-contrib's, ``MaskablePolicy`` before and now.

Issue 34 asks for a policy whose update is twice as fast. ``MaskablePolicy``
(``tressette_env.training.masking``) computes the update's log-probabilities and entropies
without a distribution object and without ``exp`` of the masked entries
(``masked_log_prob_and_entropy``), and builds Adam with ``fused=True``. This script measures
what each change gives: one ``TeamPlayPPO`` per variant (256 deals, team self-play, MLP
64x64, n_steps 30, batch 1024, 4 epochs, one thread, the same seed), taking turns round after
round, each learning one rollout a turn, CPU time (``time.process_time``):

| variant | the policy |
| --- | --- |
| ``sb3-contrib`` | ``"MlpPolicy"``: ``MaskableActorCriticPolicy`` |
| ``before`` | ``MaskablePolicy`` as it was: its masked distribution, sb3-contrib's ``evaluate_actions``, Adam on one tensor at a time |
| ``lean update`` | ``before`` with ``masked_log_prob_and_entropy`` |
| ``fused Adam`` | ``before`` with ``fused=True`` |
| ``MaskablePolicy`` | as it is now: both |
| ``bf16 update`` | ``MaskablePolicy(bf16_update=True)``: the update's layers under bfloat16 autocast (``tressette train --bf16-update``) |

Each row: learner samples per CPU second (rollout and update), the update's CPU microseconds
per sample (``train``), each the median over the rounds, and the ratios to ``before`` (the
median of the per-round ratios).

    OMP_NUM_THREADS=1 python benchmarks/bench_update.py --rounds 7 --json benchmarks/results/update.json
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_sparse_input import arguments, team_play, write_results  # noqa: E402 (the benchmarks' own module)

VARIANTS = ("sb3-contrib", "before", "lean update", "fused Adam", "MaskablePolicy", "bf16 update")


def policies() -> dict[str, tuple[type, dict]]:
    """Each variant's policy class and its ``policy_kwargs`` (besides the layers)."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from tressette_env.training.masking import MaskablePolicy

    class Before(MaskablePolicy):
        """``MaskablePolicy`` with sb3-contrib's ``evaluate_actions``: the distribution's ``log_prob`` and ``entropy``."""

        evaluate_actions = MaskableActorCriticPolicy.evaluate_actions

    one_tensor = {"optimizer_kwargs": {"foreach": False}}  # Adam's default on CPU, named so that the policy keeps it
    fused = {"optimizer_kwargs": {"fused": True}}
    return {
        "sb3-contrib": (MaskableActorCriticPolicy, {}),
        "before": (Before, one_tensor),
        "lean update": (MaskablePolicy, one_tensor),
        "fused Adam": (Before, fused),
        "MaskablePolicy": (MaskablePolicy, {}),
        "bf16 update": (MaskablePolicy, {"bf16_update": True}),
    }


def main() -> None:
    args = arguments(__doc__, rounds=7)
    models, update_time = {}, {}
    for variant, (policy, policy_kwargs) in policies().items():
        model = team_play(policy, args.deals, **policy_kwargs)
        update_time[variant] = 0.0
        train = model.train

        def timed(train=train, variant=variant) -> None:
            start = time.process_time()
            train()
            update_time[variant] += time.process_time() - start

        model.train = timed
        models[variant] = model
    rollout = 30 * models["before"].rows.num_rows
    for model in models.values():
        model.learn(rollout)  # warm up
    rates: dict[str, list[float]] = {v: [] for v in VARIANTS}
    updates: dict[str, list[float]] = {v: [] for v in VARIANTS}
    for _ in range(args.rounds):
        for variant in VARIANTS:
            model = models[variant]
            update_time[variant] = 0.0
            before = model.num_timesteps
            start = time.process_time()
            model.learn(rollout, reset_num_timesteps=False)
            elapsed = time.process_time() - start
            samples = model.num_timesteps - before
            rates[variant].append(samples / elapsed)
            updates[variant].append(update_time[variant] / samples * 1e6)
    table = {}
    print("| policy | learner samples per CPU second | vs before | update, µs per sample | before's update / this |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for variant in VARIANTS:
        ratio = statistics.median(r / b for r, b in zip(rates[variant], rates["before"], strict=True))
        speedup = statistics.median(b / u for u, b in zip(updates[variant], updates["before"], strict=True))
        table[variant] = {
            "samples_per_cpu_second": statistics.median(rates[variant]),
            "vs_before": ratio,
            "update_us_per_sample": statistics.median(updates[variant]),
            "update_speedup_vs_before": speedup,
        }
        row = table[variant]
        print(
            f"| {variant} | {row['samples_per_cpu_second']:,.0f} | {ratio:.2f}x | "
            f"{row['update_us_per_sample']:.1f} | {speedup:.2f}x |"
        )
    write_results(args, rows=table, rounds={"samples_per_cpu_second": rates, "update_us_per_sample": updates})


if __name__ == "__main__":
    main()
