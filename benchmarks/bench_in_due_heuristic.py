"""In due's batched heuristic: its rules (NumPy) and its endgame (the exact search, deal by deal) timed apart.

Forty steps of 1024 deals of random play from a fresh batch, stock form; at each step the
heuristic's actions for the deals in the endgame (every card known, ``phase == PLAY``) and for
the others are asked for separately, each timed in CPU seconds (``time.process_time``). Eight
deals played first, untimed, leave numba's compiling (or loading its cache) out of the figures.

    OMP_NUM_THREADS=1 python benchmarks/bench_in_due_heuristic.py --json benchmarks/results/in_due_heuristic.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from tressette_env.engine.state import PLAY
from tressette_env.vector.in_due import InDueBatch
from tressette_env.vector.in_due_heuristic import heuristic_actions


def _numba() -> str:
    """Whether the endgame search ran compiled, and numba's version."""
    from tressette_env.agents.open_solver import compiled_two_seats

    if compiled_two_seats() is None:
        return "off (not installed, or TRESSETTE_NUMBA=0)"
    import numba

    return f"on (numba {numba.__version__}, the fast extra)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--objective", default="take", choices=["take", "avoid"])
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    warm = InDueBatch(8, seed=1, objective=args.objective)  # untimed: numba compiles or loads its cache here
    for _ in range(40):
        heuristic_actions(warm)
        warm.step(warm.sample_actions(np.random.default_rng(1)))
    batch = InDueBatch(args.deals, seed=0, objective=args.objective)
    rng = np.random.default_rng(0)
    spent = {"rules": 0.0, "endgame": 0.0}
    decisions = {"rules": 0, "endgame": 0}
    for _ in range(args.steps):
        endgame = batch.phase == PLAY
        for kind, rows in (("rules", ~endgame), ("endgame", endgame)):
            start = time.process_time()
            heuristic_actions(batch, rows)
            spent[kind] += time.process_time() - start
            decisions[kind] += int(rows.sum())
        batch.step(batch.sample_actions(rng))
    rates = {kind: decisions[kind] / spent[kind] for kind in spent if spent[kind]}
    for kind, rate in rates.items():
        print(f"{kind}: {decisions[kind]:,} decisions, {rate:,.0f} a CPU second")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        result = {"command": "OMP_NUM_THREADS=1 python benchmarks/bench_in_due_heuristic.py", "args": vars(args) | {"json": str(args.json)},
                  "decisions": decisions, "cpu_seconds": spent, "per_cpu_second": rates, "numba": _numba()}  # fmt: skip
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
