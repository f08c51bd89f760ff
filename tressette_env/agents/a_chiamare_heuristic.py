"""A rule player for Tressette a chiamare.

It bids from its hand's count, calls the card that helps most, and plays for its side as far as it knows it: the partner helps its caller, the others infer the partner.

| decision | rule |
| --- | --- |
| bid | its count (``side_play.hand_strength``): chiamo from ``CHIAMO_AT``, sola from ``SOLA_AT``, the highest the auction allows; else pass |
| call | the highest rank it lacks a card of, in its longest suit (then its richest) |
| play | ``side_play.side_card`` with the sides as this seat knows them (below) |

Whom a seat counts as a friend or a foe (the others are unknown, played as possible foes):

- the caller: the partner once it is known (the called card played), or the seat it suspects;
- the partner (it holds the called card): the caller; the other three are foes;
- an opponent: the caller is a foe; once the partner is known, it is a foe and the other
  opponents are friends; before, a seat that loaded points onto a trick the caller was
  winning is suspected (a foe), and the seats that beat the caller's card are friends.
- after a sola: the soloist against the other four.

The thresholds were chosen with ``benchmarks/calibrate_bids.py --game tressette_a_chiamare``:
over 1000 deals chiamo's mean stake is above 0 from a count of 5; sola lost on average at
every count seen (up to 7), so it is bid from 9, a count no calibration deal reached.

Example:
    >>> import random
    >>> from tressette_env.engine import legal_actions, new_game, view
    >>> from tressette_env.games.a_chiamare import AChiamareRules
    >>> state = new_game(AChiamareRules(), seed=0)
    >>> AChiamareHeuristic().act(view(state, state.public.turn), legal_actions(state), random.Random(0)) in legal_actions(state)
    True
"""

from __future__ import annotations

import random

from ..engine.actions import CALL, CHIAMO, PASS, SOLO
from ..engine.cards import STRENGTH, THIRDS
from ..engine.state import SeatView
from ..engine.tricks import winning_position
from ..games import a_chiamare as ch
from .side_play import call_card, hand_strength, side_card

CHIAMO_AT, SOLA_AT = 5.0, 9.0
"""The hand counts (``hand_strength``) from which the heuristic bids chiamo and sola."""


class AChiamareHeuristic:
    """The rule player described in the module docstring (deterministic)."""

    name = "heuristic"
    thresholds = (CHIAMO_AT, SOLA_AT)

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        if len(legal) == 1:
            return legal[0]
        p = view.public
        if p.table.phase == ch.AUCTION:
            count = hand_strength(view.hand)
            wanted = [c for c, at in zip((CHIAMO, SOLO), self.thresholds, strict=True) if count >= at]
            bids = [b for b in wanted if b in legal]
            return max(bids) if bids else PASS
        if p.table.phase == ch.CALL_PHASE:
            options = [a - CALL for a in legal if not view.hand >> (a - CALL) & 1]  # never its own card
            return CALL + call_card(view.hand, options or [a - CALL for a in legal])
        cards = sorted({a % 40 for a in legal})
        card = side_card(view, cards, *known_sides(view))
        return next(a for a in legal if a % 40 == card and a < 40)


def known_sides(view: SeatView) -> tuple[frozenset[int], frozenset[int]]:
    """The seat's friends (itself included) and foes, as far as it knows or suspects them."""
    p = view.public
    x = p.table.extra
    me = view.seat
    everyone = frozenset(range(p.table.seats))
    declarer = x.declarer
    if x.contract == SOLO:
        if me == declarer:
            return frozenset({me}), everyone - {me}
        return everyone - {declarer}, frozenset({declarer})
    partner = ch.revealed_partner(p)
    holds_called = me != declarer and bool((view.hand | p.played_by(me)) >> x.called & 1)
    if holds_called:
        partner = me
    if partner >= 0:
        team = frozenset({declarer, partner})
        return (team, everyone - team) if me in team else (everyone - team, team)
    loaders, beaters = _suspects(p, declarer)
    if me == declarer:
        friends = frozenset({me}) | (loaders - beaters)
        return friends, beaters
    return frozenset({me}) | beaters, frozenset({declarer}) | (loaders - beaters - {me})


def _suspects(p, declarer: int) -> tuple[frozenset[int], frozenset[int]]:
    """Seats that loaded points onto a trick the caller was winning, and seats that beat the caller's card."""
    loaders, beaters = set(), set()
    n = p.table.seats
    for leader, cards, _ in p.tricks():
        for k in range(1, len(cards)):
            seat = (leader + k) % n
            before = cards[:k]
            winner = (leader + winning_position(before)) % n
            card = cards[k]
            if winner == declarer:
                if card // 10 == before[0] // 10 and STRENGTH[card] > STRENGTH[before[winning_position(before)]]:
                    beaters.add(seat)
                elif THIRDS[card]:
                    loaders.add(seat)
    return frozenset(loaders - {declarer}), frozenset(beaters - {declarer})
