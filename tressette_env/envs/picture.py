"""A picture of the table for ``render_mode="rgb_array"``: an (H, W, 3) uint8 image of any game of the family.

``table_picture(state, names)`` draws, on a green cloth: every seat round the table with its
name (the seat on turn marked ``>`` in yellow, the trick's leader ``*``) and its hand as small cards face
up (the environments' ``render`` shows every hand, as the text picture does); the current trick
in the middle, each card towards the seat that played it, or, between tricks and once the hand
is over, the last trick with the seat that took it (and the hand's score once there is one); at
the bottom a legend of the marks and the suits (``LEGEND``); and, top left, the text picture's
header and public lines (the hand, the dealer, the phase, the trick number, signals,
declarations, the game's own lines, the score). Each card is an Italian-suited card: its value
(``A 2 3 4 5 6 7 F C R``) in the corner and its suit drawn as the Italian pack draws it, a gold
coin (denari), a red cup (coppe), a dark blue upright sword (spade) or a light green slanted
club (bastoni): the two long signs differ in colour, lightness and shape.

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
from ..engine.cards import RANK_CODES, STRENGTH, SUITS, cards_of
from ..engine.render import default_names, render_state
from ..engine.state import GameState
from ..engine.tricks import trick_winner

WIDTH, HEIGHT = 960, 640
CARD_W, CARD_H, STEP = 36, 52, 22
CLOTH, INK, CARD, EDGE, MARK = (24, 96, 48), (245, 245, 235), (250, 248, 240), (40, 40, 40), (255, 210, 60)
SUIT_COLOURS = ((212, 160, 20), (190, 30, 40), (20, 40, 130), (40, 150, 40))
"""denari gold, coppe red, spade dark blue, bastoni light green: four hues whose lightness differs
too (about 160, 80, 45 and 105 of 255), so that spade and bastoni stay apart on a small card."""
LEGEND = ">  on turn      *  led this trick"
"""The legend of the seat marks, bottom left (the suits' legend is bottom right)."""
DIM = (190, 205, 190)
"""The colour of the words about the last trick."""


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
    elif suit == 2:  # spade: an upright sword, a long blade, its crossguard and pommel
        draw.polygon(
            [
                (x, y - r),
                (x + r / 4, y - r / 2),
                (x + r / 4, y + r / 3),
                (x - r / 4, y + r / 3),
                (x - r / 4, y - r / 2),
            ],
            fill=colour,
        )
        draw.rectangle((x - 3 * r / 4, y + r / 3, x + 3 * r / 4, y + r / 2), fill=colour)
        draw.rectangle((x - r / 8, y + r / 2, x + r / 8, y + 5 * r / 6), fill=colour)
        draw.ellipse((x - r / 4, y + 3 * r / 4, x + r / 4, y + r), fill=colour)
    else:  # bastoni: a slanted club, thick at the head, with knots
        draw.polygon(
            [(x - r / 2, y + r), (x - r / 4, y + r), (x + 3 * r / 4, y - r / 2), (x + r / 6, y - 3 * r / 4)],
            fill=colour,
        )
        draw.ellipse((x, y - r, x + 3 * r / 4, y - r / 4), fill=colour)
        for t in (0.3, 0.6):
            cx, cy = x - 3 * r / 8 + t * r, y + r - t * 1.6 * r
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


def _trick_place(seat: int, seats: int) -> tuple[float, float]:
    """The top-left corner of the card ``seat`` plays to a trick: between the middle and the seat."""
    sx, sy = _seat_place(seat, seats)
    x = WIDTH / 2 + 0.45 * (sx - WIDTH / 2) - CARD_W / 2
    return x, 0.56 * HEIGHT + 0.45 * (sy - 0.56 * HEIGHT) - CARD_H / 2


def _centred(draw, text: str, y: float, fill, font) -> None:
    """``text`` centred on the picture's middle column at height ``y``."""
    draw.text((WIDTH / 2 - draw.textlength(text, font=font) / 2, y), text, fill=fill, font=font)


def _legend(draw) -> None:
    """The marks' legend bottom left, the suits' bottom right (each suit's sign and name)."""
    small = _font(13)
    draw.text((10, HEIGHT - 22), LEGEND, fill=INK, font=small)
    draw.text((10, HEIGHT - 22), LEGEND[0], fill=MARK, font=small)  # in the colour of the label it marks
    x = WIDTH - 10
    for suit in range(3, -1, -1):  # right to left, so that the row ends at the right edge
        x -= draw.textlength(SUITS[suit], font=small)
        draw.text((x, HEIGHT - 22), SUITS[suit], fill=INK, font=small)
        x -= 12
        draw.rounded_rectangle((x - 8, HEIGHT - 26, x + 8, HEIGHT - 6), radius=3, fill=CARD, outline=EDGE)
        _suit(draw, suit, x, HEIGHT - 16, 7)
        x -= 22


def _last_trick(draw, state: GameState, names: Sequence[str], lines: Sequence[str]) -> None:
    """Between tricks and once the hand is over: the last trick, who took it, and the hand's score if any."""
    p = state.public
    n = p.table.seats
    leader, cards, actions = p.tricks()[-1]
    small = _font(13)
    for k, card in enumerate(cards):
        x, y = _trick_place((leader + k) % n, n)
        _card(draw, card, x, y, 1.2)
        if actions[k] // 40:
            draw.text((x, y + CARD_H * 1.2 + 2), SIGNAL_NAMES[actions[k] // 40], fill=MARK, font=small)
    width = 240 if n <= 4 else 170  # the room between the trick's cards
    rows = [
        row for line in lines if line.startswith(("hand score", "match won")) for row in _wrap(draw, line, small, width)
    ]
    y = 0.56 * HEIGHT - (24 + 16 * len(rows)) / 2  # the block of words centred in the middle
    _centred(draw, f"last trick, taken by {names[trick_winner(leader, cards, n)]}"[:40], y, DIM, small)
    for k, row in enumerate(rows):
        _centred(draw, row, y + 24 + 16 * k, MARK, small)


def _wrap(draw, line: str, font, width: float) -> list[str]:
    """``line`` cut at its `` · `` into rows at most ``width`` wide (a part wider than that is a row of its own)."""
    rows: list[str] = []
    for part in line.split(" · "):
        if rows and draw.textlength(rows[-1] + " · " + part, font=font) <= width:
            rows[-1] += " · " + part
        else:
            rows.append(part)
    return rows


def table_picture(state: GameState, names: Sequence[str] | None = None) -> np.ndarray:
    """The table as an (HEIGHT, WIDTH, 3) uint8 RGB image (see the module docstring)."""
    image_type, draw_type, _ = _pillow()
    p = state.public
    n = p.table.seats
    names = list(names or default_names(p))
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
    # The trick: each card between the middle and the seat that played it; between tricks, the last one.
    plays = p.history[len(p.history) - len(p.trick) :] if p.trick else ()
    for k, action in enumerate(plays):
        x, y = _trick_place((p.leader + k) % n, n)
        _card(draw, action % 40, x, y, 1.2)
        signal = action // 40
        if signal:
            draw.text((x, y + CARD_H * 1.2 + 2), SIGNAL_NAMES[signal], fill=MARK, font=small)
    if not p.trick and p.tricks_done:
        _last_trick(draw, state, names, lines)
    _legend(draw)
    return np.asarray(image, dtype=np.uint8)
