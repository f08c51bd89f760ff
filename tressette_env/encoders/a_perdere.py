"""Tressette a perdere's observation and state vector: the common pieces for N players, and the game's own.

Seats are relative to the observer (0 you, then the players in play order); every player is
a side of his own (with ``teams=True``, two partnerships). The layout is fixed for a rule
set: with ``match_end="elimination"`` the pieces are sized for every player and the tricks of
the smallest table, and the seats of players who are out stay 0. The thirds thermometers are
as wide as a player's thirds can be (the special asso di bastoni makes them wider).
"""

from __future__ import annotations

from functools import cache

from ..engine.state import GameState, PublicState
from ..games.a_perdere import APerdereRules, hand_size
from .global_state import ExtraStatePiece, StateEncoder
from .layout import Piece
from .observation import Encoded, ExtraPiece, Observation


def _removed(p: PublicState, me: int, hand: int) -> int:
    return p.table.extra.removed


def _set_aside(p: PublicState, me: int, hand: int) -> int:
    return (1 << p.table.extra.set_aside) - 1


def _face_down_known(p: PublicState, me: int, hand: int, private: int) -> int:
    """The face-down cards the seat knows: the dealer's own discards (``reduce="dealer_discard"``)."""
    return private


def _out(p: PublicState, me: int, hand: int) -> int:
    """The players who are out, by agent relative to the observer's agent."""
    table = p.table
    n = len(table.seat_of)
    mine = table.controllers[me]
    return sum(1 << ((a - mine) % n) for a in table.extra.out)


def _agent(p: PublicState, me: int) -> int:
    return p.table.controllers[me]


class APerdereObservation(Encoded):
    """The observation of a rule set: one ``Observation`` per number of players still in, one layout."""

    def __init__(self, rules: APerdereRules):
        n = rules.players
        sides = 2 if rules.teams else n
        smallest = 2 if rules.episode == "match" and rules.match_end == "elimination" else n
        tricks = hand_size(smallest)
        width = 35 + 3 * (rules.asso_bastoni_value - 1)
        extras = (
            ExtraPiece(
                Piece("removed", (40,), "the cards removed from the deck this hand (announced)"),
                _removed,
                of_table=True,
            ),
            ExtraPiece(
                Piece(
                    "set_aside",
                    (5,),
                    "cards face down for the last trick's winner (monte or discards), as a thermometer",
                ),
                _set_aside,
                of_table=True,
            ),
            ExtraPiece(
                Piece("face_down_known", (40,), "the face-down cards you know: your own discards as the dealer"),
                _face_down_known,
                private=True,
                played_out=True,  # (discards set aside: no card play changes it)
            ),
            ExtraPiece(
                Piece("out", (n,), "the players out of the match, by player relative to you"), _out, of_table=True
            ),
        )
        competitors = 2 if rules.teams else n
        by_seats = {}
        for live in range(smallest, n + 1) if not rules.teams else (4,):
            by_seats[live] = Observation(
                live, 2 if rules.teams else live, hand_size(live), competitors, signals=rules.teams, accusi=False,
                extras=extras, competitor_of=None if rules.teams else _agent, side_word="team" if rules.teams else "player",
                layout=(n, sides, tricks), thirds_width=width,
            )  # fmt: skip
        self.by_seats = by_seats
        """Players still in -> the ``Observation`` that encodes a table of them (every one has this layout)."""
        full = by_seats[n]
        self.of_full_table = full
        """The ``Observation`` of a table with every player in: its layout is this one's (a mirror of the card
        play keeps it, ``envs.mirror.layout_of``, at such a table)."""
        self.layout, self.slices, self.size = full.layout, full.slices, full.size
        encoders = {live: o.bits for live, o in by_seats.items()}
        self.takes_private = True
        if len(encoders) == 1:
            self.bits = full.bits
        else:

            def bits(p: PublicState, me: int, hand: int, private: int = 0) -> int:
                return encoders[p.table.seats](p, me, hand, private)

            self.bits = bits


@cache
def observation(rules: APerdereRules) -> APerdereObservation:
    """The observation of a player of a perdere under these rules."""
    return APerdereObservation(rules)


def _set_aside_cards(state: GameState) -> int:
    bits = 0
    for c in state.hidden.set_aside:
        bits |= 1 << c
    return bits


@cache
def state_encoder(rules: APerdereRules) -> StateEncoder:
    """``env.state()``'s vector for a perdere (absolute seats; players out leave their rows 0)."""
    n = rules.players
    sides = 2 if rules.teams else n
    smallest = 2 if rules.episode == "match" and rules.match_end == "elimination" else n
    return StateEncoder(
        n, sides, hand_size(smallest), 2 if rules.teams else n, signals=rules.teams, accusi=False,
        extras=(ExtraStatePiece(Piece("set_aside", (40,), "the monte or the dealer's discards"), _set_aside_cards),),
        thirds_width=35 + 3 * (rules.asso_bastoni_value - 1),
    )  # fmt: skip
