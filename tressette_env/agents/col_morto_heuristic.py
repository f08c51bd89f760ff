"""The club player of the four-seat game, playing col morto: its own hand, and its dummy's in the dummy's turn.

Col morto is the four-seat game with one or two hands face up, so the rules of
``HeuristicPlayer`` apply as they are. Two things change:

- in its dummy's turn the player plays the dummy's cards, with the dummy's seat's rules
  (its partner is then the player itself, whose hand it knows);
- a face-up hand is known card by card: a card that lies face up elsewhere is not in any
  other hand, and a face-up hand after it in the trick beats a card only if it holds a
  higher card of the suit (``_nobody_after_can_beat``).

Example:
    >>> import random
    >>> from tressette_env.engine import legal_actions, new_game, view
    >>> from tressette_env.games.col_morto import ColMortoRules
    >>> state = new_game(ColMortoRules(), seed=0)
    >>> seat = state.public.table.seat_of[state.public.table.controllers[state.public.turn]]
    >>> ColMortoHeuristic().act(view(state, seat), legal_actions(state), random.Random(0)) in legal_actions(state)
    True
"""

from __future__ import annotations

import random

from ..engine.cards import STRENGTH, SUIT_MASK, cards_of, mask_of
from ..engine.state import SeatView
from .heuristic import HeuristicPlayer


class ColMortoHeuristic(HeuristicPlayer):
    """``HeuristicPlayer`` for col morto (see the module docstring)."""

    name = "heuristic"

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        p = view.public
        if p.turn != view.seat:  # the dummy's turn: play its cards from its seat
            hand = p.exposed_by(p.turn) or mask_of(a % 40 for a in legal if a < 160)
            view = SeatView(p.turn, hand, p)
        return self.play(view, legal, rng)

    @staticmethod
    def _nobody_after_can_beat(view: SeatView, card: int, others: int) -> bool:
        """Whether no seat still to play in this trick can hold a higher card of the led suit.

        A face-up hand holds exactly its face-up cards; a hidden one may hold any higher card
        not seen elsewhere (and none of a suit it has shown it lacks).
        """
        p = view.public
        suit = card // 10
        me = view.seat
        partner = (me + 2) % 4
        higher = [c for c in cards_of(others & SUIT_MASK[suit]) if STRENGTH[c] > STRENGTH[card]]
        if not higher:
            return True
        face_up = 0
        for s in range(4):
            face_up |= p.exposed_by(s)
        known_partner = p.revealed_by(partner) | p.exposed_by(partner)
        for seat in ((me + k) % 4 for k in range(1, 4 - len(p.trick))):
            if seat == partner or p.is_void(seat, suit):
                continue
            shown = p.exposed_by(seat)
            if shown:
                if any(shown >> c & 1 for c in higher):
                    return False
                continue
            if any(not (known_partner | face_up) >> c & 1 for c in higher):
                return False
        return True
