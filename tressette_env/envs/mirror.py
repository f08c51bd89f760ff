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

The four-seat game's environments keep one for the default observation (not with
``history=True``, nor while recording; ``MirroredGame``): the AEC environment (``FamilyEnv``,
every seat's observation kept) and the single-learner one (``SingleAgentEnv``, the learner's
only: with one seat watched a card costs half of ``apply``). Their ``game`` attribute builds
the ``GameState`` from the mirror when read. ``tests/envs/test_mirror.py`` pins both to the
core: every state, observation, mask, reward and info of random and heuristic play, signals,
renuncios, claims, matches and truncations included, equal to the environment's without it.
Its figures: docs/benchmarks.md.
"""

from __future__ import annotations

from functools import cache

from ..encoders.observation import CLASSIC, THERMOMETERS
from ..engine.actions import CALL_OUT
from ..engine.cards import SUIT_MASK, THIRDS
from ..engine.state import FIXED_FIELDS, PLAYING, GameState, PublicState
from ..engine.tricks import winning_position

_new = tuple.__new__
_AT = {name: s.start for name, s in CLASSIC.slices.items()}
_PLAYED_BY = tuple(
    tuple(1 << (_AT["trick"] + 40 * r + card) | 1 << (_AT["played"] + 40 * r + card) | (1 << card if r == 0 else 0)
          for card in range(40))
    for r in range(4)
)  # fmt: skip
"""[relative seat][card]: the bits a card played by that seat flips in an observation: its bit of the
``trick`` and ``played`` pieces (0 before, 1 after), and for the observer's own card its ``hand`` bit
(1 before, 0 after)."""
_BY_TRICK = (
    ((1 << 160) - 1) << _AT["trick"]
    | 0xF << _AT["leader"]
    | ((1 << 10) - 1) << _AT["trick_number"]
    | ((1 << 2 * THERMOMETERS["thirds"]) - 1) << _AT["thirds"]
)
"""The bits a trick's end writes again: the trick (emptied), the leader, the trick number, the thirds."""
_KEEP = ~_BY_TRICK
_VOIDS, _SIGNALS, _LEADER, _TRICK_NUMBER = _AT["voids"], _AT["signals"], _AT["leader"], _AT["trick_number"]
_THIRDS, _THIRDS_OTHER = _AT["thirds"], _AT["thirds"] + THERMOMETERS["thirds"]


@cache
def _flips(watched: tuple[int, ...]) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
    """``CardPlayMirror.flips`` of these watched seats (made once)."""
    return tuple(tuple((me, _PLAYED_BY[(seat - me) & 3]) for me in watched) for seat in range(4))


def keeps(encoder: object) -> bool:
    """Whether a mirror keeps ``encoder``'s observations: the four-seat game's default one (``CLASSIC``)."""
    return encoder is CLASSIC


def fits(game: GameState) -> bool:
    """Whether a mirror can play ``game``'s hand: four seats in the plain card play."""
    return game.public.table.seats == 4 and not game.public.table.phase


class CardPlayMirror:
    """One hand of the four-seat game from a state of its card play on (see the module docstring).

    The fields ``trick``, ``turn``, ``tricks_done`` and ``table`` are those ``engine.game.legal_mask_for``
    reads from a ``PublicState``; ``hands``, ``leader``, ``thirds``, ``played``, ``signals``,
    ``voids`` and ``history`` are the state's others, as lists where the state has tuples.
    """

    __slots__ = (
        "fixed", "table", "dealt", "hidden", "hands", "trick", "leader", "turn", "tricks_done", "thirds",
        "played", "signals", "voids", "history", "obs", "watched", "flips", "last_trick", "state_now",
    )  # fmt: skip

    def __init__(self, game: GameState, watched: tuple[int, ...] = (0, 1, 2, 3)) -> None:
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
        self.watched = watched
        """The seats whose observation is kept (an environment of one learner watches one)."""
        self.flips = _flips(watched)
        """[the seat that plays] -> (watched seat, its ``_PLAYED_BY`` row) for each watched seat."""
        self.obs = [CLASSIC.bits(p, seat, game.hands[seat]) if seat in watched else 0 for seat in range(4)]
        """The watched seats' observation bits (``Observation.bits``, the mask not included); 0 for the others."""
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
                for me in self.watched:
                    obs[me] |= 1 << (_VOIDS + 4 * ((seat - me) & 3) + led)
        elif signal:
            bit = 3 * suit + signal - 1
            self.signals |= 1 << (12 * seat + bit)
            for me in self.watched:
                obs[me] |= 1 << (_SIGNALS + 12 * ((seat - me) & 3) + bit)
        self.hands[seat] = hand ^ 1 << card
        self.played |= 1 << (40 * seat + card)
        self.history.append(action)
        trick.append(card)
        self.state_now = None
        for me, flips in self.flips[seat]:
            obs[me] ^= flips[card]
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
        for me in self.watched:
            own = sides[me]
            obs[me] = (
                obs[me] & _KEEP
                | 1 << (_LEADER + ((winner - me) & 3))
                | 1 << (_TRICK_NUMBER + tricks_done)
                | ((1 << thirds[own]) - 1) << _THIRDS
                | ((1 << thirds[1 - own]) - 1) << _THIRDS_OTHER
            )

    def copy(self) -> CardPlayMirror:
        """Another mirror of the same hand that plays on without changing this one."""
        other = object.__new__(CardPlayMirror)
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands, other.trick, other.thirds = list(self.hands), list(self.trick), list(self.thirds)
        other.history, other.obs = list(self.history), list(self.obs)
        return other

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


class MirroredGame:
    """The ``game`` attribute of an environment whose hands may play on a ``CardPlayMirror``.

    ``game`` is the ``GameState`` set last, or while a mirror plays the hand, the state built
    from it when read; setting it puts the mirror away. ``_start_mirror`` starts one on the
    state set last where one fits (``fits``) and ``_may_mirror`` allows: the environment sets it
    once, where its observation is one the mirror keeps (``keeps``) and nothing reads every state
    (no recording). ``FamilyEnv`` and ``SingleAgentEnv`` use it.
    """

    _game: GameState | None = None
    _mirror: CardPlayMirror | None = None
    _may_mirror: bool = False
    _watched: tuple[int, ...] = (0, 1, 2, 3)
    """The seats whose observations the environment reads (``CardPlayMirror.watched``)."""

    @property
    def game(self) -> GameState | None:
        """The engine state (hidden hands included); read it for analysis, never show it to an agent.

        While the hand's card play runs on a mirror (``envs.mirror``), it is built from the mirror when read.
        """
        mirror = self._mirror
        return self._game if mirror is None else mirror.state()

    @game.setter
    def game(self, state: GameState | None) -> None:
        self._game = state
        self._mirror = None

    def _start_mirror(self) -> None:
        """Play the hand's cards on a mirror from here on, where one can (``fits``)."""
        game = self._game
        if self._may_mirror and game.public.status == PLAYING and fits(game):
            self._mirror = CardPlayMirror(game, self._watched)
