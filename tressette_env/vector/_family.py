"""What the family's own batched engines share: reading deals and actions, bit helpers, the packed observation.

Their cards are engine masks (bit c = card c), unlike ``TressetteBatch``'s reversed ones, so
the four-seat engine's tables do not serve them; these do. ``FamilyBatch`` is the base of the
engines that write their observation as uint64 fields packed into the scalar layout's words
(a perdere, a chiamare, Calabresella). The card tables and the trick play are in
``vector._tricks``.

| name | what it is |
| --- | --- |
| ``THERMO``, ``BIT``, ``BIT_FROM_1`` | uint64 fields by value: v low bits set, v 0..64 (a thermometer); bit v, v 0..63; bit v - 1 for v 1..64, none for 0 |
| ``deal_indices(deals, n, every)`` | the deal indices of None, a bool mask or indices; a clear ValueError otherwise |
| ``check_actions(actions, active, n, num_actions)`` | the actions as int64 ids; a clear ValueError for a bad one |
| ``check_active(active, playing)`` | a step's (N,) bool mask of the deals that play; a clear ValueError for a bad mask or a finished deal |
| ``popcount(x)``, ``select_low(words, k)``, ``select_high(words, k)`` | set bits of each uint64 word; the position of its k-th lowest set bit, and from the top of its k-th highest (``engine.select_bit``) |
| ``random_set_bits(words, rng)`` | a uniformly random set bit of each row of words: ``sample_actions`` and ``engine.sample_mask`` |
| ``key_order(keys, fixed)`` | a deck shuffled by random keys (their stable sort, by an exact unstable one), the fixed cards last |
| ``check_agents(agents, n, players)``, ``check_seats(seats, m, count)``, ``check_deal(deal, n)`` | ``lead``'s players, ``observe``'s observing seats and ``deal_of``'s deal index, checked; a clear ValueError otherwise |
| ``depth(x)`` | how deeply a chosen deal's argument nests sequences |
| ``unpack_little(packed, count)`` | the rows' first ``count`` bits, least significant first, by one flat ``np.unpackbits`` |
| ``or_columns(x, shift)``, ``max_columns(x)``, ``sum_columns(x)``, ``SeatTables`` | the OR (shifted), largest and sum of a few columns by a loop; seat arithmetic as table lookups, a seat's place seen from another as a bit (``rel_bits``; the observations' hot path) |
| ``rows_reader(rows)`` | a reader of state arrays, whole or at the chosen rows (the engines' ``_words(rows)``) |
| ``FamilyBatch`` | ``legal_masks`` and ``sample_actions`` (from the subclass's ``_words``), the fields and their packing (``_build_fields``, ``_pack``, ``_rows_of``), a step's checks (``_judge``), the dealers' check, the shuffle, the error of ``illegal_action="raise"``, and ``num_deals``, ``turn``, ``playing``, ``dealer``, ``tricks_done``, ``hand_number`` |
"""

from __future__ import annotations

import importlib
from typing import Any, NamedTuple

import numpy as np

from ..engine.actions import action_to_string
from ..engine.game import IllegalActionError
from ..messages import shown

U64 = np.uint64
_ZERO = U64(0)
_ONE = U64(1)
THERMO = np.array([(1 << v) - 1 for v in range(65)], dtype=U64)
"""v low bits set (a thermometer of v entries), v 0..64."""
BIT = np.array([1 << v for v in range(64)], dtype=U64)
"""Bit v alone (a one-hot field), v 0..63."""
BIT_FROM_1 = np.array([0] + [1 << v for v in range(64)], dtype=U64)
"""Bit v - 1 alone for v 1..64, no bit for v = 0: a one-hot field of a value counted from 1, 0 for none."""


_KERNELS: dict[str, Any] = {}
"""``compiled_kernel``'s answers, by kernel module: the module, or None where it does not run compiled."""


def pack_places(places: Any) -> np.ndarray:
    """(P, 4) int64 for a compiled ``pack_row``: each (field, first entry, width) as (field, word, shift, spills over).

    ``spills over``: the field runs into the next 64-bit word.
    """
    out = np.array([(k, at // 64, at % 64, at % 64 + width > 64) for k, at, width in places], dtype=np.int64)
    return out.reshape(-1, 4)


def compiled_kernel(module: str) -> Any:
    """The kernel module ``vector.<module>`` when it runs compiled (``vector._compiled``), else None.

    Imported on an engine's first call that uses it, so that numba is loaded only by a batch that runs; without
    numba (or with ``TRESSETTE_NUMBA=0``) the kernel module is not imported at all.
    """
    if module not in _KERNELS:
        from ..agents.numba_switch import numba_module

        kernel = importlib.import_module(f"{__package__}.{module}") if numba_module() is not None else None
        _KERNELS[module] = kernel if kernel is not None and kernel.COMPILED else None
    return _KERNELS[module]


def deal_indices(deals: Any, n: int, every: np.ndarray) -> np.ndarray:
    """(M,) int64 deal indices from None (``every``), a bool mask (N,) or indices; a clear ValueError otherwise."""
    if deals is None:
        return every
    d = np.asarray(deals)
    if d.dtype == bool:
        if d.shape != (n,):
            raise ValueError(f"a deal mask has shape ({n},); got {d.shape}")
        return np.flatnonzero(d)
    if d.size and not np.issubdtype(d.dtype, np.integer):
        raise ValueError(f"deals are indices 0..{n - 1} or a bool mask; got dtype {d.dtype}")
    out = (d >= n) if d.dtype.kind == "u" else (d < 0) | (d >= n)  # (a huge unsigned index named as it is)
    if out.any():
        raise ValueError(f"deal indices are 0..{n - 1}; got {d[out].reshape(-1)[0]}")
    return d.astype(np.int64).reshape(-1)


def distinct_deals(idx: np.ndarray) -> np.ndarray:
    """A reset's deal indices ``idx``, if no deal is named twice; a ValueError naming one otherwise (the last won)."""
    if len(idx) > 1:
        ordered = np.sort(idx)
        twice = ordered[1:][ordered[1:] == ordered[:-1]]
        if len(twice):
            raise ValueError(f"deal {int(twice[0])} is named twice: a reset deals each deal once (distinct indices)")
    return idx


def check_actions(actions: Any, active: np.ndarray, n: int, num_actions: int) -> np.ndarray:
    """The actions as int64 ids 0..num_actions-1; -1 is allowed (read as 0) where a deal does not play."""
    a = np.asarray(actions)
    if a.shape != (n,):
        raise ValueError(f"actions must have shape ({n},), one per deal; got {a.shape}")
    if a.dtype == bool or not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"actions are integer ids 0..{num_actions - 1}; got dtype {a.dtype}")
    if a.dtype.kind == "u":
        big = a >= num_actions
        if big.any():
            bad = int(np.flatnonzero(big)[0])
            raise ValueError(f"actions are ids 0..{num_actions - 1}; deal {bad} got {int(a[bad])}")
    if a.dtype == np.int64 and a.size and a.min() >= 0 and a.max() < num_actions:
        return a.copy()  # every id in range (the usual step): two reductions instead of the checks below
    a = a.astype(np.int64)
    out = (a < 0) | (a >= num_actions)
    idle = (a == -1) & ~active
    if (out & ~idle).any():
        bad = int(np.flatnonzero(out & ~idle)[0])
        raise ValueError(
            f"actions are ids 0..{num_actions - 1} (or -1 in a deal that does not play); deal {bad} got {int(a[bad])}"
        )
    return np.where(out, 0, a)


def check_agents(agents: Any, n: int, players: int) -> np.ndarray:
    """(N,) int64 players from a batch's ``lead`` argument; a ValueError naming what is allowed otherwise."""
    a = np.asarray(agents)
    if a.shape != (n,) or a.dtype == bool or not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"agents is one player 0..{players - 1} per deal, shape ({n},); got {a.dtype} {a.shape}")
    if ((a < 0) | (a >= players)).any():
        raise ValueError(f"agents are players 0..{players - 1}; got {int(a[(a < 0) | (a >= players)][0])}")
    return a.astype(np.int64)


def check_seats(seats: Any, m: int, count: int, name: str = "seats", noun: str = "seat") -> np.ndarray:
    """(M,) int64 from ``observe``'s (or ``lead``'s) ``seats``: one of ``count`` seats for every deal or one per deal.

    ``name`` is the argument's name and ``noun`` what it holds (``"player"`` where seats are
    players), for the message; bools, floats, text and other shapes are refused with a ValueError.
    """
    s = np.asarray(seats)
    if s.dtype == bool or not np.issubdtype(s.dtype, np.integer) or s.shape not in ((), (m,)):
        raise ValueError(
            f"{name} are one {noun} 0..{count - 1} or an array of {m} of them (one per deal); got {shown(seats)}"
        )
    if ((s < 0) | (s >= count)).any():
        plural = "" if noun == "seat" else f"{noun}s "
        raise ValueError(f"{name} are {plural}0..{count - 1}; got {shown(seats)}")
    return np.broadcast_to(s.astype(np.int64), (m,))


def check_deal(deal: Any, n: int) -> int:
    """A deal index 0..N-1 from a batch's ``deal_of`` argument; a ValueError otherwise (no negative indices)."""
    if isinstance(deal, bool) or not isinstance(deal, (int, np.integer)) or not 0 <= deal < n:
        raise ValueError(f"deal is an index 0..{n - 1}; got {shown(deal)}")
    return int(deal)


def check_active(active: Any, playing: np.ndarray) -> np.ndarray:
    """(N,) bool: the deals that play in a step (all when None); a ValueError for a bad mask or a finished deal."""
    n = len(playing)
    if active is None:
        active = np.ones(n, dtype=bool)
        finished = not playing.all()
    else:
        active = np.asarray(active)
        if active.shape != (n,) or active.dtype != bool:
            raise ValueError(f"active must be a bool mask of shape ({n},); got {active.dtype} {active.shape}")
        finished = (active & ~playing).any()
    if finished:
        raise ValueError(
            "a finished deal cannot play: reset it first (reset(deals=...)), or step with active=batch.playing"
        )
    return active


def popcount(x: np.ndarray) -> np.ndarray:
    """Set bits of each uint64 word, as int64."""
    return np.bitwise_count(x).astype(np.int64)


def select_low(words: np.ndarray, k: np.ndarray) -> np.ndarray:
    """(M,) int64: the position (from bit 0) of the k-th lowest set bit (k from 0, below 64) of each uint64 word.

    The byte that holds it is found from the word's running count by byte (each byte's set bits,
    times 0x0101010101010101: byte i holds the count of bytes 0..i), compared with k in every byte
    at once; a table of every byte value gives the bit in it (``_in_byte``). 1.5 times as fast as
    the binary search in six halvings it replaced at M = 4096 (``benchmarks/bench_numpy_idioms.py``).
    A k of the word's set bits or more gives some position 0..63.
    """
    return _in_byte(np.ascontiguousarray(words, dtype=U64), k, _LOW_IN_BYTE)


def select_high(words: np.ndarray, k: np.ndarray) -> np.ndarray:
    """(M,) int64: the position from the top bit of the k-th highest set bit (k from 0, below 64) of each uint64 word.

    ``select_low``'s search over the word's bytes swapped, each byte read from its top bit:
    ``TressetteBatch.sample_actions``'s choice (its words hold action a at bit 63 - a % 64, ``vector.engine.select_bit``).
    """
    return _in_byte(np.ascontiguousarray(words, dtype=U64).byteswap(), k, _HIGH_IN_BYTE)


def _in_byte(x: np.ndarray, k: np.ndarray, table: np.ndarray) -> np.ndarray:
    """``select_low`` on the words ``x`` (each byte's bits in the order of ``table``), from their low byte up."""
    ones = np.bitwise_count(x.view(np.uint8)).view(U64)  # byte i: the set bits of byte i
    upto = ones * _BYTES  # byte i: the set bits of bytes 0..i (at most 64: no carry)
    k = np.asarray(k).astype(U64)
    below = np.bitwise_count(((k * _BYTES) | _HIGH) - upto & _HIGH)  # uint8: the bytes all of whose bits come before
    below = np.minimum(below, _SEVEN)  # (8 only where k is the word's set bits or more)
    shift = (below << _THREE).astype(U64)
    before = (upto << _EIGHT) >> shift & _BYTE  # the set bits below the byte that holds the k-th
    byte = x >> shift & _BYTE
    at = (byte << _THREE_U | (k - before) & _SEVEN_U).view(np.int64)  # below 2048 (NumPy 2.0 takes no uint64 index)
    return (table.take(at) + shift).astype(np.int64)


_BYTES = U64(0x0101010101010101)
_HIGH = U64(0x8080808080808080)
_BYTE = U64(0xFF)
_EIGHT = U64(8)
_THREE_U = U64(3)
_SEVEN_U = U64(7)
_SEVEN = np.uint8(7)
_THREE = np.uint8(3)
_LOW_IN_BYTE = np.array(
    [([i for i in range(8) if b >> i & 1] + [0] * 8)[r] for b in range(256) for r in range(8)], dtype=np.uint8
)
"""[8 * byte + r]: the position of the r-th lowest set bit of the byte (0 where it has r bits or fewer)."""
_HIGH_IN_BYTE = np.array(
    [([i for i in range(8) if b >> (7 - i) & 1] + [0] * 8)[r] for b in range(256) for r in range(8)], dtype=np.uint8
)
"""[8 * byte + r]: the position, from the byte's top bit, of its r-th highest set bit (0 where it has r bits or fewer)."""


def unpack_little(packed: np.ndarray, count: int) -> np.ndarray:
    """The first ``count`` bits of each row of (M, B) uint8 ``packed``, least significant first: (M, count) uint8.

    One flat ``np.unpackbits`` and a view of the first ``count`` columns (as
    ``engine.unpack_rows``): 1.3x as fast as ``axis=1`` at M = 4096 (``benchmarks/bench_numpy_idioms.py``), at the price
    of rows that are not contiguous (``np.ascontiguousarray`` where that matters).
    """
    m, width = packed.shape
    return np.unpackbits(packed.reshape(-1), bitorder="little").reshape(m, 8 * width)[:, :count]


def random_set_bits(words: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(M,) a uniformly random set bit of each row of (M, W) uint64 words (bit 64 w + b: word w's bit b); -1 for none.

    Row j's is its k-th set bit (k from 0, lowest first), ``k = floor(u * set bits)`` for ``u``
    the row's number of one ``rng.random(M)`` draw: the batches' ``sample_actions`` and
    ``sample_mask`` over legal words. The word holding it is found by a loop over the W words
    (a running count along the rows' axis, ``np.cumsum(axis=1)`` and a sum of comparisons, cost
    2.2 times as much at 4096 x 4: ``benchmarks/bench_numpy_idioms.py``).
    """
    m, width = words.shape
    counts = np.bitwise_count(words)  # (M, W) uint8
    total = counts[:, 0].astype(np.int64)
    for w in range(1, width):
        total += counts[:, w]
    k = (rng.random(m) * total).astype(np.int64)
    word = np.zeros(m, dtype=np.int64)  # the word holding the k-th set bit
    before = np.zeros(m, dtype=np.int64)  # the set bits of the words before it
    upto = counts[:, 0].astype(np.int64)  # the set bits of words 0..w-1, at step w
    for w in range(1, width):
        past = k >= upto  # the k-th set bit lies in word w or after
        word += past
        before += counts[:, w - 1] * past
        upto += counts[:, w]
    bit = select_low(words.reshape(-1).take(np.arange(m) * width + word), k - before)
    return np.where(total > 0, 64 * word + bit, -1)


_KEY_COLUMNS = np.arange(40, dtype=np.int64)
_KEY_SHIFTS = _KEY_COLUMNS.astype(U64)


def key_order(keys: np.ndarray, fixed: np.ndarray | None = None) -> np.ndarray:
    """A shuffled deck's (M, 40) card ids from ``Generator.random`` keys, the cards of ``fixed`` last in id order.

    The same as ``np.argsort(keys, axis=1, kind="stable")`` with the keys of ``fixed`` ((M,) masks, bit c: column c)
    set above every drawn key.

    ``Generator.random`` draws multiples of 2**-53 with each of NumPy's own bit generators (PCG64, PCG64DXSM,
    MT19937, Philox, SFC64; a batch makes a PCG64 one unless given a Generator), so ``keys * 2**53`` is an exact
    integer; with its column in the low six bits each entry is an int64 no other entry of its row shares, and the
    faster unstable sort gives the stable order: 1.9 times as fast at 100 x 40 (``bench_numpy_idioms.py``).
    """
    order = (keys * 2.0**53).astype(np.int64)
    if fixed is not None:
        order[((fixed[:, None] >> _KEY_SHIFTS) & _ONE) != _ZERO] = 1 << 53  # after every drawn key
    order <<= 6
    order |= _KEY_COLUMNS
    return np.argsort(order, axis=1)


def or_columns(x: np.ndarray, shift: int = 0) -> np.ndarray:
    """(M,) uint64: the OR of the K columns of ``x`` (M, K) uint64, column k shifted left by ``shift * k`` bits.

    A loop over the columns: ``np.bitwise_or.reduce(x, axis=1)`` over a few columns cost
    6.3 times as much at M = 4096 (``benchmarks/bench_numpy_idioms.py``).
    """
    out = x[:, 0].copy()
    for k in range(1, x.shape[1]):
        out |= x[:, k] << U64(shift * k) if shift else x[:, k]
    return out


def max_columns(x: np.ndarray) -> np.ndarray:
    """(M,) the largest of the K columns of ``x`` (M, K) by a loop over the columns: ``x.max(axis=1)`` cost 11 times as much at 4096 x 4 (``bench_numpy_idioms.py``)."""
    out = x[:, 0].copy()
    for k in range(1, x.shape[1]):
        np.maximum(out, x[:, k], out=out)
    return out


def sum_columns(x: np.ndarray) -> np.ndarray:
    """(M,) the sum of the K columns of ``x`` (M, K), by a loop over the columns (as ``max_columns``)."""
    out = x[:, 0].copy()
    for k in range(1, x.shape[1]):
        out += x[:, k]
    return out


def _whole(x: np.ndarray) -> np.ndarray:
    return x


def rows_reader(rows: np.ndarray | None) -> Any:
    """A reader of (N, ...) state arrays: the whole array (``rows`` None), or the rows ``rows`` of it."""
    if rows is None:
        return _whole
    return lambda x: x[rows]


class SeatTables(NamedTuple):
    """Seat arithmetic of S seats as lookups (an int64 ``%`` cost 29 times a table's ``take``: ``bench_numpy_idioms.py``).

    ``rel[m, k]``: the absolute seat of the seat k places after m, ``(m + k) % S``;
    ``mod[x + S]``: ``x % S`` for x in -S .. 2S - 1;
    ``rel_bit[(x + 1) * S + m]``: bit ``(x - m) % S`` (seat x's place seen from seat m) as uint64, 0 for x = -1
    (no seat), for x in -1..S-1: ``rel_bits``.
    """

    rel: np.ndarray
    mod: np.ndarray
    rel_bit: np.ndarray

    @classmethod
    def of(cls, seats: int) -> SeatTables:
        ar = np.arange(seats, dtype=np.int64)
        rel_bit = np.zeros((seats + 1, seats), dtype=U64)
        rel_bit[1:] = BIT.take((ar[:, None] - ar[None, :]) % seats)
        return cls(
            (ar[:, None] + ar[None, :]) % seats, np.arange(3 * seats, dtype=np.int64) % seats, rel_bit.reshape(-1)
        )

    def rel_bits(self, seat: np.ndarray, me: np.ndarray) -> np.ndarray:
        """(M,) uint64: the one-hot of each ``seat``'s place seen from ``me`` (relative seat ``(seat - me) % S``); 0 where ``seat`` is -1.

        One lookup for the observations' one-hot seat fields (the leader, the soloist, the
        declarer), instead of a comparison, a shift and a ``where`` over the deals.
        """
        return self.rel_bit.take((seat + 1) * len(self.rel) + me)


def depth(x: Any) -> int:
    """How deeply ``x`` nests sequences (an array: its ndim; a list: down its first entries)."""
    if isinstance(x, np.ndarray):
        return x.ndim
    d = 0
    while isinstance(x, (list, tuple)) and len(x):
        d += 1
        x = x[0]
    return d + (1 if isinstance(x, (list, tuple)) else 0)


class FamilyBatch:
    """The shared part of the packed-observation engines (see the module docstring).

    A subclass sets ``observation`` (the scalar observation: ``layout``, ``slices``, ``size``),
    ``num_agents``, ``num_actions``, ``n``, ``rules``, ``_rng``, ``_ar``, ``_turn``, ``_playing``
    (and the state the accessors copy) and ``_words(rows=None)`` (the legal actions of the seat
    on turn as (N, 4) uint64, bit a: action a; of the deals ``rows`` only, in their order, when
    given), and calls ``_build_fields`` once. Readers take the words
    through ``_legal_words``, which computes them once a state: ``reset`` calls
    ``_state_changes`` before it changes anything, and ``step`` changes the state only after
    ``_judge``, which clears them.
    """

    _words_now: np.ndarray | None = None
    """The seat on turn's legal words of the current state (read-only), or None until asked for."""
    _rows_words: tuple[np.ndarray, np.ndarray] | None = None
    """(rows, their legal words) of the current state, when only a few deals' were asked for."""

    def _legal_words(self, rows: np.ndarray | None = None) -> np.ndarray:
        """``_words()`` of the current state (of the deals ``rows`` only when given), computed once.

        A step's sample, check and masks share them. For a few deals of a large batch (under a
        quarter: the other players' last decisions before the learner's turn) only theirs are
        computed, and kept for the same deals: the heuristic asks for them, then the step's check.
        """
        words = self._words_now
        if words is None and rows is not None and 4 * len(rows) < self.n:
            kept = self._rows_words
            if kept is not None and len(kept[0]) == len(rows) and np.array_equal(kept[0], rows):
                return kept[1]
            few = self._words(rows)
            few.flags.writeable = False
            self._rows_words = (np.array(rows), few)
            return few
        if words is None:
            words = self._words_now = self._words()
            words.flags.writeable = False
        return words if rows is None else words[rows]

    def _state_changes(self) -> None:
        """Forget what was computed from the state (the legal words): call it before changing the state."""
        self._words_now = None
        self._rows_words = None

    def _agents_arg(self, agents: Any) -> np.ndarray:
        return check_agents(agents, self.n, self.num_agents)

    def _deal_arg(self, deal: Any) -> int:
        return check_deal(deal, self.n)

    def _build_fields(self, unfilled: tuple[str, ...] = ()) -> None:
        """The fields: each piece of at most 64 entries, or each row (64-entry chunk of a row) of a larger one.

        ``unfilled`` names the pieces of the layout the observer never fills under these rules (a match's
        ``to_target`` in a single hand, say): they stay 0 and ``_pack`` skips them (at least two shifts and ORs a
        field saved).
        """
        obs = self.observation
        fields: dict[Any, int] = {}
        columns = np.zeros(obs.size, dtype=np.int64)
        covered = np.zeros(obs.size, dtype=bool)
        places: list[tuple[int, int, int]] = []
        for piece in obs.layout:
            start = obs.slices[piece.name].start
            if piece.size <= 64:
                parts = [((piece.name, None, 0), start, piece.size)]
            else:
                rows = piece.shape[0]
                width = piece.size // rows
                parts = [
                    ((piece.name, r, c // 64), start + r * width + c, min(64, width - c))
                    for r in range(rows)
                    for c in range(0, width, 64)
                ]
            for key, at, w in parts:
                f = fields[key] = len(fields)
                columns[at : at + w] = 64 * f + np.arange(w)
                covered[at : at + w] = True
                if piece.name not in unfilled:
                    places.append((f, at, w))
        if not covered.all():  # pragma: no cover - a guard for whoever changes the layout
            raise ImportError(f"{type(self).__name__}: the observation layout has entries no field covers")
        self._fields = fields
        self._places = places
        """(field, first entry, width) of every field these rules fill (not ``unfilled``): where ``_pack`` shifts it into
        the layout's words."""
        self._placements = pack_places(places)
        """``_places`` for a compiled observation (``vector._compiled.pack_row``)."""

    def _rows_of(self, name: str, rows: int) -> np.ndarray:
        """The fields of rows 0..rows-1 of the piece ``name`` (one array made once per piece)."""
        made = self.__dict__.setdefault("_rows_made", {})
        out = made.get((name, rows))
        if out is None:
            out = made[(name, rows)] = np.array([self._fields[(name, r, 0)] for r in range(rows)], dtype=np.int64)
        return out

    def _pack(self, f: np.ndarray) -> np.ndarray:
        """(fields, M) uint64, a row per field -> (M, size) int8 rows in the layout's order, views into one buffer.

        Each field is shifted into its place in little-endian words and the words are unpacked
        once (a gather of the columns out of the fields' 64-bit slots cost about twice as much).
        The observers fill ``f`` by field, each field a contiguous row, and no transpose is
        needed (the engines' figures before and after: docs/batched.md).
        """
        size = self.observation.size
        m = f.shape[1]
        words = np.zeros(((size + 63) // 64, m), dtype="<u8")
        for k, at, width in self._places:
            q, r = divmod(at, 64)
            value = f[k]
            words[q] |= value << U64(r) if r else value
            if r + width > 64:
                words[q + 1] |= value >> U64(64 - r)
        return unpack_little(np.ascontiguousarray(words.T).view(np.uint8), size).view(np.int8)

    @property
    def num_deals(self) -> int:
        """N."""
        return self.n

    @property
    def turn(self) -> np.ndarray:
        """(N,) int64: the seat (= player) on turn in each deal; -1 in a finished deal."""
        return np.where(self._playing, self._turn, -1)

    @property
    def playing(self) -> np.ndarray:
        """(N,) bool: someone is to act (False only for finished deals with ``autoreset=False``)."""
        return self._playing.copy()

    @property
    def dealer(self) -> np.ndarray:
        """(N,) the dealer of each deal's current hand."""
        return self._dealer.copy()

    @property
    def tricks_done(self) -> np.ndarray:
        """(N,) completed tricks of the current hand."""
        return self._tricks.copy()

    @property
    def hand_number(self) -> np.ndarray:
        """(N,) 0 for the episode's first hand, then 1, 2, ..."""
        return self._hand_number.copy()

    def _check_dealers(self, dealer: Any, m: int) -> np.ndarray:
        p = self.num_agents
        d = np.asarray(dealer)
        if d.dtype == bool or not np.issubdtype(d.dtype, np.integer):
            raise ValueError(
                f"dealer must be a seat 0..{p - 1} (an int) or an array of {m} of them; got {shown(dealer)}"
            )
        if d.shape not in ((), (m,)):
            raise ValueError(f"dealer must be one seat or {m} seats (one per deal reset); got shape {d.shape}")
        if ((d < 0) | (d >= p)).any():
            raise ValueError(f"dealer must be a seat 0..{p - 1}; got {shown(dealer)}")
        return np.broadcast_to(d, (m,)).astype(np.int64)

    def _shuffle(self, m: int, fixed: np.ndarray | None = None) -> np.ndarray:
        """(M, 40) card ids: the cards not in ``fixed`` ((M,) masks; None: none) uniformly shuffled, then those of ``fixed``."""
        return key_order(self._rng.random((m, 40)), fixed)

    def legal_masks(self, dtype: Any = np.int8) -> np.ndarray:
        """(N, 255): 1 (True with ``dtype=bool``) for each legal action of the seat on turn; 0 in a finished deal."""
        if dtype not in (bool, np.bool_, np.int8):
            raise ValueError(f"legal_masks gives int8 (the default) or bool masks; got dtype {shown(dtype)}")
        words = np.ascontiguousarray(self._legal_words().astype("<u8", copy=False))  # (read, not written)
        bits = unpack_little(words.view(np.uint8), self.num_actions)
        return bits.view(np.bool_) if dtype in (bool, np.bool_) else bits.view(np.int8)

    def sample_actions(self, rng: np.random.Generator) -> np.ndarray:
        """(N,) a uniformly random legal action in each deal (``RandomPlayer``'s distribution); -1 where none."""
        return random_set_bits(self._legal_words(), rng)

    def _judge(self, actions: Any, active: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """A step's checks: (active, the actions as ids, legal, illegal in an active deal), by deal.

        Raises the ValueErrors of ``check_active`` and ``check_actions``, and with
        ``illegal_action="raise"`` the ``IllegalActionError`` of an illegal action; nothing changes.
        """
        active = check_active(active, self._playing)
        a = check_actions(actions, active, self.n, self.num_actions)
        if 4 * np.count_nonzero(active) < self.n:  # a few deals: their words only, and ``ok`` False in the others
            rows = np.flatnonzero(active)
            mine = a.take(rows)
            ok = np.zeros(self.n, dtype=bool)
            words = self._legal_words(rows)
            ok[rows] = ((words[np.arange(len(rows)), mine >> 6] >> (mine & 63).astype(U64)) & _ONE) != _ZERO
        else:
            words = self._legal_words()
            word = words.reshape(-1).take(self._ar * words.shape[1] + (a >> 6))  # a flat take, not a 2-D index
            ok = ((word >> (a & 63).astype(U64)) & _ONE) != _ZERO
        self._state_changes()  # the step changes the state from here on
        bad = active & ~ok
        if bad.any() and self.rules.illegal_action == "raise":
            self._raise_illegal(a, bad)
        return active, a, ok, bad

    def _raise_illegal(self, a: np.ndarray, bad: np.ndarray) -> None:
        where = np.flatnonzero(bad)
        first = int(where[0])
        legal = np.flatnonzero(self.legal_masks()[first]).tolist()
        seat = int(self._turn[first])
        some = ", ".join(f"deal {d}: {int(a[d])}" for d in where[:5])
        raise IllegalActionError(
            f"illegal actions in {len(where)} deal(s) ({some}{', ...' if len(where) > 5 else ''}); "
            f"in deal {first} seat {seat} may play {legal} "
            f"({' '.join(action_to_string(x) for x in legal)}), not {int(a[first])}"
        )
