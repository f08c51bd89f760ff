"""The cost of a decision through the table protocol's pipe against the same player in-process.

Positions of random play in a game; for each, the heuristic decides in this process, then the
same heuristic as a bot (``tressette bot heuristic`` in a subprocess, ``protocol.bot.BotPlayer``:
the ``act`` message written, rebuilt there, the answer read back). Rounds alternate the two;
the figures are medians over rounds of the mean wall time per decision, with the mean size of
an ``act`` message. Wall time, because the pipe's cost is two processes' work and their wait.

    python benchmarks/bench_protocol.py --game tressette --positions 300 --rounds 5
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from tressette_env import catalog
from tressette_env.agents import HeuristicPlayer
from tressette_env.engine import HAND_OVER, PLAYING, apply, legal_actions, new_game, next_hand, view
from tressette_env.protocol.bot import BotPlayer
from tressette_env.protocol.view import act_message


def positions(game: str, count: int, seed: int = 0) -> list:
    rng = random.Random(seed)
    rules = catalog.entry(game).make_rules()
    out, state = [], new_game(rules, rng)
    while len(out) < count:
        status = state.public.status
        if status == HAND_OVER:
            state = next_hand(state, rng)
            continue
        if status != PLAYING:
            state = new_game(rules, rng)
            continue
        legal = legal_actions(state)
        out.append((view(state, state.public.turn), legal))
        state = apply(state, rng.choice(legal))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="tressette", choices=catalog.names())
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    cases = positions(args.game, args.positions)
    player = HeuristicPlayer()
    bot = BotPlayer("heuristic", [sys.executable, "-m", "tressette_env.cli", "bot", "heuristic"], timeout=30)
    bot.act(*cases[0], None)  # start it outside the timing
    rng = random.Random(0)
    direct, piped = [], []
    for _ in range(args.rounds):
        start = time.perf_counter()
        for seat, legal in cases:
            player.act(seat, legal, rng)
        direct.append((time.perf_counter() - start) / len(cases))
        start = time.perf_counter()
        for seat, legal in cases:
            bot.act(seat, legal, rng)
        piped.append((time.perf_counter() - start) / len(cases))
    bot.close()
    size = statistics.mean(len(json.dumps(act_message(seat, legal), separators=(",", ":"))) for seat, legal in cases)
    a, b = statistics.median(direct), statistics.median(piped)
    print(f"| {args.game} | {a * 1e6:,.0f} µs | {b * 1e6:,.0f} µs | {b / a:,.1f}x | {size / 1000:,.1f} kB |")


if __name__ == "__main__":
    main()
