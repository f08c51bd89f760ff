"""What a four-seat card costs, piece by piece: the rules core, the mirror, the observation, in CPU time.

Times each piece of an AEC step of the four-seat game, in nanoseconds a card, the median of
``--rounds`` interleaved rounds of ``time.process_time``. ``apply``, the mirror, the encoder
and ``legal`` run over the same cards (300 random hands, each card but the last; ``--hands``);
``unpack`` over 500 masks of the observation's and the mask's size; the loop on its own
environment:

- ``apply``: the rules core's new ``GameState`` (``engine.game.apply``);
- ``mirror, 4 seats watched`` / ``1 seat watched``: ``envs.mirror.CardPlayMirror.play``, every
  seat's observation bits patched (the AEC environment) or the learner's only (the
  single-learner environment); each hand's mirror is made outside the timing;
- ``encoder``: ``Observation.bits`` of the seat on turn (what the mirror's patches replace);
- ``legal``: ``engine.game.legal_mask_for``;
- ``unpack``: the observation and mask bits into one int8 array (``encoders.observation.unpack``);
- ``do-nothing loop``: PettingZoo's AEC loop on an environment that does nothing
  (``bench_env.DoNothingEnv``: ``agent_iter``, ``last``, the mask's ``nonzero`` and a random
  choice), a card's floor in any AEC environment.

With OpenSpiel's hearts on the path (pyspiel) its decisions a CPU second are measured beside,
as ``bench_env.py`` does, and each piece is also given as a share of hearts' time a decision.

    OMP_NUM_THREADS=1 python benchmarks/bench_mirror.py --rounds 5 --json benchmarks/results/mirror.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tressette_env import tressette_v0
from tressette_env.encoders.observation import CLASSIC, unpack
from tressette_env.engine.game import apply, legal_actions, legal_mask_for, new_game
from tressette_env.envs.mirror import layout_of, mirror_of

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_env import DoNothingEnv, bench_aec, hearts_timing  # noqa: E402 (the benchmarks' own module)


def hands(count: int) -> list[tuple]:
    """``count`` random hands: (first state, its actions but the last, the states before each)."""
    rules = tressette_v0.raw_env().rules
    rng = random.Random(0)
    out = []
    for _ in range(count):
        first = new_game(rules, rng)
        state, actions, states = first, [], []
        while state.public.tricks_done < 9 or len(state.public.trick) < 3:
            legal = legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            states.append(state)
            actions.append(action)
            state = apply(state, action)
        out.append((first, actions, states))
    return out


def pieces(played: list[tuple]) -> dict[str, Callable[[], int]]:
    """Name -> a function that runs the piece over every card and returns how many cards it ran."""
    size = 792 + 161

    def core() -> int:
        n = 0
        for _, actions, states in played:
            for state, action in zip(states, actions, strict=True):
                apply(state, action)
            n += len(actions)
        return n

    def mirror(watched: tuple[int, ...]) -> Callable[[], int]:
        def run() -> int:
            n = 0
            for first, actions, _ in played:
                m = mirror_of(first, watched, CLASSIC, layout_of(CLASSIC))
                play = m.play
                start = time.process_time()
                for action in actions:
                    play(action)
                run.spent += time.process_time() - start
                n += len(actions)
            return n

        run.spent = 0.0
        return run

    def encoder() -> int:
        n = 0
        for _, actions, states in played:
            for state in states:
                p = state.public
                CLASSIC.bits(p, p.turn, state.hands[p.turn])
            n += len(actions)
        return n

    def legal() -> int:
        n = 0
        for _, actions, states in played:
            for state in states:
                legal_mask_for(state.hands[state.public.turn], state.public)
            n += len(actions)
        return n

    masks = [(1 << 953) - 1 - (1 << k) for k in range(500)]

    def unpacking() -> int:
        for bits in masks:
            unpack(bits, size)
        return len(masks)

    return {
        "apply": core,
        "mirror, 4 seats watched": mirror((0, 1, 2, 3)),
        "mirror, 1 seat watched": mirror((0,)),
        "encoder": encoder,
        "legal": legal,
        "unpack": unpacking,
    }


def measure(played: list[tuple], rounds: int, seconds: float) -> dict:
    runs = pieces(played)
    rates: dict[str, list[float]] = {name: [] for name in runs}
    rates["do-nothing loop"] = []
    rates["hearts"] = []
    have_hearts = hearts_timing(deals=1) is not None
    for _ in range(rounds):
        for name, run in runs.items():
            spent = getattr(run, "spent", None)
            if spent is not None:
                run.spent = 0.0
            start = time.process_time()
            cards = run()
            took = run.spent if spent is not None else time.process_time() - start
            rates[name].append(took / cards * 1e9)
        loop = bench_aec(DoNothingEnv, deals=400)
        rates["do-nothing loop"].append(loop.cpu_s / loop.steps * 1e9)
        if have_hearts:
            timing = hearts_timing(seconds, budget=time.process_time)
            rates["hearts"].append(timing.cpu_s / timing.steps * 1e9)
    return {name: statistics.median(values) for name, values in rates.items() if values} | {
        "rounds": {name: values for name, values in rates.items() if values}
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="hearts' time a round (CPU)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = measure(hands(args.hands), args.rounds, args.seconds)
    hearts = result.get("hearts")
    print("| piece (four-seat game) | ns a card (CPU, median) |" + (" share of hearts' decision |" if hearts else ""))
    print("| --- | ---: |" + (" ---: |" if hearts else ""))
    for name, value in result.items():
        if name == "rounds":
            continue
        share = f" {value / hearts:.2f} |" if hearts else ""
        print(f"| {name} | {value:,.0f} |{share}")
    if args.json:
        where = {
            "command": " ".join(sys.argv),
            "commit": subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=Path(__file__).parent
            ).stdout.strip(),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "python": platform.python_version(),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        }
        args.json.write_text(json.dumps({**where, **result}, indent=1) + "\n")


if __name__ == "__main__":
    main()
