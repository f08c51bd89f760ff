"""The four-seat card play on mutable fields, each seat's observation patched card by card: the AEC step's fast path.

The rules core (``engine.game``) builds a new immutable ``GameState`` for every card, and the
encoder (``encoders.observation``) reads the whole state again for every observation. Between
a hand's first card and its last, ``CardPlayMirror`` keeps the same state in mutable fields
and each seat's observation bits, and a card changes only what it changes: the player's hand
bit, the card's trick and played bits in every seat's view, a void or a signal where one
shows, and at a trick's end the leader, the trick number and the thirds. The legal actions
come from the core's own ``legal_mask_for`` (the mirror has the fields it reads).

| what | the core (``engine.game``) | the mirror |
| --- | --- | --- |
| a card that does not end the hand | ``apply``: a new ``GameState`` | ``play``: fields changed in place |
| the hand's last card, a claim, an illegal action | ``apply``, ``renuncio`` | not taken (``takes`` is False): the core's |
| the whole state | ``GameState`` | ``state()``: built when asked for |
| a seat's observation bits | ``Observation.bits`` | ``obs[seat]``, kept up to date |

``FamilyEnv`` keeps one for the four-seat game's default observation (not with ``history=True``,
nor while recording); its ``game`` attribute builds the ``GameState`` from the mirror when read.
``tests/envs/test_mirror.py`` pins it to the core: every state, observation, mask, reward and
info of random play, signals, renuncios, claims and matches included, equal to the
environment's without it. Its figures: docs/benchmarks.md.
"""

from __future__ import annotations

from ..encoders.observation import CLASSIC, THERMOMETERS
from ..engine.actions import CALL_OUT
from ..engine.cards import SUIT_MASK, THIRDS
from ..engine.state import FIXED_FIELDS, GameState, PublicState
from ..engine.tricks import winning_position

_new = tuple.__new__
_AT = {name: s.start for name, s in CLASSIC.slices.items()}
_TRICK_AND_PLAYED = tuple(
    tuple(1 << (_AT["trick"] + 40 * r + card) | 1 << (_AT["played"] + 40 * r + card) for card in range(40))
    for r in range(4)
)
"""[relative seat][card]: the card's bit in that seat's block of the ``trick`` and ``played`` pieces."""
_BY_TRICK = (
    ((1 << 160) - 1) << _AT["trick"]
    | 0xF << _AT["leader"]
    | ((1 << 10) - 1) << _AT["trick_number"]
    | ((1 << 2 * THERMOMETERS["thirds"]) - 1) << _AT["thirds"]
)
"""The bits a trick's end writes again: the trick (emptied), the leader, the trick number, the thirds."""
_KEEP = ~_BY_TRICK
_THIRDS_OTHER = _AT["thirds"] + THERMOMETERS["thirds"]


def fits(encoder: object, game: GameState) -> bool:
    """Whether a mirror can play ``game``'s hand for ``encoder``: the four-seat game's default observation."""
    return encoder is CLASSIC and game.public.table.seats == 4 and not game.public.table.phase


class CardPlayMirror:
    """One hand of the four-seat game from a state of its card play on (see the module docstring).

    The fields ``trick``, ``turn``, ``tricks_done`` and ``table`` are those ``engine.game.legal_mask_for``
    reads from a ``PublicState``; ``hands``, ``leader``, ``thirds``, ``played``, ``signals``,
    ``voids`` and ``history`` are the state's others, as lists where the state has tuples.
    """

    __slots__ = (
        "fixed", "table", "dealt", "hidden", "hands", "trick", "leader", "turn", "tricks_done", "thirds",
        "played", "signals", "voids", "history", "obs", "last_trick", "state_now",
    )  # fmt: skip

    def __init__(self, game: GameState) -> None:
        p = game.public
        self.fixed = p[:FIXED_FIELDS]
        """The fields a card play leaves as they are (``rules`` to ``table``)."""
        self.table = p.table
        self.dealt, self.hidden = game.dealt, game.hidden
        self.hands = list(game.hands)
        self.trick = list(p.trick)
        self.leader, self.turn, self.tricks_done = p.leader, p.turn, p.tricks_done
        self.thirds = list(p.thirds)
        self.played, self.signals, self.voids = p.played, p.signals, p.voids
        self.history = list(p.history)
        self.obs = [CLASSIC.bits(p, seat, game.hands[seat]) for seat in range(4)]
        """Each seat's observation bits (``Observation.bits``), the mask not included."""
        self.last_trick = p.table.tricks - 1
        self.state_now: GameState | None = game
        """The ``GameState`` of the fields, once built (None after a card changed them)."""

    def takes(self, action: int) -> bool:
        """Whether ``play`` may take this legal action: a card that does not end the hand (not a claim)."""
        return action < CALL_OUT and (self.tricks_done < self.last_trick or len(self.trick) < 3)

    def play(self, action: int) -> None:
        """The seat on turn plays ``action``, a legal card play for which ``takes`` is True (``engine.game.apply``'s card play)."""
        card = action % 40
        signal = action // 40
        suit = card // 10
        seat = self.turn
        hand = self.hands[seat]
        trick = self.trick
        obs = self.obs
        if trick:
            led = trick[0] // 10
            if suit != led and not hand & SUIT_MASK[led]:
                self.voids |= 1 << (4 * seat + led)
                for me in range(4):
                    obs[me] |= 1 << (_AT["voids"] + 4 * ((seat - me) & 3) + led)
        elif signal:
            bit = 3 * suit + signal - 1
            self.signals |= 1 << (12 * seat + bit)
            for me in range(4):
                obs[me] |= 1 << (_AT["signals"] + 12 * ((seat - me) & 3) + bit)
        self.hands[seat] = hand ^ 1 << card
        self.played |= 1 << (40 * seat + card)
        self.history.append(action)
        trick.append(card)
        self.state_now = None
        obs[0] |= _TRICK_AND_PLAYED[seat][card]
        obs[1] |= _TRICK_AND_PLAYED[(seat - 1) & 3][card]
        obs[2] |= _TRICK_AND_PLAYED[(seat - 2) & 3][card]
        obs[3] |= _TRICK_AND_PLAYED[(seat - 3) & 3][card]
        obs[seat] ^= 1 << card  # the hand piece
        if len(trick) < 4:
            self.turn = (seat + 1) & 3
            return
        winner = (self.leader + winning_position(trick)) & 3
        tricks_done = self.tricks_done = self.tricks_done + 1
        thirds = self.thirds
        thirds[self.table.sides[winner]] += THIRDS[trick[0]] + THIRDS[trick[1]] + THIRDS[trick[2]] + THIRDS[trick[3]]
        self.leader = self.turn = winner
        self.trick = []
        sides = self.table.sides
        for me in range(4):
            own = sides[me]
            obs[me] = (
                obs[me] & _KEEP
                | 1 << (_AT["leader"] + ((winner - me) & 3))
                | 1 << (_AT["trick_number"] + tricks_done)
                | ((1 << thirds[own]) - 1) << _AT["thirds"]
                | ((1 << thirds[1 - own]) - 1) << _THIRDS_OTHER
            )

    def state(self) -> GameState:
        """The ``GameState`` these fields hold (built once after each card)."""
        state = self.state_now
        if state is None:
            public = _new(
                PublicState,
                self.fixed
                + (
                    self.leader, self.tricks_done, tuple(self.thirds), self.turn, tuple(self.trick),
                    self.played, self.signals, self.voids, tuple(self.history),
                ),
            )  # fmt: skip
            state = self.state_now = _new(GameState, (public, tuple(self.hands), self.dealt, self.hidden))
        return state
