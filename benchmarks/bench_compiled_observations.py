"""The family's batched engines with their compiled observations and with their NumPy ones, in one process.

For every engine with a compiled observation (``tressette_env.vector._compiled``), at N = 4096
after ``--warmup-steps`` random steps: ``observe`` alone, and the engine loop of
``bench_family_batched.py`` (step + observe + legal_masks + sample_actions, the random choice
timed), each with the kernel and with the NumPy code (``_family._KERNELS`` set to the kernel or
to None), the two taking turns over ``--rounds`` rounds of ``--seconds`` CPU seconds on the same
batch. Each ratio is the median of the per-round ratios, so that a slow spell of the shared
machine hits both sides. Needs numba (the ``fast`` extra).

    OMP_NUM_THREADS=1 python benchmarks/bench_compiled_observations.py --rounds 5 --seconds 1 \\
        --json benchmarks/results/compiled_observations.json
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import time
from pathlib import Path

import numpy as np

from tressette_env import catalog
from tressette_env.vector import _compiled, _family

KERNELS = {
    "tressette_col_morto": "_col_morto_words",
    "tressette_in_due": "_in_due_words",
    "tressette_a_chiamare": "_a_chiamare_words",
    "calabresella": "_calabresella_words",
}


def _rate(work, n: int, seconds: float) -> float:
    """Decisions (``n`` a call of ``work``) per CPU second over ``seconds`` of CPU time."""
    calls = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        work()
        calls += 1
    return n * calls / (time.process_time() - start)


def measure(game: str, n: int, rounds: int, seconds: float, warmup: int) -> dict:
    """Per round, each of observe alone and the engine loop with the kernel and with NumPy, taking turns."""
    module = KERNELS[game]
    kernel = _family.compiled_kernel(module)
    batch = catalog.entry(game).batch_type()(n, seed=0)
    rng = np.random.default_rng(0)
    for _ in range(warmup):
        batch.step(batch.sample_actions(rng))

    def loop() -> None:
        batch.step(batch.sample_actions(rng))
        batch.observe()
        batch.legal_masks()

    rows: dict[str, list[float]] = {}
    for _ in range(rounds):
        for path, value in (("compiled", kernel), ("numpy", None)):
            _family._KERNELS[module] = value
            batch.observe()  # untimed: the first call loads the kernel
            rows.setdefault(f"observe, {path}", []).append(_rate(batch.observe, n, seconds))
            rows.setdefault(f"engine, {path}", []).append(_rate(loop, n, seconds))
    _family._KERNELS[module] = kernel
    out = {name: {"median": statistics.median(v), "rounds": v} for name, v in rows.items()}
    for what in ("observe", "engine"):
        ratios = [c / p for c, p in zip(rows[f"{what}, compiled"], rows[f"{what}, numpy"], strict=True)]
        out[f"{what}, compiled / numpy"] = {"median": statistics.median(ratios), "rounds": ratios}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds of each row in each round")
    parser.add_argument("--deals", type=int, default=4096, help="N, the deals of each batch")
    parser.add_argument("--warmup-steps", type=int, default=600, help="random steps each batch plays untimed first")
    parser.add_argument("--games", nargs="*", default=list(KERNELS), choices=list(KERNELS))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.rounds < 1 or not args.seconds > 0 or args.deals < 1 or args.warmup_steps < 0:
        parser.error("--rounds and --deals are ints >= 1, --seconds a number > 0, --warmup-steps an int >= 0")
    if not _compiled.COMPILED:
        parser.error("numba is not installed (or TRESSETTE_NUMBA=0): there is no compiled observation to measure")
    results = {game: measure(game, args.deals, args.rounds, args.seconds, args.warmup_steps) for game in args.games}
    print(
        f"| game, N = {args.deals} (decisions per CPU second) | observe: compiled | NumPy | ratio | engine loop: compiled | NumPy | ratio |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for game, r in results.items():
        cells = []
        for what in ("observe", "engine"):
            cells += [f"{r[f'{what}, compiled']['median']:,.0f}", f"{r[f'{what}, numpy']['median']:,.0f}"]
            cells.append(f"{r[f'{what}, compiled / numpy']['median']:.2f}x")
        print(f"| {game} | " + " | ".join(cells) + " |")
    if args.json:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        record = {
            "command": "OMP_NUM_THREADS=1 python benchmarks/bench_compiled_observations.py "
            f"--rounds {args.rounds} --seconds {args.seconds} --deals {args.deals} --warmup-steps {args.warmup_steps}",
            "commit": commit,
            "machine": f"{platform.machine()}, {platform.python_version()}, numpy {np.__version__}",
            "games": results,
        }
        args.json.write_text(json.dumps(record, indent=2) + "\n")


if __name__ == "__main__":
    main()
