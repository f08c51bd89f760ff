"""The full game, hidden hands included, as a 0/1 int8 vector: ``env.state()``.

For centralized critics and analysis only; it takes a ``GameState`` on purpose
and must never be fed to a player. Seats here are absolute (seat 0 first);
team pieces list team 0 first. With ``dealt``, ``trick_of_card`` gives the whole
history: each trick is led by the winner of the one before.

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

import numpy as np

from ..engine.state import GameState
from .layout import Piece, slices_of
from .observation import THERMOMETERS, thermometer, unpack

STATE_LAYOUT: tuple[Piece, ...] = (
    Piece("hands", (4, 40), "the cards each seat holds now"),
    Piece("dealt", (4, 40), "the cards each seat was dealt this hand"),
    Piece("trick_of_card", (40, 10), "card x trick: the card was played in that trick of this hand"),
    Piece("play_signal", (40, 3), "card x (busso, striscio, volo): the signal given with the card"),
    Piece("turn", (4,), "one-hot: the seat to act (all 0 when no card is being played)"),
    Piece("dealer", (4,), "one-hot: the dealer of this hand"),
    Piece("declared_points", (2, 20), "declaration points by team, thermometers"),
    Piece("thirds", (2, 35), "thirds taken this hand by team, thermometers"),
    Piece(
        "to_target", (2, 41), 'match points each team still needs, thermometers capped at 41; all 0 in `episode="hand"`'
    ),
)
STATE_SLICES = slices_of(STATE_LAYOUT)
STATE_SIZE = sum(p.size for p in STATE_LAYOUT)


def encode_state(state: GameState) -> np.ndarray:
    """The full game as an int8 vector of 0s and 1s, shape ``(STATE_SIZE,)``."""
    p = state.public
    off = {name: s.start for name, s in STATE_SLICES.items()}
    bits = 0
    for seat in range(4):
        bits |= state.hands[seat] << (off["hands"] + 40 * seat)
        bits |= state.dealt[seat] << (off["dealt"] + 40 * seat)
    for i, action in enumerate(p.history):
        card, signal = action % 40, action // 40
        bits |= 1 << (off["trick_of_card"] + 10 * card + i // 4)
        if signal:
            bits |= 1 << (off["play_signal"] + 3 * card + signal - 1)
    if p.turn >= 0:
        bits |= 1 << (off["turn"] + p.turn)
    bits |= 1 << (off["dealer"] + p.dealer)
    rules = p.rules
    for team in (0, 1):
        for name, value in (("declared_points", p.accusi.points[team]), ("thirds", p.thirds[team])):
            width = THERMOMETERS[name]
            bits |= thermometer(value, width) << (off[name] + width * team)
        if rules.is_match:
            width = THERMOMETERS["to_target"]
            needed = max(rules.target_score - p.match_score[team], 0)
            bits |= thermometer(needed, width) << (off["to_target"] + width * team)
    return unpack(bits, STATE_SIZE)
