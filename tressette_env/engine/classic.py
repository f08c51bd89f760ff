"""Tressette, the four-seat partnership game (RULES.md), as a ``Game`` of the family.

Four seats, partners opposite (team = seat % 2), ten cards each, one phase: the card
play of the core. What is its own: the deal (ten cards each, the first lead), the
declarations at the deal, the match between two teams, the rewards.

Example:
    >>> from tressette_env.engine import Rules, new_game
    >>> state = new_game(Rules(), seed=0)
    >>> state.public.table.seats, state.public.table.sides
    (4, (0, 1, 0, 1))
"""

from __future__ import annotations

import random
from functools import cache

from .cards import FOUR_OF_DENARI, CardMask
from .game import check_deal, check_seat, shuffled
from .rules import Rules
from .scoring import NO_DECLARATIONS, declare
from .state import PLAYING, GameState, PublicState, Table
from .variant import Game


@cache
def classic_table(signals: bool, narrow_striscio: bool, calling_out: bool) -> Table:
    """The four-seat table: team = seat % 2, every seat its own agent, every leader may signal."""
    return Table(
        4,
        10,
        (0, 1, 0, 1),
        (0, 1, 2, 3),
        (0, 1, 2, 3),
        0b1111 if signals else 0,
        0,
        0b111,
        narrow_striscio,
        calling_out,
    )


def table_of(rules: Rules) -> Table:
    """The table of a rule set."""
    return classic_table(rules.signals, rules.striscio == "no_honours", rules.calling_out)


class Tressette(Game):
    """The four-seat partnership game (see the module docstring)."""

    name = "tressette"
    rules_type = Rules
    side_word = "team"
    renuncio_text = "its team loses the hand 11-0"
    search_mode = "tricks"

    def zero_sum(self, rules: Rules) -> bool:
        return True  # a team's difference, and its opposite

    def agents(self, rules: Rules) -> int:
        return 4

    def checked_deal(self, rules: Rules, options: dict, first: bool) -> dict:
        out = {}
        if "hands" in options:
            out["hands"] = check_deal(options["hands"])
        if "dealer" in options:
            if not first:
                raise TypeError("the next hand's dealer follows from the last hand: deal options are hands only")
            out["dealer"] = check_seat(options["dealer"])
        return out

    def new_game(self, rules: Rules, rng: random.Random, options: dict) -> GameState:
        dealer = options.get("dealer")
        if dealer is None:
            dealer = rng.randrange(4)
        hands = options.get("hands") or tuple(shuffled(rng, (10, 10, 10, 10)))
        return deal(rules, dealer, hands, (0, 0), 0)

    def next_hand(self, state: GameState, rng: random.Random, options: dict) -> GameState:
        p = state.public
        hands = options.get("hands") or tuple(shuffled(rng, (10, 10, 10, 10)))
        return deal(p.rules, (p.dealer + 1) % 4, hands, p.match_score, p.hand_number + 1)

    def returns(self, p: PublicState) -> tuple[float, ...]:
        """Points difference of the hand by team, or +1/-1 for the match; partners alike."""
        if p.rules.episode == "match":
            team = (1.0, -1.0) if p.winner == 0 else (-1.0, 1.0)
        else:
            diff = float(p.result.points[0] - p.result.points[1])
            team = (diff, -diff)
        return team[0], team[1], team[0], team[1]


TRESSETTE = Tressette()
Rules.game = TRESSETTE


def deal(
    rules: Rules,
    dealer: int,
    hands: tuple[CardMask, CardMask, CardMask, CardMask],
    match_score: tuple[int, int],
    hand_number: int,
) -> GameState:
    """A hand of the four-seat game dealt with these cards."""
    if rules.first_lead == "four_of_denari" and hand_number == 0:
        # Seed 000: the 4 di denari leads the first hand only; later hands the seat after the dealer.
        first = next(s for s in range(4) if hands[s] >> FOUR_OF_DENARI & 1)
    else:
        first = (dealer + 1) % 4
    public = PublicState(
        rules=rules,
        status=PLAYING,
        turn=first,
        leader=first,
        trick=(),
        tricks_done=0,
        played=0,
        signals=0,
        voids=0,
        thirds=(0, 0),
        history=(),
        dealer=dealer,
        first_leader=first,
        accusi=declare(hands) if rules.accusi else NO_DECLARATIONS,
        match_score=match_score,
        hand_number=hand_number,
        result=None,
        winner=None,
        table=table_of(rules),
    )
    return GameState(public, hands, hands)
