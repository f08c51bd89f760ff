"""Choose the heuristics' bidding thresholds: the soloist's mean stake by hand count and contract.

For each deal the forehand is made to bid each contract in turn (the others pass) and the
hand is played out by the heuristic in every seat; the soloist's stake is recorded with the
forehand's count (``side_play.hand_strength``). The table gives the mean stake per count
bucket and contract; a contract is worth bidding from the count where its mean stake is
above 0 and above the lower contracts'.

    python benchmarks/calibrate_bids.py --game calabresella --deals 1500 --json benchmarks/results/calibrate_calabresella.json
    python benchmarks/calibrate_bids.py --game tressette_a_chiamare --deals 1000 --json benchmarks/results/calibrate_a_chiamare.json
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections import defaultdict
from pathlib import Path

from tressette_env.agents import HeuristicPlayer
from tressette_env.agents.side_play import hand_strength
from tressette_env.engine import PLAYING, apply, legal_actions, new_game, view
from tressette_env.engine.actions import CHIAMO, PASS, SOLISSIMO, SOLO
from tressette_env.envs.spec import game_spec


def forced(game: str, deal_seed: int, contract: int) -> tuple[float, float] | None:
    """(the forehand's count, his stake) when he bids ``contract`` and the others pass; None if not allowed."""
    import random

    rules = game_spec(game).make_rules()
    state = new_game(rules, deal_seed)
    forehand = state.public.turn
    count = hand_strength(state.hands[forehand])
    player = HeuristicPlayer()
    rng = random.Random(deal_seed)
    while state.public.status == PLAYING:
        p = state.public
        legal = legal_actions(state)
        if p.table.phase == 1:  # the auction
            action = contract if p.turn == forehand else PASS
            if action not in legal:
                return None
        else:
            action = player.act(view(state, p.turn), legal, rng)
        state = apply(state, action)
    return count, float(state.public.table.extra.stakes[state.public.table.controllers[forehand]])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="calabresella", choices=["calabresella", "tressette_a_chiamare"])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    contracts = {"chiamo": CHIAMO, "solo": SOLO, "solissimo": SOLISSIMO}
    if args.game == "tressette_a_chiamare":
        contracts = {"chiamo": CHIAMO, "sola": SOLO}
    stakes: dict[str, dict[float, list[float]]] = {name: defaultdict(list) for name in contracts}
    for deal in range(args.deals):
        for name, contract in contracts.items():
            outcome = forced(args.game, deal, contract)
            if outcome is not None:
                count, stake = outcome
                stakes[name][math.floor(count)].append(stake)
    buckets = sorted({b for by in stakes.values() for b in by})
    print("| count | deals | " + " | ".join(f"{n} mean stake" for n in contracts) + " |")
    print("| ---: | ---: |" + " ---: |" * len(contracts))
    table = {}
    for b in buckets:
        row = {n: statistics.fmean(stakes[n][b]) for n in contracts if stakes[n][b]}
        table[b] = row
        deals = len(stakes[next(iter(contracts))][b])
        cells = " | ".join(f"{row[n]:+.2f}" if n in row else "" for n in contracts)
        print(f"| {b} | {deals} | {cells} |")
    if args.json:
        args.json.write_text(json.dumps({"game": args.game, "deals": args.deals, "mean_stake": table}, indent=2))


if __name__ == "__main__":
    main()
