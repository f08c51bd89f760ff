"""A person at the table: ``HumanPlayer`` shows the seat's view in the terminal and reads the action typed.

``tressette play`` seats one; ``make_player("human")`` gives one to ``tressette eval`` or to an
environment's other seats. At each decision it prints what the seat may know (its hand by
suit, the other hands as card counts, the trick, signals, declarations and the score:
``engine.render.render_view``) and the legal actions, numbered:

| typed | does |
| --- | --- |
| a number | the legal action of that number |
| a name: ``3d``, ``3d busso``, ``3 di denari``, ``passo``, ``chiamo``, ``chiama 3d`` | the legal action of that name (a card alone: played without a signal) |
| ``?`` | a hint: what the hint player (``hint=``, default the heuristic) would play |
| ``q`` (or end of input) | stop: ``QuitGame`` is raised |

With ``confirm=True`` (the default) the chosen action is shown and played only after Enter;
``u`` takes it back and asks again. Anything else gets a message and a new prompt.

Example:
    >>> import random
    >>> from tressette_env.engine import legal_actions, new_game, view
    >>> state = new_game(seed=0)
    >>> typed = iter(["99", "1", ""])  # 99 is not one of the numbers; then the first action, confirmed
    >>> player = HumanPlayer(read=lambda prompt: next(typed), write=lambda text: None)
    >>> player.act(view(state, state.public.turn), legal_actions(state), random.Random(0)) == legal_actions(state)[0]
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..engine.actions import action_to_string
from ..engine.cards import card_name
from ..engine.render import render_view
from ..engine.state import SeatView
from .base import Player


class QuitGame(Exception):
    """The person asked to stop (``q``, or the end of input)."""


def action_names(action: int) -> list[str]:
    """The names a person may type for ``action``, lowercase: its short form, and a card's Italian name."""
    short = action_to_string(action).lower()
    names = [short]
    if action < 160:  # a card play: "3 di denari" (+ the signal) too
        long = card_name(action % 40).lower()
        signal = short.partition(" ")[2]
        names.append(f"{long} {signal}".strip())
    return names


class HumanPlayer:
    """A person typing actions (see the module docstring)."""

    name = "human"

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

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        write = self.write
        write("")
        write(render_view(view, self.names))
        write("your actions: " + "   ".join(f"{k}) {action_to_string(a)}" for k, a in enumerate(legal, start=1)))
        while True:
            typed = self._read("your action (number or name; ? hint, q quit): ")
            if typed == "?":
                write(f"hint: {self._hint_player().name} would play {action_to_string(self._hint(view, legal, rng))}")
                continue
            action = self.parse(typed, legal)
            if action is None:
                continue
            if not self.confirm:
                return action
            answer = self._read(f"{action_to_string(action)}: Enter to play it, u to take it back: ")
            if answer == "":
                return action
            if answer != "u":
                write(f"{answer!r} is neither Enter nor u: {action_to_string(action)} is taken back")

    def parse(self, typed: str, legal: list[int]) -> int | None:
        """The legal action ``typed`` names, or None after saying what is wrong."""
        if typed.isdigit():
            k = int(typed)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            self.write(f"{k} is not one of your actions: type 1 to {len(legal)}, or a name such as {_example(legal)}")
            return None
        for action in legal:
            if typed in action_names(action):
                return action
        known = [a for a in range(255) if typed in action_names(a)]
        if known:
            self.write(f"{typed} is not legal now; your actions: {', '.join(action_to_string(a) for a in legal)}")
        elif typed:
            self.write(
                f"{typed!r} is not an action: type a number 1 to {len(legal)} or a name such as {_example(legal)}"
            )
        return None

    def _read(self, prompt: str) -> str:
        try:
            typed = self.read(prompt)
        except EOFError:
            raise QuitGame("end of input") from None
        typed = " ".join(typed.strip().lower().split())
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


def _example(legal: list[int]) -> str:
    return action_to_string(legal[0])
