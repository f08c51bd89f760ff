"""The search player's card play against the heuristic's in Calabresella and Tressette a chiamare, on hands that are played.

Between heuristics most hands are passed out (the heuristic bids chiamo only from a count of 9
in Calabresella), so ``tressette eval`` sees the card play on few hands. Here every deal is
played: the forehand bids chiamo and the others pass, the heuristic calls and exchanges;
then the declarer's side (the soloist; in a chiamare the caller and the holder of the called
card) is played by A and the other side by B, and the same deal again with the sides' players
swapped. A deal's figure is the declarer's unit (what each opponent pays him: +1 for chiamo
made, -1 lost, doubled on cappotto) with A declaring, minus the unit with B declaring: above 0,
A plays the cards better. Prints the mean per deal with its 95% CI and how often each made the
contract.

    python benchmarks/bench_side_play.py --game calabresella --deals 400 --json benchmarks/results/family/calabresella_side_play.json
    python benchmarks/bench_side_play.py --game tressette_a_chiamare --deals 300 --json benchmarks/results/family/a_chiamare_side_play.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from multiprocessing import Pool
from pathlib import Path

from tressette_env.agents.registry import make_player
from tressette_env.agents.side_search import deal_sides
from tressette_env.engine import PLAYING, apply, legal_actions, new_game, view
from tressette_env.engine.actions import CHIAMO, PASS
from tressette_env.engine.state import PLAY
from tressette_env.envs.spec import game_spec
from tressette_env.games import a_chiamare, calabresella

SETTINGS: dict = {}
AUCTION = {"calabresella": calabresella.AUCTION, "tressette_a_chiamare": a_chiamare.AUCTION}
"""Each game's auction phase."""


def play_deal(game: str, seed: int, declaring: str, defending: str):
    """The finished hand of deal ``seed`` and the declarer's side, ``declaring`` playing that side's cards."""
    rules = game_spec(game).make_rules()
    players = {name: make_player(name) for name in {declaring, defending, "heuristic"}}
    state = new_game(rules, seed)
    rng = random.Random(seed)
    team: frozenset[int] = frozenset()
    while state.public.status == PLAYING:
        p = state.public
        x = p.table.extra
        legal = legal_actions(state)
        if p.table.phase == AUCTION[game]:  # the forehand bids chiamo, the others pass
            action = CHIAMO if CHIAMO in legal and not any(x.bids) else PASS
        elif p.table.phase != PLAY:  # the call and the exchange: the heuristic's
            action = players["heuristic"].act(view(state, p.turn), legal, rng)
        else:
            if not team:  # the declarer's side, fixed once the play begins (in a chiamare: the called card's holder)
                sides = deal_sides(view(state, p.turn), state.hands)
                team = frozenset(s for s, side in enumerate(sides) if side == 0)
            name = declaring if p.turn in team else defending
            action = players[name].act(view(state, p.turn), legal, rng)
        state = apply(state, action)
    return state, team


def declarer_unit(game: str, seed: int, declaring: str, defending: str) -> tuple[int, bool]:
    """The declarer's unit and whether he made the contract, ``declaring`` playing his side's cards."""
    state, team = play_deal(game, seed, declaring, defending)
    p = state.public
    opponent = next(s for s in range(p.table.seats) if s not in team)
    unit = -p.table.extra.stakes[p.table.controllers[opponent]]  # what each opponent pays the declarer
    return unit, unit > 0


def one_deal(seed: int) -> tuple[int, int, bool, bool]:
    game, a, b = SETTINGS["game"], SETTINGS["a"], SETTINGS["b"]
    ua, wa = declarer_unit(game, seed, a, b)
    ub, wb = declarer_unit(game, seed, b, a)
    return ua, ub, wa, wb


def init(settings: dict) -> None:
    SETTINGS.update(settings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="calabresella", choices=["calabresella", "tressette_a_chiamare"])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--a", default="search")
    parser.add_argument("--b", default="heuristic")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed (deals seed, seed + 1, ...)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    settings = {"game": args.game, "a": args.a, "b": args.b}
    start = time.perf_counter()
    seeds = range(args.seed, args.seed + args.deals)
    with Pool(args.workers, initializer=init, initargs=(settings,)) as pool:
        rows = pool.map(one_deal, seeds, chunksize=4)
    diffs = [ua - ub for ua, ub, _, _ in rows]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    made_a = statistics.fmean(wa for _, _, wa, _ in rows)
    made_b = statistics.fmean(wb for _, _, _, wb in rows)
    seconds = time.perf_counter() - start
    print("| game | A | B | deals | A's unit - B's, declaring | 95% CI | A made | B made |")
    print("| --- | --- | --- | ---: | ---: | --- | ---: | ---: |")
    print(
        f"| {args.game} | {args.a} | {args.b} | {len(diffs)} | {mean:+.3f} | [{mean - half:+.3f}, {mean + half:+.3f}] | "
        f"{made_a:.1%} | {made_b:.1%} |"
    )
    print(f"\n{seconds:.0f} s, {args.workers} workers")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = settings | {
            "deals": len(diffs),
            "mean": mean,
            "ci95": [mean - half, mean + half],
            "made_a": made_a,
            "made_b": made_b,
            "seconds": seconds,
            "rows": rows,
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n")


if __name__ == "__main__":
    main()
