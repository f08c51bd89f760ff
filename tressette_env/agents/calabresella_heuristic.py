"""A rule player for Calabresella.

It bids from its hand's count, calls the card that helps most, discards what it will not need, and plays the hand for its side (``side_play``).

| decision | rule |
| --- | --- |
| bid | its count (``side_play.hand_strength``: card points plus sure tricks): chiamo from ``CHIAMO_AT``, solo from ``SOLO_AT``, solissimo from ``SOLISSIMO_AT``, the highest it reaches that the auction allows; else pass |
| call | the highest rank it lacks a card of (a 3, else a 2...), in its longest suit of those (the most points there next) |
| return | its cheapest card (no points, the weakest) of its shortest suit, never the called card |
| take (``exchange="partial"``) | every monte card at least an asso; then stop |
| discard | the cards it needs least: not masters, from its shortest suits, the weakest first |
| opponents' discards (dividete) and swaps (scegliete) | discard the cheapest; take a monte card at least an asso and give the cheapest back |
| play | ``side_play.side_card`` with the public sides (the soloist against the two) |

The thresholds were chosen with ``benchmarks/calibrate_bids.py`` (docs/games/calabresella.md):
over 1500 deals chiamo's mean stake is above 0 from a count of 9; solo and solissimo paid
better than chiamo at no count with more than a handful of deals (the counts seen went up to
12), so solo is bid from 12 and solissimo from 14, a count no calibration deal reached.

Example:
    >>> import random
    >>> from tressette_env.engine import legal_actions, new_game, view
    >>> from tressette_env.games.calabresella import CalabresellaRules
    >>> state = new_game(CalabresellaRules(), seed=0)
    >>> seat = state.public.turn
    >>> CalabresellaHeuristic().act(view(state, seat), legal_actions(state), random.Random(0)) in legal_actions(state)
    True
"""

from __future__ import annotations

import random

from ..engine.actions import CALL, CHIAMO, GIVE, PASS, SOLISSIMO, SOLO
from ..engine.cards import STRENGTH, THIRDS, cards_of
from ..engine.state import SeatView
from ..games import calabresella as cal
from .side_play import call_card, hand_strength, is_master, side_card, suit_length

CHIAMO_AT, SOLO_AT, SOLISSIMO_AT = 9.0, 12.0, 14.0
"""The hand counts (``hand_strength``) from which the heuristic bids each contract."""
ASSO = 7
"""``STRENGTH`` of an asso: a monte card worth taking is at least this."""


def cheapest(cards: list[int]) -> int:
    """The card that costs least to give up: no points, the weakest."""
    return min(cards, key=lambda c: (THIRDS[c], STRENGTH[c]))


class CalabresellaHeuristic:
    """The rule player described in the module docstring (deterministic)."""

    name = "heuristic"
    thresholds = (CHIAMO_AT, SOLO_AT, SOLISSIMO_AT)

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        if len(legal) == 1:
            return legal[0]
        p = view.public
        phase = p.table.phase
        hand = view.hand
        mine = cards_of(hand)
        x = p.table.extra
        if phase == cal.AUCTION:
            return self.bid(view, legal)
        if phase == cal.CALL_PHASE:
            return CALL + call_card(hand, [a - CALL for a in legal])
        if phase == cal.RETURN:
            options = [a - GIVE for a in legal]
            shortest = min({c // 10 for c in options}, key=lambda s: suit_length(mine, s))
            return GIVE + cheapest([c for c in options if c // 10 == shortest])
        if phase == cal.TAKE:
            good = [a for a in legal if a != PASS and STRENGTH[a - CALL] >= ASSO]
            return good[0] if good else PASS
        if phase == cal.DISCARD:
            return GIVE + discard_card(view, [a - GIVE for a in legal])
        if phase == cal.SPLIT:
            return GIVE + cheapest([a - GIVE for a in legal])
        if phase == cal.CHOOSE:
            if x.owed:
                return GIVE + cheapest([a - GIVE for a in legal])
            good = [a for a in legal if a != PASS and STRENGTH[a - CALL] >= ASSO]
            return good[0] if good else PASS
        cards = sorted({a % 40 for a in legal})
        card = side_card(view, cards, *sides_of(view))
        return next(a for a in legal if a % 40 == card and a < 40)

    def bid(self, view: SeatView, legal: list[int]) -> int:
        """The highest contract the hand's count reaches that the auction allows; else pass."""
        count = hand_strength(view.hand)
        wanted = [c for c, at in zip((CHIAMO, SOLO, SOLISSIMO), self.thresholds, strict=True) if count >= at]
        bids = [b for b in wanted if b in legal]
        return max(bids) if bids else PASS


def sides_of(view: SeatView) -> tuple[frozenset[int], frozenset[int]]:
    """The seat's friends (its side, itself included) and its foes, from the public sides."""
    sides = view.public.table.sides
    mine = sides[view.seat]
    friends = frozenset(s for s, side in enumerate(sides) if side == mine)
    return friends, frozenset(range(len(sides))) - friends


def discard_card(view: SeatView, options: list[int]) -> int:
    """The card it needs least: not a master, from its shortest suit, the weakest."""
    mine = cards_of(view.hand)
    unseen = view.unseen
    return min(
        options,
        key=lambda c: (is_master(c, unseen), suit_length(mine, c // 10), STRENGTH[c], THIRDS[c]),
    )
