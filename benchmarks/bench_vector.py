"""Card plays per second of the batched engine, and learner steps per second of the vector env.

Batched engine: N deals, every step the seat on turn plays in each deal, then the
observations (N, 790) and the legal masks (N, 161) are built; finished hands are
dealt again inside the step (autoreset). Only ``step + observe + legal_masks`` is
timed: the random choice of the next actions (``sample_actions``) is not.

Vector env: ``TressetteVectorEnv`` with random opponents (and partner); one learner
step is the learner's action plus everyone else's plays until the learner is on
turn again, the observation and ``action_masks()``. The learner's random choice is
not timed.

Runs single-threaded (it sets OMP_NUM_THREADS and friends to 1 before NumPy loads).
Each row is the median of ``--repeats`` runs of ``--seconds`` each, because other
work on the machine makes single runs noisy; the JSON also keeps every run.

    python benchmarks/bench_vector.py --json benchmarks/results/vector.json
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from tressette_env.vector import TressetteBatch, TressetteVectorEnv, sample_mask  # noqa: E402


def bench_batch(n: int, seconds: float, rules: dict) -> float:
    """Card plays per second (timed: step + observe + legal_masks)."""
    batch = TressetteBatch(n, seed=0, **rules)
    rng = np.random.default_rng(0)
    for _ in range(3):  # warm up
        batch.step(batch.sample_actions(rng))
    timed = 0.0
    plays = 0
    actions = batch.sample_actions(rng)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        t0 = time.perf_counter()
        batch.step(actions)
        batch.observe()
        batch.legal_masks()
        timed += time.perf_counter() - t0
        plays += n
        actions = batch.sample_actions(rng)
    return plays / timed


def bench_env(n: int, seconds: float, rules: dict, opponent: str = "random") -> float:
    """Learner steps per second (timed: step, with the other seats' plays, + action_masks)."""
    env = TressetteVectorEnv(n, opponent=opponent, seed=0, **rules)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    masks = env.action_masks()
    timed = 0.0
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = sample_mask(masks, rng)
        t0 = time.perf_counter()
        env.step(actions)
        masks = env.action_masks()
        timed += time.perf_counter() - t0
        steps += n
    return steps / timed


def median_of(fn, n: int, seconds: float, repeats: int, rules: dict) -> tuple[float, list[float]]:
    runs = [fn(n, seconds, rules) for _ in range(repeats)]
    return statistics.median(runs), runs


def table(header: str, fn, sizes: list[int], args, rules: dict, show) -> dict:
    """Print one Markdown table of ``fn``'s medians over ``sizes`` (and every run); return its rows."""
    print(f"| {header} | runs |")
    print("| --- | ---: | --- |")
    rows = {}
    for n in sizes:
        rate, runs = median_of(fn, n, args.seconds, args.repeats, rules)
        rows[n] = {"median": rate, "runs": runs}
        shown = ", ".join(show(r) for r in runs)
        print(f"| N = {n} | {rate:,.0f} | {shown} |", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="wall time of one run")
    parser.add_argument("--repeats", type=int, default=5, help="runs per row; the median is reported")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 64, 1024, 4096], help="batch sizes N")
    parser.add_argument("--env-sizes", type=int, nargs="+", default=[64, 1024, 4096], help="vector env sizes")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()
    rules: dict = {}  # the default rules: accusi and signals on, episode="hand"

    batch_rows = table(
        "batched engine, N deals (step + observations + masks, one core) | card plays/s (median)",
        bench_batch, args.sizes, args, rules, lambda r: f"{r / 1e6:.2f}M",
    )  # fmt: skip
    print()
    env_rows = table(
        "TressetteVectorEnv, N envs, random opponents (one core) | learner steps/s (median)",
        bench_env, args.env_sizes, args, rules, lambda r: f"{r / 1e3:.0f}k",
    )  # fmt: skip
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        result = {
            "seconds_per_run": args.seconds,
            "repeats": args.repeats,
            "python": platform.python_version(),
            "numpy": np.__version__,
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "rules": rules or "default",
            "card_plays_per_second": batch_rows,
            "learner_steps_per_second": env_rows,
        }
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
