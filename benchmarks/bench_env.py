"""Steps per second on random legal play: the bare engine, the AEC environment, and OpenSpiel's hearts.

Every loop reads the legal actions and picks one uniformly with the same cheap RNG
(``random.Random``); the environment loops also read the observation each step.
Each loop runs for a fixed wall time, as PettingZoo's ``performance_benchmark`` does.
Prints a Markdown table with the ratio of each row to OpenSpiel hearts (when
``pyspiel`` is installed) and writes the figures as JSON.

    python benchmarks/bench_env.py --seconds 5 --json benchmarks/results/env.json
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from tressette_env import tressette_v0
from tressette_env.engine import PLAYING, Rules, apply, legal_actions, new_game


def bench_engine(seconds: float) -> float:
    """The engine alone: legal actions, a random choice, apply; a new deal after each hand."""
    rng = random.Random(0)
    rules = Rules()
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game(rules, rng)
        while state.public.status == PLAYING:
            legal = legal_actions(state)
            state = apply(state, legal[int(rng.random() * len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def bench_aec(make_env: Callable, seconds: float) -> float:
    """The AEC loop: last() (observation and mask) every step, a random legal action."""
    env = make_env()
    env.reset(seed=0)
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset()
        for _agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)


def bench_hearts(seconds: float) -> float | None:
    """OpenSpiel's hearts from Python, the information-state tensor read into NumPy each step."""
    try:
        import pyspiel
        from open_spiel.python.observation import make_observation
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    observation = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            observation.set_from(state, state.current_player())
            np.asarray(observation.tensor).copy()
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="wall time per row")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()

    rows: dict[str, float | None] = {
        "OpenSpiel hearts (pyspiel, numpy observation)": bench_hearts(args.seconds),
        "tressette engine (no observation)": bench_engine(args.seconds),
        "tressette AEC raw_env (observation + mask)": bench_aec(tressette_v0.raw_env, args.seconds),
        "tressette AEC env() with PettingZoo wrappers": bench_aec(tressette_v0.env, args.seconds),
    }
    hearts = rows["OpenSpiel hearts (pyspiel, numpy observation)"]
    print("| loop (random legal play, one core) | steps/s | vs hearts |")
    print("| --- | ---: | ---: |")
    for name, rate in rows.items():
        if rate is None:
            print(f"| {name} | not installed | |")
            continue
        ratio = f"{rate / hearts:.2f}x" if hearts else ""
        print(f"| {name} | {rate:,.0f} | {ratio} |")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        result = {"seconds_per_row": args.seconds, "python": platform.python_version(), "steps_per_second": rows}
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
