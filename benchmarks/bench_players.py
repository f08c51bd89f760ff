"""Decision time of each player, on the positions of heuristic self-play (one core).

Scalar players: each ``act`` call timed alone (not ``view`` or ``legal_actions``). The
batched heuristic (``tressette_env.vector.heuristic_actions``): M deals play whole hands
with it at every seat, each call timed, and the median call divided by M; "out of step"
first desynchronises the deals (random partial steps), so that a call mixes leads and
follows, as in an environment.

    OMP_NUM_THREADS=1 python benchmarks/bench_players.py --deals 100 --json benchmarks/results/players.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

import numpy as np

from tressette_env.agents.registry import make_player
from tressette_env.engine import PLAYING, Rules, apply, legal_actions, new_game, view
from tressette_env.vector import TressetteBatch, heuristic_actions


def positions(deals: int, seed: int = 0) -> list:
    rng = random.Random(seed)
    teacher = make_player("heuristic")
    out = []
    for _ in range(deals):
        state = new_game(Rules(), rng)
        while state.public.status == PLAYING:
            seat_view, legal = view(state, state.public.turn), legal_actions(state)
            out.append((seat_view, legal))
            state = apply(state, teacher.act(seat_view, legal, rng))
    return out


def batched_heuristic(m: int, out_of_step: bool, hands: int = 3) -> float:
    """Median µs per decision of ``heuristic_actions`` over the calls of a few hands of heuristic play."""
    batch = TressetteBatch(m, seed=0)
    rng = np.random.default_rng(0)
    if out_of_step:
        for _ in range(8):
            batch.step(heuristic_actions(batch), active=rng.random(m) < 0.5)
    times = []
    for _ in range(40 * hands):
        start = time.perf_counter()
        actions = heuristic_actions(batch)
        times.append(time.perf_counter() - start)
        batch.step(actions)
    return statistics.median(times) / m * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="deals of positions (40 decisions each)")
    parser.add_argument("--players", nargs="+", default=["random", "heuristic", "ppo", "search"])
    parser.add_argument("--batch-sizes", type=int, nargs="*", default=[64, 256, 1024, 4096], help="batched heuristic")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    cases = positions(args.deals)
    rows = {}
    for spec in args.players:
        player = make_player(spec)
        rng = random.Random(0)
        times = []
        for seat_view, legal in cases:
            start = time.perf_counter()
            player.act(seat_view, legal, rng)
            times.append(time.perf_counter() - start)
        times.sort()
        rows[spec] = {
            "decisions": len(times),
            "mean_us": statistics.fmean(times) * 1e6,
            "median_us": times[len(times) // 2] * 1e6,
            "p99_us": times[int(len(times) * 0.99)] * 1e6,
            "max_us": times[-1] * 1e6,
        }
    print("| player | decisions | mean | median | p99 | max |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for spec, r in rows.items():
        cells = [
            f"{r[k]:,.0f} µs" if r[k] < 10_000 else f"{r[k] / 1e6:.3f} s"
            for k in ("mean_us", "median_us", "p99_us", "max_us")
        ]
        print(f"| {spec} | {r['decisions']} | " + " | ".join(cells) + " |")
    batched = {}
    if args.batch_sizes:
        print()
        print("| batched heuristic, M deals | µs per decision, deals in step | µs per decision, out of step |")
        print("| --- | ---: | ---: |")
        for m in args.batch_sizes:
            batched[m] = {"in_step_us": batched_heuristic(m, False), "out_of_step_us": batched_heuristic(m, True)}
            print(f"| M = {m} | {batched[m]['in_step_us']:.2f} µs | {batched[m]['out_of_step_us']:.2f} µs |")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"players": rows, "batched_heuristic": batched}, indent=2))


if __name__ == "__main__":
    main()
