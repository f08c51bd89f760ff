"""Tressette a chiamare's observation and state vector: the common pieces, the auction, the call, and who knows the partner.

Seats are relative to the observer (0 you, then the next seats in play order); the thirds are
by seat (the partner is secret, so the table keeps no side's total), yours first. ``role``
says what the seat knows it is: the declarer, the partner (it holds the called card), or an
opponent. ``partner`` is the partner's relative seat where the seat knows it: the partner
itself, and everyone once the called card is played (or at the call with
``reveal_partner``); the caller does not know it before. Nothing else about the partner is
in any observation; ``env.state()`` has it.
"""

from __future__ import annotations

from functools import cache

from ..engine.actions import CHIAMO, PASS, SOLO
from ..engine.state import GameState, PublicState, Table
from ..games.a_chiamare import AUCTION, HAND, PLAYERS, AChiamareRules, partner_of, revealed_partner
from .global_state import ExtraStatePiece, StateEncoder
from .layout import Piece
from .observation import ExtraPiece, Observation

N = PLAYERS
_BID_INDEX = {PASS: 0, CHIAMO: 1, SOLO: 2}


def _phase(p: PublicState, me: int, hand: int) -> int:
    phase = p.table.phase
    return 1 << (phase - AUCTION) if phase else 0


def _bids(p: PublicState, me: int, hand: int) -> int:
    bits = 0
    for seat, bid in enumerate(p.table.extra.bids):
        if bid:
            bits |= 1 << (3 * ((seat - me) % N) + _BID_INDEX[bid])
    return bits


def _contract(p: PublicState, me: int, hand: int) -> int:
    contract = p.table.extra.contract
    return 0 if not contract else 1 if contract == CHIAMO else 2


def _declarer(p: PublicState, me: int, hand: int) -> int:
    seat = p.table.extra.declarer
    return 1 << ((seat - me) % N) if seat >= 0 else 0


def _called(p: PublicState, me: int, hand: int) -> int:
    card = p.table.extra.called
    return 1 << card if card >= 0 else 0


def _holds_called(p: PublicState, me: int, hand: int) -> bool:
    """The seat held the called card at the call (it holds it still, or has played it)."""
    card = p.table.extra.called
    return card >= 0 and bool((hand | p.played_by(me)) >> card & 1)


def _role(p: PublicState, me: int, hand: int) -> int:
    """One-hot: declarer, partner, opponent (what the seat knows of itself; 0 before the contract is settled)."""
    x = p.table.extra
    if x.declarer < 0:
        return 0
    if me == x.declarer:
        return 1
    if x.contract == CHIAMO and x.called < 0:
        return 0  # the card is not called yet
    return 2 if x.contract == CHIAMO and _holds_called(p, me, hand) else 4


def _partner(p: PublicState, me: int, hand: int) -> int:
    x = p.table.extra
    if x.contract != CHIAMO or x.called < 0:
        return 0
    if me != x.declarer and _holds_called(p, me, hand):
        return 1  # itself
    seat = revealed_partner(p)
    return 1 << ((seat - me) % N) if seat >= 0 else 0


def _no_card(table: Table) -> int:
    return 0


def _called_card(table: Table) -> int:
    called = table.extra.called
    return 1 << called if called >= 0 else 0


EXTRAS = (
    ExtraPiece(Piece("phase", (2,), "one-hot: the phase before the play (auction, call); all 0 in the card play"), _phase, of_table=True),
    ExtraPiece(Piece("bids", (N, 3), "relative seat x (pass, chiamo, sola): its bid"), _bids, of_table=True),
    ExtraPiece(Piece("contract", (2,), "one-hot: the contract won (chiamo, sola)"), _contract, of_table=True),
    ExtraPiece(Piece("declarer", (N,), "one-hot: the caller's or the soloist's relative seat"), _declarer, of_table=True),
    ExtraPiece(Piece("called", (40,), "the called card"), _called, of_table=True),
    # (the card play leaves ``role`` as it is: it reads the hand with the cards the seat played; only the called
    # card, played, changes ``partner``)
    ExtraPiece(
        Piece("role", (3,), "one-hot: what you know you are: the declarer, the partner, an opponent"), _role,
        changed_by=_no_card,
    ),
    ExtraPiece(
        Piece("partner", (N,), "one-hot: the partner's relative seat, once you know it (you; or the card was played)"),
        _partner,
        changed_by=_called_card,
    ),
)  # fmt: skip


@cache
def observation(rules: AChiamareRules) -> Observation:
    """The observation of a player of Tressette a chiamare under these rules."""
    return Observation(
        N, N, HAND, N, signals=rules.signals != "none", accusi=False, extras=EXTRAS,
        competitor_of=lambda p, me: me, side_word="player",
    )  # fmt: skip


def _partner_seat(state: GameState) -> int:
    seat = partner_of(state)
    return 1 << seat if seat >= 0 else 0


@cache
def state_encoder(rules: AChiamareRules) -> StateEncoder:
    """``env.state()``'s vector for Tressette a chiamare: every hand, the trick history, the partner."""
    return StateEncoder(
        N, N, HAND, N, signals=rules.signals != "none", accusi=False, side_word="player",
        extras=(ExtraStatePiece(Piece("partner", (N,), "one-hot: the partner's seat (none after a sola)"), _partner_seat),),
    )  # fmt: skip
