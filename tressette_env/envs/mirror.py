"""A hand's card play on mutable fields, each seat's observation patched card by card: the step's fast path.

The rules core (``engine.game``) builds a new immutable ``GameState`` for every card, and the
encoder (``encoders.observation``) reads the whole state again for every observation. Between
a hand's first card and its last, ``CardPlayMirror`` keeps the same state in mutable fields
and each watched seat's observation bits, and a card changes only what it changes: the
player's hand bit, the card's trick and played bits in every seat's view, a void or a signal
where one shows, and at a trick's end the leader, the trick number and the thirds. The legal
actions come from the core's own ``legal_mask_for`` (the mirror has the fields it reads).

| what | the core (``engine.game``) | the mirror |
| --- | --- | --- |
| a card that does not end the hand | ``apply``: a new ``GameState`` | ``play``: fields changed in place |
| the hand's last card, a claim, an illegal action | ``apply``, ``renuncio`` | not taken (``takes`` is False): the core's |
| in due's draws after a trick, its packets' next cards | ``apply``'s ``_draw``, ``_uncover`` | ``in_due_mirror``'s ``StockMirror``, ``PacketMirror`` (not the last card of the stock's last trick) |
| the whole state | ``GameState`` | ``state()``: built when asked for |
| a seat's observation bits | ``Observation.seat_bits`` | ``obs[seat]``, kept up to date |

Which observations a mirror keeps (``layout_of``) is read from the observation's pieces, not
from the game: any number of seats, sides and tricks, the pieces above, those a hand's
card play leaves alone (declarations, match scores, game pieces marked
``ExtraPiece.of_table``), the face-up hands (``exposed``: a card played from one leaves it),
game pieces marked ``ExtraPiece.of_turn`` (filled once a hand for every turn from the table
and the turn, then set after each card), sets of cards marked ``ExtraPiece.played_out`` (a
card played leaves them, private ones included) and pieces marked ``ExtraPiece.changed_by``
(filled again from the state after one of the cards it names). Today: the four-seat game's,
col morto's (``FaceUpMirror``, its dummies and ``acting_for``), Calabresella's (three or four
seats, the cards handed over face up, the private ``face_down_known``), a perdere's (three to eight
seats, thirds by player or by team; with elimination, the hands of the whole table:
``of_full_table``) and a chiamare's (five seats, thirds by player, ``role`` and ``partner``,
which the called card shows) and in due's (two seats, twenty tricks: the tricks after the
stock or the last packet is gone, where ``opponent_hand``, the opponent's whole hand after the
stock and its face-up cards after the packets, only loses the cards it plays; and the tricks
before, on in due's own mirrors, which also draw from the stock or uncover the packets). A hand plays on
one from its first card in phase ``PLAY`` at a table of the layout's seats (``fits``: an
auction, a call, an exchange or a discard are the core's). A game may name in the catalog its
own mirror of a phase of its card play (``catalog.Entry.mirror``), which ``MirroredGame`` asks
where ``fits`` says no: in due's ``envs.in_due_mirror`` plays its stock's tricks and draws
(``StockMirror``) and its packets' (``PacketMirror``) from the first card, where the suit is
followed and drawn cards are not declared (the stock's last trick, which empties it, is the
core's). The environments keep one for such an
observation (not with ``history=True``, nor while recording; ``MirroredGame``): the AEC environment (``FamilyEnv``, every player's seat watched) and the
single-learner one (``SingleAgentEnv``, the learner's only: with one seat watched a card costs
half of ``apply``). Their ``game`` attribute builds the ``GameState`` from the mirror when read.
``tests/envs/test_mirror.py`` pins them to the core: every state, observation, mask, reward
and info of random and heuristic play, signals, renuncios, claims, matches and truncations
included, equal to the environment's without it, under the switches of every game it plays.
Its figures: docs/benchmarks.md.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .. import catalog
from ..encoders.observation import Observation, side_order
from ..engine.actions import CALL_OUT
from ..engine.cards import SUIT_MASK, THIRDS
from ..engine.game import private_of
from ..engine.state import FIXED_FIELDS, PLAYING, GameState, PublicState
from ..engine.tricks import winning_position

_new = tuple.__new__


def _shapes(seats: int, tricks: int) -> dict[str, tuple[int, ...]]:
    """The pieces a card changes, as the mirror patches them, of a table of ``seats`` seats and ``tricks`` tricks.

    Every kept observation has them (``signals`` only where the game has signals).
    """
    return {
        "hand": (40,), "trick": (seats, 40), "leader": (seats,), "played": (seats, 40), "signals": (seats, 4, 3),
        "voids": (seats, 4), "trick_number": (tricks,),
    }  # fmt: skip


_STILL = {"accusi", "declared_points", "to_target"}
"""The pieces a hand's card play leaves as they are (its declarations, the match score)."""
_COMMON = {*_shapes(4, 10), *_STILL, "thirds", "exposed"}
"""Every piece of ``Observation``'s own the mirror knows (a game's own pieces are named otherwise)."""


class _TableTurn:
    """What a piece of the turn (``ExtraPiece.of_turn``) is given as the public state: the table and the turn only."""

    __slots__ = ("table", "turn")

    def __init__(self, table: object, turn: int) -> None:
        self.table, self.turn = table, turn


class MirrorLayout:
    """Where a kept observation's pieces lie (``layout_of``): the offsets and bit tables a card's patch needs."""

    __slots__ = (
        "seats", "sides", "played_by", "keep", "leader", "trick_number", "thirds", "thirds_other", "thirds_width",
        "voids", "signals", "exposed", "of_turn", "played_out", "changed_by", "_flips", "clears", "of_turn_keep",
        "at",
    )  # fmt: skip

    def __init__(
        self,
        at: dict[str, int],
        seats: int,
        sides: int,
        trick_rows: int,
        thirds_width: int,
        of_turn: tuple,
        played_out: tuple,
        changed_by: tuple,
    ) -> None:
        self.at = at
        """Where each piece of the observation starts, by name (the game's pieces included)."""
        self.seats, self.sides = seats, sides
        """The table's seats (N): the observation's pieces by relative seat have N rows; its sides, the thirds' rows.
        (``trick_rows``: the ``trick_number`` piece's entries, the table's tricks or more.)"""
        self.played_by = tuple(
            tuple(
                1 << (at["trick"] + 40 * r + card) | 1 << (at["played"] + 40 * r + card)
                | (1 << (at["hand"] + card) if r == 0 else 0)
                for card in range(40)
            )
            for r in range(seats)
        )  # fmt: skip
        """[relative seat][card]: the bits a card played by that seat flips in an observation: its bit of the
        ``trick`` and ``played`` pieces (0 before, 1 after), and for the observer's own card its ``hand`` bit
        (1 before, 0 after)."""
        by_trick = (
            ((1 << 40 * seats) - 1) << at["trick"]
            | ((1 << seats) - 1) << at["leader"]
            | ((1 << trick_rows) - 1) << at["trick_number"]
            | ((1 << sides * thirds_width) - 1) << at["thirds"]
        )
        self.keep = ~by_trick
        """Everything but the bits a trick's end writes again: the trick (emptied), the leader, the trick number,
        the thirds."""
        self.leader, self.trick_number, self.voids = at["leader"], at["trick_number"], at["voids"]
        self.signals = at.get("signals", -1)
        """Where the ``signals`` piece starts, or -1 (a game without signals has none)."""
        self.thirds, self.thirds_other, self.thirds_width = at["thirds"], at["thirds"] + thirds_width, thirds_width
        self.exposed = at.get("exposed", -1)
        """Where the ``exposed`` piece starts (the face-up hands: a card played from one leaves it), or -1."""
        self.of_turn = of_turn
        """The game's pieces of the turn (``ExtraPiece.of_turn``), as (fill, where, mask of its bits)."""
        self.played_out = played_out
        """Where the game's pieces that a card played leaves (``ExtraPiece.played_out``) start."""
        self.clears = (
            tuple(~sum(1 << (start + card) for start in played_out) for card in range(40)) if played_out else None
        )
        """[card]: every bit but the card's in each ``played_out`` piece (one AND a watched seat); None without one."""
        self.of_turn_keep = ~sum(bits for *_, bits in of_turn)
        """Every bit but those of the pieces of the turn."""
        self.changed_by = changed_by
        """The game's pieces that only some cards change (``ExtraPiece.changed_by``), as (fill, where, mask of its
        bits, whether the fill takes the seat's private cards, the function of the table naming those cards)."""
        self._flips: dict = {}

    def flips(self, watched: tuple[int, ...]) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
        """``CardPlayMirror.flips`` of these watched seats (made once)."""
        made = self._flips.get(watched)
        if made is None:
            made = self._flips[watched] = tuple(
                tuple((me, self.played_by[(seat - me) % self.seats]) for me in watched) for seat in range(self.seats)
            )
        return made


def layout_of(encoder: object) -> MirrorLayout | None:
    """The ``MirrorLayout`` of ``encoder``'s observation, or None where a mirror cannot keep it.

    A mirror keeps an ``Observation`` (or an observation of several tables' ``of_full_table``)
    whose pieces are those a card changes (``_shapes``, by the observation's seats and tricks),
    those a hand's card play leaves as they are (``_STILL``, and game pieces of the table,
    ``ExtraPiece.of_table``), the face-up hands (``exposed``), game pieces of the turn
    (``ExtraPiece.of_turn``), sets of cards a card played leaves (``ExtraPiece.played_out``,
    private ones included) and pieces only some cards change (``ExtraPiece.changed_by``): every
    game's of the package.
    """
    if type(encoder) is not Observation:
        encoder = getattr(encoder, "of_full_table", None)  # an observation of several tables (a perdere's)
        if type(encoder) is not Observation:
            return None
    if not all(e.of_table or e.of_turn or e.played_out or e.changed_by is not None for e in encoder.extras):
        return None  # a game piece the mirror does not know how a card changes
    extras = tuple(
        (e.piece.name, e.fill, e.of_table, e.of_turn, e.played_out, e.changed_by, e.private) for e in encoder.extras
    )
    return _layout(tuple(encoder.layout), extras, encoder.seats, encoder.sides, encoder.tricks, encoder.thirds_width)


@cache
def _layout(
    pieces: tuple, extras: tuple, seats: int, sides: int, tricks: int, thirds_width: int
) -> MirrorLayout | None:
    shapes = {piece.name: piece.shape for piece in pieces}
    trick_rows = shapes.get("trick_number", (0,))[0]  # more than the table's tricks in a layout shared by tables
    if trick_rows < tricks:  # (of several sizes: a perdere's with elimination)
        return None
    wanted = {**_shapes(seats, trick_rows), "thirds": (sides, thirds_width)}
    if "signals" not in shapes:  # an observation without the piece (no signals): nothing to patch
        del wanted["signals"]
    if any(shapes.get(name) != shape for name, shape in wanted.items()):
        return None  # (a larger layout than the table's, a game whose players drop out, has other shapes)
    game_pieces = {name for name, *_ in extras}  # each marked of_table, of_turn, played_out or changed_by
    if game_pieces & _COMMON or not shapes.keys() <= _COMMON | game_pieces:
        return None  # a game piece named as a common one, or a piece the mirror does not know how a card changes
    at, start = {}, 0
    sizes = {}
    for piece in pieces:
        at[piece.name], sizes[piece.name] = start, piece.size
        start += piece.size
    of_turn = tuple(
        (fill, at[name], ((1 << sizes[name]) - 1) << at[name]) for name, fill, _, turn, *_ in extras if turn
    )  # fmt: skip
    played_out = tuple(at[name] for name, _, _, _, out, *_ in extras if out)
    changed_by = tuple(
        (fill, at[name], ((1 << sizes[name]) - 1) << at[name], private, cards)
        for name, fill, _, _, _, cards, private in extras
        if cards is not None
    )
    return MirrorLayout(at, seats, sides, trick_rows, thirds_width, of_turn, played_out, changed_by)


def keeps(encoder: object) -> bool:
    """Whether a mirror keeps ``encoder``'s observations (``layout_of``)."""
    return layout_of(encoder) is not None


def fits(game: GameState, layout: MirrorLayout) -> bool:
    """Whether a mirror of ``layout`` can play ``game``'s hand: the plain card play, at a table of the layout's seats."""
    table = game.public.table
    return table.seats == layout.seats and not table.phase


class CardPlayMirror:
    """One hand from a state of its card play on (see the module docstring), at a table of ``layout.seats`` seats.

    The fields ``trick``, ``turn``, ``tricks_done`` and ``table`` are those ``engine.game.legal_mask_for``
    reads from a ``PublicState``; ``hands``, ``leader``, ``thirds``, ``played``, ``signals``,
    ``voids`` and ``history`` are the state's others, as lists where the state has tuples.
    """

    __slots__ = (
        "fixed", "table", "dealt", "hidden", "hands", "trick", "leader", "turn", "tricks_done", "thirds",
        "played", "signals", "voids", "history", "obs", "watched", "flips", "last_trick", "state_now", "layout",
        "n", "orders",
    )  # fmt: skip

    def __init__(self, game: GameState, watched: tuple[int, ...], encoder: Observation, layout: MirrorLayout) -> None:
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
        self.layout = layout
        """Where the observation's pieces lie (``layout_of(encoder)``)."""
        self.flips = layout.flips(watched)
        """[the seat that plays] -> (watched seat, its ``MirrorLayout.played_by`` row) for each watched seat."""
        n = self.n = layout.seats
        """The seats at the table."""
        self.orders = None if layout.sides == 2 else tuple(side_order(p.table.sides, me) for me in range(n))
        """With more than two sides: [seat] -> the sides in the order of its ``thirds`` piece (``side_order``)."""
        self.obs = [encoder.seat_bits(game, seat) if seat in watched else 0 for seat in range(n)]
        """The watched seats' observation bits (``Observation.seat_bits``, the mask not included); 0 for the others."""
        self.last_trick = p.table.tricks - 1
        self.state_now: GameState | None = game
        """The ``GameState`` of the fields, once built (None after a card changed them)."""

    def takes(self, action: int) -> bool:
        """Whether ``play`` may take this legal action: a card that does not end the hand (not a claim)."""
        return action < CALL_OUT and (self.tricks_done < self.last_trick or len(self.trick) < self.n - 1)

    def play(self, action: int) -> None:
        """The seat on turn plays ``action``, a legal card play for which ``takes`` is True (``engine.game.apply``'s card play)."""
        card = action % 40
        signal = action // 40
        suit = card // 10
        seat = self.turn
        hand = self.hands[seat]
        trick = self.trick
        obs = self.obs
        n = self.n
        if trick:
            led = trick[0] // 10
            if suit != led and not hand & SUIT_MASK[led]:
                self.voids |= 1 << (4 * seat + led)
                at = self.layout.voids
                for me in self.watched:
                    obs[me] |= 1 << (at + 4 * ((seat - me) % n) + led)
        elif signal:
            bit = 3 * suit + signal - 1
            self.signals |= 1 << (12 * seat + bit)
            at = self.layout.signals
            if at >= 0:
                for me in self.watched:
                    obs[me] |= 1 << (at + 12 * ((seat - me) % n) + bit)
        self.hands[seat] = hand ^ 1 << card
        self.played |= 1 << (40 * seat + card)
        self.history.append(action)
        trick.append(card)
        self.state_now = None
        for me, flips in self.flips[seat]:
            obs[me] ^= flips[card]
        if len(trick) < n:
            self.turn = (seat + 1) % n
            return
        winner = (self.leader + winning_position(trick)) % n
        tricks_done = self.tricks_done = self.tricks_done + 1
        thirds = self.thirds
        taken = 0
        for c in trick:
            taken += THIRDS[c]
        thirds[self.table.sides[winner]] += taken
        self.leader = self.turn = winner
        self.trick = []
        sides = self.table.sides
        at = self.layout
        keep, leader, number, mine, other = (
            at.keep,
            at.leader,
            at.trick_number + tricks_done,
            at.thirds,
            at.thirds_other,
        )
        orders = self.orders
        if orders is None:  # two sides: own, other
            for me in self.watched:
                own = sides[me]
                obs[me] = (
                    obs[me] & keep
                    | 1 << (leader + (winner - me) % n)
                    | 1 << number
                    | ((1 << thirds[own]) - 1) << mine
                    | ((1 << thirds[1 - own]) - 1) << other
                )
            return
        width = at.thirds_width
        for me in self.watched:
            bits = obs[me] & keep | 1 << (leader + (winner - me) % n) | 1 << number
            place = mine
            for side in orders[me]:
                bits |= ((1 << thirds[side]) - 1) << place
                place += width
            obs[me] = bits

    def copy(self) -> CardPlayMirror:
        """Another mirror of the same hand that plays on without changing this one."""
        other = object.__new__(type(self))
        for name in CardPlayMirror.__slots__:
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


def _of_turn(table: object, n: int, watched: tuple[int, ...], pieces: tuple) -> tuple[tuple[int, ...], ...]:
    """[turn][seat]: the bits of the pieces of the turn (``MirrorLayout.of_turn``) of each watched seat, 0 else."""
    rows = []
    for turn in range(n):
        now = _TableTurn(table, turn)
        row = [0] * n
        for me in watched:
            bits = 0
            for fill, at, _ in pieces:
                bits |= fill(now, me, 0) << at
            row[me] = bits
        rows.append(tuple(row))
    return tuple(rows)


class FaceUpMirror(CardPlayMirror):
    """A ``CardPlayMirror`` of a hand with face-up hands or game pieces a card changes.

    A card played from a face-up hand leaves the ``exposed`` piece of every watched seat; a card
    played leaves each game piece of cards marked ``ExtraPiece.played_out`` (Calabresella's and a
    perdere's ``face_down_known``: one AND a watched seat, ``MirrorLayout.clears``); after each card
    the pieces of the turn (``ExtraPiece.of_turn``: col morto's ``acting_for``, the seat a player is
    to play now) are set from a table of every turn filled once a hand from the table and the turn
    alone (``of_turn``: they change with the turn only, and the table does not change in the card
    play); after a card that changes a piece marked ``ExtraPiece.changed_by`` (a
    chiamare's called card, which shows the partner), such pieces are filled again from the state.
    """

    __slots__ = ("of_turn", "changing")

    def __init__(self, game: GameState, watched: tuple[int, ...], encoder: Observation, layout: MirrorLayout) -> None:
        super().__init__(game, watched, encoder, layout)
        self.of_turn = _of_turn(self.table, self.n, watched, layout.of_turn) if layout.of_turn else None
        """[turn][seat]: the pieces of the turn (``ExtraPiece.of_turn``, which read only the table, the turn and the
        seat) of each watched seat's observation (0 for the others), filled once a hand; None where there are none."""
        changing = 0
        for *_, cards in layout.changed_by:
            changing |= cards(self.table)
        self.changing = changing
        """The cards whose play changes a piece marked ``changed_by`` in this hand (a mask)."""

    def copy(self) -> FaceUpMirror:
        other = CardPlayMirror.copy(self)
        other.of_turn = self.of_turn
        other.changing = self.changing
        return other

    def play(self, action: int) -> None:
        card = action % 40
        seat = self.turn
        layout = self.layout
        obs = self.obs
        at = layout.exposed
        if at >= 0 and self.table.exposed >> (40 * seat + card) & 1:
            n = self.n
            for me in self.watched:
                obs[me] ^= 1 << (at + 40 * ((seat - me) % n) + card)
        clears = layout.clears
        if clears is not None:
            clear = clears[card]
            for me in self.watched:
                obs[me] &= clear
        CardPlayMirror.play(self, action)
        of_turn = self.of_turn
        if of_turn is not None:
            keep = layout.of_turn_keep
            now = of_turn[self.turn]
            for me in self.watched:
                obs[me] = obs[me] & keep | now[me]
        if self.changing >> card & 1:
            state = self.state()
            p = state.public
            hands = self.hands
            for fill, at, bits, private, _ in layout.changed_by:
                for me in self.watched:
                    value = fill(p, me, hands[me], private_of(state, me)) if private else fill(p, me, hands[me])
                    obs[me] = obs[me] & ~bits | value << at


def mirror_of(game: GameState, watched: tuple[int, ...], encoder: Observation, layout: MirrorLayout) -> CardPlayMirror:
    """A mirror of ``game``'s hand keeping ``encoder``'s observations of the ``watched`` seats (``layout_of(encoder)``)."""
    faces = layout.exposed >= 0 or layout.of_turn or layout.played_out or layout.changed_by
    kind = FaceUpMirror if faces else CardPlayMirror
    return kind(game, watched, encoder, layout)


class MirroredGame:
    """The ``game`` attribute of an environment whose hands may play on a ``CardPlayMirror``.

    ``game`` is the ``GameState`` set last, or while a mirror plays the hand, the state built
    from it when read; setting it puts the mirror away. ``_start_mirror`` starts one on the
    state set last where one fits (``fits``) and ``_may_mirror`` allows: the environment sets it
    once (``_allow_mirror``), where its observation is one the mirror keeps (``layout_of``) and
    nothing reads every state (no recording). ``FamilyEnv`` and ``SingleAgentEnv`` use it.
    """

    _game: GameState | None = None
    _mirror: CardPlayMirror | None = None
    _may_mirror: bool = False
    _mirror_layout: MirrorLayout | None = None
    _phase_mirror: Any = None
    """The game's own mirror of a phase of its card play (``catalog.Entry.mirror``), or None."""
    _watched: tuple[int, ...] = (0, 1, 2, 3)
    """The seats whose observations the environment reads (``CardPlayMirror.watched``)."""
    _encoder: Observation
    """The environment's observation (a mirror keeps its bits where ``keeps`` says it can)."""

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

    def _allow_mirror(self, allowed: bool) -> None:
        """Let mirrors play the hands where ``allowed`` and the observation is one they keep (decided once)."""
        self._mirror_layout = layout_of(self._encoder)
        self._may_mirror = allowed and self._mirror_layout is not None
        self._phase_mirror = catalog.entry_of(self.rules).phase_mirror() if self._may_mirror else None

    def _start_mirror(self) -> None:
        """Play the hand's cards on a mirror from here on, where one can (``fits``, or the game's own ``mirror``)."""
        game = self._game
        if self._may_mirror and game.public.status == PLAYING:
            if fits(game, self._mirror_layout):
                self._mirror = mirror_of(game, self._watched, self._encoder, self._mirror_layout)
            elif self._phase_mirror is not None:  # a phase of the game's own (in due's stock, packets), or None
                self._mirror = self._phase_mirror(game, self._watched, self._encoder, self._mirror_layout)
