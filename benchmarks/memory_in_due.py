"""Resident memory of one process playing Tressette in due against the heuristic, episode after episode.

The heuristic of in due solves the last tricks with the open-hands solver, whose caches have
fixed ceilings (``agents/open_solver.py``: one table of bounds, 2**18 positions; the cache of
equivalent cards, 2**16 entries). This plays ``EPISODES`` episodes of the single-learner
environment (the learner plays random legal actions) and prints the process's RSS and the
caches' sizes every ``--every`` episodes, so that the ceiling shows as a flat line.

    OMP_NUM_THREADS=1 python benchmarks/memory_in_due.py 3000 --every 250

Linux only (it reads ``VmRSS`` from ``/proc/self/status``).
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import tressette_env  # noqa: F401  (registers the environments)
from tressette_env.agents import open_solver


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("episodes", type=int, nargs="?", default=1000)
    parser.add_argument("--every", type=int, default=100, help="print every this many episodes")
    args = parser.parse_args()
    env = gym.make("tressette_env/TressetteInDue-v0", others="heuristic")
    rng = np.random.default_rng(0)
    start = time.process_time()
    print(f"start: rss {rss_mb():.0f} MB", flush=True)
    for episode in range(1, args.episodes + 1):
        env.reset(seed=episode)
        done = False
        while not done:
            legal = np.flatnonzero(env.unwrapped.action_masks())
            _, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
            done = terminated or truncated
        if episode % args.every == 0:
            print(
                f"episode {episode}: rss {rss_mb():.0f} MB, table {len(open_solver._TABLE)} positions, "
                f"equivalent cards {len(open_solver._REPS)}, {time.process_time() - start:.0f} s CPU",
                flush=True,
            )


if __name__ == "__main__":
    main()
