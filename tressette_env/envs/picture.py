"""A picture of the table for ``render_mode="rgb_array"``: an (H, W, 3) uint8 image of any game of the family.

``table_picture(state, names)`` draws, on a green cloth: every seat round the table with its
name (the seat on turn marked ``>`` in yellow, the trick's leader ``*``) and its hand as small cards face
up (the environments' ``render`` shows every hand, as the text picture does); the current trick
in the middle, each card towards the seat that played it; and, top left, the text picture's
header and public lines (the hand, the dealer, the phase, the trick number, signals,
declarations, the game's own lines, the score). Each card is an Italian-suited card: its value
(``A 2 3 4 5 6 7 F C R``) in the corner and its suit drawn as the Italian pack draws it, a coin
(denari), a cup (coppe), a sword (spade) or a club (bastoni).

Needs Pillow (``pip install pillow``; the ``eval`` and ``train`` extras bring it with
matplotlib); a clear ``ImportError`` says so. NumPy and Pillow only: the rules core stays
free of both.

Example:
    >>> from tressette_env.engine import new_game
    >>> table_picture(new_game(seed=0)).shape
    (640, 960, 3)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from ..engine.actions import SIGNAL_NAMES
from ..engine.cards import RANK_CODES, STRENGTH, cards_of
from ..engine.render import render_state, seat_names
from ..engine.state import GameState

WIDTH, HEIGHT = 960, 640
CARD_W, CARD_H, STEP = 36, 52, 22
CLOTH, INK, CARD, EDGE, MARK = (24, 96, 48), (245, 245, 235), (250, 248, 240), (40, 40, 40), (255, 210, 60)
SUIT_COLOURS = ((212, 160, 20), (190, 30, 40), (30, 70, 170), (30, 120, 40))
"""denari gold, coppe red, spade blue, bastoni green."""


def _pillow():
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise ImportError(
            'render_mode="rgb_array" draws with Pillow: pip install pillow (the eval and train extras include it)'
        ) from None
    return Image, ImageDraw, ImageFont


@lru_cache(maxsize=4)
def _font(size: int):
    _, _, font = _pillow()
    try:
        return font.load_default(size=size)
    except TypeError:  # Pillow before 10.1: one bitmap size
        return font.load_default()


def _suit(draw, suit: int, x: float, y: float, r: float) -> None:
    """The suit's sign centred at (x, y), about ``2r`` across."""
    colour = SUIT_COLOURS[suit]
    if suit == 0:  # denari: a coin
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=EDGE)
        draw.ellipse((x - r / 2, y - r / 2, x + r / 2, y + r / 2), outline=EDGE)
    elif suit == 1:  # coppe: a cup on a stem
        draw.polygon([(x - r, y - r), (x + r, y - r), (x + r / 2, y + r / 4), (x - r / 2, y + r / 4)], fill=colour)
        draw.rectangle((x - r / 6, y + r / 4, x + r / 6, y + 3 * r / 4), fill=colour)
        draw.rectangle((x - r / 2, y + 3 * r / 4, x + r / 2, y + r), fill=colour)
    elif suit == 2:  # spade: a sword, point up, with its crossguard
        draw.polygon([(x, y - r), (x + r / 5, y + r / 3), (x - r / 5, y + r / 3)], fill=colour)
        draw.rectangle((x - 2 * r / 3, y + r / 3, x + 2 * r / 3, y + r / 2), fill=colour)
        draw.rectangle((x - r / 8, y + r / 2, x + r / 8, y + r), fill=colour)
    else:  # bastoni: a knotted club
        draw.line((x - r / 2, y + r, x + r / 2, y - r), fill=colour, width=max(2, int(r / 2.5)))
        for t in (0.25, 0.6):
            cx, cy = x - r / 2 + t * r, y + r - t * 2 * r
            draw.ellipse((cx - r / 4, cy - r / 4, cx + r / 4, cy + r / 4), fill=colour)


def _card(draw, card: int, x: float, y: float, scale: float = 1.0) -> None:
    """A card face up with its top-left corner at (x, y)."""
    w, h = CARD_W * scale, CARD_H * scale
    draw.rounded_rectangle((x, y, x + w, y + h), radius=4 * scale, fill=CARD, outline=EDGE)
    suit = card // 10
    draw.text(
        (x + 4 * scale, y + 2 * scale), RANK_CODES[card % 10], fill=SUIT_COLOURS[suit], font=_font(int(14 * scale))
    )
    _suit(draw, suit, x + 11 * scale, y + h * 0.64, 8 * scale)  # inside the strip a fanned card shows


def _seat_place(seat: int, seats: int) -> tuple[float, float]:
    """Where a seat sits: seat 0 at the bottom, the others round the table in playing order (to the right)."""
    angle = math.pi / 2 + 2 * math.pi * seat / seats
    return WIDTH / 2 + 0.36 * WIDTH * math.cos(angle), 0.56 * HEIGHT + 0.34 * HEIGHT * math.sin(angle)


def table_picture(state: GameState, names: Sequence[str] | None = None) -> np.ndarray:
    """The table as an (HEIGHT, WIDTH, 3) uint8 RGB image (see the module docstring)."""
    image_type, draw_type, _ = _pillow()
    p = state.public
    n = p.table.seats
    names = list(names or seat_names(n))
    image = image_type.new("RGB", (WIDTH, HEIGHT), CLOTH)
    draw = draw_type.Draw(image)
    small = _font(13)
    # The text picture's header and public lines, top left (its seat lines are drawn as cards below).
    text = render_state(state, names).splitlines()
    lines = [text[0], *text[1 + n :]]
    for k, line in enumerate(lines[:8]):
        draw.text((10, 8 + 16 * k), line[:120], fill=INK, font=small)
    game = p.rules.game
    for seat in range(n):
        cx, cy = _seat_place(seat, n)
        hand = sorted(cards_of(state.hands[seat]), key=lambda c: (c // 10, -STRENGTH[c]))
        marks = ("> " if seat == p.turn and p.status == 0 else "") + ("* " if seat == p.leader and p.trick else "")
        label = marks + game.seat_label(p, seat, names)
        width = CARD_W + STEP * max(len(hand) - 1, 0)
        scale = min(1.0, (WIDTH * 0.42) / width) if hand else 1.0
        width *= scale
        x0 = min(max(cx - width / 2, 8), WIDTH - 8 - max(width, 120))  # the hand (and its label) on the picture
        y0 = cy - CARD_H * scale / 2
        draw.text((x0, y0 - 16), label[:60], fill=MARK if marks.startswith(">") else INK, font=small)
        for k, card in enumerate(hand):
            _card(draw, card, x0 + k * STEP * scale, y0, scale)
    # The trick: each card between the middle and the seat that played it.
    plays = p.history[len(p.history) - len(p.trick) :] if p.trick else ()
    for k, action in enumerate(plays):
        seat = (p.leader + k) % n
        sx, sy = _seat_place(seat, n)
        x = WIDTH / 2 + 0.45 * (sx - WIDTH / 2) - CARD_W / 2
        y = 0.56 * HEIGHT + 0.45 * (sy - 0.56 * HEIGHT) - CARD_H / 2
        _card(draw, action % 40, x, y, 1.2)
        signal = action // 40
        if signal:
            draw.text((x, y + CARD_H * 1.2 + 2), SIGNAL_NAMES[signal], fill=MARK, font=small)
    return np.asarray(image, dtype=np.uint8)
