"""A person at the table: ``HumanPlayer`` shows the seat's view in the terminal and reads the action typed.

``tressette play`` seats one; ``make_player("human")`` gives one to ``tressette eval`` or to an
environment's other seats. At each decision it prints what the seat may know (``table_text``:
its hand by suit, the other hands as card counts, the trick, signals, declarations and the
score) and the legal actions (``menu``): the cards by suit, strongest first, each numbered
once, with the signals it may give written once per suit after its cards; the other actions
(bids, packets...) numbered in a row. What may be typed:

| typed | does |
| --- | --- |
| a number | that action of the list (a card: played without a signal) |
| a number and a signal: ``2 busso`` | that card with the signal (``liscio`` is ``striscio``) |
| a card: ``3d``, ``3 di denari`` | the one legal action with that card: a card played without a signal, or a card called, given back, discarded, taken |
| a card and a signal: ``3d busso`` | that card with the signal |
| a word and a card: ``chiama 3d``, ``dà 4d``, ``scarta 4d``, ``prendi Rd`` | that action (see the words below) |
| a bid or another word: ``passo``, ``chiamo``, ``solo`` (``sola``), ``solissimo``, ``pacchetto 2``, ``chiamarsi fuori`` | that action |
| Enter | with a single legal action: plays it |
| ``?`` | a hint: what the hint player (``hint=``, default the heuristic) would do |
| ``h`` | this help and the cards' letters |
| ``q`` (or end of input) | stop: ``QuitGame`` is raised |

Words may be typed in any case and without accents (``da 4d`` is ``dà 4d``). The words that
go before a card say what the phase does with it:

| word | action ids | when |
| --- | --- | --- |
| none (``3d``, ``3d busso``) | ``0..159`` | the card play: play the card |
| ``chiama`` | ``CALL + c`` | the call (Calabresella's chiamo, a chiamare): call a card you lack |
| ``prendi`` | ``CALL + c`` | Calabresella's partial exchange and scegliete: take a card of the monte |
| ``dà`` | ``GIVE + c`` | Calabresella: the soloist gives a card back, face up, to the player who gave him the called one |
| ``scarta`` | ``GIVE + c`` | a discard face down: Calabresella's soloist after the exchange, dividete, scegliete (into the monte); a perdere's dealer |
| ``volta`` | ``CALL + c`` | Tressette in due's packet form: turn up the packet whose bottom card is c |

The engine's names (``action_to_string``: ``dà 4d`` for every ``GIVE``) are accepted too.
With ``confirm=True`` (the default) the chosen action is shown and played only after Enter;
``u`` takes it back and asks again (a single legal action needs no confirmation). Anything
else gets a message saying why (a card that does not follow suit, a signal that would not be
true...) and a new prompt.

Example:
    >>> import random
    >>> from tressette_env.engine import legal_actions, new_game, view
    >>> state = new_game(seed=0)
    >>> me = view(state, state.public.turn)
    >>> _, entries = menu(me, legal_actions(state))
    >>> typed = iter(["99", "1", ""])  # 99 is not one of the numbers; then the first action, confirmed
    >>> player = HumanPlayer(read=lambda prompt: next(typed), write=lambda text: None)
    >>> player.act(me, legal_actions(state), random.Random(0)) == entries[0]
    True
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..engine.actions import (
    CALL,
    CALL_OUT,
    CHIAMO,
    FAMILY_NUM_ACTIONS,
    GIVE,
    PACKET,
    PASS,
    SIGNAL_NAMES,
    SOLO,
    STRISCIO,
    action_to_string,
)
from ..engine.cards import HONOURS, STRENGTH, SUIT_MASK, SUITS, card_code, card_name, cards_of
from ..engine.render import count_text, default_names, points_text, suits_text
from ..engine.state import SeatView
from ..engine.variant import Game
from ..messages import shown
from .base import Player

WIDTH = 80
"""The width the action lists are wrapped to (between items, never inside a word)."""

LEGEND = """cards: A asso, R re, C cavallo, F fante; d denari, c coppe, s spade, b bastoni
(Rd: the re di denari); strongest first: 3 2 A R C F 7 6 5 4"""
"""The cards' letters, printed when ``tressette play`` starts and with ``h``."""

HELP = """type a number from the list (a card's number and a signal: 2 busso),
  a card (3d, 3 di denari, 3d busso), a word and a card (chiama 3d, dà 4d,
  scarta 4d, prendi Rd), a bid or a word (passo, chiamo, solo, solissimo,
  pacchetto 2, chiamarsi fuori); accents may be left out (da 4d);
  ? a hint, h this help, q stop; Enter plays your only action
signals, on the lead: busso or striscio (liscio): you keep another card of the
  suit; volo: it is your last card of the suit"""
"""What ``h`` prints (before ``LEGEND``)."""


class QuitGame(Exception):
    """The person asked to stop (``q``, or the end of input)."""


class Kind(NamedTuple):
    """What a card-bearing action does in its phase: its word and its phrases (``{}`` is the card)."""

    word: str
    """The word typed before the card (``""`` for a card play)."""
    verb: str
    """``"discard {} face down"``: the hint's phrase."""
    does: str
    """``"discards {} face down"``: what the others are told."""
    title: str
    """The heading of the menu's section."""


PLAY_KIND = Kind("", "play {}", "plays {}", "play a card")
CALL_KIND = Kind("chiama", "call {}", "calls {}", "call a card you lack (chiama)")
TAKE_KIND = Kind("prendi", "take {} from the monte", "takes {} from the monte", "take a card of the monte (prendi)")
RETURN_KIND = Kind("dà", "give {} back", "gives {} back", "give a card back, face up (dà)")
DISCARD_KIND = Kind("scarta", "discard {} face down", "discards {} face down", "discard a card face down (scarta)")
INTO_MONTE_KIND = Kind(
    "scarta", "put {} into the monte", "puts {} into the monte", "put a card into the monte, face down (scarta)"
)
TURN_UP_KIND = Kind(
    "volta", "turn up the packet of {}", "turns up the packet of {}", "turn up a packet by its bottom card (volta)"
)
ROLE_KINDS = {"take": TAKE_KIND, "return": RETURN_KIND, "into_monte": INTO_MONTE_KIND, "turn_up": TURN_UP_KIND}
"""The kinds of the card roles a game names (``Game.action_role``)."""


def plain(text: str) -> str:
    """``text`` as names are compared: lowercase, accents dropped, single spaces (``"Dà  4D"`` -> ``"da 4d"``)."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)).split())


def card_kind(p, action: int) -> Kind | None:
    """The kind of a card-bearing action in the phase of ``p`` (None for a bid, a packet, chiamarsi fuori)."""
    if action < CALL_OUT:
        return PLAY_KIND
    if not CALL <= action < PASS:
        return None
    role = p.rules.game.action_role(p, action)
    if role is not None:
        return ROLE_KINDS[role]
    return CALL_KIND if action < GIVE else DISCARD_KIND


def _card(action: int) -> int:
    return action % 40 if action < CALL_OUT else (action - CALL) % 40


def display_name(p, action: int) -> str:
    """An action's name on the screen: ``3d busso``, ``scarta 4d``, ``sola`` (a chiamare), ``passo``."""
    kind = card_kind(p, action)
    if kind is PLAY_KIND:
        return action_to_string(action)
    if kind is not None:
        return f"{kind.word} {card_code(_card(action))}"
    return p.rules.game.action_label(p, action)


def _phrases(p, action: int) -> tuple[str, str]:
    """(what you would do, what a player does) for ``action``: ``("bid chiamo", "bids chiamo")``."""
    kind = card_kind(p, action)
    if kind is not None:
        shown = action_to_string(action) if kind is PLAY_KIND else card_code(_card(action))
        return kind.verb.format(shown), kind.does.format(shown)
    name = display_name(p, action)
    if action == PASS:
        if p.rules.game.action_role(p, action) == "stop":
            return "stop (passo)", "stops (passo)"
        return "pass (passo)", "passes (passo)"
    if CHIAMO <= action < PACKET:
        return f"bid {name}", f"bids {name}"
    if action == CALL_OUT:
        return "call out (chiamarsi fuori)", "calls out (chiamarsi fuori)"
    return f"choose {name}", f"chooses {name}"


def action_phrase(p, action: int) -> str:
    """What you would do with ``action``: ``play 3d busso``, ``bid chiamo``, ``discard 4d face down``."""
    return _phrases(p, action)[0]


def action_words(p, action: int, hidden: bool = False) -> str:
    """What another player does with ``action``, for the log: ``bids chiamo``, ``discards a card face down``.

    ``hidden``: the action is face down (it stays out of the public history), so its card is not told.
    """
    kind = card_kind(p, action)
    if hidden and kind is not None:
        return kind.does.format("a card")
    return _phrases(p, action)[1]


def typed_names(p, action: int) -> list[str]:
    """The names a person may type for ``action`` in the phase of ``p`` (``plain``), bare cards included."""
    kind = card_kind(p, action)
    names = [action_to_string(action), display_name(p, action)]
    if kind is not None:
        card = _card(action)
        bare = [card_code(card), card_name(card)]
        if kind is PLAY_KIND:
            signal = action // 40
            words = [SIGNAL_NAMES[signal]] + (["liscio"] if signal == STRISCIO else [])
            names += [f"{b} {w}".strip() for b in bare for w in words]
        else:
            names += bare + [f"{kind.word} {b}" for b in bare]
    elif action == SOLO:
        names += ["solo", "sola"]
    return list(dict.fromkeys(plain(n) for n in names))


def wrap_items(first: str, items: list[str], indent: int, width: int = WIDTH, sep: str = "  ") -> list[str]:
    """``first`` followed by ``items`` joined by ``sep``, wrapped between items to ``width`` columns."""
    lines = [first]
    fresh = True  # no item on the line yet
    for item in items:
        joined = lines[-1] + ("" if fresh else sep) + item
        if len(joined) + len(sep.rstrip()) > width and lines[-1].strip():
            # A comma or a dot stays at the end of the line it follows.
            lines[-1] = lines[-1].rstrip() if fresh else lines[-1] + sep.rstrip()
            lines.append(" " * indent + item)
        else:
            lines[-1] = joined
        fresh = False
    return lines


def menu(view: SeatView, legal: Sequence[int], width: int = WIDTH) -> tuple[list[str], list[int]]:
    """The legal actions as the person sees them: the lines, and the action each number stands for (1 first).

    Card-bearing actions are grouped by kind (play, call, discard...) and by suit, strongest card
    first, each card numbered once (a card play: without a signal); the signals a suit's cards
    may give are written once after them (``+ busso or striscio``), the odd card's own in
    brackets. The other actions follow, numbered in a row. No line is longer than ``width``.
    """
    p = view.public
    groups: dict[Kind, dict[int, dict[int, int]]] = {}  # kind -> card -> signal -> action
    flat: list[int] = []
    for action in legal:
        kind = card_kind(p, action)
        if kind is None:
            flat.append(action)
        else:
            signal = action // 40 if kind is PLAY_KIND else 0
            groups.setdefault(kind, {}).setdefault(_card(action), {})[signal] = action
    lines: list[str] = []
    entries: list[int] = []
    for kind, cards in groups.items():
        title = len(lines)
        lines.append(f"{kind.title}:")
        example = ""
        for suit, suit_name in enumerate(SUITS):
            in_suit = sorted((c for c in cards if c // 10 == suit), key=lambda c: -STRENGTH[c])
            if not in_suit:
                continue
            common = set.intersection(*(set(cards[c]) - {0} for c in in_suit))
            items = []
            for card in in_suit:
                by_signal = cards[card]
                entries.append(by_signal.get(0, min(by_signal.values())))
                if not example and len(by_signal) > 1:
                    example = f"{len(entries)} {SIGNAL_NAMES[min(set(by_signal) - {0})]}"
                own = sorted(set(by_signal) - {0} - common)
                extra = f" (+{'/'.join(SIGNAL_NAMES[s] for s in own)})" if own else ""
                items.append(f"{len(entries)}) {card_code(card)}{extra}")
            if common:
                items.append("+ " + " or ".join(SIGNAL_NAMES[s] for s in sorted(common)))
            lines += wrap_items(f"  {suit_name:<8} ", items, 11, width)
        if example:
            lines[title] = f"{kind.title}; a signal after it, as in {example}:"
    if flat:
        items = []
        for action in flat:
            entries.append(action)
            items.append(f"{len(entries)}) {display_name(p, action)}")
        lines += wrap_items("  or: " if groups else "your actions: ", items, 6 if groups else 2, width)
    if len(legal) == 1:
        return [f"your only action: {display_name(p, legal[0])} (Enter plays it)"], entries
    if groups:
        lines[0] = "your actions: " + lines[0]
    return lines, entries


def why_illegal(view: SeatView, action: int, legal: Sequence[int]) -> str:
    """Why ``action`` is not legal for ``view``'s seat now, in words (the follow-suit rule, a signal's truth...)."""
    p = view.public
    hand = view.hand
    t = p.table
    plays = [a for a in legal if a < CALL_OUT]
    kind = card_kind(p, action)
    if kind is PLAY_KIND:
        card, signal, suit = action % 40, action // 40, action % 40 // 10
        code = card_code(card)
        if not plays:
            return f"no card is played now ({p.rules.game.phase_name(p)})"
        if not hand >> card & 1:
            return f"you do not hold {code}"
        if p.trick:
            led = p.trick[0] // 10
            if suit != led and hand & SUIT_MASK[led]:
                held = " ".join(card_code(c) for c in cards_of(hand & SUIT_MASK[led]))
                return f"you must follow suit: {SUITS[led]} was led and you hold {held}"
            if signal:
                return "only the leader signals, with the card he leads"
        if signal:
            name = SIGNAL_NAMES[signal]
            in_suit = hand & SUIT_MASK[suit]
            if not t.signal_seats >> p.turn & 1:
                return "you may not signal in this game from this seat"
            if p.tricks_done < t.signals_from:
                return f"signals are given from trick {t.signals_from + 1}"
            if not t.signal_kinds >> (signal - 1) & 1:
                kinds = " and ".join(SIGNAL_NAMES[k] for k in (1, 2, 3) if t.signal_kinds >> (k - 1) & 1)
                return f"this game's signals are {kinds}; {name} is not one of them"
            if signal == 3 and in_suit & (in_suit - 1):
                return f"volo says {code} is your last {SUITS[suit]}, and you keep more"
            if signal in (1, 2) and not in_suit & (in_suit - 1):
                return f"{name} says you keep another {SUITS[suit]}, and {code} is your last"
            if signal == STRISCIO and t.narrow_striscio and in_suit & ~(1 << card) & HONOURS[suit]:
                return f"striscio here says you keep no 3, 2 or asso of {SUITS[suit]}, and you would"
        return f"{code} is not legal now"
    if kind is not None:
        card = _card(action)
        code = card_code(card)
        if kind in (RETURN_KIND, DISCARD_KIND, INTO_MONTE_KIND) and not hand >> card & 1:
            return f"you do not hold {code}"
        if kind is CALL_KIND and hand >> card & 1:
            return f"you hold {code}: call a card you lack"
    if plays and action >= CALL_OUT and action != CALL_OUT:
        return "this is the card play: play a card"
    return "it is not among your actions above"


class HumanPlayer:
    """A person typing actions (see the module docstring)."""

    name = "human"
    spec_options = ("hint", "confirm")
    """The options a spec (``human:hint=none``) may set; ``read``, ``write`` and ``names`` are Python's."""

    def __init__(
        self,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        hint: str | Player = "heuristic",
        confirm: bool = True,
        names: Sequence[str] | None = None,
    ):
        self.read = read
        self.write = write
        self.hint = hint
        self.confirm = confirm
        self.names = names
        """Each seat's name on the screen (``tressette play``: ``you``, ``player 1``...); None: ``you`` for the
        person's seat and the others as ``tressette replay`` names them (``player N``)."""
        self.own: tuple[int, int] | None = None
        """(seat, cards): the person's own hand while he plays another seat (a dummy), shown beside its view."""

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        write = self.write
        names = self.names or ["you" if s == view.seat else name for s, name in enumerate(default_names(view.public))]
        lines, entries = menu(view, legal)
        write("")
        write(table_text(view, names, own=self.own if self.own and self.own[0] != view.seat else None))
        write("\n".join(lines))
        only = legal[0] if len(legal) == 1 else None
        p = view.public
        prompt = "your action (number or name; ? hint, h help, q quit): "
        if only is not None:
            prompt = f"your action (Enter plays {display_name(p, only)}; ? hint, h help, q quit): "
        while True:
            typed = self._read(prompt)
            if typed == "?":
                advice = self._hint(view, legal, rng)
                write(
                    f"hint: {self._hint_player().name} would {action_phrase(p, advice)}: type {_key(advice, entries)}"
                )
                continue
            if typed in ("h", "help", "aiuto"):
                write(HELP + "\n" + LEGEND)
                continue
            if only is not None and typed == "":
                return only
            action = self.parse(typed, legal, view, entries)
            if action is None:
                continue
            if not self.confirm or only is not None:
                return action
            answer = self._read(f"{display_name(p, action)}: Enter to confirm, u to take it back: ")
            if answer == "":
                return action
            if answer != "u":
                write(f"{shown(answer)} is neither Enter nor u: {display_name(p, action)} is taken back")

    def parse(
        self, typed: str, legal: list[int], view: SeatView | None = None, entries: Sequence[int] | None = None
    ) -> int | None:
        """The legal action ``typed`` names, or None after saying what is wrong.

        ``entries`` are the actions the menu's numbers stand for (default: ``legal`` in order);
        without ``view`` names are read as in the card play.
        """
        p = view.public if view is not None else None
        entries = list(entries) if entries is not None else list(legal)
        typed = plain(typed)
        if not typed:
            return None
        number = re.fullmatch(r"(\d{1,6})(?: (\w+))?", typed)  # a longer number is no action
        if number:
            k = int(number.group(1))
            if not 1 <= k <= len(entries):
                self.write(f"{k} is not one of your actions: type 1 to {len(entries)}, or a name such as "
                           f"{_example(p, entries)}")  # fmt: skip
                return None
            action = entries[k - 1]
            if number.group(2) is None:
                return action
            signal = _signal(number.group(2))
            if signal is None or action >= CALL_OUT:
                self.write(f"{shown(typed)}: after a card's number type a signal (busso, striscio, volo)")
                return None
            action = action % 40 + 40 * signal
            if action in legal:
                return action
            self.write(f"{action_to_string(action)} is not legal now: {self._why(view, action, legal)}")
            return None
        found = [a for a in legal if typed in self._names(p, a)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            names = ", ".join(self._display(p, a) for a in found)
            self.write(f"{typed} names several actions ({names}): type one's number or its whole name")
            return None
        known = [a for a in range(FAMILY_NUM_ACTIONS) if typed in self._names(p, a)]
        if known:
            if p is not None:  # the reading of a bare card that fits the phase: a discard's, not a play's
                kinds = {card_kind(p, a) for a in legal}
                known.sort(key=lambda a: card_kind(p, a) not in kinds)
            action = known[0]
            self.write(f"{self._display(p, action)} is not legal now: {self._why(view, action, legal)}")
        else:
            self.write(
                f"{shown(typed)} is not an action: type a number 1 to {len(entries)} or a name such as "
                f"{_example(p, entries)} (h: help)"
            )
        return None

    def ask(self, prompt: str) -> str | None:
        """Ask a question outside a decision (``tressette play``'s Enter between hands): the answer, None to stop."""
        try:
            typed = self.read(prompt)
        except EOFError:
            return None
        typed = plain(typed)
        return None if typed in ("q", "quit", "exit") else typed

    def _names(self, p, action: int) -> list[str]:
        if p is None:
            return [plain(action_to_string(action))]
        return typed_names(p, action)

    def _display(self, p, action: int) -> str:
        return action_to_string(action) if p is None else display_name(p, action)

    def _why(self, view: SeatView | None, action: int, legal: Sequence[int]) -> str:
        return "see your actions above" if view is None else why_illegal(view, action, legal)

    def _read(self, prompt: str) -> str:
        try:
            typed = self.read(prompt)
        except EOFError:
            raise QuitGame("end of input") from None
        typed = plain(typed)
        if typed in ("q", "quit", "exit"):
            raise QuitGame("quit")
        return typed

    def _hint_player(self) -> Player:
        if isinstance(self.hint, str):
            from .registry import make_player

            self.hint = make_player(self.hint)
        return self.hint

    def _hint(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        return self._hint_player().act(view, legal, random.Random(rng.random()))


def _signal(word: str) -> int | None:
    word = plain(word)
    if word == "liscio":
        return STRISCIO
    return SIGNAL_NAMES.index(word) if word in SIGNAL_NAMES[1:] else None


def _key(action: int, entries: Sequence[int]) -> str:
    """What to type for ``action``: its number, and a signal after it."""
    if action in entries:
        return str(entries.index(action) + 1)
    plain_card = action % 40 if action < CALL_OUT else None
    if plain_card is not None and plain_card in entries:
        return f"{entries.index(plain_card) + 1} {SIGNAL_NAMES[action // 40]}"
    return action_to_string(action)


def _example(p, entries: Sequence[int]) -> str:
    return action_to_string(entries[0]) if p is None else display_name(p, entries[0])


# ---------------------------------------------------------------------- the screen


def points_words(thirds: int) -> str:
    """Thirds as points: ``5 2/3``, ``2/3``, ``0``."""
    whole, rest = divmod(thirds, 3)
    return f"{rest}/3" if rest and not whole else points_text(thirds)


def held_text(mask: int) -> str:
    """The suits that hold a card of ``mask``, strongest first: ``denari: 3 R   spade: 6``."""
    return "   ".join(part for part in suits_text(mask).split("   ") if not part.endswith(": -"))


def trick_plays(p, leader: int, actions: Sequence[int], names: Sequence[str]) -> list[str]:
    """A trick's plays in order: ``["player 2 7s", "you 6s (busso)", "player 1 Cb"]``."""
    n = p.table.seats
    return [
        f"{names[(leader + i) % n]} {card_code(action % 40)}"
        + (f" ({SIGNAL_NAMES[action // 40]})" if action >= 40 else "")
        for i, action in enumerate(actions)
    ]


def side_members(p, side: int, names: Sequence[str]) -> list[str]:
    """The names of the seats that play for ``side`` this hand."""
    return list(dict.fromkeys(names[s] for s in range(p.table.seats) if p.table.sides[s] == side))


def side_label(p, side: int, names: Sequence[str]) -> str:
    """A side as the play screens name it: its one player (``you``), or ``team 0 (you, player 2)``."""
    members = side_members(p, side, names)
    role = p.rules.game.side_role(p, side)
    if role is not None:
        return f"{' and '.join(members)} ({role})"
    if len(members) == 1:
        return members[0]
    return f"{p.rules.game.side_word} {side} ({', '.join(members)})"


def seat_label(p, seat: int, names: Sequence[str]) -> str:
    """A seat as the play screen heads its line: the game's label (``you (soloist)``, ``player 1 (team 1)``).

    A side that is the player alone is left out: ``player 1``, not ``player 1 (player 1)``.
    """
    g = p.rules.game
    if type(g).seat_label is Game.seat_label and len(side_members(p, p.table.sides[seat], names)) == 1:
        return names[seat]
    return g.seat_label(p, seat, names)


def signals_given(p) -> list[tuple[int, str, str]]:
    """The signals given so far in the hand: (seat, the signal's name, the suit's name), seat by seat."""
    return [
        (seat, SIGNAL_NAMES[kind], suit_name)
        for seat in range(p.table.seats)
        for suit, suit_name in enumerate(SUITS)
        for kind, given in enumerate(p.signals_by(seat, suit), start=1)
        if given
    ]


def table_text(view: SeatView, names: Sequence[str], width: int = WIDTH, own: tuple[int, int] | None = None) -> str:
    """One seat's view for the play screen (``tressette play``): like ``engine.render.render_view``, in play's words.

    The seats by ``names`` (one name each, ``you`` for the person), ``1 card`` in the
    singular, the face-up cards by suit, the trick or the last trick, and the score as
    ``team 0 (you, player 2): 1 2/3`` once the card play has begun; lines wrapped to ``width``.
    ``own`` (seat, cards) shows the person's own hand while he plays another seat (a dummy).
    """
    p = view.public
    g = p.rules.game
    n = p.table.seats
    head = [f"hand {p.hand_number + 1}", f"dealer {names[p.dealer]}"]
    card_play = g.card_play_begun(p)
    if card_play:
        head += [f"trick {p.tricks_done + 1} of {p.table.tricks}", f"{names[p.turn]} to play"]
    else:
        head += [g.phase_name(p), f"{names[p.turn]} to act"]
    lines = wrap_items("", head, 2, width, sep=" · ")
    for s in range(n):
        label = seat_label(p, s, names) + "  "
        if s == view.seat or (own is not None and s == own[0]):
            cards = view.hand if s == view.seat else own[1]
            lines += wrap_items(label, suits_text(cards).split("   "), len(label), width, sep="   ")
            continue
        items = [count_text(g.hand_size(p, s))]
        face_up = p.exposed_by(s)
        if face_up:
            suits = held_text(face_up).split("   ")
            items = [f"{items[0]}, face up: {suits[0]}", *suits[1:]]
        lines += wrap_items(label, items, len(label), width, sep="   ")
    if p.trick or p.tricks_done:
        leader, _, actions = p.tricks()[-1]
        lines += wrap_items(
            "table: " if p.trick else "last trick: ", trick_plays(p, leader, actions, names), 2, width, " · "
        )
    signals = [f"{names[seat]} {signal} in {suit}" for seat, signal, suit in signals_given(p)]
    if signals:
        lines += wrap_items("signals: ", signals, 2, width, sep="; ")
    accusi = [f"{names[seat]} {a.name} ({a.points})" for seat in range(n) for a in p.accusi.by_seat[seat]]
    if accusi:
        lines += wrap_items("accusi: ", accusi, 2, width, sep="; ")
    lines += g.render_lines(p, names)
    if p.plays:
        scores = [f"{side_label(p, s, names)}: {points_words(t)}" for s, t in enumerate(p.thirds)]
        lines += wrap_items("this hand: ", scores, 2, width, sep=" · ")
    return "\n".join(lines)
