"""The full game, hidden hands included, as a 0/1 int8 vector: ``env.state()``.

For centralized critics and analysis only; it takes a ``GameState`` on purpose
and must never be fed to a player. Seats here are absolute (seat 0 first);
pieces by side list side 0 first, pieces by competitor competitor 0 first. With
``dealt``, ``trick_of_card`` gives the whole history: each trick is led by the winner
of the one before. Every game builds its state from the same pieces (``StateEncoder``)
and adds its own hidden record (the stock's order...).

The four-seat game's state (``STATE_LAYOUT``, ``encode_state``):

| piece | shape | slice | meaning |
| --- | --- | --- | --- |
| `hands` | (4, 40) | 0:160 | the cards each seat holds now |
| `dealt` | (4, 40) | 160:320 | the cards each seat was dealt this hand |
| `trick_of_card` | (40, 10) | 320:720 | card x trick: the card was played in that trick of this hand |
| `play_signal` | (40, 3) | 720:840 | card x (busso, striscio, volo): the signal given with the card |
| `turn` | (4,) | 840:844 | one-hot: the seat to act (all 0 when no card is being played) |
| `dealer` | (4,) | 844:848 | one-hot: the dealer of this hand |
| `declared_points` | (2, 20) | 848:888 | declaration points by team, thermometers |
| `thirds` | (2, 35) | 888:958 | thirds taken this hand by team, thermometers |
| `to_target` | (2, 41) | 958:1040 | match points each team still needs, thermometers capped at 41; all 0 in `episode="hand"` |
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from ..engine.state import GameState
from .layout import Piece, slices_of
from .observation import THERMOMETERS, thermometer, unpack


class ExtraStatePiece(NamedTuple):
    """A game's own piece of the state: its description and ``fill(state) -> bits``."""

    piece: Piece
    fill: Callable[[GameState], int]


class StateEncoder:
    """The state vector of one game: its layout and ``encode(state)``.

    Args:
        seats, sides, tricks, competitors: the table's sizes (N, S, T, C): the largest, when
            players drop out of a match (their rows stay 0).
        signals: include ``play_signal``; accusi: include ``declared_points``.
        thirds_width: entries of each side's thirds thermometer.
        extras: the game's own pieces (its hidden record), after the others.
        side_word: "team" or "side", for the meanings in the table.
    """

    def __init__(
        self,
        seats: int,
        sides: int,
        tricks: int,
        competitors: int,
        *,
        signals: bool = True,
        accusi: bool = True,
        extras: Sequence[ExtraStatePiece] = (),
        side_word: str = "side",
        thirds_width: int = THERMOMETERS["thirds"],
    ):
        self.seats, self.sides, self.tricks, self.competitors = seats, sides, tricks, competitors
        whose = side_word if competitors == sides else "competitor"
        pieces = [
            Piece("hands", (seats, 40), "the cards each seat holds now"),
            Piece("dealt", (seats, 40), "the cards each seat was dealt this hand"),
            Piece("trick_of_card", (40, tricks), "card x trick: the card was played in that trick of this hand"),
        ]
        if signals:
            pieces.append(
                Piece("play_signal", (40, 3), "card x (busso, striscio, volo): the signal given with the card")
            )
        pieces += [
            Piece("turn", (seats,), "one-hot: the seat to act (all 0 when no card is being played)"),
            Piece("dealer", (seats,), "one-hot: the dealer of this hand"),
        ]
        if accusi:
            pieces.append(Piece("declared_points", (sides, 20), f"declaration points by {side_word}, thermometers"))
        pieces += [
            Piece("thirds", (sides, thirds_width), f"thirds taken this hand by {side_word}, thermometers"),
            Piece(
                "to_target",
                (competitors, 41),
                f'match points each {whose} still needs, thermometers capped at 41; all 0 in `episode="hand"`',
            ),
        ]
        pieces += [e.piece for e in extras]
        self.layout: tuple[Piece, ...] = tuple(pieces)
        self.slices = slices_of(self.layout)
        self.size = sum(p.size for p in self.layout)
        self.extras = tuple(extras)
        self.signals, self.accusi = signals, accusi
        self.thirds_width = thirds_width

    def encode(self, state: GameState) -> np.ndarray:
        """The full game as an int8 vector of 0s and 1s, shape ``(size,)``."""
        p = state.public
        off = {name: s.start for name, s in self.slices.items()}
        n, tricks = len(state.hands), self.tricks  # the seats at the table this hand (players may be out)
        bits = 0
        for seat in range(n):
            bits |= state.hands[seat] << (off["hands"] + 40 * seat)
            bits |= state.dealt[seat] << (off["dealt"] + 40 * seat)
        for i, action in enumerate(p.plays):
            card, signal = action % 40, action // 40
            bits |= 1 << (off["trick_of_card"] + tricks * card + i // n)
            if signal and self.signals:
                bits |= 1 << (off["play_signal"] + 3 * card + signal - 1)
        if p.turn >= 0:
            bits |= 1 << (off["turn"] + p.turn)
        bits |= 1 << (off["dealer"] + p.dealer)
        for side in range(len(p.thirds)):
            if self.accusi:
                width = THERMOMETERS["declared_points"]
                bits |= thermometer(p.accusi.points[side], width) << (off["declared_points"] + width * side)
            width = self.thirds_width
            bits |= thermometer(p.thirds[side], width) << (off["thirds"] + width * side)
        rules = p.rules
        if rules.episode == "match":
            width = THERMOMETERS["to_target"]
            for who in range(self.competitors):
                needed = max(rules.target_score - p.match_score[who], 0)
                bits |= thermometer(needed, width) << (off["to_target"] + width * who)
        for e in self.extras:
            bits |= e.fill(state) << off[e.piece.name]
        return unpack(bits, self.size)


CLASSIC_STATE = StateEncoder(4, 2, 10, 2, side_word="team")
STATE_LAYOUT: tuple[Piece, ...] = CLASSIC_STATE.layout
STATE_SLICES = slices_of(STATE_LAYOUT)
STATE_SIZE = CLASSIC_STATE.size
encode_state = CLASSIC_STATE.encode
"""The four-seat game's state vector (the table in the module docstring)."""
