"""Tressette in due for a batch of N deals at once, in NumPy: ``InDueBatch``.

The scalar game is ``games.in_due`` (``TressetteInDue``); this module plays both its forms,
the **stock form** (``deal="stock"``, the default) and the **packet form**
(``deal="packets"``), under every rule switch, for N deals with a fixed number of NumPy
calls per method, whatever N is: no Python loop over the deals. The legal masks, the
observations, the results and the rewards are those of the scalar engine and encoder, byte
for byte (``tests/vector/test_in_due_batch.py`` steps a scalar state per deal alongside and
pins them).

| method | what it does |
| --- | --- |
| ``InDueBatch(n, seed=None, **rules)`` | N deals under one rule set (the switches of ``InDueRules``, an unknown one the same TypeError) |
| ``reset(seed=None, hands=None, stock=None, packets=None, dealer=None, deals=None)`` | deal new episodes: shuffled, or chosen deals in the scalar game's form; all deals or some (a bool mask or indices) |
| ``legal_masks()`` / ``legal_masks(bool)`` | (N, 255) int8 (or bool): ``legal_actions_mask`` of the seat on turn in each deal; 0 in a finished deal |
| ``observe(seats=None, deals=None)`` | (M, 830) int8: the scalar ``observation(rules)`` of each deal, the seat on turn by default |
| ``step(actions, active=None, autoreset=True)`` | the seat on turn acts in each (active) deal; an ``InDueStepResult`` |
| ``sample_actions(rng)`` | (N,) a uniformly random legal action in each deal; -1 where none |
| ``turn``, ``leader``, ``dealer``, ``phase``, ``tricks_done``, ``stock_left``, ``thirds``, ``declared``, ``match_score``, ``hand_number``, ``playing`` | copies of the state, by deal |
| ``hands()``, ``dealt()``, ``tops()``, ``deal_of(i)`` | the cards as engine masks (bit c = card c); the face-up packets' tops; one deal's hand as dealt, for ``new_game``/``next_hand`` |
| ``num_deals`` / ``n``, ``num_agents`` (2), ``num_actions`` (255), ``rules``, ``observation`` | the batch's constants |

Inside, a set of cards is a uint64 engine card mask (bit ``c`` is card ``c``, as in
``engine.cards``); facts about the two seats are (2, N) arrays, seat first and the batch
axis last; the stock is (N, 20) card ids, the next drawn first; the packet form keeps the
eight packets as dealt (N, 8, 5), each seat's four packets while they are turned up
(N, 2, 4, 5), and its two face-up packets (N, 2, 2, 5) with the position of each top
(N, 2, 2). Every update is a mask and an ``np.where`` over the whole batch (no branch per
deal), so a port to JAX is mechanical: the only Python ``if``s test ``.any()`` of a mask to
skip work nobody needs (a JAX port computes it always), or raise. The observation is built
as 27 uint64 *fields* per observed deal (each piece of at most 64 entries, bit i = entry i of
the piece), shifted into their places in little-endian words of the scalar layout and
unpacked at once by ``np.unpackbits`` (``_pack``). The card tables, ``_bits``, the
follow-suit mask, the trick's winner and its thirds with the last trick's bonus
(``winning_card``, ``trick_thirds``) are ``vector._tricks``'s, shared with every batched
engine; the trick's bookkeeping is this module's own (two seats, seat first; while the stock
lasts a follower need not follow suit, so a card off the led suit shows a void only when the
seat had none of it), as is the packed observation (a fixed list of fields). Where numba is
installed (the ``fast`` extra), ``observe`` runs those fields and the packing compiled, row
by row (``vector._in_due_words``, the same words; ``tests/vector/test_compiled_observations.py``).

Decisions:

- Chosen deals take the scalar game's form: in the stock form ``hands`` (2 lists of 10 card
  ids, or (M, 2, 10)), ``stock`` (20 card ids in drawing order, or (M, 20)); in the packet form
  ``packets`` (8 lists of 5, bottom card first, or (M, 8, 5); with ``packet_deal="dealt"`` the
  non-dealer's four first); ``dealer`` (0 or 1, or (M,)). Given only the hands, the stock is
  the other twenty cards shuffled; given only the stock, the hands are the other twenty
  shuffled (as ``new_game`` does). The other form's keys are refused with the scalar game's
  message. ``deal_of(i)`` gives back ``{"hands", "stock"}`` or ``{"packets"}`` of a deal's
  current hand. Every check is made before anything changes, the generator included.
- The dealer of a shuffled deal is drawn at random (0 or 1); the non-dealer leads (and picks
  and turns up first). The next hand of a match is always dealt inside the step that ended the
  one before (as the AEC environment does), by the other seat, the match score kept.
- Rewards (``InDueStepResult.rewards``, (N, 2) by seat) are the AEC environment's, that is
  ``TressetteInDue.returns`` when the episode ends and 0 before: in ``episode="hand"`` the
  hand's points difference (negated with ``objective="avoid"``), in ``episode="match"``
  +1 / -1 for the match's winner and loser (with ``"avoid"`` the first to the target loses).
  No dense reward (the AEC environment's ``dense_reward`` option is not batched).
- ``autoreset=True`` (default): a deal whose episode ended is dealt a new episode in the
  same step (the result describes the ended one). ``autoreset=False``: it stays finished
  (``turn`` -1, an all-zero mask, the scalar engine's final observation, for which ``seats``
  must be named) until ``reset(deals=...)``; stepping it raises ValueError (step the others
  with ``active=batch.playing``).
- Illegal actions follow ``illegal_action``: ``"renuncio"`` ends the hand as the scalar game
  does (with ``objective="take"`` the offender scores 0 and the other 11; with ``"avoid"`` the
  offender is charged 11), in any phase; ``"raise"`` raises ``IllegalActionError`` naming the
  first offending deals and changes nothing. An action that is not an integer, or outside
  0..254 (-1 is allowed in a deal that does not play), always raises ValueError naming the
  range, whatever the switch.
- ``accusi="dealt_and_drawn"``: a draw declares every combination of the drawer's cards (held
  and played) that holds the drawn card; such a combination cannot have been declared before
  (it holds a card just drawn), which is the scalar game's rule.
- The packet form follows the scalar engine to the letter where it matters to the
  observation: the packets are numbered by bottom card; the last card of a hand, played from
  a face-up packet, does not uncover the next (the hand is scored first), so the final
  ``packet_sizes`` count it; ``own_packets`` and ``turned`` stay in the final observation of a
  hand ended by a renuncio while turning; with ``pizzichi_pickup`` every face-up asso, 2 or 3
  is taken into the hand until a top is none of them (between plays no top is one, so testing
  every packet is testing the one just uncovered).

Example:
    >>> import numpy as np
    >>> batch = InDueBatch(3, seed=0)
    >>> rng = np.random.default_rng(0)
    >>> for _ in range(40):  # a hand is 40 card plays
    ...     result = batch.step(batch.sample_actions(rng))
    >>> result.terminated.tolist(), result.hand_points.sum(axis=1).tolist()
    ([True, True, True], [11, 11, 11])
    >>> batch.observe().shape, batch.legal_masks().shape
    ((3, 830), (3, 255))
    >>> packets = InDueBatch(2, seed=0, deal="packets", packet_deal="choose")
    >>> np.flatnonzero(packets.legal_masks()[0]).tolist()  # pick a packet, blind
    [247, 248, 249, 250, 251, 252, 253, 254]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..encoders.in_due import observation as in_due_observation
from ..engine.actions import CALL, CALL_OUT, PACKET, action_to_string
from ..engine.cards import HONOURS
from ..engine.game import IllegalActionError
from ..engine.scoring import RENUNCIO_POINTS
from ..engine.state import PLAY
from ..envs.playing import check_flag
from ..games.in_due import (
    IN_DUE,
    PACKET_SIZE,
    PACKETS,
    PLAY_PACKETS,
    PLAY_STOCK,
    SELECT_PACKETS,
    STOCK_SIZE,
    TURN_PACKETS,
    InDueRules,
)
from ..messages import shown
from ._family import THERMO as _THERMO
from ._family import (
    check_actions,
    check_active,
    check_agents,
    check_deal,
    check_seats,
    compiled_kernel,
    deal_indices,
    distinct_deals,
    key_order,
    pack_places,
    popcount,
    select_low,
    unpack_little,
)
from ._tricks import CARD_BIT as _CARD_BIT
from ._tricks import FULL as _FULL
from ._tricks import PLAY_CARD as _PLAY_CARD
from ._tricks import card_bits as _bits
from ._tricks import follow_suit, trick_thirds, winning_card
from .engine import SeedLike, _as_generator

U64 = np.uint64
_ZERO = U64(0)
_ONE = U64(1)
NUM_ACTIONS = IN_DUE.num_actions  # 255
_NAPOLETANE = np.array([int(HONOURS[s]) for s in range(4)], dtype=U64)
"""Asso, 2 and 3 of each suit."""
_RANKS = np.array([sum(1 << (10 * s + r) for s in range(4)) for r in range(3)], dtype=U64)
"""The four assi, 2s, 3s."""
_NAP_OF_CARD = np.array([int(HONOURS[c // 10]) if c % 10 < 3 else 0 for c in range(40)], dtype=U64)
_RANK_OF_CARD = np.array([int(_RANKS[c % 10]) if c % 10 < 3 else 0 for c in range(40)], dtype=U64)
_SEATS = np.arange(2, dtype=np.int64)[:, None]

# --- the observation's fields: (piece, relative seat or part) -> (offset, width) -------------
_OBS = in_due_observation(InDueRules())
_SL = _OBS.slices
_SIZE = _OBS.size
_FIELDS = [
    ("hand", _SL["hand"].start, 40),
    ("trick0", _SL["trick"].start, 40),
    ("trick1", _SL["trick"].start + 40, 40),
    ("leader", _SL["leader"].start, 2),
    ("played0", _SL["played"].start, 40),
    ("played1", _SL["played"].start + 40, 40),
    ("voids", _SL["voids"].start, 8),
    ("accusi0", _SL["accusi"].start, 40),
    ("accusi1", _SL["accusi"].start + 40, 40),
    ("exposed0", _SL["exposed"].start, 40),
    ("exposed1", _SL["exposed"].start + 40, 40),
    ("trick_number", _SL["trick_number"].start, 20),
    ("declared0", _SL["declared_points"].start, 20),
    ("declared1", _SL["declared_points"].start + 20, 20),
    ("thirds0", _SL["thirds"].start, 35),
    ("thirds1", _SL["thirds"].start + 35, 35),
    ("target0", _SL["to_target"].start, 41),
    ("target1", _SL["to_target"].start + 41, 41),
    ("stock", _SL["stock"].start, 20),
    ("opponent_hand", _SL["opponent_hand"].start, 40),
    ("phase", _SL["phase"].start, 4),
    ("own_packets0", _SL["own_packets"].start, 40),
    ("own_packets1", _SL["own_packets"].start + 40, 40),
    ("own_packets2", _SL["own_packets"].start + 80, 40),
    ("own_packets3", _SL["own_packets"].start + 120, 40),
    ("turned", _SL["turned"].start, 4),
    ("packet_sizes", _SL["packet_sizes"].start, 20),
]
_NF = len(_FIELDS)
_COLUMNS = np.zeros(_SIZE, dtype=np.int64)
_covered = np.zeros(_SIZE, dtype=bool)
for _f, (_name, _at, _w) in enumerate(_FIELDS):
    if _covered[_at : _at + _w].any():  # pragma: no cover - a guard for whoever changes the layout
        raise ImportError(f"the in due observation layout moved ({_name}): update vector.in_due")
    _COLUMNS[_at : _at + _w] = 64 * _f + np.arange(_w)
    _covered[_at : _at + _w] = True
if _SIZE != 830 or not _covered.all():  # pragma: no cover
    raise ImportError("the in due observation layout moved: update vector.in_due")
_WORDS = (_SIZE + 63) // 64


def _pack(f: np.ndarray, places: tuple[tuple[int, int, int], ...]) -> np.ndarray:
    """(_NF, M) fields (entry i of a field at its bit i) -> (M, 830) int8 rows in the layout's order.

    Each field of ``places`` ((field, first entry, width): those the rules fill, the others stay
    0) is shifted into its place in little-endian words and the words unpacked once (a gather of
    the 830 columns out of the fields' 64-bit slots cost about twice as much). The rows are views
    into one buffer, ``8 * _WORDS`` bytes apart.
    """
    m = f.shape[1]
    words = np.zeros((_WORDS, m), dtype="<u8")
    for k, at, width in places:
        q, r = divmod(at, 64)
        value = f[k]
        words[q] |= value << U64(r) if r else value
        if r + width > 64:
            words[q + 1] |= value >> U64(64 - r)
    return unpack_little(np.ascontiguousarray(words.T).view(np.uint8), _SIZE).view(np.int8)


_PHASE_BIT = np.zeros(8, dtype=U64)
"""The one-hot phase field by phase (select, turn, play with a stock, play with packets; 0 in the plain play)."""
for _phase, _bit in ((SELECT_PACKETS, 0), (TURN_PACKETS, 1), (PLAY_STOCK, 2), (PLAY_PACKETS, 3)):
    _PHASE_BIT[_phase] = 1 << _bit
_HONOUR = np.array([c % 10 < 3 for c in range(40)] + [False])
"""An asso, 2 or 3 (index 40: no card)."""


class InDueStepResult(NamedTuple):
    """What one ``InDueBatch.step`` did, deal by deal (arrays with the batch axis first).

    The fields about the hand that ended (``hand_points`` to ``hand_number``) are meaningful
    where ``hand_over`` is True and 0 / -1 elsewhere.
    """

    rewards: np.ndarray
    """(N, 2) float32 by seat: the AEC environment's rewards (nonzero only when an episode ends)."""
    terminated: np.ndarray
    """(N,) bool: the episode ended in this step (then, with autoreset, a new one was dealt)."""
    hand_over: np.ndarray
    """(N,) bool: a hand ended in this step (the same as ``terminated`` in ``episode="hand"``)."""
    hand_points: np.ndarray
    """(N, 2) int64: each seat's points for the hand (``HandScore.points``)."""
    card_thirds: np.ndarray
    """(N, 2) int64: thirds each seat took in cards, the last trick's 3 included."""
    accusi: np.ndarray
    """(N, 2) int64: declaration points each seat scored."""
    cappotto: np.ndarray
    """(N,) int8: the seat that made every point, or -1."""
    renuncio: np.ndarray
    """(N,) int8: the seat whose illegal action ended the hand, or -1."""
    called_out: np.ndarray
    """(N,) int8: the seat that claimed the match (chiamarsi fuori), or -1."""
    match_score: np.ndarray
    """(N, 2) int64: the match score after the hand (the hand's points in ``episode="hand"``)."""
    winner: np.ndarray
    """(N,) int8: the seat that won the match when it ended, or -1 (always -1 in ``episode="hand"``)."""
    hand_number: np.ndarray
    """(N,) int64: the number of the hand that ended (0 for an episode's first)."""


def _pick(pair: np.ndarray, seat: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
    """``pair[seat[j], rows[j]]`` for a (2, N) array (``rows`` None: every deal)."""
    n = pair.shape[1]
    r = np.arange(n) if rows is None else rows
    return pair.reshape(-1).take(seat * n + r)


def _declarations(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cards the declarations of each hand reveal, and their points, for (..., M) card masks."""
    revealed = np.zeros_like(hands)
    points = np.zeros(hands.shape, dtype=np.int64)
    for nap in _NAPOLETANE:
        full = (hands & nap) == nap
        points += 3 * full
        revealed |= np.where(full, nap, _ZERO)
    for rank in _RANKS:  # three or four 3s, 2s or assi score 3 or 4
        cards = hands & rank
        count = popcount(cards)
        three = count >= 3
        points += count * three
        revealed |= np.where(three, cards, _ZERO)
    return revealed, points


def _drawn_declarations(cards: np.ndarray, drawn: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``dealt_and_drawn``: the combinations of ``cards`` (held and played) that hold the card just drawn."""
    nap = _NAP_OF_CARD.take(drawn)
    full = (nap != _ZERO) & ((cards & nap) == nap)
    rank = cards & _RANK_OF_CARD.take(drawn)
    count = popcount(rank)
    three = count >= 3
    points = 3 * full + count * three
    revealed = np.where(full, nap, _ZERO) | np.where(three, rank, _ZERO)
    return revealed, points


class InDueBatch:
    """N deals of Tressette in due stepped together under one rule set (either form).

    Args:
        num_deals: N, the batch size.
        seed: an int, a ``numpy.random.Generator`` (used as it is) or None; draws the dealers
            and the shuffles of every deal, now and at every reset.
        **rules: rule switches, as for ``InDueRules`` (an unknown one is the same TypeError).

    Raises:
        ValueError: a bad ``num_deals``, or a rule set the rules refuse.
    """

    num_agents = 2
    num_actions = NUM_ACTIONS
    seats = 2
    """Seats at the table (each its own agent)."""
    deal_options = ("hands", "stock", "packets", "dealer")
    """The chosen-deal keywords of ``reset`` (what ``FamilyVectorEnv.reset(options=...)`` passes on)."""

    def __init__(self, num_deals: int, *, seed: SeedLike = None, **rules: Any):
        if isinstance(num_deals, bool) or not isinstance(num_deals, (int, np.integer)) or num_deals < 1:
            raise ValueError(f"num_deals must be an int >= 1; got {shown(num_deals)}")
        self.rules: InDueRules = InDueRules.make(**rules)
        self._packet_form = self.rules.deal == "packets"
        unfilled = (
            {"stock"} if self._packet_form else {f"own_packets{k}" for k in range(4)} | {"turned", "packet_sizes"}
        )
        if self.rules.episode != "match":
            unfilled |= {"target0", "target1"}
        self._places = tuple((k, at, w) for k, (name, at, w) in enumerate(_FIELDS) if name not in unfilled)
        """The fields ``_pack`` packs: those these rules fill (the others stay 0)."""
        self._placements = pack_places(self._places)
        """``_places`` for the compiled observation (``vector._compiled.pack_row``)."""
        self.decisions_per_hand = None if self._packet_form else 20
        """Decisions of each seat in a hand: 20 in the stock form (one card a trick); None with packets (the packet
        phases' decisions vary), so ``SeatRows`` refuses it."""
        self.observation = in_due_observation(self.rules)
        """The scalar observation whose bytes ``observe`` gives (``observation.size`` = 830 entries)."""
        n = self.n = int(num_deals)
        self._ar = np.arange(n, dtype=np.int64)
        self._rng = _as_generator(seed)
        self._hands = np.zeros((2, n), dtype=U64)
        self._played = np.zeros((2, n), dtype=U64)
        self._exposed = np.zeros((2, n), dtype=U64)  # marks stay once played (Table.exposed)
        self._revealed = np.zeros((2, n), dtype=U64)
        self._declared = np.zeros((2, n), dtype=np.int64)
        self._voids = np.zeros((2, n), dtype=U64)  # 4 bits by suit
        self._thirds = np.zeros((2, n), dtype=np.int64)
        self._trick = np.full((2, n), -1, dtype=np.int64)  # by seat: its card on the table, -1 none
        self._led = np.full(n, -1, dtype=np.int64)  # the led suit, -1 while nobody has led
        self._leader = np.zeros(n, dtype=np.int64)
        self._turn = np.zeros(n, dtype=np.int64)  # the seat to act (kept in a finished deal too)
        self._tricks = np.zeros(n, dtype=np.int64)
        self._stock = np.zeros((n, STOCK_SIZE), dtype=np.int64)
        self._dealt = np.zeros((2, n), dtype=U64)
        self._dealer = np.zeros(n, dtype=np.int64)
        self._hand_number = np.zeros(n, dtype=np.int64)
        self._match_score = np.zeros((2, n), dtype=np.int64)
        self._playing = np.ones(n, dtype=bool)
        self._phase = np.full(n, PLAY_STOCK, dtype=np.int64)  # the scalar PublicState.phase
        # The packet form: the eight packets as dealt (bottom card first), the packets picked so
        # far (bit k: packet k), each seat's four packets sorted by bottom card while turning them
        # up, the bottom cards turned, each seat's two face-up packets (the top at position pos).
        self._deck_packets = np.zeros((n, PACKETS, PACKET_SIZE), dtype=np.int64)
        self._selected = np.zeros(n, dtype=U64)
        self._own = np.zeros((n, 2, 4, PACKET_SIZE), dtype=np.int64)
        self._turned = np.zeros((2, n), dtype=U64)
        self._face = np.zeros((n, 2, 2, PACKET_SIZE), dtype=np.int64)
        self._pos = np.full((n, 2, 2), PACKET_SIZE, dtype=np.int64)
        self.reset()

    # ------------------------------------------------------------------ dealing

    def reset(
        self,
        seed: SeedLike = None,
        *,
        hands: Sequence | np.ndarray | None = None,
        stock: Sequence | np.ndarray | None = None,
        packets: Sequence | np.ndarray | None = None,
        dealer: int | Sequence[int] | np.ndarray | None = None,
        deals: np.ndarray | Sequence[int] | None = None,
    ) -> None:
        """Deal new episodes (match score 0, hand 0).

        Args:
            seed: reseed the batch's generator (an int or a ``Generator``); None keeps it.
            hands: chosen hands: card ids of shape (2, 10) (the same everywhere) or (M, 2, 10),
                ``hands[i][s]`` the ten cards of seat s.
            stock: the chosen stock: card ids of shape (20,) or (M, 20), the next drawn first.
            packets: the packet form's chosen deal: card ids of shape (8, 5) or (M, 8, 5), each
                packet bottom card first (the non-dealer's four first with ``packet_deal="dealt"``).
            dealer: the dealer, an int or (M,) seats 0..1; drawn at random when None.
            deals: which deals to reset: a bool mask (N,) or indices (M,); all when None.

        Raises:
            ValueError: a bad argument (nothing changes, the generator included).
        """
        idx = distinct_deals(self._deal_indices(deals))
        m = len(idx)
        if self._packet_form:
            for key, value in (("hands", hands), ("stock", stock)):
                if value is not None:
                    raise ValueError(
                        f'{shown(key)} is for deal="stock"; the packet form takes packets: 8 lists of 5 card ids'
                    )
        elif packets is not None:
            raise ValueError(
                'packets are for deal="packets"; the stock form takes hands (2 lists of 10) and a stock of 20'
            )
        chosen = None if packets is None else self._check_packets(packets, m)
        masks = None if hands is None else self._check_hands(hands, m)
        order = None if stock is None else self._check_stock(stock, m)
        if masks is not None and order is not None:
            both = (masks[0] | masks[1]) & np.bitwise_or.reduce(_CARD_BIT.take(order), axis=1)
            if (both != _ZERO).any():
                j = int(np.flatnonzero(both != _ZERO)[0])
                card = int(select_low(both[j : j + 1], np.zeros(1, dtype=np.int64))[0])
                raise ValueError(
                    f"card {card} is dealt in a hand and in the stock (chosen deal {j}); "
                    "every card is dealt exactly once"
                )
        dealers = None if dealer is None else self._check_dealers(dealer, m)
        if seed is not None:
            self._rng = _as_generator(seed)
        if m == 0:
            return
        if dealers is None:
            dealers = self._rng.integers(0, 2, m)
        self._cards_now = None  # the state changes from here on
        self._deal(idx, dealers, masks, order, chosen)
        self._match_score[:, idx] = 0
        self._hand_number[idx] = 0

    def _deal_indices(self, deals: Any) -> np.ndarray:
        return deal_indices(deals, self.n, self._ar)

    @staticmethod
    def _check_dealers(dealer: Any, m: int) -> np.ndarray:
        d = np.asarray(dealer)
        if d.dtype == bool or not np.issubdtype(d.dtype, np.integer):
            raise ValueError(f"dealer must be a seat 0..1 (an int) or an array of {m} of them; got {shown(dealer)}")
        if d.shape not in ((), (m,)):
            raise ValueError(f"dealer must be one seat or {m} seats (one per deal reset); got shape {d.shape}")
        if ((d < 0) | (d > 1)).any():
            raise ValueError(f"dealer must be a seat 0..1; got {shown(dealer)}")
        return np.broadcast_to(d, (m,)).astype(np.int64)

    @staticmethod
    def _card_ids(x: Any, shape: tuple[int, ...], what: str, m: int) -> np.ndarray:
        """(M, *shape) int64 card ids 0..39 from one chosen value or M of them."""
        one = "(" + ", ".join(map(str, shape)) + ")"
        try:
            a = np.asarray(x)
        except (ValueError, TypeError):  # a ragged list
            raise ValueError(f"chosen {what} are card ids of shape {one} or (M, {one[1:]}; got {shown(x)}") from None
        given = a.shape
        if a.ndim == len(shape):
            a = a[None]
        if a.ndim != len(shape) + 1 or a.shape[1:] != shape:
            raise ValueError(f"chosen {what} are card ids of shape {one} or (M, {one[1:]}; got shape {given}")
        if a.dtype == bool or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"chosen {what} are integer card ids 0..39; got dtype {a.dtype}")
        if a.shape[0] not in (1, m):
            raise ValueError(f"{a.shape[0]} chosen {what} for {m} deals to reset")
        if ((a < 0) | (a > 39)).any():
            raise ValueError(f"chosen {what} hold card id {int(a[(a < 0) | (a > 39)][0])}; card ids are 0..39")
        return np.broadcast_to(a, (m, *shape)).astype(np.int64)

    def _check_hands(self, hands: Any, m: int) -> np.ndarray:
        """(2, M) card masks of chosen hands, each card once."""
        ids = self._card_ids(hands, (2, 10), "hands", m)
        bits = _CARD_BIT.take(ids)
        masks = np.bitwise_or.reduce(bits, axis=2)  # (M, 2)
        twice = popcount(masks[:, 0] | masks[:, 1]) != 20
        if twice.any():
            j = int(np.flatnonzero(twice)[0])
            flat = ids[j].reshape(-1)
            card = int(next(c for k, c in enumerate(flat) if c in flat[:k]))
            raise ValueError(f"card {card} is dealt twice in chosen deal {j}'s hands; every card is dealt exactly once")
        return np.ascontiguousarray(masks.T)

    def _check_stock(self, stock: Any, m: int) -> np.ndarray:
        """(M, 20) card ids of a chosen stock, each card once."""
        ids = self._card_ids(stock, (STOCK_SIZE,), "stocks", m)
        twice = popcount(np.bitwise_or.reduce(_CARD_BIT.take(ids), axis=1)) != STOCK_SIZE
        if twice.any():
            j = int(np.flatnonzero(twice)[0])
            flat = ids[j]
            card = int(next(c for k, c in enumerate(flat) if c in flat[:k]))
            raise ValueError(f"card {card} is twice in chosen deal {j}'s stock; every card is dealt exactly once")
        return np.ascontiguousarray(ids)

    def _check_packets(self, packets: Any, m: int) -> np.ndarray:
        """(M, 8, 5) card ids of chosen packets, each card once."""
        ids = self._card_ids(packets, (PACKETS, PACKET_SIZE), "packets", m)
        twice = popcount(np.bitwise_or.reduce(_CARD_BIT.take(ids).reshape(m, 40), axis=1)) != 40
        if twice.any():
            j = int(np.flatnonzero(twice)[0])
            flat = ids[j].reshape(-1)
            card = int(next(c for k, c in enumerate(flat) if c in flat[:k]))
            raise ValueError(
                f"card {card} is dealt twice in chosen deal {j}'s packets; every card is dealt exactly once"
            )
        return np.ascontiguousarray(ids)

    def _shuffle(self, m: int, fixed: np.ndarray | None) -> np.ndarray:
        """(M, 40) card ids: the cards not in ``fixed`` ((M,) masks) uniformly shuffled, then those of ``fixed``."""
        return key_order(self._rng.random((m, 40)), fixed)

    def _deal(
        self,
        idx: np.ndarray,
        dealers: np.ndarray,
        masks: np.ndarray | None = None,
        order: np.ndarray | None = None,
        packets: np.ndarray | None = None,
    ) -> None:
        """Deal a hand to the deals ``idx`` with these dealers (the match score and hand number are the caller's)."""
        m = len(idx)
        first = 1 - dealers
        for a in (self._played, self._exposed, self._voids, self._thirds, self._revealed, self._declared):
            a[:, idx] = 0
        self._trick[:, idx] = -1
        self._led[idx] = -1
        self._leader[idx] = first
        self._turn[idx] = first
        self._tricks[idx] = 0
        self._dealer[idx] = dealers
        self._playing[idx] = True
        if self._packet_form:
            self._deal_packets(idx, dealers, packets)
            return
        self._phase[idx] = PLAY_STOCK
        if masks is None and order is None:
            deck = self._shuffle(m, None)
            masks = np.stack(
                [np.bitwise_or.reduce(_CARD_BIT.take(deck[:, 10 * s : 10 * s + 10]), axis=1) for s in (0, 1)]
            )
            order = deck[:, 20:]
        elif order is None:
            order = self._shuffle(m, masks[0] | masks[1])[:, :STOCK_SIZE]
        elif masks is None:
            deck = self._shuffle(m, np.bitwise_or.reduce(_CARD_BIT.take(order), axis=1))
            masks = np.stack(
                [np.bitwise_or.reduce(_CARD_BIT.take(deck[:, 10 * s : 10 * s + 10]), axis=1) for s in (0, 1)]
            )
        self._hands[:, idx] = masks
        self._dealt[:, idx] = masks
        self._stock[idx] = order
        if self.rules.accusi != "none":
            revealed, points = _declarations(masks)
            self._revealed[:, idx] = revealed
            self._declared[:, idx] = points

    def _deal_packets(self, idx: np.ndarray, dealers: np.ndarray, packets: np.ndarray | None) -> None:
        """The packet form's deal: eight packets of five; the non-dealer picks four, or takes the first four."""
        m = len(idx)
        if packets is None:
            packets = self._shuffle(m, None).reshape(m, PACKETS, PACKET_SIZE)
        self._deck_packets[idx] = packets
        self._selected[idx] = 0
        self._turned[:, idx] = 0
        self._pos[idx] = PACKET_SIZE
        self._hands[:, idx] = 0
        self._dealt[:, idx] = 0
        if self.rules.packet_deal == "choose":
            self._phase[idx] = SELECT_PACKETS
            return
        non_dealer_first = (dealers == 1)[:, None, None, None]  # seat 0 is the non-dealer
        mine, theirs = packets[:, None, :4], packets[:, None, 4:]
        own = np.concatenate(
            [np.where(non_dealer_first, mine, theirs), np.where(non_dealer_first, theirs, mine)], axis=1
        )
        self._start_turning(idx, own)

    def _start_turning(self, idx: np.ndarray, own: np.ndarray) -> None:
        """Each seat's four packets ((M, 2, 4, 5), bottom card first) are dealt: the seats turn two each face up."""
        order = np.argsort(own[:, :, :, 0], axis=2)  # numbered by bottom card, lowest id first
        own = np.take_along_axis(own, order[:, :, :, None], axis=2)
        self._own[idx] = own
        self._hands[:, idx] = np.bitwise_or.reduce(_CARD_BIT.take(own[:, :, :, 0]), axis=2).T
        self._dealt[:, idx] = np.bitwise_or.reduce(_CARD_BIT.take(own).reshape(len(idx), 2, 20), axis=2).T
        self._phase[idx] = TURN_PACKETS
        first = 1 - self._dealer[idx]
        self._turn[idx] = first
        self._leader[idx] = first

    # ------------------------------------------------------------------ masks

    def _card_phase(self) -> np.ndarray:
        """(N,) bool: a card is to be played (not choosing or turning packets; not a finished deal)."""
        phase = self._phase
        return self._playing & ((phase == PLAY_STOCK) | (phase == PLAY_PACKETS) | (phase == PLAY))

    _cards_now: np.ndarray | None = None
    """``_legal_cards()`` of the current state (read-only), or None until asked for: the step's random choice, its
    check and the masks share it (``reset`` and ``step`` forget it before they change the state)."""

    def _legal_cards(self) -> np.ndarray:
        """(N,) the card plays open to the seat on turn (0 outside the card play and in a finished deal)."""
        cards = self._cards_now
        if cards is None:
            cards = self._cards_now = self._cards_open()
            cards.flags.writeable = False
        return cards

    def _cards_open(self) -> np.ndarray:
        """``_legal_cards`` computed from the state."""
        hand = _pick(self._hands, self._turn)
        led = self._led
        follow = follow_suit(hand, led)
        # The follower follows suit if able; while the stock lasts only with follow_suit_with_stock.
        must = True if self._packet_form or self.rules.follow_suit_with_stock else self._phase == PLAY
        cards = np.where((follow != _ZERO) & must, follow, hand)
        return np.where(self._card_phase(), cards, _ZERO)

    def _call_legal(self) -> np.ndarray:
        """(N,) bool: chiamarsi fuori is open (``calling_out``, on lead in the card play)."""
        if not self.rules.calling_out:
            return np.zeros(self.n, dtype=bool)
        return self._card_phase() & (self._led < 0)

    def _turnable(self) -> np.ndarray:
        """(N,) the bottom cards the seat on turn may turn face up (``CALL + c``; the packet form)."""
        if not self._packet_form:
            return np.zeros(self.n, dtype=U64)
        open_ = _pick(self._hands, self._turn) & ~_pick(self._turned, self._turn)
        return np.where(self._playing & (self._phase == TURN_PACKETS), open_, _ZERO)

    def _selectable(self) -> np.ndarray:
        """(N,) bit k: the non-dealer may pick packet k (``PACKET + k``; ``packet_deal="choose"``)."""
        if not self._packet_form:
            return np.zeros(self.n, dtype=U64)
        return np.where(self._playing & (self._phase == SELECT_PACKETS), self._selected ^ U64(0xFF), _ZERO)

    def legal_masks(self, dtype: Any = np.int8) -> np.ndarray:
        """(N, 255): 1 (True with ``dtype=bool``) for each legal action of the seat on turn; 0 in a finished deal."""
        if dtype not in (bool, np.bool_, np.int8):
            raise ValueError(f"legal_masks gives int8 (the default) or bool masks; got dtype {shown(dtype)}")
        words = np.zeros((self.n, 4), dtype="<u8")
        words[:, 0] = self._legal_cards()  # actions 0..39
        calls = self._turnable()  # CALL + c: 161..200, bits 33..63 of word 2 and 0..8 of word 3
        words[:, 2] = np.where(self._call_legal(), U64(1 << (CALL_OUT - 128)), _ZERO) | (calls << U64(CALL - 128))
        words[:, 3] = (calls >> U64(192 - CALL)) | (self._selectable() << U64(PACKET - 192))
        bits = unpack_little(words.view(np.uint8), NUM_ACTIONS)
        return bits.view(np.bool_) if dtype in (bool, np.bool_) else bits.view(np.int8)

    def sample_actions(self, rng: np.random.Generator) -> np.ndarray:
        """(N,) a uniformly random legal action in each deal (``RandomPlayer``'s distribution); -1 where none."""
        cards = self._legal_cards()
        c0 = popcount(cards)
        if not self._packet_form and not self.rules.calling_out:  # card plays only: the same draw, fewer calls
            k = (rng.random(self.n) * c0).astype(np.int64)
            return np.where(c0 > 0, select_low(cards, np.minimum(k, np.maximum(c0 - 1, 0))), -1)
        calls, packets = self._turnable(), self._selectable()
        c1 = c0 + self._call_legal()
        c2 = c1 + popcount(calls)
        total = c2 + popcount(packets)
        k = (rng.random(self.n) * total).astype(np.int64)  # the k-th legal action, by block
        action = np.where(
            k < c0,
            select_low(cards, np.minimum(k, np.maximum(c0 - 1, 0))),
            np.where(
                k < c1,
                CALL_OUT,
                np.where(
                    k < c2,
                    CALL + select_low(calls, np.clip(k - c1, 0, 39)),
                    PACKET + select_low(packets, np.clip(k - c2, 0, 7)),
                ),
            ),
        )
        return np.where(total > 0, action, -1)

    # ------------------------------------------------------------------ observations

    def observe(self, seats: int | np.ndarray | None = None, deals: np.ndarray | None = None) -> np.ndarray:
        """(M, 830) int8 observations: the bytes of the scalar ``observation(rules).encode(view(state, seat))``.

        Args:
            seats: the observing seat: None for the seat on turn, an int for the same seat
                everywhere, or an array with one seat per observed deal.
            deals: which deals (indices or a bool mask); all when None.

        Raises:
            ValueError: a seat outside 0..1, or ``seats=None`` for a finished deal (no seat on turn).
        """
        rows = self._deal_indices(deals)
        m = len(rows)
        playing = self._playing.take(rows)
        if seats is None:
            if not playing.all():
                raise ValueError("a finished deal has no seat on turn: name the observing seats")
            me = self._turn.take(rows)
        else:
            me = check_seats(seats, m, 2)
        compiled = compiled_kernel("_in_due_words")
        if compiled is not None:
            return unpack_little(compiled.packed(self, rows, me), _SIZE).view(np.int8)
        other = 1 - me
        n = self.n
        f = np.zeros((_NF, m), dtype="<u8")  # by field: each a contiguous row

        def two(pair: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            flat = pair.reshape(-1)
            return flat.take(me * n + rows), flat.take(other * n + rows)

        hand = self._hands.reshape(-1).take(me * n + rows)
        played0, played1 = two(self._played)
        exposed0, exposed1 = two(self._exposed)
        exposed0 &= ~played0
        exposed1 &= ~played1
        f[0] = hand
        trick0, trick1 = two(self._trick)
        f[1] = _bits(trick0)
        f[2] = _bits(trick1)
        on = np.where(playing, _ONE, _ZERO)
        f[3] = on << ((self._leader.take(rows) - me) & 1).astype(U64)
        f[4] = played0
        f[5] = played1
        voids0, voids1 = two(self._voids)
        f[6] = voids0 | (voids1 << U64(4))
        f[7], f[8] = two(self._revealed)
        f[9] = exposed0
        f[10] = exposed1
        tricks = self._tricks.take(rows)
        f[11] = on << np.minimum(tricks, 19).astype(U64)
        declared0, declared1 = two(self._declared)
        f[12] = _THERMO.take(np.minimum(declared0, 20))
        f[13] = _THERMO.take(np.minimum(declared1, 20))
        thirds0, thirds1 = two(self._thirds)
        f[14] = _THERMO.take(thirds0)
        f[15] = _THERMO.take(thirds1)
        if self.rules.episode == "match":
            target = self.rules.target_score
            score0, score1 = two(self._match_score)
            f[16] = _THERMO.take(np.clip(target - score0, 0, 41))
            f[17] = _THERMO.take(np.clip(target - score1, 0, 41))
        phase = self._phase.take(rows)
        f[20] = np.where(playing, _PHASE_BIT.take(phase), _ZERO)
        if not self._packet_form:
            stock_left = STOCK_SIZE - 2 * np.minimum(tricks, 10)
            f[18] = _THERMO.take(stock_left)
            # The opponent's cards: face up, and all of them once the stock is empty (while playing).
            everything = (hand | played0 | played1) ^ _FULL
            f[19] = exposed1 | np.where(playing & (stock_left == 0), everything, _ZERO)
        else:
            f[19] = exposed1
            # Turning packets up: the bottom card of each of the observer's four packets (its hand
            # holds them), and those turned (kept in the final observation of a hand ended there).
            turning = phase == TURN_PACKETS
            turned = self._turned.reshape(-1).take(me * n + rows)
            for k in range(4):
                bottom = np.where(turning, _ONE << select_low(hand, np.full(m, k)).astype(U64), _ZERO)
                f[21 + k] = bottom & _FULL
                f[25] |= np.where((bottom & turned) != _ZERO, U64(1 << k), _ZERO)
            # The face-up packets' sizes, as thermometers, once they are turned up.
            face_up = (phase == PLAY_PACKETS) | (phase == PLAY)
            pos = self._pos[rows]  # (M, 2, 2)
            sizes = 0
            for rel in (0, 1):
                seat_pos = pos[np.arange(m), (me + rel) & 1]  # (M, 2)
                for j in (0, 1):
                    sizes = sizes | (_THERMO.take(PACKET_SIZE - seat_pos[:, j]) << U64(5 * (2 * rel + j)))
            f[26] = np.where(face_up, sizes, _ZERO)
        return _pack(f, self._places)

    # ------------------------------------------------------------------ stepping

    def _check_actions(self, actions: Any, active: np.ndarray) -> np.ndarray:
        return check_actions(actions, active, self.n, NUM_ACTIONS)

    def step(
        self, actions: np.ndarray | Sequence[int], *, active: np.ndarray | None = None, autoreset: bool = True
    ) -> InDueStepResult:
        """The seat on turn in every deal (or in the ``active`` deals) takes its action.

        Args:
            actions: (N,) action ids 0..254; the entries of inactive (or finished) deals are
                ignored: an id, or -1 as ``sample_actions`` returns for a finished deal.
            active: (N,) bool: the deals that play; every deal when None (then none may be finished).
            autoreset: deal a new episode to each deal whose episode ends (same step).

        Raises:
            IllegalActionError: with ``illegal_action="raise"``, an active deal's action is
                illegal (nothing changes).
            ValueError: an action is not an integer or out of range, a bad ``active``, or a
                finished deal would play.
        """
        if type(autoreset) is not bool:  # before anything changes: None or "no" are no flag
            autoreset = check_flag("autoreset", autoreset)
        rules = self.rules
        active = check_active(active, self._playing)
        a = self._check_actions(actions, active)
        seat = self._turn.copy()
        card = _PLAY_CARD.take(a)
        bit = _CARD_BIT.take(card)
        card_ok = (a < 40) & ((self._legal_cards() & bit) != _ZERO)
        call_ok = (a == CALL_OUT) & self._call_legal()
        ok = card_ok | call_ok
        if self._packet_form:
            in_calls = (a >= CALL) & (a < CALL + 40)
            turn_ok = in_calls & ((self._turnable() >> np.where(in_calls, a - CALL, 0).astype(U64)) & _ONE != _ZERO)
            in_packets = a >= PACKET  # (up to 254)
            pick_ok = in_packets & (
                (self._selectable() >> np.where(in_packets, a - PACKET, 0).astype(U64)) & _ONE != _ZERO
            )
            ok = ok | turn_ok | pick_ok
        bad = active & ~ok
        if bad.any():
            if rules.illegal_action == "raise":
                self._raise_illegal(a, bad)
        self._cards_now = None  # the state changes from here on
        renuncio = bad
        called = active & call_ok
        play = active & card_ok
        if self._packet_form:
            self._pick_packets(active & pick_ok, a - PACKET)
            self._turn_up(active & turn_ok, a - CALL)

        # --- the card play
        bit = np.where(play, bit, _ZERO)
        mine = _SEATS == seat  # (2, N): the seat on turn's row
        hand_before = _pick(self._hands, seat)
        self._hands ^= np.where(mine, bit, _ZERO)
        self._played |= np.where(mine, bit, _ZERO)
        led = self._led
        leading = play & (led < 0)
        following = play & (led >= 0)
        suit = card // 10
        # A follower that cannot follow suit shows a void to everyone.
        fail = following & (suit != led) & (follow_suit(hand_before, led) == _ZERO)
        void = np.where(fail, _ONE << np.maximum(led, 0).astype(U64), _ZERO)
        self._voids |= np.where(mine, void, _ZERO)
        # The lead: the card goes on the table, the other seat is on turn.
        self._trick = np.where(mine & leading, card, self._trick)
        # The follow: the trick is complete; its winner takes it and leads the next.
        cards = _CARD_BIT.take(_pick(self._trick, 1 - seat)) | bit  # the lead's card (-1: none -> 0) and the follow
        winner = np.where(winning_card(cards, led) == bit, seat, 1 - seat)
        tricks_before = self._tricks
        last = tricks_before == 19
        taken = trick_thirds(cards, last)
        self._thirds += np.where((_SEATS == winner) & following, taken, 0)
        self._tricks = tricks_before + following
        self._trick = np.where(following, -1, self._trick)
        self._led = np.where(leading, suit, np.where(following, -1, led))
        self._leader = np.where(following, winner, self._leader)
        self._turn = np.where(following, winner, np.where(leading, 1 - seat, self._turn))
        complete = following & (self._tricks == 20)
        if self._packet_form:
            # A face-up top played uncovers the next card of its packet (not the hand's last card:
            # the scalar game scores the hand on the table before the packet is touched).
            self._uncover_played(play & ~complete, seat, card)
        # While the stock lasts: the winner draws the top card, then the loser.
        drawing = following & (tricks_before < 10) & (self._phase == PLAY_STOCK)
        if drawing.any():
            k = 2 * np.minimum(tricks_before, 9)
            first = self._stock[self._ar, k]
            second = self._stock[self._ar, k + 1]
            drawn = np.where(_SEATS == winner, first, second)  # (2, N): the card each seat draws
            drawn_bits = np.where(drawing, _CARD_BIT.take(drawn), _ZERO)
            self._hands |= drawn_bits
            if rules.show_drawn:
                self._exposed |= drawn_bits
            else:  # a hidden card may be of a suit the seat had shown it lacked
                self._voids = np.where(drawing, _ZERO, self._voids)
            if rules.accusi == "dealt_and_drawn":
                revealed, points = _drawn_declarations(self._hands | self._played, drawn)
                self._revealed |= np.where(drawing, revealed, _ZERO)
                self._declared += np.where(drawing, points, 0)
            self._phase = np.where(drawing & (self._tricks == 10), PLAY, self._phase)  # the stock is gone
        ended = complete | renuncio | called
        if not ended.any():
            return self._quiet_result()
        return self._end_hands(ended, complete, renuncio, called, seat, autoreset)

    # ------------------------------------------------------------------ the packet form's phases

    def _pick_packets(self, pick: np.ndarray, k: np.ndarray) -> None:
        """The non-dealer picks packet k (blind) where ``pick``; after the fourth the dealer has the other four."""
        if not pick.any():
            return
        self._selected |= np.where(pick, _ONE << np.where(pick, k, 0).astype(U64), _ZERO)
        idx = np.flatnonzero(pick & (popcount(self._selected) == 4))
        if len(idx):
            packets = self._deck_packets[idx]
            chosen = ((self._selected[idx, None] >> np.arange(PACKETS, dtype=U64)) & _ONE) != _ZERO
            order = np.argsort(~chosen, axis=1, kind="stable")  # the four picked first
            ordered = np.take_along_axis(packets, order[:, :, None], axis=1)
            picked, rest = ordered[:, None, :4], ordered[:, None, 4:]
            non_dealer_first = (self._dealer[idx] == 1)[:, None, None, None]  # seat 0 is the non-dealer
            own = np.concatenate(
                [np.where(non_dealer_first, picked, rest), np.where(non_dealer_first, rest, picked)], axis=1
            )
            self._start_turning(idx, own)

    def _turn_up(self, turn: np.ndarray, bottom: np.ndarray) -> None:
        """The seat on turn turns up its packet of this bottom card where ``turn``; after four, the card play."""
        if not turn.any():
            return
        seat = self._turn
        bit = np.where(turn, _CARD_BIT.take(np.clip(bottom, 0, 39)), _ZERO)
        mine = _SEATS == seat
        self._turned |= np.where(mine, bit, _ZERO)
        self._exposed |= np.where(mine, bit, _ZERO)  # seen by the table at once
        count = popcount(self._turned)  # (2, N)
        mine_done = _pick(count, seat) >= 2
        both = turn & (count[0] >= 2) & (count[1] >= 2)
        nxt = np.where(mine_done, 1 - seat, seat)  # the non-dealer turns two, then the dealer
        self._turn = np.where(turn & ~both, nxt, self._turn)
        self._leader = np.where(turn & ~both, nxt, self._leader)
        idx = np.flatnonzero(both)
        if not len(idx):
            return
        # Both have turned two: the other two packets go into the hand, the turned ones lie face up.
        own = self._own[idx]  # (M, 2, 4, 5), by bottom card
        up = ((self._turned[:, idx].T[:, :, None] >> own[:, :, :, 0].astype(U64)) & _ONE) != _ZERO
        order = np.argsort(~up, axis=2, kind="stable")  # the two turned first, by bottom card
        own = np.take_along_axis(own, order[:, :, :, None], axis=2)
        face = own[:, :, :2]
        tops = np.bitwise_or.reduce(_CARD_BIT.take(face[:, :, :, 0]), axis=2)  # (M, 2)
        down = np.bitwise_or.reduce(_CARD_BIT.take(own[:, :, 2:]).reshape(len(idx), 2, 10), axis=2)
        self._face[idx] = face
        self._pos[idx] = 0
        self._hands[:, idx] = (tops | down).T
        self._exposed[:, idx] = tops.T
        self._phase[idx] = PLAY_PACKETS
        first = 1 - self._dealer[idx]
        self._turn[idx] = first
        self._leader[idx] = first
        if self.rules.pizzichi_pickup:
            both_rows = np.zeros(self.n, dtype=bool)
            both_rows[idx] = True
            self._pickups(both_rows)

    def _tops(self) -> np.ndarray:
        """(N, 2, 2) the top card of each seat's face-up packets; -1 once a packet is gone."""
        pos = self._pos
        top = np.take_along_axis(self._face, np.minimum(pos, PACKET_SIZE - 1)[..., None], axis=3)[..., 0]
        return np.where(pos < PACKET_SIZE, top, -1)

    def _uncover(self, which: np.ndarray) -> None:
        """The face-up packets ``which`` ((N, 2, 2) bool) lose their top: the next card is playable and public."""
        self._pos += which
        tops = self._tops()
        new = np.where(which & (tops >= 0), _CARD_BIT.take(np.where(tops < 0, 40, tops)), _ZERO)
        new = (new[:, :, 0] | new[:, :, 1]).T  # (2, N)
        self._hands |= new
        self._exposed |= new

    def _pickups(self, rows: np.ndarray) -> None:
        """``pizzichi_pickup``: in the deals ``rows``, each face-up asso, 2 or 3 goes into the hand, uncovering the next card.

        (Every top is something else between two plays, so testing every packet is testing the one uncovered.)
        """
        for _ in range(PACKET_SIZE):
            tops = self._tops()
            which = _HONOUR.take(np.where(tops < 0, 40, tops)) & rows[:, None, None]
            if not which.any():
                return
            self._uncover(which)

    def _uncover_played(self, play: np.ndarray, seat: np.ndarray, card: np.ndarray) -> None:
        """After a card play of the packet form: a face-up top played uncovers the next card; the plain play once all are gone."""
        packets = play & (self._phase == PLAY_PACKETS)
        if not packets.any():
            return
        tops = self._tops()
        hit = (tops == card[:, None, None]) & (np.arange(2)[None, :, None] == seat[:, None, None])
        hit &= packets[:, None, None]
        if hit.any():
            self._uncover(hit)
            if self.rules.pizzichi_pickup:
                self._pickups(hit.any(axis=(1, 2)))
        gone = (self._pos >= PACKET_SIZE).all(axis=(1, 2))
        self._phase = np.where(packets & gone, PLAY, self._phase)

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

    def _quiet_result(self) -> InDueStepResult:
        """The result of a step in which no hand ended: zeros and -1."""
        n = self.n
        no = np.zeros(n, dtype=bool)
        none = np.full(n, -1, dtype=np.int8)
        return InDueStepResult(
            np.zeros((n, 2), dtype=np.float32), no, no.copy(), np.zeros((n, 2), dtype=np.int64),
            np.zeros((n, 2), dtype=np.int64), np.zeros((n, 2), dtype=np.int64), none, none.copy(), none.copy(),
            np.zeros((n, 2), dtype=np.int64), none.copy(), np.zeros(n, dtype=np.int64),
        )  # fmt: skip

    def _end_hands(
        self,
        ended: np.ndarray,
        complete: np.ndarray,
        renuncio: np.ndarray,
        called: np.ndarray,
        acting: np.ndarray,
        autoreset: bool,
    ) -> InDueStepResult:
        """Score the hands that ended, close episodes, deal next hands and new episodes."""
        n = self.n
        rules = self.rules
        thirds = self._thirds
        declared = self._declared
        card_points = thirds // 3
        points = np.where(card_points > 0, card_points + declared, 0)  # (2, N)
        accusi = np.where(card_points > 0, declared, 0)
        cappotto = np.full(n, -1, dtype=np.int8)
        zero0 = complete & (points[0] == 0)
        zero1 = complete & (points[1] == 0)
        cappotto[zero1] = 0
        cappotto[zero0] = 1
        points[0] += zero1 * rules.cappotto_bonus
        points[1] += zero0 * rules.cappotto_bonus
        # Renuncio: with "take" the offender scores 0 and the other 11; with "avoid" the offender is charged 11.
        offender = _SEATS == acting
        penalty = offender if rules.objective == "avoid" else ~offender
        points = np.where(renuncio, np.where(penalty, RENUNCIO_POINTS, 0), points)
        accusi = np.where(renuncio, 0, accusi)
        seat_renuncio = np.where(renuncio, acting, -1).astype(np.int8)
        seat_called = np.where(called, acting, -1).astype(np.int8)
        points = points * ended
        accusi = accusi * ended
        card_thirds = thirds * ended
        score = self._match_score + points
        winner = np.full(n, -1, dtype=np.int64)
        if rules.episode == "match":
            top = np.maximum(score[0], score[1])
            decided = (top >= rules.target_score) & (score[0] != score[1])
            best = (score[1] > score[0]).astype(np.int64)
            if rules.objective == "avoid":
                best = 1 - best  # the first to the target loses
            winner = np.where(ended & decided, best, -1)
            # A claim ends the match: won if the claimer's score and this hand's points reach the target.
            claim_true = _pick(score, acting) >= rules.target_score
            winner = np.where(called, np.where(claim_true, acting, 1 - acting), winner)
            terminated = ended & (winner >= 0)
            sign = np.where(winner == 0, 1.0, -1.0) * terminated
        else:
            terminated = ended.copy()
            sign = (points[0] - points[1]).astype(np.float64) * (-1.0 if rules.objective == "avoid" else 1.0)
        rewards = np.stack([sign, -sign], axis=1).astype(np.float32) * terminated[:, None]
        rewards += 0.0  # no -0.0
        self._match_score = np.where(ended, score, self._match_score)
        result = InDueStepResult(
            rewards,
            terminated,
            ended.copy(),
            points.T.copy(),
            card_thirds.T.copy(),
            accusi.T.copy(),
            cappotto,
            seat_renuncio,
            seat_called,
            (score * ended).T.copy(),
            winner.astype(np.int8),
            np.where(ended, self._hand_number, 0),
        )
        # The next hand of an unfinished match, dealt by the other seat.
        go_on = np.flatnonzero(ended & ~terminated)
        if len(go_on):
            self._deal(go_on, 1 - self._dealer[go_on])
            self._hand_number[go_on] += 1
        over = np.flatnonzero(terminated)
        if len(over):
            if autoreset:
                self._deal(over, self._rng.integers(0, 2, len(over)))
                self._match_score[:, over] = 0
                self._hand_number[over] = 0
            else:
                self._playing[over] = False
        return result

    # ------------------------------------------------------------------ reading the state

    @property
    def num_deals(self) -> int:
        """N."""
        return self.n

    @property
    def turn(self) -> np.ndarray:
        """(N,) int64: the seat (= agent) on turn in each deal; -1 in a finished deal."""
        return np.where(self._playing, self._turn, -1)

    def heuristic_actions(self, deals: np.ndarray | Sequence[int] | None = None) -> np.ndarray:
        """``InDueHeuristic``'s action for the seat on turn in ``deals`` (``vector.in_due_heuristic``)."""
        from .in_due_heuristic import heuristic_actions  # it reads this module: imported when first played

        return heuristic_actions(self, deals)

    @property
    def agent(self) -> np.ndarray:
        """(N,) the agent on turn: the seat on turn (``turn``); -1 in a finished deal."""
        return self.turn

    def lead(self, agents: np.ndarray) -> np.ndarray:
        """(N,) float32: ``Game.lead`` of each deal's seat ``agents[i]``: its thirds lead in points (against it when avoiding)."""
        agents = check_agents(agents, self.n, 2)
        own = self._thirds.reshape(-1).take(agents * self.n + self._ar)
        other = self._thirds.reshape(-1).take((1 - agents) * self.n + self._ar)
        lead = (own - other) / 3
        return (-lead if self.rules.objective == "avoid" else lead).astype(np.float32)

    @property
    def playing(self) -> np.ndarray:
        """(N,) bool: a card is being played (False only for finished deals with ``autoreset=False``)."""
        return self._playing.copy()

    @property
    def dealer(self) -> np.ndarray:
        """(N,) the dealer of each deal's current hand (the other seat leads its first trick)."""
        return self._dealer.copy()

    @property
    def leader(self) -> np.ndarray:
        """(N,) the seat that leads (or led) the current trick."""
        return self._leader.copy()

    @property
    def tricks_done(self) -> np.ndarray:
        """(N,) completed tricks of the current hand (0..20)."""
        return self._tricks.copy()

    @property
    def stock_left(self) -> np.ndarray:
        """(N,) cards left in the stock (0 in the packet form)."""
        if self._packet_form:
            return np.zeros(self.n, dtype=np.int64)
        return STOCK_SIZE - 2 * np.minimum(self._tricks, 10)

    @property
    def phase(self) -> np.ndarray:
        """(N,) the scalar game's phase: ``PLAY_STOCK``, ``PLAY`` (0), ``SELECT_PACKETS``, ``TURN_PACKETS``, ``PLAY_PACKETS``."""
        return self._phase.copy()

    def tops(self) -> np.ndarray:
        """(N, 2, 2) the packet form's face-up tops by seat, packet (by bottom card); -1 once gone (all -1 before)."""
        return np.where(self._phase[:, None, None] == PLAY_PACKETS, self._tops(), -1)

    @property
    def thirds(self) -> np.ndarray:
        """(N, 2) thirds each seat has taken this hand."""
        return self._thirds.T.copy()

    @property
    def declared(self) -> np.ndarray:
        """(N, 2) declaration points of each seat this hand (before a hand without a card point voids them)."""
        return self._declared.T.copy()

    @property
    def match_score(self) -> np.ndarray:
        """(N, 2) each seat's points over the finished hands of the episode."""
        return self._match_score.T.copy()

    @property
    def hand_number(self) -> np.ndarray:
        """(N,) 0 for the episode's first hand, then 1, 2, ..."""
        return self._hand_number.copy()

    def hands(self) -> np.ndarray:
        """(N, 2) uint64: the cards each seat holds, as engine card masks (bit c = card c)."""
        return self._hands.T.copy()

    def dealt(self) -> np.ndarray:
        """(N, 2) uint64: the cards each seat was dealt this hand, as engine card masks.

        The stock form: its ten cards. The packet form: the twenty cards of its four packets
        (0 while the non-dealer is picking them).
        """
        return self._dealt.T.copy()

    def deal_of(self, deal: int) -> dict[str, list]:
        """One deal's current hand as dealt: ``{"hands": 2 lists of 10, "stock": 20 card ids}``, or ``{"packets": 8 lists of 5}``.

        The keyword arguments of ``new_game`` (with ``dealer=batch.dealer[deal]``) or ``next_hand``.
        """
        deal = check_deal(deal, self.n)
        if self._packet_form:
            return {"packets": self._deck_packets[deal].tolist()}
        hands = [[c for c in range(40) if int(m) >> c & 1] for m in self._dealt[:, deal]]
        return {"hands": hands, "stock": self._stock[deal].tolist()}
