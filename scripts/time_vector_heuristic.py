"""Microseconds per decision of the batched heuristic (``heuristic_actions``) and of the scalar one.

The batch plays whole hands with the heuristic at every seat; only the
``heuristic_actions`` calls are timed (the median call of a few hands, per decision).
The scalar player is timed on ``act`` alone (not ``view`` or ``legal_actions``).
Single-threaded (it sets OMP_NUM_THREADS and friends to 1 before NumPy loads).

    python scripts/time_vector_heuristic.py
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"

import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from tressette_env.agents.heuristic import HeuristicPlayer  # noqa: E402
from tressette_env.engine import apply, legal_actions, new_game, view  # noqa: E402
from tressette_env.vector import TressetteBatch  # noqa: E402
from tressette_env.vector.heuristic import heuristic_actions  # noqa: E402


def batched(m: int, mixed: bool, hands: int = 3) -> float:
    """Median µs per decision of ``heuristic_actions`` over the states of a few hands of heuristic play.

    ``mixed``: the deals are first put out of step (random partial steps), so that each
    call has leads and follows, voids and all, as in an environment.
    """
    batch = TressetteBatch(m, seed=0)
    rng = np.random.default_rng(0)
    if mixed:
        for _ in range(8):
            batch.step(heuristic_actions(batch), active=rng.random(m) < 0.5)
    times = []
    for _ in range(40 * hands):
        t0 = time.perf_counter()
        actions = heuristic_actions(batch)
        times.append(time.perf_counter() - t0)
        batch.step(actions)
    return statistics.median(times) / m * 1e6


def scalar(hands: int = 200) -> float:
    player, rng = HeuristicPlayer(), random.Random(0)
    timed, decisions = 0.0, 0
    for seed in range(hands):
        state = new_game(seed=seed)
        while state.public.turn >= 0 and state.public.status == 0:
            v, legal = view(state, state.public.turn), legal_actions(state)
            t0 = time.perf_counter()
            action = player.act(v, legal, rng)
            timed += time.perf_counter() - t0
            decisions += 1
            state = apply(state, action)
    return timed / decisions * 1e6


if __name__ == "__main__":
    print("| M | µs per decision (deals in step) | µs per decision (deals out of step) |")
    print("| --- | --- | --- |")
    for m in (64, 256, 1024, 4096):
        print(f"| {m} | {batched(m, False):.2f} | {batched(m, True):.2f} |")
    print(f"| scalar ``HeuristicPlayer.act`` | {scalar():.2f} | |")
