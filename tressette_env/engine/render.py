"""Text pictures of a game (pure functions, no display needed).

``render_state`` shows the whole table, every hand included (for debugging and
for the environment's ``render``); ``render_view`` shows one seat's information
set, the other hands as card counts. Hands are listed by suit in taking order.

Example:
    >>> from tressette_env.engine.game import new_game
    >>> print(render_state(new_game(seed=1)).splitlines()[0])
    hand 1 · dealer seat 1 · trick 1 of 10 · seat 2 to play
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import SIGNAL_NAMES
from .cards import RANK_CODES, STRENGTH, SUITS, card_name
from .state import GAME_OVER, HAND_OVER, GameState, PublicState, SeatView

SEAT_NAMES = ("seat 0", "seat 1", "seat 2", "seat 3")


def _suits(mask: int) -> str:
    parts = []
    for suit, name in enumerate(SUITS):
        cards = [c for c in range(10 * suit, 10 * suit + 10) if mask >> c & 1]
        cards.sort(key=lambda c: -STRENGTH[c])
        parts.append(f"{name}: {' '.join(RANK_CODES[c % 10] for c in cards) or '-'}")
    return "   ".join(parts)


def _points(thirds: int) -> str:
    whole, rest = divmod(thirds, 3)
    return f"{whole} {rest}/3" if rest else str(whole)


def _header(p: PublicState, names: Sequence[str]) -> str:
    head = f"hand {p.hand_number + 1} · dealer {names[p.dealer]}"
    if p.status == GAME_OVER:
        return head + " · over"
    if p.status == HAND_OVER:
        return head + " · hand over, next hand to deal"
    return head + f" · trick {p.tricks_done + 1} of 10 · {names[p.turn]} to play"


def _public_lines(p: PublicState, names: Sequence[str]) -> list[str]:
    lines = []
    if p.trick:
        plays = []
        for i, action in enumerate(p.history[-len(p.trick) :]):
            signal = action // 40
            plays.append(
                f"{names[(p.leader + i) % 4]} {card_name(action % 40)}"
                + (f" ({SIGNAL_NAMES[signal]})" if signal else "")
            )
        lines.append("table: " + " · ".join(plays))
    elif p.history:
        last = p.tricks()[-1]
        plays = [f"{names[(last[0] + i) % 4]} {card_name(c)}" for i, c in enumerate(last[1])]
        lines.append("last trick: " + " · ".join(plays))
    signals = []
    for seat in range(4):
        for suit, name in enumerate(SUITS):
            for kind, given in enumerate(p.signals_by(seat, suit), start=1):
                if given:
                    signals.append(f"{names[seat]} {SIGNAL_NAMES[kind]} in {name}")
    if signals:
        lines.append("signals: " + "; ".join(signals))
    accusi = [f"{names[seat]} {a.name} ({a.points})" for seat in range(4) for a in p.accusi.by_seat[seat]]
    if accusi:
        lines.append("accusi: " + "; ".join(accusi))
    score = f"this hand: team 0 {_points(p.thirds[0])} · team 1 {_points(p.thirds[1])}"
    if p.rules.is_match:
        score += f"   match to {p.rules.target_score}: {p.match_score[0]} - {p.match_score[1]}"
    lines.append(score)
    if p.result is not None:
        r = p.result
        line = f"hand score: team 0 {r.points[0]} · team 1 {r.points[1]}"
        if r.renuncio is not None:
            line += f" (renuncio by {names[r.renuncio]})"
        if r.called_out is not None:
            line += f" ({names[r.called_out]} called out)"
        if r.cappotto is not None:
            line += f" (cappotto by team {r.cappotto})"
        lines.append(line)
    if p.winner is not None:
        lines.append(f"match won by team {p.winner}")
    return lines


def render_state(state: GameState, names: Sequence[str] = SEAT_NAMES) -> str:
    """The whole table: every hand, the trick, signals, declarations and scores."""
    p = state.public
    lines = [_header(p, names)]
    lines += [f"{names[s]} (team {s % 2})  {_suits(state.hands[s])}" for s in range(4)]
    return "\n".join(lines + _public_lines(p, names))


def render_view(view: SeatView, names: Sequence[str] = SEAT_NAMES) -> str:
    """One seat's information set: its own hand, the others' card counts, and the public table."""
    p = view.public
    lines = [_header(p, names) + f" · seen by {names[view.seat]}"]
    for s in range(4):
        if s == view.seat:
            lines.append(f"{names[s]} (team {s % 2})  {_suits(view.hand)}")
        else:
            held = 10 - p.played_by(s).bit_count()
            lines.append(f"{names[s]} (team {s % 2})  {held} cards")
    return "\n".join(lines + _public_lines(p, names))
