"""Calabresella's observation and state vector: the common pieces, the auction, the call and the monte.

Seats are relative to the observer (0 you, then the next seats in play order); side 0 is the
soloist's (before the auction ends, the forehand's), and the ``thirds`` piece gives your
side's first. Match scores are by player, yours first. The soloist's discards are his alone
(``face_down_known``); the cards handed over and returned face up are public (``exposed``).
"""

from __future__ import annotations

from functools import cache

from ..engine.actions import CHIAMO, PASS
from ..engine.cards import CardMask, mask_of
from ..engine.state import GameState, PublicState
from ..games.calabresella import AUCTION, IN_MONTE, PHASE_NAMES, CalabresellaRules
from .global_state import ExtraStatePiece, StateEncoder
from .layout import Piece
from .observation import ExtraPiece, Observation

PHASES = len(PHASE_NAMES)
BIDS = 6  # pass, chiamo, solo, solissimo, dividete, scegliete


def _phase(p: PublicState, me: int, hand: int) -> int:
    phase = p.table.phase
    return 1 << (phase - AUCTION) if phase else 0


def _bids(n: int):
    def bids(p: PublicState, me: int, hand: int) -> int:
        bits = 0
        for seat, bid in enumerate(p.table.extra.bids):
            if bid:
                bits |= 1 << (BIDS * ((seat - me) % n) + bid - PASS)
        return bits

    return bids


def _contract(p: PublicState, me: int, hand: int) -> int:
    contract = p.table.extra.contract
    return 1 << (contract - CHIAMO) if contract else 0


def _soloist(n: int):
    def soloist(p: PublicState, me: int, hand: int) -> int:
        seat = p.table.extra.soloist
        return 1 << ((seat - me) % n) if seat >= 0 else 0

    return soloist


def _called(p: PublicState, me: int, hand: int) -> int:
    card = p.table.extra.called
    return 1 << card if card >= 0 else 0


def _called_from(n: int):
    def called_from(p: PublicState, me: int, hand: int) -> int:
        seat = p.table.extra.called_from
        if seat == IN_MONTE:
            return 1 << n
        return 1 << ((seat - me) % n) if seat >= 0 else 0

    return called_from


def _monte_shown(p: PublicState, me: int, hand: int) -> int:
    return p.table.extra.monte_shown


def _returned(p: PublicState, me: int, hand: int) -> int:
    card = p.table.extra.returned
    return 1 << card if card >= 0 else 0


def _face_down_known(p: PublicState, me: int, hand: int, private: CardMask) -> int:
    return private


def _face_down(p: PublicState, me: int, hand: int) -> int:
    return (1 << p.table.extra.face_down) - 1


def _solo_only(p: PublicState, me: int, hand: int) -> int:
    return int(p.table.extra.solo_only)


def _player(p: PublicState, me: int) -> int:
    return p.table.controllers[me]


def extras(seats: int) -> tuple[ExtraPiece, ...]:
    """Calabresella's own pieces for a table of ``seats`` seats."""
    n = seats
    return (
        ExtraPiece(Piece("phase", (PHASES,), "one-hot: the phase before the play (auction, call, return, take, "
                         "discard, split, choose); all 0 in the card play"), _phase, of_table=True),  # fmt: skip
        ExtraPiece(
            Piece("bids", (n, BIDS), "relative seat x (pass, chiamo, solo, solissimo, dividete, scegliete): its bid"),
            _bids(n),
            of_table=True,
        ),
        ExtraPiece(Piece("contract", (5,), "one-hot: the contract won (chiamo ... scegliete)"), _contract, of_table=True),
        ExtraPiece(Piece("soloist", (n,), "one-hot: the soloist's relative seat"), _soloist(n), of_table=True),
        ExtraPiece(Piece("called", (40,), "the called card (chiamo)"), _called, of_table=True),
        ExtraPiece(
            Piece("called_from", (n + 1,), "one-hot: the relative seat that handed the called card over; last: it lay in the monte"),
            _called_from(n),
            of_table=True,
        ),  # fmt: skip
        ExtraPiece(Piece("monte_shown", (40,), "the monte's cards, turned up for all (chiamo)"), _monte_shown, of_table=True),
        ExtraPiece(Piece("returned", (40,), "the card the soloist returned face up to the giver"), _returned, of_table=True),
        ExtraPiece(
            Piece("face_down_known", (40,), "the face-down cards you know: your discards, the monte as you saw it"),
            _face_down_known,
            private=True,
            played_out=True,  # (known & ~hand & ~all_played: in the card play only the card played leaves it)
        ),
        ExtraPiece(
            Piece("face_down", (5,), "cards face down for the side that takes the last trick, as a thermometer"),
            _face_down,
            of_table=True,
        ),
        ExtraPiece(Piece("solo_only", (1,), "the hands were dealt again after all passed: solo or higher only"), _solo_only, of_table=True),
    )  # fmt: skip


@cache
def observation(rules: CalabresellaRules) -> Observation:
    """The observation of a player of Calabresella under these rules."""
    seats, tricks, _ = rules.table_shape
    return Observation(
        seats, 2, tricks, rules.players, signals=rules.signals != "none", accusi=False, exposed=True,
        extras=extras(seats), competitor_of=_player,
    )  # fmt: skip


def _face_down_cards(state: GameState) -> int:
    return mask_of(state.hidden.face_down)


@cache
def state_encoder(rules: CalabresellaRules) -> StateEncoder:
    """``env.state()``'s vector for Calabresella: every hand, the trick history, the face-down cards."""
    seats, tricks, _ = rules.table_shape
    return StateEncoder(
        seats, 2, tricks, rules.players, signals=rules.signals != "none", accusi=False,
        extras=(ExtraStatePiece(Piece("face_down", (40,), "the face-down cards: the monte, or the discards"),
                                _face_down_cards),),
    )  # fmt: skip
