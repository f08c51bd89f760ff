"""Random hands through OpenSpiel's API (``tressette_env.integrations.openspiel``) against the engine's own loop.

For each game of the catalog: hands dealt and played at random through ``pyspiel`` (the deal's
chance nodes included, each decision from ``state.legal_actions()``), and the same number of hands
through the engine (``new_game``, ``legal_actions``, ``apply``). Rounds alternate the two; the
figures are medians over rounds of hands and decisions per CPU second (``time.process_time``),
with OpenSpiel's C++ hearts' random hands measured the same way beside them.

    OMP_NUM_THREADS=1 python benchmarks/bench_openspiel.py --hands 100 --rounds 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import pyspiel

import tressette_env.integrations.openspiel as openspiel
from tressette_env import catalog
from tressette_env.engine import apply, is_over, legal_actions, new_game


def openspiel_hands(game, hands: int, rng: random.Random) -> int:
    decisions = 0
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions


def engine_hands(rules, hands: int, rng: random.Random) -> int:
    decisions = 0
    for _ in range(hands):
        state = new_game(rules, rng)
        while not is_over(state):
            state = apply(state, rng.choice(legal_actions(state)))
            decisions += 1
    return decisions


def timed(run, *args) -> tuple[float, int]:
    start = time.process_time()
    decisions = run(*args)
    return time.process_time() - start, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(0)
    print("| game | OpenSpiel hands/s | engine hands/s | ratio | OpenSpiel decisions/s |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for entry in catalog.entries():
        game = pyspiel.load_game(openspiel.game_name(entry.name))
        rules = entry.make_rules()
        ours, engine, per_decision = [], [], []
        for _ in range(args.rounds):
            seconds, decisions = timed(openspiel_hands, game, args.hands, rng)
            ours.append(args.hands / seconds)
            per_decision.append(decisions / seconds)
            seconds, _ = timed(engine_hands, rules, args.hands, rng)
            engine.append(args.hands / seconds)
        a, b = statistics.median(ours), statistics.median(engine)
        print(f"| {entry.name} | {a:,.0f} | {b:,.0f} | {a / b:.2f} | {statistics.median(per_decision):,.0f} |")
    hearts = pyspiel.load_game("hearts")
    rates = []
    for _ in range(args.rounds):
        seconds, decisions = timed(openspiel_hands, hearts, args.hands, rng)
        rates.append((args.hands / seconds, decisions / seconds))
    print(
        f"| OpenSpiel's hearts (C++) | {statistics.median(r[0] for r in rates):,.0f} | | | "
        f"{statistics.median(r[1] for r in rates):,.0f} |"
    )


if __name__ == "__main__":
    main()
