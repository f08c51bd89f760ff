"""Text pictures of a game of the family (pure functions, no display needed).

``render_state`` shows the whole table, every hand included (for debugging and
for the environment's ``render``); ``render_view`` shows one seat's information
set, the other hands as card counts (and what lies face up). Hands are listed by
suit in taking order. A game may add lines of its own (``Game.render_lines``: the
stock, the packets, a dummy...).

Example:
    >>> from tressette_env.engine.game import new_game
    >>> print(render_state(new_game(seed=1)).splitlines()[0])
    hand 1 · dealer player 1 · trick 1 of 10 · player 2 to play
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import SIGNAL_NAMES
from .cards import RANK_CODES, STRENGTH, SUITS, card_name
from .state import GAME_OVER, HAND_OVER, GameState, PublicState, SeatView


def default_names(p: PublicState) -> tuple[str, ...]:
    """Each seat's name where no agent names are given (``tressette replay``, the gif, ``str(state)``).

    The agents are ``player 0`` .. ``player N-1``, as ``tressette play`` calls them; a seat is
    named by the game from its agent (``dummy of player 0`` in col morto).
    """
    agents = [f"player {a}" for a in range(p.rules.game.agents(p.rules))]
    return tuple(p.rules.game.seat_names(p.table, agents))


def suits_text(mask: int) -> str:
    """The cards of a mask by suit, strongest first: ``denari: 3 A 5   coppe: -   ...``."""
    parts = []
    for suit, name in enumerate(SUITS):
        cards = [c for c in range(10 * suit, 10 * suit + 10) if mask >> c & 1]
        cards.sort(key=lambda c: -STRENGTH[c])
        parts.append(f"{name}: {' '.join(RANK_CODES[c % 10] for c in cards) or '-'}")
    return "   ".join(parts)


def count_text(n: int, thing: str = "card") -> str:
    """``1 card``, ``3 cards`` (``thing`` takes an s)."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def points_text(thirds: int) -> str:
    """Thirds as points: ``5 2/3``."""
    whole, rest = divmod(thirds, 3)
    return f"{whole} {rest}/3" if rest else str(whole)


def _header(p: PublicState, names: Sequence[str]) -> str:
    head = f"hand {p.hand_number + 1} · dealer {names[p.dealer]}"
    if p.status == GAME_OVER:
        return head + " · over"
    if p.status == HAND_OVER:
        return head + " · hand over, next hand to deal"
    game = p.rules.game
    if p.phase:
        return head + f" · {game.phase_name(p)} · {names[p.turn]} to act"
    return head + f" · trick {p.tricks_done + 1} of {p.table.tricks} · {names[p.turn]} to play"


def _public_lines(p: PublicState, names: Sequence[str]) -> list[str]:
    game = p.rules.game
    n = p.table.seats
    side = game.side_word
    lines = []
    if p.trick:
        plays = []
        for i, action in enumerate(p.history[-len(p.trick) :]):
            signal = action // 40
            plays.append(
                f"{names[(p.leader + i) % n]} {card_name(action % 40)}"
                + (f" ({SIGNAL_NAMES[signal]})" if signal else "")
            )
        lines.append("table: " + " · ".join(plays))
    elif p.tricks_done:
        last = p.tricks()[-1]
        plays = [f"{names[(last[0] + i) % n]} {card_name(c)}" for i, c in enumerate(last[1])]
        lines.append("last trick: " + " · ".join(plays))
    signals = []
    for seat in range(n):
        for suit, name in enumerate(SUITS):
            for kind, given in enumerate(p.signals_by(seat, suit), start=1):
                if given:
                    signals.append(f"{names[seat]} {SIGNAL_NAMES[kind]} in {name}")
    if signals:
        lines.append("signals: " + "; ".join(signals))
    accusi = [f"{names[seat]} {a.name} ({a.points})" for seat in range(n) for a in p.accusi.by_seat[seat]]
    if accusi:
        lines.append("accusi: " + "; ".join(accusi))
    lines += game.render_lines(p, names)
    score = "this hand: " + " · ".join(f"{game.side_name(p, s)}: {points_text(t)}" for s, t in enumerate(p.thirds))
    if p.rules.episode == "match":
        score += f"   match to {p.rules.target_score}: " + " - ".join(map(str, p.match_score))
    lines.append(score)
    if p.result is not None:
        r = p.result
        line = "hand score: " + " · ".join(f"{game.result_side_name(p, s)}: {pts}" for s, pts in enumerate(r.points))
        if r.renuncio is not None:
            line += f" (renuncio by {names[r.renuncio]})"
        if r.called_out is not None:
            line += f" ({names[r.called_out]} called out)"
        if r.cappotto is not None:
            line += f" (cappotto by {side} {r.cappotto})"
        lines.append(line)
    if p.winner is not None:
        lines.append(f"match won by {game.competitor_name(p, p.winner)}")
    return lines


def render_state(state: GameState, names: Sequence[str] | None = None) -> str:
    """The whole table: every hand, the trick, signals, declarations and scores."""
    p = state.public
    names = names or default_names(p)
    game = p.rules.game
    lines = [_header(p, names)]
    lines += [f"{game.seat_label(p, s, names)}  {suits_text(state.hands[s])}" for s in range(p.table.seats)]
    return "\n".join(lines + game.render_hidden(state) + _public_lines(p, names))


def render_view(view: SeatView, names: Sequence[str] | None = None) -> str:
    """One seat's information set: its own hand, the others' card counts, and the public table."""
    p = view.public
    names = names or default_names(p)
    game = p.rules.game
    lines = [_header(p, names) + f" · seen by {names[view.seat]}"]
    for s in range(p.table.seats):
        label = game.seat_label(p, s, names)
        if s == view.seat:
            lines.append(f"{label}  {suits_text(view.hand)}")
            continue
        face_up = p.exposed_by(s)
        line = f"{label}  {count_text(game.hand_size(p, s))}"
        if face_up:
            line += f", face up: {suits_text(face_up)}"
        lines.append(line)
    return "\n".join(lines + _public_lines(p, names))
