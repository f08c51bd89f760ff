"""The family's batched engines beside OpenSpiel hearts and gym.make, in CPU time over interleaved rounds.

For every game of the catalog with a batched engine (``Entry.batch``):

- **engine** rows at N = 1, 64, 1024, 4096: card plays per CPU second of ``step`` +
  ``observe`` (the seat on turn's observation) + ``legal_masks`` + ``sample_actions`` (the
  random choice timed), each deal of the batch one card play a step;
- **make_vec** rows: learner steps per CPU second of ``gym.make_vec(id, 1024,
  vectorization_mode="vector_entry_point")`` and of one ``gym.make(id)``, both with
  ``gym.make``'s defaults (the heuristic for the other players), the learner's random legal
  action and ``action_masks`` timed; for a game whose heuristic is not batched yet (no
  ``make_vec`` entry point), ``FamilyVectorEnv(1024, others="random")`` beside
  ``gym.make(id, others="random")``;
- **heuristic** rows: decisions per CPU second of the game's batched heuristic at N = 1024,
  over whole hands of random play (the states of every trick);
- **memory**: bytes a deal of the batch's arrays at N = 4096 (``tracemalloc``, after a reset
  and a step: what the batch keeps), and the peak during a step with its observations;
- OpenSpiel's hearts (pyspiel; the information-state tensor into NumPy each step), the
  reference the ratios are taken against, and the four-seat ``TressetteBatch`` at N = 4096
  measured the same way.

**Warm-up** (``--warmup-steps``, 600 by default): every engine and heuristic row first plays that
many random steps untimed, and every ``make_vec`` row a third as many learner steps (each is
about three decisions a deal), so that the deals of a batch, dealt together, have spread over
the phases of a hand as in a long run. A fresh batch of Calabresella or a chiamare, whose
auctions end after different numbers of steps, runs faster until its deals have spread (about
600 steps); in due, col morto and a perdere run at one pace throughout (docs/batched.md has the
figures). The results written before this option (up to commit 135a28e) timed the engine rows
after three untimed steps and the other rows after none; ``--warmup-steps 3`` times the engine
rows as they did (and gives the heuristic rows three steps, the ``make_vec`` rows one).

Each row runs ``--seconds`` of CPU time (``time.process_time``: waiting for a core on a busy
machine is not counted) per round; rows alternate over ``--rounds`` rounds, and each ratio is
the median of the per-round ratios (a slow spell of the machine hits both sides of a ratio).

    OMP_NUM_THREADS=1 python benchmarks/bench_family_batched.py --seconds 2 --rounds 3 \\
        --json benchmarks/results/family_batched.json

**Against an older commit** (``--baseline REF``): instead of the table, every game's engine
row at N = 4096 for REF (a temporary ``git worktree``, as ``bench_env.py --baseline`` makes)
and for this working tree, each measured in a fresh process with that tree's package on
``PYTHONPATH``, the trees taking turns (in alternating order) over ``--rounds`` rounds; each
ratio new / baseline is the median of the per-round ratios.

    OMP_NUM_THREADS=1 python benchmarks/bench_family_batched.py --baseline 968efa9 --seconds 1.5 \\
        --rounds 5 --json benchmarks/results/family_batched_vs_968efa9.json
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import gymnasium as gym
import numpy as np

from tressette_env import catalog
from tressette_env.vector import FamilyVectorEnv, TressetteBatch, sample_mask

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_env import bench_hearts  # noqa: E402 (the benchmarks' own module, beside this one)

SIZES = (1, 64, 1024, 4096)


def hearts(seconds: float) -> float | None:
    """OpenSpiel hearts' plays per CPU second (``bench_env.bench_hearts``: the observation tensor into NumPy each step)."""
    return bench_hearts(seconds, clock=time.process_time)


WARMUP_STEPS = 600
"""Random steps a batch plays untimed before a row is timed: its deals spread over a hand's phases (see above)."""


def engine(
    game: str, n: int, seconds: float, clock: Callable[[], float] = time.process_time, warmup: int = WARMUP_STEPS
) -> float:
    """Card plays per second of ``clock`` (CPU time): step + observe + legal_masks + sample_actions, all timed.

    ``warmup`` random steps (at least 3) are played first, then one observation and the masks, untimed (a
    compiled observation, ``vector._compiled``, is loaded from numba's cache, or compiled, once a process there).
    """
    batch = (TressetteBatch if game == "tressette" else catalog.entry(game).batch_type())(n, seed=0)
    rng = np.random.default_rng(0)
    for _ in range(max(3, warmup)):
        batch.step(batch.sample_actions(rng))
    batch.observe()
    batch.legal_masks()
    plays = 0
    start = clock()
    while clock() - start < seconds:
        batch.step(batch.sample_actions(rng))
        batch.observe()
        batch.legal_masks()
        plays += n
    return plays / (clock() - start)


def heuristic(game: str, n: int, seconds: float, warmup: int = WARMUP_STEPS) -> float | None:
    """The batched heuristic's decisions per CPU second over whole hands of random play (None: not batched).

    ``warmup`` random steps are played first, untimed.
    """
    batch = catalog.entry(game).batch_type()(n, seed=0)
    if not hasattr(batch, "heuristic_actions"):
        return None
    rng = np.random.default_rng(0)
    for _ in range(warmup):
        batch.step(batch.sample_actions(rng))
    decisions, spent = 0, 0.0
    start = time.process_time()
    while time.process_time() - start < seconds:
        t = time.process_time()
        batch.heuristic_actions()
        spent += time.process_time() - t
        decisions += n
        batch.step(batch.sample_actions(rng))
    return decisions / spent


def learner_steps(env, n: int, seconds: float, warmup: int = WARMUP_STEPS // 3) -> float:
    """Learner steps per CPU second of a vector env (n deals) or a single env (n = 0).

    A vector env first takes ``warmup`` learner steps, untimed (a single env's one deal needs none).
    """
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    for _ in range(warmup if n else 0):
        env.step(sample_mask(env.action_masks(), rng))
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        if n:
            _, _, _, _, _ = env.step(sample_mask(env.action_masks(), rng))
            steps += n
        else:
            mask = env.unwrapped.action_masks()
            _, _, terminated, truncated, _ = env.step(int(sample_mask(mask[None], rng)[0]))
            if terminated or truncated:
                env.reset()
            steps += 1
    return steps / (time.process_time() - start)


def memory(game: str, n: int = 4096) -> dict[str, float]:
    """Bytes a deal: what the batch keeps after a reset and a step, and the peak of a step with its observations."""
    tracemalloc.start()
    batch = catalog.entry(game).batch_type()(n, seed=0)
    rng = np.random.default_rng(0)
    batch.step(batch.sample_actions(rng))
    kept = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    batch.step(batch.sample_actions(rng))
    batch.observe()
    batch.legal_masks()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del batch
    return {"kept_bytes_per_deal": kept / n, "step_peak_bytes_per_deal": peak / n}


def _child(tree: Path, seconds: float, games: list[str], warmup: int) -> None:
    """The child of --baseline: every game's engine row at N = 4096 for the package on PYTHONPATH; one JSON line."""
    package = Path(catalog.__file__).resolve()
    if not package.is_relative_to(tree.resolve()):
        raise SystemExit(f"tressette_env was imported from {package}, not from {tree}")
    rates = {}
    for game in games:
        engine(game, 4096, min(0.2, seconds / 10), warmup=0)  # lazy imports, first allocations
        rates[game] = engine(game, 4096, seconds, warmup=warmup)
    print(json.dumps({"package": str(package), "rates": rates}))


def against_baseline(ref: str, games: list[str], seconds: float, rounds: int, warmup: int) -> dict:
    """Engine rows at N = 4096 of ``ref`` and of this tree, fresh processes taking turns; ratios new / baseline."""
    from bench_env import _child_env, describe_tree, worktree  # the benchmarks' own module

    here = Path(__file__).resolve()
    root = here.parent.parent
    per_tree: dict[str, list[dict[str, float]]] = {"baseline": [], "new": []}
    with worktree(ref) as base:
        trees = {"baseline": base, "new": root}
        for r in range(rounds):
            for label in ("baseline", "new") if r % 2 == 0 else ("new", "baseline"):
                tree = trees[label]
                command = [
                    sys.executable,
                    str(here),
                    "--child",
                    str(tree),
                    "--seconds",
                    str(seconds),
                    "--warmup-steps",
                    str(warmup),
                    "--games",
                    *games,
                ]
                out = subprocess.run(
                    command, env=_child_env(tree), cwd=tree, capture_output=True, text=True, check=True
                )
                per_tree[label].append(json.loads(out.stdout.strip().splitlines()[-1])["rates"])
        described = {label: describe_tree(tree) for label, tree in trees.items()}
    rows = {}
    for game in games:
        base = [x[game] for x in per_tree["baseline"]]
        new = [x[game] for x in per_tree["new"]]
        ratios = [b and n / b for b, n in zip(base, new, strict=True)]
        rows[game] = {
            "baseline": statistics.median(base),
            "new": statistics.median(new),
            "ratio": statistics.median(ratios),
            "rounds": {"baseline": base, "new": new, "ratio": ratios},
        }
    print(f"| game, N = 4096 (decisions per CPU second) | {ref} | this tree | new / {ref} (median of rounds) |")
    print("| --- | ---: | ---: | ---: |")
    for game, row in rows.items():
        print(f"| {game} | {row['baseline']:,.0f} | {row['new']:,.0f} | {row['ratio']:.2f}x |")
    return {"trees": described, "rounds": rounds, "seconds": seconds, "warmup_steps": warmup, "rows": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds of each row in each round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", nargs="*", default=None, help="games (default: every game with a batched engine)")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--baseline", metavar="REF", default=None, help="engine rows of REF beside this tree's")
    parser.add_argument(
        "--warmup-steps",
        type=int,
        default=WARMUP_STEPS,
        help="random steps each engine or heuristic row plays untimed first (a make_vec row a third as many)",
    )
    parser.add_argument("--child", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.seconds > 0 or args.rounds < 1 or args.warmup_steps < 0:
        parser.error("--seconds is a number > 0, --rounds an int >= 1, --warmup-steps an int >= 0")
    warmup = args.warmup_steps
    batched = [e.name for e in catalog.entries() if e.batch is not None]
    games = args.games or batched
    # The four-seat engine is a row of every table (and a game of --baseline's); the table's rows are the family's.
    allowed = batched + ["tressette"] if args.baseline is not None or args.child is not None else batched
    unknown = [game for game in games if game not in allowed]
    if unknown:
        parser.error(f"--games {unknown[0]}: the games with a family batched engine are {', '.join(allowed)}")
    games_flag = f" --games {' '.join(games)}" if args.games else ""
    if args.child is not None:
        _child(args.child, args.seconds, games, warmup)
        return
    if args.baseline is not None:
        result = against_baseline(args.baseline, games, args.seconds, args.rounds, warmup)
        result["command"] = (
            f"OMP_NUM_THREADS=1 python benchmarks/bench_family_batched.py --baseline {args.baseline} "
            f"--seconds {args.seconds} --rounds {args.rounds} --warmup-steps {warmup}{games_flag}"
        )
        result["machine"] = f"{platform.machine()}, {platform.python_version()}, numpy {np.__version__}"
        if args.json:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps(result, indent=2) + "\n")
        return
    rows: dict[str, list[float]] = {}
    ratios: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        reference = hearts(args.seconds)
        rows.setdefault("OpenSpiel hearts", []).append(reference or float("nan"))
        four_seat = engine("tressette", 4096, args.seconds, warmup=warmup)  # the four-seat engine, for comparison
        rows.setdefault("tressette (four-seat) batched engine, N = 4096", []).append(four_seat)
        if reference:
            ratios.setdefault("tressette (four-seat) batched engine, N = 4096", []).append(four_seat / reference)
        for game in games:
            gym_id = catalog.entry(game).gym_id
            for n in SIZES:
                key = f"{game} batched engine, N = {n}"
                rate = engine(game, n, args.seconds, warmup=warmup)
                rows.setdefault(key, []).append(rate)
                if reference:
                    ratios.setdefault(key, []).append(rate / reference)
            rate = heuristic(game, 1024, args.seconds, warmup=warmup)
            if rate is not None:
                rows.setdefault(f"{game} batched heuristic, N = 1024 (decisions)", []).append(rate)
            if catalog.entry(game).gym_vector_entry_point:  # gym.make's defaults: the heuristic plays the others
                vec_env, label = gym.make_vec(gym_id, 1024, vectorization_mode="vector_entry_point"), "make_vec"
                single_env, single_label = gym.make(gym_id), "gym.make"
            else:  # no batched heuristic yet: both with random others
                vec_env, label = FamilyVectorEnv(1024, game, others="random", agent="random"), "FamilyVectorEnv"
                single_env, single_label = gym.make(gym_id, others="random"), "gym.make"
            vec = learner_steps(vec_env, 1024, args.seconds, warmup=warmup // 3)
            single = learner_steps(single_env, 0, args.seconds)
            who = "heuristic" if label == "make_vec" else "random"
            key = f"{game} {label}(1024), {who} others"
            rows.setdefault(key, []).append(vec)
            rows.setdefault(f"{game} {single_label}, {who} others", []).append(single)
            ratios.setdefault(key, []).append(vec / single)
    result = {
        "command": "OMP_NUM_THREADS=1 python benchmarks/bench_family_batched.py "
        f"--seconds {args.seconds} --rounds {args.rounds} --warmup-steps {warmup}{games_flag}",
        "warmup_steps": warmup,
        "machine": f"{platform.machine()}, {platform.python_version()}, numpy {np.__version__}",
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip(),
        "rows": {key: {"median": statistics.median(v), "rounds": v} for key, v in rows.items()},
        "ratios": {key: {"median": statistics.median(v), "rounds": v} for key, v in ratios.items()},
        "memory": {game: memory(game) for game in games},
    }
    print("| row (CPU time, one core) | per CPU second | ratio | ratio to |")
    print("| --- | ---: | ---: | --- |")
    for key, value in result["rows"].items():
        ratio = result["ratios"].get(key)
        to = "gym.make" if "(1024)" in key else "hearts"
        shown = f"{ratio['median']:.1f}x" if ratio else ""
        print(f"| {key} | {value['median']:,.0f} | {shown} | {to if ratio else ''} |")
    for game, m in result["memory"].items():
        print(
            f"| {game} memory at N = 4096 | {m['kept_bytes_per_deal']:,.0f} B a deal kept, "
            f"{m['step_peak_bytes_per_deal']:,.0f} B a deal at a step's peak | | |"
        )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
