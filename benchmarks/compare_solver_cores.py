"""Two or more solver cores side by side on the same full deals, in one process.

Usage: ``python benchmarks/compare_solver_cores.py MODULE[,MODULE...] DEALS [FIRST_SEED]``, each
module a copy of ``tressette_env.agents.solver_core`` importable beside it (for example an
older commit's file saved as ``tressette_env/agents/solver_core_old.py``). Every deal
(``engine.new_game(seed=s)``) is solved by each core from a fresh stamp, the values must
agree, and the CPU time and positions of each are printed, then the median, mean, p90, p99
and max per core.
"""

from __future__ import annotations

import argparse
import importlib
import math
import statistics
import time

from tressette_env.agents import solver
from tressette_env.engine import new_game


def solve(module, seed: int) -> tuple[int, float, int]:
    state = new_game(seed=seed)
    hands, trick, rem, present = solver._position(state.hands, state.public.leader, state.public.trick)
    tables = module.tables()
    tables.start(hands, 0)
    start = time.process_time()
    value = module.value(tables, state.public.leader, trick, rem, present, -1, math.inf)
    return value, time.process_time() - start, tables.nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", help="comma-separated module names, each a copy of solver_core")
    parser.add_argument("deals", type=int)
    parser.add_argument("first_seed", type=int, nargs="?", default=0)
    args = parser.parse_args()
    modules = [importlib.import_module(name) for name in args.modules.split(",")]
    deals, first = args.deals, args.first_seed
    for module in modules:
        solve(module, 10**6)  # compile (or load the compiled code) first
    times: list[list[float]] = [[] for _ in modules]
    nodes: list[list[int]] = [[] for _ in modules]
    for seed in range(first, first + deals):
        values = []
        for i, module in enumerate(modules):
            value, cpu, n = solve(module, seed)
            values.append(value)
            times[i].append(cpu)
            nodes[i].append(n)
        if len(set(values)) != 1:
            raise AssertionError(f"deal {seed}: the cores disagree: {values}")
        print(seed, values[0], " ".join(f"{times[i][-1]:.2f}/{nodes[i][-1]}" for i in range(len(modules))), flush=True)
    for i, module in enumerate(modules):
        t = sorted(times[i])
        q = statistics.quantiles(t, n=100, method="inclusive")
        print(
            f"{module.__name__} median {statistics.median(t):.3f} mean {statistics.fmean(t):.3f} p90 {q[89]:.3f} "
            f"p99 {q[98]:.3f} max {t[-1]:.3f} median nodes {statistics.median(nodes[i])} total {sum(t):.1f}"
        )


if __name__ == "__main__":
    main()
