"""The double-dummy solver's time, and the search player's decision time and strength.

``solver`` (the default): for each of ``--deals`` random deals (``engine.new_game(seed=i)``,
i = 0, 1, ...) it solves the position before the first lead, and the position after four
tricks of random legal cards (``random.Random(i)``). Prints a Markdown table (median,
mean, p90, p99 and max time, wall clock and process CPU time, which is steadier on a
shared machine; the median number of positions expanded) and optionally writes the
figures as JSON. Each solve starts from empty tables. ``--compare`` also solves every
position with today's pure-Python solver as it was before the compiled core
(``benchmarks/reference/solver_v1.py``), right after the new one, checks that both find
the same value, and adds its rows and the ratios. ``--positions fifth`` solves only the
positions at the fifth trick (with ``TRESSETTE_NUMBA=0``, the plain-Python core's figures).

    python benchmarks/bench_solver.py --deals 100 --compare --json benchmarks/results/solver.json

``search``: duplicate games of a search player (``--player``, a registry spec: ``search``
with its defaults, ``search_v1``, ``search:samples=16``...) against an opponent (``random``,
``heuristic``, any spec): each deal is played twice with the same cards, the search player's team
on seats 0 and 2, then on seats 1 and 3. Prints the mean score difference per deal (the
search team's points minus the opponent's, both games added) with its 95% confidence
interval, and the search player's time per decision.

    python benchmarks/bench_solver.py search --deals 50 --opponent heuristic --player search

``--core MODULE`` searches with another copy of the core (an older commit's
``solver_core.py`` saved beside it), to time two solvers the same day in the same games.

``endings``: CPU time of the solves the search player makes at the end of a rollout and in
the games of the family: the four-seat game with eight and seven tricks left (the shipped
model playing the tricks before; ``solver.solve``, each from a fresh table), Calabresella with six and
five, Tressette a chiamare with five and four (``open_solver.open_moves`` on the true deal,
with its sides and face-down pile; the first seat to speak bids the lowest contract, the
heuristic plays).

    python benchmarks/bench_solver.py endings --deals 100 --json benchmarks/results/endings_similar.json

``probes``: the null-window probes of the solver's bisection on full deals, one row each (the
threshold, the fail-soft answer, the positions expanded): where the time of a hard deal goes.

    python benchmarks/bench_solver.py probes --seeds 76 54

``tails``: the slowest full deals solved as shipped, with the first probe at the exact value
(a perfect guess), and with a table of 2^23 rows instead of 2^21: what each would save.

    python benchmarks/bench_solver.py tails --json benchmarks/results/solver_tails.json
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tressette_env.agents import solver, solver_core
from tressette_env.agents.random_player import RandomPlayer
from tressette_env.engine import PLAYING, Rules, apply, cards_of, legal_actions, new_game, view


def positions(deals: int, seed0: int = 0):
    """(seed, full-deal state, state at the fifth trick) for each deal."""
    for seed in range(seed0, seed0 + deals):
        start = new_game(seed=seed)
        rng = random.Random(seed)
        state = start
        while state.public.tricks_done < 4:
            state = apply(state, rng.choice(legal_actions(state)))
        yield seed, start, state


def reference_solver():
    """Today's pure-Python solver as it was before the compiled core (a frozen copy)."""
    import importlib.util

    path = Path(__file__).resolve().parent / "reference" / "solver_v1.py"
    spec = importlib.util.spec_from_file_location("solver_v1", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def clear_tables(reference) -> None:
    """Empty the reference solver's module-level caches so that every solve starts cold.

    The compiled core needs nothing: each solve takes a new stamp, which empties its table.
    """
    for table_ in (reference._REPS, reference._FOLLOW, reference._SUIT_MOVES, reference._CASH, reference._CANON):
        table_.clear()


def _stats(data: list[tuple[float, float, int]]) -> dict:
    out: dict = {"deals": len(data)}
    for label, column in (("wall", 0), ("cpu", 1)):
        times = sorted(row[column] for row in data)
        quantiles = statistics.quantiles(times, n=100, method="inclusive") if len(times) >= 2 else times * 99
        out[label] = {
            "median_s": statistics.median(times),
            "mean_s": statistics.fmean(times),
            "p90_s": quantiles[89],
            "p99_s": quantiles[98],
            "max_s": times[-1],
            "times_s": [row[column] for row in data],
        }
    nodes = [row[2] for row in data]
    out["median_nodes"] = statistics.median(nodes)
    out["max_nodes"] = max(nodes)
    return out


def _timed(solve, state) -> tuple[tuple[float, float, int], int]:
    t0, c0 = time.perf_counter(), time.process_time()
    result = solve(state)
    return (time.perf_counter() - t0, time.process_time() - c0, result.nodes), result.value


POSITIONS = ("full deal", "from the fifth trick")


def run(deals: int, compare: bool, progress: bool, names: tuple[str, ...] = POSITIONS) -> dict:
    reference = reference_solver() if compare else None
    *_, warm = next(positions(1, seed0=10**6))
    solver.solve_state(warm)  # compile (or load the compiled code) before the clock runs
    rows: dict[str, dict[str, list]] = {name: {"new": [], "reference": []} for name in names}
    for seed, start, fifth in positions(deals):
        for name, state in zip(POSITIONS, (start, fifth), strict=True):
            if name not in names:
                continue
            row, value = _timed(solver.solve_state, state)
            rows[name]["new"].append(row)
            if reference is not None:
                clear_tables(reference)
                ref_row, ref_value = _timed(reference.solve_state, state)
                if ref_value != value:
                    raise AssertionError(f"deal {seed}, {name}: the solvers disagree ({value} against {ref_value})")
                rows[name]["reference"].append(ref_row)
        if progress:
            first = rows[names[0]]
            line = f"deal {seed}: {names[0]} {first['new'][-1][1]:.3f} s cpu"
            if reference is not None:
                line += f" (today's solver {first['reference'][-1][1]:.3f} s)"
            print(line, file=sys.stderr)
    out = {}
    for name in names:
        out[name] = {"new": _stats(rows[name]["new"])}
        if reference is not None:
            out[name]["reference"] = _stats(rows[name]["reference"])
            out[name]["ratio_cpu"] = {
                key: out[name]["reference"]["cpu"][key] / out[name]["new"]["cpu"][key]
                for key in ("median_s", "mean_s", "p90_s", "p99_s", "max_s")
            }
    return out


def table(results: dict) -> str:
    lines = [
        "| position | solver | deals | clock | median (s) | mean (s) | p90 (s) | p99 (s) | max (s) | median nodes |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    labels = {"new": "compiled core" if solver_core.COMPILED else "core, plain Python", "reference": "today's (v1)"}
    for name, by_solver in results.items():
        for which in ("new", "reference"):
            r = by_solver.get(which)
            if r is None:
                continue
            for label in ("wall", "cpu"):
                t = r[label]
                lines.append(
                    f"| {name} | {labels[which]} | {r['deals']} | {label} | {t['median_s']:.3f} | {t['mean_s']:.3f} "
                    f"| {t['p90_s']:.3f} | {t['p99_s']:.3f} | {t['max_s']:.3f} | {r['median_nodes']:.0f} |"
                )
        if "ratio_cpu" in by_solver:
            q = by_solver["ratio_cpu"]
            lines.append(
                f"| {name} | ratio (v1 / new, cpu) | | | {q['median_s']:.1f}x | {q['mean_s']:.1f}x | {q['p90_s']:.1f}x "
                f"| {q['p99_s']:.1f}x | {q['max_s']:.1f}x | |"
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
    """The search player's duplicate games against the heuristic and its decision time."""
    parser = argparse.ArgumentParser(description="SearchPlayer duplicate games and decision time")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--opponent", default="random")
    parser.add_argument(
        "--player", default="search", help="the search player's spec (default: search, its defaults; or search_v1, ...)"
    )
    parser.add_argument("--accusi", action="store_true", help="play with declarations (default: without)")
    parser.add_argument(
        "--core",
        default=None,
        help="another solver core to search with, a module importable as a copy of solver_core "
        "(an older commit's file saved as tressette_env/agents/solver_core_<commit>.py): the same games, other times",
    )
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args(argv)
    from tressette_env.agents.registry import make_player

    shipped = solver.core
    if args.core:
        import importlib

        solver.core = importlib.import_module(args.core)  # solver's functions look the core up at each call
    try:
        search = TimedPlayer(make_player(args.player))
        solver.solve_state(new_game(seed=10**6))  # compile (or load the compiled code) before the clock runs
        rules = Rules(accusi=args.accusi)
        result = duplicate(search, make_opponent(args.opponent), args.deals, rules, args.progress)
    finally:
        solver.core = shipped
    result["core"] = args.core or solver_core.__name__
    times = sorted(search.times)
    result["decision_s"] = {
        "decisions": len(times),
        "median": statistics.median(times),
        "p90": times[int(0.9 * (len(times) - 1))],
        "p99": times[int(0.99 * (len(times) - 1))],
        "max": times[-1],
        "mean": statistics.fmean(times),
    }
    result["player"] = repr(search.player)
    result["compiled"] = solver_core.COMPILED
    result["settings"] = vars(args) | {"json": str(args.json) if args.json else None}
    d = result["decision_s"]
    print(
        "| player | opponent | deals | mean diff per deal (2 games) | 95% CI | decisions | mean s | median s | p90 s | p99 s | max s |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    print(
        f"| {args.player} | {args.opponent} | {result['deals']} | {result['mean_diff']:+.2f} | "
        f"[{result['ci95'][0]:+.2f}, {result['ci95'][1]:+.2f}] | {d['decisions']} | {d['mean']:.3f} | "
        f"{d['median']:.3f} | {d['p90']:.3f} | {d['p99']:.3f} | {d['max']:.3f} |"
    )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")


def ending_positions(game: str, left: int, deals: int):
    """(hands, leader, trick, sides, last_trick) with ``left`` cards in the hand on turn, one per deal played that far.

    The four-seat game: the shipped model plays every seat. Calabresella and a chiamare: the
    first seat to speak bids the lowest contract, the others pass, the heuristic plays the
    rest; the true deal's sides and face-down pile (``side_search``'s reading).
    """
    from tressette_env.agents.registry import make_player
    from tressette_env.agents.side_search import deal_sides
    from tressette_env.engine.cards import THIRDS
    from tressette_env.engine.scoring import LAST_TRICK_THIRDS
    from tressette_env.envs.spec import game_spec

    rules = game_spec(game).make_rules()
    player = make_player("ppo" if game == "tressette" else "heuristic")
    for seed in range(deals):
        state = new_game(rules, seed)
        bid = False
        while state.public.status == PLAYING:
            p = state.public
            if p.phase == 0 and state.hands[p.turn].bit_count() <= left and (game != "tressette" or not p.trick):
                break
            legal = legal_actions(state)
            if p.phase == 1:  # the auction: the first to speak bids, the others pass
                action = legal[0] if bid else legal[1]
                bid = True
            else:
                action = player.act(view(state, p.turn), legal, random.Random(0))
            state = apply(state, action)
        if state.public.status != PLAYING:
            continue
        p = state.public
        pile = (1 << 40) - 1 & ~p.all_played
        for h in state.hands:
            pile &= ~h
        sides = (0, 1, 0, 1) if game == "tressette" else deal_sides(view(state, p.turn), state.hands)
        last = LAST_TRICK_THIRDS + sum(THIRDS[c] for c in cards_of(pile))
        yield list(state.hands), p.leader, list(p.trick), sides, last


def main_endings(argv: list[str]) -> None:
    """The solver's time on the endings the search player solves."""
    parser = argparse.ArgumentParser(description="Solver time on the endings the search player solves")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    from tressette_env.agents.open_solver import open_moves

    solver.solve_state(new_game(seed=10**6))  # compile (or load the compiled code) before the clock runs
    cases = [
        ("tressette", 8, "solve (compiled core), at a trick boundary"),
        ("tressette", 7, "solve (compiled core), at a trick boundary"),
        ("calabresella", 6, "open_moves (plain Python)"),
        ("calabresella", 5, "open_moves (plain Python)"),
        ("tressette_a_chiamare", 5, "open_moves (plain Python)"),
        ("tressette_a_chiamare", 4, "open_moves (plain Python)"),
    ]
    rows = []
    print("| game | cards left | what is timed | positions | mean s | median s | p90 s | max s |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for game, left, what in cases:
        times = []
        for hands, leader, trick, sides, last in ending_positions(game, left, args.deals):
            start = time.process_time()
            if game == "tressette":
                solver.solve(hands, leader, trick)  # each solve starts its table afresh (a new stamp)
            else:
                open_moves(hands, leader, trick, sides=sides, last_trick=last)
            times.append(time.process_time() - start)
        times.sort()
        row = {
            "game": game,
            "left": left,
            "timed": what,
            "positions": len(times),
            "mean": statistics.fmean(times),
            "median": statistics.median(times),
            "p90": times[int(0.9 * (len(times) - 1))],
            "max": times[-1],
        }
        rows.append(row)
        print(
            f"| {game} | {left} | {what} | {row['positions']} | {row['mean']:.4f} | {row['median']:.4f} | "
            f"{row['p90']:.4f} | {row['max']:.4f} |"
        )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = {"python": platform.python_version(), "compiled": solver_core.COMPILED, "rows": rows}
        args.json.write_text(json.dumps(payload, indent=2) + "\n")


def main_probes(argv: list[str]) -> None:
    """Each null-window probe of a full deal's solve: the threshold asked, the answer, the positions expanded."""
    import math

    parser = argparse.ArgumentParser(description="The probes of the solver's bisection on full deals")
    parser.add_argument("--seeds", type=int, nargs="+", default=[76, 54])
    args = parser.parse_args(argv)
    solver.solve_state(new_game(seed=10**6))  # compile (or load the compiled code) first
    print("| deal (seed) | probe: at least | answer | positions | CPU s |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for seed in args.seeds:
        state = new_game(seed=seed)
        hands, trick, rem, present = solver._position(state.hands, state.public.leader, state.public.trick)
        t = solver_core.tables()
        t.start(hands, 0)
        lo, hi = 0, rem
        need = (rem + 1) // 2
        while lo < hi:  # solver_core._value's bisection, one probe at a time
            need = min(max(need, lo + 1), hi)
            nodes, start = t.nodes, time.process_time()
            v = solver_core._partial(
                t.hands, state.public.leader, t.trick, 0, need, rem, present, t.tt, t.ctx, t.mv, math.inf
            )
            print(f"| {seed} | {need} | {v} | {t.nodes - nodes} | {time.process_time() - start:.2f} |")
            lo, hi = (v, hi) if v >= need else (lo, v)
            need = (lo + hi + 1) // 2
        print(f"| {seed} | value | {lo} | | |")


def main_tails(argv: list[str]) -> None:
    """The slowest full deals solved three ways: as shipped, the first probe at the exact value, a 4x table."""
    parser = argparse.ArgumentParser(description="What a perfect first probe or a larger table saves on hard deals")
    parser.add_argument("--seeds", type=int, nargs="+", default=[54, 76, 67, 70, 51, 23])
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    solver.solve_state(new_game(seed=10**6))  # compile (or load the compiled code) first
    big = solver_core.Tables(23)
    print("| deal (seed) | value | as shipped: CPU s | positions | first probe at the value: CPU s | positions "
          "| 2^23 rows: CPU s | positions |")  # fmt: skip
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    rows = []
    for seed in args.seeds:
        state = new_game(seed=seed)
        hands, trick, rem, present = solver._position(state.hands, state.public.leader, state.public.trick)
        row = [seed]
        value = -1
        for tables, guess in ((solver_core.tables(), -1), (solver_core.tables(), None), (big, -1)):
            tables.start(hands, 0)
            start = time.process_time()
            v = solver_core.value(tables, state.public.leader, trick, rem, present, value if guess is None else guess,
                                  float("inf"))  # fmt: skip
            row += [time.process_time() - start, tables.nodes]
            if value >= 0 and v != value:
                raise AssertionError(f"deal {seed}: {v} against {value}")
            value = v
        rows.append({"seed": seed, "value": value, "cpu_s": row[1::2], "positions": row[2::2]})
        print(
            f"| {seed} | {value} | "
            + " | ".join(f"{x:.2f}" if isinstance(x, float) else str(x) for x in row[1:])
            + " |"
        )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"compiled": solver_core.COMPILED, "rows": rows}, indent=2) + "\n")


SUBCOMMANDS = {"search": main_search, "endings": main_endings, "probes": main_probes, "tails": main_tails}
"""The subcommands besides ``solver`` (the default): the module docstring says what each measures."""


def _summary(command: Callable[[list[str]], None]) -> str:
    """A subcommand's docstring's first line, for the list in ``--help``."""
    line = command.__doc__.splitlines()[0].rstrip(".")
    return line[0].lower() + line[1:]


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] in SUBCOMMANDS:
        SUBCOMMANDS[sys.argv[1]](sys.argv[2:])
        return
    argv = sys.argv[2:] if len(sys.argv) > 1 and sys.argv[1] == "solver" else sys.argv[1:]
    parser = argparse.ArgumentParser(
        usage="%(prog)s [solver|search|endings|probes|tails] [options] (each subcommand has its own --help)",
        description=__doc__.splitlines()[0],
        epilog="subcommands: solver (the default, these options), "
        + ", ".join(f"{name} ({_summary(SUBCOMMANDS[name])})" for name in SUBCOMMANDS)
        + "; the module docstring says what each measures",
    )
    parser.add_argument("--deals", type=int, default=100, help="deals solved (default 100)")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument("--compare", action="store_true", help="also time today's solver (v1) on the same positions")
    parser.add_argument("--progress", action="store_true", help="print each deal's times to stderr")
    parser.add_argument(
        "--positions", choices=("both", "full", "fifth"), default="both", help="which positions to solve (default both)"
    )
    args = parser.parse_args(argv)
    names = {"both": POSITIONS, "full": POSITIONS[:1], "fifth": POSITIONS[1:]}[args.positions]
    results = run(args.deals, compare=args.compare, progress=args.progress, names=names)
    print(table(results))
    if args.json:
        payload = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "processor": platform.processor(),
            "compiled": solver_core.COMPILED,
            "compare": args.compare,
            "results": results,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2) + "\n")


if __name__ == "__main__":
    main()
