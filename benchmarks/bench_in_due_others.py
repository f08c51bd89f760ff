"""Tressette in due's learner steps per CPU second, batched (1,024 deals) and single, with the heuristic or random other.

What bounds issue 33's in due row (``gym.make_vec`` at 10x ``gym.make``): with ``gym.make``'s
default other (the heuristic, whose endgame is an exact search) and with a random other (no
search), each side measured by ``bench_family_batched.learner_steps`` (the learner's random legal
action and ``action_masks`` timed, CPU time), the four rows taking turns over three rounds of three
CPU seconds; each ratio is the median of the per-round ratios.

    OMP_NUM_THREADS=1 python benchmarks/bench_in_due_others.py [--rounds 3] [--seconds 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import gymnasium as gym

import tressette_env  # noqa: F401 (registers the gymnasium ids)
from tressette_env.vector import FamilyVectorEnv

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_family_batched import learner_steps  # noqa: E402 (the benchmarks' own module, beside this one)

GYM_ID = "tressette_env/TressetteInDue-v0"


def main(rounds: int = 3, seconds: float = 3.0) -> None:
    envs = {
        "make_vec, heuristic other": (
            gym.make_vec(GYM_ID, num_envs=1024, vectorization_mode="vector_entry_point"),
            1024,
        ),
        "gym.make, heuristic other": (gym.make(GYM_ID), 0),
        "FamilyVectorEnv, random other": (FamilyVectorEnv(1024, game="tressette_in_due", others="random"), 1024),
        "gym.make, random other": (gym.make(GYM_ID, others="random"), 0),
    }
    for env, n in envs.values():
        learner_steps(env, n, 0.5)  # warm-up: numba's compile of the endgame search, first allocations
    rates: dict[str, list[float]] = {name: [] for name in envs}
    for _ in range(rounds):
        for name, (env, n) in envs.items():
            rates[name].append(learner_steps(env, n, seconds))
    print("| row | learner steps per CPU second, by round | median |")
    print("| --- | --- | ---: |")
    for name, values in rates.items():
        print(f"| {name} | {' / '.join(f'{v:,.0f}' for v in values)} | {statistics.median(values):,.0f} |")
    for other in ("heuristic", "random"):
        batched = next(v for k, v in rates.items() if k.endswith(f"{other} other") and not k.startswith("gym"))
        single = rates[f"gym.make, {other} other"]
        ratio = statistics.median(b / s for b, s in zip(batched, single, strict=True))
        print(f"\nbatched / single, {other} other: {ratio:.1f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds the four rows take turns over (default 3)")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds a row a round (default 3)")
    args = parser.parse_args()
    if args.rounds < 1 or not args.seconds > 0:
        parser.error(f"--rounds is an int >= 1 and --seconds a number > 0; got {args.rounds} and {args.seconds}")
    main(args.rounds, args.seconds)
