"""Resampling from every information state: how often ``resample_from_infostate`` finds a consistent state, and its cost.

At each decision of random hands of every hand rule set of ``tests/games/family.py`` (the test
tree's rule sets: run from the repository's root), each seated player resamples once; the
figures are the resamples made, those that failed (no consistent replay in ``RESAMPLE_TRIES``
draws) and the mean CPU time of one.

    python benchmarks/stress_openspiel_resample.py --hands 20
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import pyspiel

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tressette_env.integrations.openspiel as openspiel  # noqa: E402
from tests.games.family import RULE_SETS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=20)
    args = parser.parse_args()
    print("| game | rule set | resamples | failed | CPU ms each |")
    print("| --- | --- | ---: | ---: | ---: |")
    for name, sets in RULE_SETS.items():
        for switches in sets:
            if switches.get("episode", "hand") != "hand":
                continue
            game = pyspiel.load_game(openspiel.game_name(name), openspiel.parameters_of(name, switches))
            made = failed = 0
            seconds = 0.0
            for seed in range(args.hands):
                rng = random.Random(seed)
                state = game.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        state.apply_action(rng.choice(state.chance_outcomes())[0])
                        continue
                    for player in range(game.num_players()):
                        if state.game_state.public.table.seat_of[player] < 0:
                            continue
                        start = time.process_time()
                        try:
                            state.resample_from_infostate(player, rng.random)
                        except RuntimeError:
                            failed += 1
                        seconds += time.process_time() - start
                        made += 1
                    state.apply_action(rng.choice(state.legal_actions()))
            label = ", ".join(f"{k}={v}" for k, v in switches.items()) or "defaults"
            print(f"| {name} | {label} | {made:,} | {failed} | {1000 * seconds / made:.1f} |", flush=True)


if __name__ == "__main__":
    main()
