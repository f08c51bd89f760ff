"""The observation ablation: the history observation against the default one, signals on and off, one budget.

Each cell is one ``tressette train --team-play`` run from scratch (team self-play on the
batched engine, the main job's recipe), the same samples and seed for every cell, then a
duplicate evaluation of its policy against random and the heuristic. Signals off is the rule
switch ``signals=False``: the learner neither gives nor sees signals, and is evaluated under
that rule (the baselines too).

    OMP_NUM_THREADS=1 python benchmarks/ablation.py --total-timesteps 1000000 --boards 1000 \
        --json benchmarks/results/ablation.json

Prints the Markdown table (docs/training.md) and writes every cell's figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from tressette_env.training import TrainConfig, train


def cell(history: bool, signals: bool, args: argparse.Namespace, root: Path) -> dict:
    config = TrainConfig(
        team_play=256, opponents=("self",), imitate="none", n_steps=20, net_arch=(128, 128), batch_size=2048,
        learning_rate=1e-3, total_timesteps=args.total_timesteps, eval_every=0, final_boards=args.boards,
        eval_against=("random", "heuristic"), history=history, rules={} if signals else {"signals": False},
        seed=args.seed, run_dir=str(root), run_name=f"h{int(history)}s{int(signals)}", progress_bar=False,
    )  # fmt: skip
    start = time.perf_counter()
    result = train(config)
    return {
        "history": history,
        "signals": signals,
        "samples": result.history[-1]["timesteps"],
        "seconds": round(time.perf_counter() - start, 1),
        "final": result.final,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--total-timesteps", type=int, default=1_000_000, help="samples per cell")
    parser.add_argument("--boards", type=int, default=1000, help="duplicate boards per baseline")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--run-dir", type=Path, default=None, help="keep each cell's run here (default: a temporary folder, deleted)"
    )
    args = parser.parse_args()
    cells = []
    with tempfile.TemporaryDirectory() as scratch:
        root = args.run_dir or Path(scratch)
        for signals in (True, False):
            for history in (False, True):
                cells.append(cell(history, signals, args, root))
    if args.run_dir is None:
        print("\n(the runs written above were in a temporary folder, now deleted: --run-dir DIR keeps them)")
    print(f"\n{args.total_timesteps:,} samples per cell, {args.boards} boards, seed {args.seed}:\n")
    print("| observation | signals | vs random | vs heuristic | seconds |")
    print("| --- | --- | ---: | ---: | ---: |")
    for c in cells:
        r, h = c["final"]["random"], c["final"]["heuristic"]
        shown = [f"{x['mean_points_diff']:+.2f} [{x['ci95'][0]:+.2f}, {x['ci95'][1]:+.2f}]" for x in (r, h)]
        print(
            f"| {'history' if c['history'] else 'default'} | {'on' if c['signals'] else 'off'} | "
            f"{shown[0]} | {shown[1]} | {c['seconds']:.0f} |"
        )
    if args.json:
        settings = vars(args) | {"json": str(args.json), "run_dir": args.run_dir and str(args.run_dir)}
        args.json.write_text(json.dumps({"settings": settings, "cells": cells}, indent=2))


if __name__ == "__main__":
    main()
