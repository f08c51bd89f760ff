"""Tressette col morto's observation and state vector: the four-seat pieces, the dummies, and whom you play for.

Seats are relative to your own seat (0 = you, 1 = the next seat...); the dummy's cards are
in the ``exposed`` piece; ``acting_for`` says which seat you are playing now (yours, or
your dummy's in its turn). Match scores are by player (yours first, then the next players
in play order); in a fixed holder's match (``dummy_holder="fixed"``), by side (yours, the other).
"""

from __future__ import annotations

from functools import cache

from ..engine.state import PublicState
from ..games.col_morto import COL_MORTO, ColMortoRules, by_sides
from .global_state import StateEncoder
from .layout import Piece
from .observation import ExtraPiece, Observation


def _dummies(p: PublicState, me: int, hand: int) -> int:
    return sum(1 << ((s - me) % 4) for s in p.table.extra.dummies)


def _acting_for(p: PublicState, me: int, hand: int) -> int:
    turn = p.turn
    if turn < 0 or p.table.controllers[turn] != p.table.controllers[me]:
        return 0
    return 1 << ((turn - me) % 4)


def _player(p: PublicState, me: int) -> int:
    return p.table.controllers[me]


EXTRAS = (
    ExtraPiece(
        Piece("dummies", (4,), "the relative seats that are dummies (their hands are face up)"), _dummies, of_table=True
    ),
    ExtraPiece(
        Piece(
            "acting_for",
            (4,),
            "one-hot: the relative seat you are to play now, yours or your dummy's (0 when not your turn)",
        ),
        _acting_for,
        of_turn=True,
    ),
)


@cache
def _observation(competitors: int, by_player: bool) -> Observation:
    return Observation(
        4, 2, 10, competitors, exposed=True, extras=EXTRAS, competitor_of=_player if by_player else None,
        side_word="side", competitor_word="player" if by_player else "side",
    )  # fmt: skip


def observation(rules: ColMortoRules) -> Observation:
    """The observation of a player of col morto (its layout depends on the match's competitors)."""
    return _observation(COL_MORTO.competitors(rules), not by_sides(rules))


@cache
def _state(competitors: int) -> StateEncoder:
    return StateEncoder(4, 2, 10, competitors)


def state_encoder(rules: ColMortoRules) -> StateEncoder:
    """``env.state()``'s vector for col morto."""
    return _state(COL_MORTO.competitors(rules))
