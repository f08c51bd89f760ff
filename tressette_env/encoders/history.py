"""The history observation: a game's observation followed by the whole public record of the card play.

``observation_of(rules, history=True)`` (and ``history=True`` of every environment) gives
this. The default observation summarises the hand as sets (who played which card, the
signals by seat and suit, the voids); these pieces, appended after it, keep the order of
play: in which trick and at which place each card fell, who led and who took each trick,
and which lead carried which signal. The default pieces keep their slices, so a piece is
found at the same place in both observations.

The pieces, for a table of N seats and T tricks (``Observation`` sizes; seats relative to the
observer, 0 = you, as in the default pieces):

| piece | shape | meaning |
| --- | --- | --- |
| `card_trick` | (40, T) | for each card id, one-hot: the trick (0 = the first) in which it was played; all 0 while it is unplayed |
| `card_place` | (40, N) | for each card id, one-hot: its place in its trick (0 = it was led); all 0 while it is unplayed |
| `trick_leader` | (T, N) | for each trick begun, one-hot: the relative seat that led it |
| `trick_winner` | (T, N) | for each trick completed, one-hot: the relative seat that took it |
| `lead_signal` | (T, 3) | for each trick, the signal (busso, striscio, volo) that went with its lead (games with signals) |

Who played a card is the leader of its trick plus its place, and the seat that took a trick
leads the next: the pieces repeat each other on purpose, so that a network need not learn
the arithmetic. The declarations are public from the moment they are made and the default
pieces ``accusi`` (the cards each seat's declarations showed) and ``declared_points`` hold
them whole; a game's other phases (an auction, the packets, the stock) are in its own pieces.

Example:
    >>> from tressette_env.engine import Rules, new_game, view
    >>> from tressette_env.encoders import observation_of
    >>> observation = observation_of(Rules(), history=True)
    >>> observation.size, observation.slices["card_trick"]
    (1460, slice(790, 1190, None))
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache
from typing import Any

from ..engine.state import PublicState
from ..engine.tricks import winning_position
from .layout import Piece, slices_of
from .observation import Encoded


def history_pieces(seats: int, tricks: int, signals: bool) -> tuple[Piece, ...]:
    """The history pieces of a table of ``seats`` seats and ``tricks`` tricks (the module's table)."""
    pieces = (
        Piece(
            "card_trick",
            (40, tricks),
            "for each card id, one-hot: the trick (0 = the first) in which it was played; all 0 while it is unplayed",
        ),
        Piece(
            "card_place",
            (40, seats),
            "for each card id, one-hot: its place in its trick (0 = it was led); all 0 while it is unplayed",
        ),
        Piece("trick_leader", (tricks, seats), "for each trick begun, one-hot: the relative seat that led it"),
        Piece("trick_winner", (tricks, seats), "for each trick completed, one-hot: the relative seat that took it"),
    )
    if signals:
        pieces += (
            Piece(
                "lead_signal",
                (tricks, 3),
                "for each trick, the signal (busso, striscio, volo) that went with its lead",
            ),
        )
    return pieces


def history_encoder(seats: int, tricks: int, signals: bool, at: int) -> Callable[[PublicState, int], int]:
    """``bits(public, me) -> int``: the history pieces of ``history_pieces(seats, tricks, signals)``, from bit ``at``.

    ``seats`` and ``tricks`` size the pieces; the table's own seat count (``Table.seats``, at
    most ``seats``) turns the seats to the observer, as the default pieces do.
    """
    return HistoryBits(seats, tricks, signals, at)


class HistoryBits:
    """The history pieces' bits (``history_encoder``), remembering the last hand it read.

    An environment asks for the observation after every card, so it keeps what it worked out
    for the last hand it saw (its plays, the pieces that do not depend on the observer, each
    trick's leader and winner) and, when the new plays extend those, reads only the new cards;
    any other hand is worked out from its first card. What it keeps is per thread, so threads
    sharing an encoder do not mix their hands, and it is not pickled (a copy starts afresh).
    Reading the whole hand at every call made the AEC step with ``history=True`` 0.49x the
    default one's speed, against 0.67x now (``benchmarks/bench_env.py``; docs/benchmarks.md). The tests compare
    every decision of every game with a plain reading of ``PublicState.tricks()``, states in
    any order with a fresh encoder, and threads sharing one.
    """

    def __init__(self, seats: int, tricks: int, signals: bool, at: int):
        self.seats, self.tricks, self.signals, self.at = seats, tricks, signals, at
        self.place_at = at + 40 * tricks
        self.leader_at = self.place_at + 40 * seats
        self.winner_at = self.leader_at + tricks * seats
        self.signal_at = self.winner_at + tricks * seats
        self._kept = threading.local()  # .last: plays, (first leader, seats), observer-free bits, [leader, winner]s

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_kept"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._kept = threading.local()

    def __call__(self, p: PublicState, me: int) -> int:
        plays = p.plays
        if not plays:
            return 0
        n = p.table.seats
        key = (p.first_leader, n)
        last = getattr(self._kept, "last", None)
        if last is None:
            last = self._kept.last = [(), None, 0, []]
        seen, seen_key, out, by_trick = last
        done = len(seen)
        if seen_key != key or len(plays) < done or plays[:done] != seen:
            done, out, by_trick = 0, 0, []
        at, tricks, seats, place_at = self.at, self.tricks, self.seats, self.place_at
        for i in range(done, len(plays)):
            t, place = divmod(i, n)
            action = plays[i]
            card = action % 40
            if not place:
                by_trick.append([by_trick[t - 1][1] if t else key[0], -1])
                if action >= 40 and self.signals:
                    out |= 1 << (self.signal_at + 3 * t + action // 40 - 1)
            out |= 1 << (at + tricks * card + t) | 1 << (place_at + seats * card + place)
            if place == n - 1:
                trick = by_trick[t]
                trick[1] = (trick[0] + winning_position([a % 40 for a in plays[i - n + 1 : i + 1]])) % n
        last[:] = plays, key, out, by_trick
        leader_at, winner_at = self.leader_at, self.winner_at
        for t, (leader, winner) in enumerate(by_trick):
            out |= 1 << (leader_at + seats * t + (leader - me) % n)
            if winner >= 0:
                out |= 1 << (winner_at + seats * t + (winner - me) % n)
        return out


class HistoryObservation(Encoded):
    """A game's observation followed by the history pieces (the module docstring).

    It has the ``Observation`` interface the environments and players use: ``layout``,
    ``slices``, ``size``, ``bits(public, seat, hand[, private])``, ``takes_private``,
    ``encode(view)``, ``unflatten(obs)``, ``table()``.
    """

    def __init__(self, base: Any):
        self.base = base
        shapes = {piece.name: piece.shape for piece in base.layout}
        seats, tricks = shapes["trick"][0], shapes["trick_number"][0]
        self.history_layout = history_pieces(seats, tricks, "signals" in shapes)
        self.layout: tuple[Piece, ...] = tuple(base.layout) + self.history_layout
        self.slices = slices_of(self.layout)
        self.size = sum(piece.size for piece in self.layout)
        self.takes_private = bool(getattr(base, "takes_private", False))
        history = history_encoder(seats, tricks, "signals" in shapes, base.size)
        base_bits = base.bits
        if self.takes_private:

            def bits(p: PublicState, me: int, hand: int, private: int = 0) -> int:
                return base_bits(p, me, hand, private) | history(p, me)

        else:

            def bits(p: PublicState, me: int, hand: int) -> int:
                return base_bits(p, me, hand) | history(p, me)

        self.bits = bits
        self.history_bits = history
        """``history_bits(public, me)``: the history pieces alone, at their place in the vector."""

    def history_table(self) -> str:
        """The Markdown table of the history pieces alone, with their slices in the whole vector."""
        rows = self.table().split("\n")
        return "\n".join(rows[:2] + rows[2 + len(self.base.layout) :])


@cache
def with_history(base: Any) -> HistoryObservation:
    """The history observation over ``base`` (made once per base observation)."""
    return HistoryObservation(base)


def choose(base: Any, history: bool) -> Any:
    """``base``, or with ``history=True`` the history observation over it: what every ``history`` keyword means.

    Raises:
        TypeError: ``history`` is not a bool.
    """
    if not isinstance(history, bool):
        raise TypeError(f"history is True (the observation keeps the order of play) or False; got {history!r}")
    return with_history(base) if history else base
