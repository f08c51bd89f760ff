"""A seat's view as a short prompt, in English or in Italian, and free text read back as an action.

``prompt(view, legal, language)`` is what a text agent (a language model) is shown: in English
the play screen a person sees in ``tressette play`` (the table, then the numbered actions), in
Italian a shorter prompt: the hand, the cards in each other hand, the face-up cards, the trick,
the signals and accusi, the tricks and thirds taken and the numbered actions with the signals a
card may carry (the sides and a game's own lines, a contract or a called card, only in
English). Cards are named as the docs name them (``asso di denari``, ``3d``).

``parse_action(text, view, legal)`` reads an answer as a person's typing is read (``3d``,
``3 di denari``, ``3d busso``, ``chiamo``, ``passo``, an action's number), and free text around
it (``I play the 3 di denari.``, ``I choose action 2``): the whole text, then its last line,
then an action's number after the word action (azione), then the one legal action whose name
the text holds (a name of three letters or more, or a card's code with its digit: ``3d``; a
code of letters only, ``as`` or ``ad``, is read only as the whole answer, since it is a word
too), with a signal said anywhere in the text (``the 3 di coppe, with busso``). What it cannot
read, or text that names several actions, it says in one line (``TextActionError``).

Example:
    >>> from tressette_env.engine import legal_actions, new_game, view
    >>> state = new_game(seed=0)
    >>> seat = view(state, state.public.turn)
    >>> "asso di denari" in prompt(seat, legal_actions(state), "it")
    True
    >>> parse_action("I think I will play the asso di denari.", seat, legal_actions(state))
    0
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..agents.human import HumanPlayer, display_name, menu, plain, signals_given, table_text, typed_names
from ..engine.actions import CALL_OUT, SIGNAL_NAMES, action_to_string
from ..engine.cards import card_name, cards_of
from ..engine.render import default_names
from ..engine.state import SeatView
from ..messages import cut

LANGUAGES = ("en", "it")

INSTRUCTIONS = {
    "en": "Answer with one of the actions above: its number or its name (for example 3d, 3 di denari, 3d busso, "
    "passo, chiamo).",
    "it": "Rispondi con una delle azioni qui sopra: il suo numero o il suo nome (per esempio 3d, 3 di denari, "
    "3d busso, passo, chiamo).",
}


class TextActionError(ValueError):
    """Text that names no legal action (one line: what was read and what is allowed)."""


def prompt(view: SeatView, legal: Sequence[int], language: str = "en") -> str:
    """The prompt for ``view`` with these legal actions, in ``language`` (``"en"`` or ``"it"``)."""
    if language not in LANGUAGES:
        raise ValueError(f"language {language!r}: one of {', '.join(LANGUAGES)}")
    p = view.public
    title = _title(p)
    lines, entries = menu(view, list(legal))
    if language == "en":
        names = ["you" if s == view.seat else name for s, name in enumerate(default_names(p))]
        return "\n".join(
            [f"You play {title} as {default_names(p)[view.seat]}.", table_text(view, names), *lines, INSTRUCTIONS["en"]]
        )
    n = p.table.seats
    g = p.rules.game
    out = [
        f"Giochi a {title}: sei il giocatore {view.seat} e tocca a te.",
        f"Mano {p.hand_number + 1}, mazziere il giocatore {p.dealer}.",
    ]
    out.append("Le tue carte: " + ", ".join(card_name(c) for c in cards_of(view.hand)) + ".")
    for s in range(n):
        if s == view.seat:
            continue
        held = g.hand_size(p, s)
        line = f"Il giocatore {s} ha {held} {'carta' if held == 1 else 'carte'}"
        shown = p.exposed_by(s)
        if shown:
            line += ", scoperte: " + ", ".join(card_name(c) for c in cards_of(shown))
        out.append(line + ".")
    if p.trick:
        plays = [f"giocatore {(p.leader + i) % n}: {card_name(c)}" for i, c in enumerate(p.trick)]
        out.append("Sul tavolo: " + "; ".join(plays) + ".")
    signals = [f"giocatore {seat} {signal} a {suit}" for seat, signal, suit in signals_given(p)]
    if signals:
        out.append("Segnali: " + "; ".join(signals) + ".")
    accusi = [f"giocatore {seat} {a.name} ({a.points} punti)" for seat in range(n) for a in p.accusi.by_seat[seat]]
    if accusi:
        out.append("Accusi: " + "; ".join(accusi) + ".")
    if p.tricks_done:
        out.append(
            f"Prese fatte: {p.tricks_done} di {p.table.tricks}; terzi presi: " + ", ".join(map(str, p.thirds)) + "."
        )
    allowed = set(legal)
    out.append(
        "Azioni possibili: " + "; ".join(f"{k} {_it_name(p, a, allowed)}" for k, a in enumerate(entries, start=1)) + "."
    )
    out.append(INSTRUCTIONS["it"])
    return "\n".join(out)


def _title(p) -> str:
    from ..catalog import entry_of

    return entry_of(p.rules).title


def _it_name(p, action: int, legal: set[int]) -> str:
    """The action as the play screen names it in this phase (``volta Rd``, ``prendi 3c``), with the card's long name.

    A card play lists the signals it may carry too (``2d (2 di denari, o 2d busso o 2d striscio)``); the
    actions are separated by semicolons, so none is written inside one.
    """
    names = typed_names(p, action)
    shown = display_name(p, action)
    long = next((n for n in names if " di " in n), None)
    signalled = [action_to_string(action + 40 * k) for k in (1, 2, 3) if action < 40 and action + 40 * k in legal]
    inside = [long] if long else []
    if signalled:
        inside.append("o " + " o ".join(signalled))
    return f"{shown} ({', '.join(inside)})" if inside else shown


def parse_action(text: str, view: SeatView, legal: Sequence[int]) -> int:
    """The legal action ``text`` names (the module docstring says how it is read).

    Raises:
        TextActionError: no legal action, or several, can be read from it.
    """
    if not isinstance(text, str):
        raise TextActionError(f"an answer is text; got {type(text).__name__}")
    legal = list(legal)
    _, entries = menu(view, legal)
    said: list[str] = []
    reader = HumanPlayer(read=lambda _: "", write=said.append)
    lines = [line for line in text.strip().splitlines() if line.strip()]
    for candidate in dict.fromkeys([text, lines[-1] if lines else "", re.sub(r"[.!;:\"'`*]+", " ", text)]):
        if candidate.strip() and len(candidate) <= 200:
            action = reader.parse(candidate, legal, view, entries)
            if action is not None:
                return action
    words = f" {plain(re.sub(r'[^0-9A-Za-zÀ-ÿ ]+', ' ', text))} "
    named: dict[int, str] = {}  # each legal action named in the text -> its longest name found there
    for action in legal:
        for name in typed_names(view.public, action):
            # A two-letter code of letters only (``as``, ``ad``, ``rd``) is an English or Italian word too:
            # in free text only a code with its digit (``3d``) or a longer name counts.
            if (len(name) > 2 or any(ch.isdigit() for ch in name)) and f" {name} " in words:
                if len(name) > len(named.get(action, "")):
                    named[action] = name
    # A name inside a longer one found too ("3d" in "3d busso") is part of it.
    found = {a: n for a, n in named.items() if not any(n != m and f" {n} " in f" {m} " for m in named.values())}
    cards = {a % 40 for a in found if a < CALL_OUT}
    if found and len(cards) == 1 and all(a < CALL_OUT for a in found):
        card = cards.pop()
        said_signals = [k for k in (1, 2, 3) if f" {SIGNAL_NAMES[k]} " in words] + ([2] if " liscio " in words else [])
        said_signals = sorted(set(said_signals))
        if len(said_signals) == 1 and card + 40 * said_signals[0] in legal:
            found = {card + 40 * said_signals[0]: ""}  # the card and, anywhere in the text, its signal
        elif not said_signals and len(found) > 1 and card in legal:
            found = {card: ""}
    squeezed = re.sub(r"\s+", " ", text)  # (a run of n spaces after "action" cost the search n * n steps)
    number = re.search(
        r"\b(?:action|azione|number|numero|choice|scelta) ?(?:n\.?|no\.?|#)? ?(\d{1,3})\b", squeezed, re.I
    )
    if number:  # "I choose action 3"
        action = reader.parse(number.group(1), legal, view, entries)
        if action is not None:
            if found and action not in found:
                raise TextActionError(
                    f"{cut(text.strip(), 80)!r} chooses action {number.group(1)} but names another: name one"
                )
            return action
    if len(found) == 1:
        return next(iter(found))
    if len(found) > 1:
        names = ", ".join(found[a] for a in sorted(found))
        raise TextActionError(f"{cut(text.strip(), 80)!r} names several actions ({cut(names, 120)}): name one")
    why = said[0] if said else "no action's name in it"
    raise TextActionError(f"could not read an action in {cut(text.strip(), 80)!r}: {cut(why, 200)}")
