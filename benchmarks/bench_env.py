"""Steps per second on random legal play, side by side in one run: every tressette loop and the references.

Rows: the bare engine; the AEC environment raw and in PettingZoo's default wrappers
(observation and mask read every step); the single-seat Gymnasium environment (one
learner step = the learner's action and the other three seats' plays, random players);
the batched engine at N = 1, 64, 1024, 4096 (card plays, observations and masks of every
deal each step; the random choice not timed, see ``bench_vector.py``); and, where
installed, OpenSpiel's hearts (pyspiel, observation tensor into NumPy each step) and
RLCard's bridge (its observation is NumPy already).

Every loop reads the legal actions and picks one uniformly with the same cheap RNG
(``random.Random``). Each loop runs for a fixed wall time, as PettingZoo's
``performance_benchmark`` does.
Prints a Markdown table with the ratio of each row to OpenSpiel hearts (when
``pyspiel`` is installed) and writes the figures as JSON. Two reference rows run a
do-nothing AEC environment (a fixed observation, 40 steps a hand) raw and inside the same
PettingZoo wrappers as ``tressette_v0.env()``: what the loop and the wrappers cost alone.

    python benchmarks/bench_env.py --seconds 5 --json benchmarks/results/env.json
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

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


class DoNothingEnv(AECEnv):
    """Four agents, a 40-step episode, a fixed observation and mask: the floor of any AEC environment."""

    metadata = {"name": "do_nothing_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self):
        super().__init__()
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self._obs = {"observation": np.zeros(790, np.int8), "action_mask": np.ones(161, np.int8)}
        space = spaces.Dict(
            {"observation": spaces.Box(0, 1, (790,), np.int8), "action_mask": spaces.Box(0, 1, (161,), np.int8)}
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(161) for a in self.possible_agents}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._steps = 0

    def observe(self, agent):
        return self._obs

    def step(self, action):
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self._steps += 1
        if self._steps == 40:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[self._steps % 4]


def bench_single_seat(seconds: float, others: str = "random") -> float:
    """The Gymnasium single-seat environment: learner steps per second, random legal learner actions."""
    from tressette_env.wrappers import SingleSeatEnv

    env = SingleSeatEnv(partner=others, opponents=others)
    env.reset(seed=0)
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        legal = env.action_masks().nonzero()[0]
        _, _, terminated, _, _ = env.step(int(legal[int(rng.random() * len(legal))]))
        steps += 1
        if terminated:
            env.reset()
    return steps / (time.perf_counter() - start)


def bench_bridge(seconds: float) -> float | None:
    """RLCard's bridge, random legal play, its NumPy observation read each step."""
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("bridge", config={"seed": 0})
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            np.asarray(state["obs"])
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[int(rng.random() * len(legal))])
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

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_vector import bench_batch

    rows: dict[str, float | None] = {
        "OpenSpiel hearts (pyspiel, numpy observation)": bench_hearts(args.seconds),
        "RLCard bridge (numpy observation)": bench_bridge(args.seconds),
        "tressette engine (no observation)": bench_engine(args.seconds),
        "tressette AEC raw_env (observation + mask)": bench_aec(tressette_v0.raw_env, args.seconds),
        "tressette AEC env() with PettingZoo wrappers": bench_aec(tressette_v0.env, args.seconds),
        # One learner step is the learner's play and, on average, one play of each other seat.
        "tressette single-seat Gymnasium env (random others)": 4 * bench_single_seat(args.seconds),
        **{
            f"tressette batched engine, N = {n} (observations + masks)": bench_batch(n, args.seconds, {})
            for n in (1, 64, 1024, 4096)
        },
        "do-nothing AEC env, raw (the floor of the AEC loop)": bench_aec(DoNothingEnv, args.seconds),
        "do-nothing AEC env in the same PettingZoo wrappers": bench_aec(
            lambda: wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(DoNothingEnv())), args.seconds
        ),
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
