"""The double-dummy solver's time, and the search player's decision time and strength.

``solver`` (the default): for each of ``--deals`` random deals (``engine.new_game(seed=i)``,
i = 0, 1, ...) it solves the position before the first lead, and the position after four
tricks of random legal cards (``random.Random(i)``). Prints a Markdown table (median,
mean, p90 and max time, wall clock and process CPU time, which is steadier on a shared
machine; the median number of positions expanded) and optionally writes the figures as
JSON. Each solve starts from empty tables.

    python benchmarks/bench_solver.py --deals 100 --json benchmarks/results/solver.json

``search``: duplicate games of ``SearchPlayer`` against an opponent (``random`` or
``heuristic``): each deal is played twice with the same cards, the search player's team
on seats 0 and 2, then on seats 1 and 3. Prints the mean score difference per deal (the
search team's points minus the opponent's, both games added) with its 95% confidence
interval, and the search player's time per decision.

    python benchmarks/bench_solver.py search --deals 50 --opponent random --samples 8 --budget 0.1
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from tressette_env.agents import solver
from tressette_env.agents.random_player import RandomPlayer
from tressette_env.agents.search import SearchPlayer
from tressette_env.engine import PLAYING, Rules, apply, cards_of, legal_actions, new_game, view


def positions(deals: int):
    """(seed, full-deal state, state at the fifth trick) for each deal."""
    for seed in range(deals):
        start = new_game(seed=seed)
        rng = random.Random(seed)
        state = start
        while state.public.tricks_done < 4:
            state = apply(state, rng.choice(legal_actions(state)))
        yield seed, start, state


def clear_tables() -> None:
    """Empty the solver's module-level caches so that every solve starts cold."""
    for table_ in (solver._REPS, solver._FOLLOW, solver._SUIT_MOVES, solver._CASH, solver._CANON):
        table_.clear()


def run(deals: int, cold: bool, progress: bool) -> dict:
    rows: dict[str, list[tuple[float, float, int]]] = {"full deal": [], "from the fifth trick": []}
    for seed, start, fifth in positions(deals):
        for name, state in (("full deal", start), ("from the fifth trick", fifth)):
            if cold:
                clear_tables()
            t0, c0 = time.perf_counter(), time.process_time()
            result = solver.solve_state(state)
            rows[name].append((time.perf_counter() - t0, time.process_time() - c0, result.nodes))
        if progress:
            full, fifth_ = rows["full deal"][-1], rows["from the fifth trick"][-1]
            print(
                f"deal {seed}: full {full[0]:.3f} s (cpu {full[1]:.3f}), fifth trick {fifth_[0]:.4f} s "
                f"(cpu {fifth_[1]:.4f})",
                file=sys.stderr,
            )
    out = {}
    for name, data in rows.items():
        out[name] = {"deals": len(data)}
        for label, column in (("wall", 0), ("cpu", 1)):
            times = [row[column] for row in data]
            out[name][label] = {
                "median_s": statistics.median(times),
                "mean_s": statistics.fmean(times),
                "p90_s": statistics.quantiles(times, n=10, method="inclusive")[-1] if len(times) >= 2 else times[0],
                "max_s": max(times),
                "times_s": times,
            }
        nodes = [row[2] for row in data]
        out[name]["median_nodes"] = statistics.median(nodes)
        out[name]["max_nodes"] = max(nodes)
    return out


def table(results: dict) -> str:
    lines = [
        "| position | deals | clock | median (s) | mean (s) | p90 (s) | max (s) | median nodes |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, r in results.items():
        for label in ("wall", "cpu"):
            t = r[label]
            lines.append(
                f"| {name} | {r['deals']} | {label} | {t['median_s']:.3f} | {t['mean_s']:.3f} | {t['p90_s']:.3f} "
                f"| {t['max_s']:.3f} | {r['median_nodes']:.0f} |"
            )
    return "\n".join(lines)


class TimedPlayer:
    """Wraps a player and records the wall time of each decision."""

    def __init__(self, player) -> None:
        self.player = player
        self.times: list[float] = []

    def act(self, view, legal, rng):
        t0 = time.perf_counter()
        action = self.player.act(view, legal, rng)
        self.times.append(time.perf_counter() - t0)
        return action


def play_game(players, hands, dealer, rules, rng) -> tuple[int, int]:
    """One hand with ``players[seat]``; returns the points of team 0 and team 1."""
    state = new_game(rules, hands=hands, dealer=dealer)
    while state.public.status == PLAYING:
        seat = state.public.turn
        state = apply(state, players[seat].act(view(state, seat), legal_actions(state), rng))
    return state.public.result.points


def duplicate(search, opponent, deals: int, rules, progress: bool) -> dict:
    diffs = []
    for seed in range(deals):
        deal = new_game(rules, seed=10_000 + seed)
        hands = [cards_of(h) for h in deal.hands]
        total = 0
        for search_team in (0, 1):
            players = [search if seat % 2 == search_team else opponent for seat in range(4)]
            points = play_game(players, hands, deal.public.dealer, rules, random.Random(seed))
            total += points[search_team] - points[1 - search_team]
        diffs.append(total)
        if progress:
            mean = statistics.fmean(diffs)
            print(f"deal {seed}: {total:+d} (mean {mean:+.2f})", file=sys.stderr)
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else float("nan")
    return {"deals": len(diffs), "mean_diff": mean, "ci95": [mean - half, mean + half], "diffs": diffs}


def make_opponent(name: str):
    if name == "random":
        return RandomPlayer()
    from tressette_env.agents.registry import make_player  # the heuristic player, when present

    return make_player(name)


def main_search(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description="SearchPlayer duplicate games and decision time")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--budget", type=float, default=0.1, help="seconds per decision (0: no limit)")
    parser.add_argument("--exact-tricks", type=int, default=7)
    parser.add_argument("--horizon", type=int, default=3)
    parser.add_argument("--accusi", action="store_true", help="play with declarations (default: without)")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args(argv)
    search = TimedPlayer(
        SearchPlayer(
            samples=args.samples,
            time_budget=args.budget or None,
            exact_tricks=args.exact_tricks,
            horizon=args.horizon,
        )
    )
    rules = Rules(accusi=args.accusi)
    result = duplicate(search, make_opponent(args.opponent), args.deals, rules, args.progress)
    times = sorted(search.times)
    result["decision_s"] = {
        "decisions": len(times),
        "median": statistics.median(times),
        "p90": times[int(0.9 * (len(times) - 1))],
        "max": times[-1],
        "mean": statistics.fmean(times),
    }
    result["settings"] = vars(args) | {"json": str(args.json) if args.json else None}
    d = result["decision_s"]
    print("| opponent | deals | mean diff per deal (2 games) | 95% CI | decisions | median s | p90 s | max s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print(
        f"| {args.opponent} | {result['deals']} | {result['mean_diff']:+.2f} | "
        f"[{result['ci95'][0]:+.2f}, {result['ci95'][1]:+.2f}] | {d['decisions']} | "
        f"{d['median']:.3f} | {d['p90']:.3f} | {d['max']:.3f} |"
    )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "search":
        main_search(sys.argv[2:])
        return
    argv = sys.argv[2:] if len(sys.argv) > 1 and sys.argv[1] == "solver" else sys.argv[1:]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument("--warm", action="store_true", help="keep the move-list caches between solves")
    parser.add_argument("--progress", action="store_true", help="print each deal's times to stderr")
    args = parser.parse_args(argv)
    results = run(args.deals, cold=not args.warm, progress=args.progress)
    print(table(results))
    if args.json:
        payload = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "processor": platform.processor(),
            "cold_caches": not args.warm,
            "results": results,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2) + "\n")


if __name__ == "__main__":
    main()
