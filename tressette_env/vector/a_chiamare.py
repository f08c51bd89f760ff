"""Tressette a chiamare for a batch of N deals at once, in NumPy: ``AChiamareBatch``.

The scalar game is ``games.a_chiamare`` (``TressetteAChiamare``); this module plays it for N
deals under one rule set with a fixed number of NumPy calls per method, whatever N is: no
Python loop over the deals. Every phase and every rule switch: the auction (ascending or
first taker), the call of a card (any, or the highest rank missing; one's own with
``allow_self_call``), the card play with the seed's signs (or the four-seat game's, or none),
the secret partner (revealed when the called card is played, or at the call with
``reveal_partner``), void hands when every player passes, the stakes and their cappotto, a
hand or a match (of rounds, or to a target), and renuncio in every phase. The legal masks, the
observations, the results and the rewards are those of the scalar engine and encoder, byte for
byte (``tests/vector/test_a_chiamare_batch.py`` steps a scalar state per deal alongside and
pins them).

| method | what it does |
| --- | --- |
| ``AChiamareBatch(n, seed=None, **rules)`` | N deals under one rule set (the switches of ``AChiamareRules``, an unknown one the same TypeError) |
| ``reset(seed=None, hands=None, dealer=None, deals=None)`` | deal new episodes: shuffled, or chosen deals in the scalar game's form; all deals or some (a bool mask or indices) |
| ``legal_masks()`` / ``legal_masks(bool)`` | (N, 255) int8 (or bool): ``legal_actions_mask`` of the seat on turn in each deal; 0 in a finished deal |
| ``observe(seats=None, deals=None)`` | (M, size) int8: the scalar ``observation(rules)`` of each deal, the seat on turn by default; compiled where numba is installed (``vector._a_chiamare_words``) |
| ``step(actions, active=None, autoreset=True)`` | the seat on turn acts in each (active) deal: a bid, a call or a card; an ``AChiamareStepResult`` |
| ``sample_actions(rng)`` | (N,) a uniformly random legal action in each deal; -1 where none |
| ``heuristic_actions(deals=None)`` | ``AChiamareHeuristic``'s action in each deal, decision for decision (``vector.a_chiamare_heuristic``) |
| ``turn``, ``leader``, ``dealer``, ``first_leader``, ``phase``, ``tricks_done``, ``thirds``, ``match_score``, ``hand_number``, ``playing`` | copies of the state, by deal |
| ``bids``, ``contract``, ``declarer``, ``called``, ``partner`` | the auction and the call, by deal (``partner``: the holder of the called card, secret to the table) |
| ``agent``, ``lead(agents)`` | the player on turn; ``Game.lead`` of each deal's given player (its thirds, in points) |
| ``hands()``, ``dealt()``, ``deal_of(i)`` | the cards as engine masks (bit c = card c); one deal's hand as dealt, for ``new_game``/``next_hand`` |
| ``num_deals`` / ``n``, ``num_agents`` (5), ``num_actions`` (255), ``deal_options``, ``rules``, ``observation`` | the batch's constants |

Inside, a set of cards is a uint64 engine card mask (bit ``c`` is card ``c``); facts about the
seats are (N, 5) arrays, batch axis first (seat = player). Every update is a mask and an
``np.where`` (or an assignment at ``[rows, seat]``) over the whole batch: the only Python
``if``s test ``.any()`` of a mask to skip work nobody needs, or raise. The observation is built
as uint64 *fields* (each a piece, or a row of a piece, of at most 64 entries), shifted into
their places in little-endian words of the scalar layout and unpacked at once: the fields,
their packing, ``legal_masks`` and ``sample_actions`` (from this module's ``_words``), the
step's checks, the dealer's check, the error of ``illegal_action="raise"`` and the plain
accessors are ``vector._family.FamilyBatch``'s, and
the card tables, the follow-suit mask, the signals and the trick play (a card into the trick,
its winner, the thirds taken, the last trick's bonus) ``vector._tricks``'s, shared with the
other family engines; the suspects (who beat or loaded the declarer's card) are this module's.

Decisions:

- Chosen deals take the scalar game's form: ``hands`` (five lists of eight card ids, by seat),
  or M of them; ``dealer`` (a seat, or (M,)). Each chosen deal is checked by the scalar game's
  own check (``Game.check_deal_options``: the same ValueError and message, prefixed with the
  chosen deal's index when M are given): a loop over the chosen deals at reset only. Every
  check is made before anything changes, the generator included. ``deal_of(i)`` gives back
  ``{"hands"}`` of a deal's current hand as dealt.
- The dealer of a shuffled first hand is drawn at random; the next hand of a match is dealt
  inside the step that ended the one before (as the AEC environment does), by the next player.
- Rewards (``AChiamareStepResult.rewards``, (N, 5) by player) are the AEC environment's, that
  is ``TressetteAChiamare.returns`` when the episode ends and 0 before: the hand's stakes in
  ``episode="hand"``, each player's match total in ``episode="match"``.
- The results by side (``hand_points``, ``card_thirds``, ``cappotto``) are the scalar
  ``HandScore``'s: (the declarer's side, the others) of a played hand; 0 for a void hand or a
  renuncio. ``stakes``, ``match_score`` and ``winner`` are by player.
- ``autoreset=True`` (default): a deal whose episode ended is dealt a new episode in the same
  step (the result describes the ended one). ``autoreset=False``: it stays finished (``turn``
  -1, an all-zero mask, the scalar engine's final observation, for which ``seats`` must be
  named) until ``reset(deals=...)``; stepping it raises ValueError.
- Illegal actions follow ``illegal_action``: ``"renuncio"`` ends the hand as the scalar game
  does, in every phase (before a card is called the offender pays each other player 2; in the
  play his side loses as on cappotto); ``"raise"`` raises ``IllegalActionError`` naming the
  first offending deals and changes nothing. An action that is not an integer, or outside
  0..254 (-1 is allowed in a deal that does not play), always raises ValueError.
- For the heuristic the batch keeps, as it steps, the seats that loaded points onto a trick
  the declarer was winning and those that beat his card (``AChiamareHeuristic``'s suspects,
  which the scalar player reads from the hand's history).
- ``decisions_per_hand`` is None: the auction gives the seats different numbers of decisions.
  Nothing is refused: every rule set of ``AChiamareRules`` plays.

Example:
    >>> import numpy as np
    >>> batch = AChiamareBatch(3, seed=0, auction="first_taker")
    >>> rng = np.random.default_rng(0)
    >>> ended = np.zeros(3, dtype=bool)
    >>> for _ in range(60):  # at most 5 bids, a call and 40 card plays a hand
    ...     ended |= batch.step(batch.sample_actions(rng)).terminated
    >>> bool(ended.all())
    True
    >>> batch.observe().shape, batch.legal_masks().shape
    ((3, 985), (3, 255))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..encoders.a_chiamare import observation as a_chiamare_observation
from ..engine.actions import CALL, CHIAMO, FAMILY_NUM_ACTIONS, PASS, SOLO
from ..engine.state import PLAY
from ..envs.playing import check_flag
from ..games.a_chiamare import A_CHIAMARE, AUCTION, CALL_PHASE, HAND, PLAYERS, AChiamareRules
from ..games.auction import HAND_THIRDS, WIN_THIRDS, signs
from ..messages import shown
from ._family import (
    BIT,
    BIT_FROM_1,
    THERMO,
    FamilyBatch,
    SeatTables,
    check_seats,
    compiled_kernel,
    deal_indices,
    depth,
    distinct_deals,
    key_order,
    max_columns,
    or_columns,
    rows_reader,
    unpack_little,
)
from ._tricks import CARD_BIT as _CARD_BIT
from ._tricks import FULL as _FULL
from ._tricks import LED_STRENGTH as _LED_STRENGTH
from ._tricks import PLAY_CARD as _PLAY_CARD
from ._tricks import RANKS as _RANKS
from ._tricks import STRENGTH as _STRENGTH
from ._tricks import THIRDS as _THIRDS
from ._tricks import card_bits as _bits
from ._tricks import close_tricks, flat_view, play_cards, playable, signal_words
from .engine import SeedLike, _as_generator

U64 = np.uint64
_ZERO = U64(0)
_ONE = U64(1)
NUM_ACTIONS = FAMILY_NUM_ACTIONS  # 255
P = PLAYERS
_BID_INDEX = np.zeros(NUM_ACTIONS + 1, dtype=np.int64)
_BID_INDEX[[PASS, CHIAMO, SOLO]] = [0, 1, 2]
"""A bid's entry in the observation's ``bids`` row (pass, chiamo, sola)."""
_BID_BITS = np.where(
    np.isin(np.arange(256), [PASS, CHIAMO, SOLO])[None, :],
    BIT.take(3 * np.arange(P)[:, None] + _BID_INDEX[:256][None, :]),
    _ZERO,
).reshape(-1)
"""The observation's ``bids`` field by ``k * 256 + bid``: the bit of relative seat k's bid (3 a seat), 0 for none."""
_BID_ROWS = np.arange(P, dtype=np.int64)[None, :] * 256
_CONTRACT_BIT = np.zeros(256, dtype=U64)
_CONTRACT_BIT[[CHIAMO, SOLO]] = [1, 2]
"""The observation's ``contract`` field by the action id of the contract won (chiamo, sola); 0 for none."""


class AChiamareStepResult(NamedTuple):
    """What one ``AChiamareBatch.step`` did, deal by deal (arrays with the batch axis first).

    The fields about the hand that ended (``hand_points`` to ``stakes``) are meaningful where
    ``hand_over`` is True and 0 / -1 elsewhere. By side: (the declarer's side, the others).
    """

    rewards: np.ndarray
    """(N, 5) float32 by player: the AEC environment's rewards (``Game.returns``, nonzero only when an episode ends)."""
    terminated: np.ndarray
    """(N,) bool: the episode ended in this step (then, with autoreset, a new one was dealt)."""
    hand_over: np.ndarray
    """(N,) bool: a hand ended in this step (the same as ``terminated`` in ``episode="hand"``)."""
    hand_points: np.ndarray
    """(N, 2) int64 by side: ``HandScore.points`` (whole points of the declarer's side and of the others; 0 for a void hand or a renuncio)."""
    card_thirds: np.ndarray
    """(N, 2) int64 by side: ``HandScore.card_thirds`` (the last trick's 3 included)."""
    cappotto: np.ndarray
    """(N,) int8: the side that made a cappotto (0 the declarer's, 1 the others), or -1."""
    renuncio: np.ndarray
    """(N,) int8: the seat whose illegal action ended the hand, or -1."""
    match_score: np.ndarray
    """(N, 5) int64 by player: the match score after the hand (the hand's stakes in ``episode="hand"``)."""
    winner: np.ndarray
    """(N,) int8: the player with the match's highest total when a match ended (-1 on a tie; always -1 in ``episode="hand"``)."""
    hand_number: np.ndarray
    """(N,) int64: the number of the hand that ended (0 for an episode's first)."""
    stakes: np.ndarray
    """(N, 5) int64 by player: the hand's stakes (``AChiamarePublic.stakes``, zero-sum)."""


def _has(masks: np.ndarray, card: np.ndarray) -> np.ndarray:
    """Whether each mask holds the card (``card`` broadcast against ``masks``; -1: no card -> False)."""
    return (masks & _bits(card)) != _ZERO


class AChiamareBatch(FamilyBatch):
    """N deals of Tressette a chiamare stepped together under one rule set.

    Args:
        num_deals: N, the batch size.
        seed: an int, a ``numpy.random.Generator`` (used as it is) or None; draws the dealers
            and the shuffles of every deal, now and at every reset.
        **rules: rule switches, as for ``AChiamareRules`` (an unknown one is the same TypeError).

    Raises:
        ValueError: a bad ``num_deals``, or a rule set the rules refuse.
    """

    num_actions = NUM_ACTIONS
    num_agents = P
    deal_options = ("hands", "dealer")
    """The keys of a chosen deal (``reset``'s keywords, the scalar game's ``deal_options``)."""
    players_drop_out = False
    """Nobody leaves the table during an episode."""
    decisions_per_hand = None
    """The seats' decisions in a hand differ (the auction, the call): ``SeatRows`` counts none."""

    def __init__(self, num_deals: int, *, seed: SeedLike = None, **rules: Any):
        if isinstance(num_deals, bool) or not isinstance(num_deals, (int, np.integer)) or num_deals < 1:
            raise ValueError(f"num_deals must be an int >= 1; got {shown(num_deals)}")
        self.rules: AChiamareRules = AChiamareRules.make(**rules)
        r = self.rules
        self.observation = a_chiamare_observation(r)
        """The scalar observation whose bytes ``observe`` gives."""
        self._match = r.episode == "match"
        self._first_taker = r.auction == "first_taker"
        seats, self._signals_from, kinds = signs(r.signals, P)
        self._signs = bool(seats)
        self._volo = bool(kinds & 0b100)
        self._m_chiamo, self._m_sola = r.multiplier("chiamo"), r.multiplier("sola")
        self._build_fields(() if self._match else ("to_target",))  # the pieces these rules never fill
        self._seat = SeatTables.of(P)
        n = self.n = int(num_deals)
        self._ar = np.arange(n, dtype=np.int64)
        self._rng = _as_generator(seed)
        self._hands = np.zeros((n, P), dtype=U64)
        self._dealt = np.zeros((n, P), dtype=U64)
        self._played = np.zeros((n, P), dtype=U64)
        self._voids = np.zeros((n, P), dtype=U64)  # 4 bits by suit
        self._signals = np.zeros((n, P), dtype=U64)  # 12 bits: suit x (busso, striscio, volo)
        self._thirds = np.zeros((n, P), dtype=np.int64)  # by seat
        self._won = np.zeros((n, P), dtype=np.int64)  # tricks taken, by seat
        self._trick = np.full((n, P), -1, dtype=np.int64)  # by seat: its card on the table, -1 none
        self._count = np.zeros(n, dtype=np.int64)  # cards on the table
        self._led = np.full(n, -1, dtype=np.int64)  # the led suit, -1 while nobody has led
        self._leader = np.zeros(n, dtype=np.int64)
        self._first = np.zeros(n, dtype=np.int64)
        self._turn = np.zeros(n, dtype=np.int64)  # the seat to act (kept in a finished deal too)
        self._tricks = np.zeros(n, dtype=np.int64)
        self._dealer = np.zeros(n, dtype=np.int64)
        self._phase = np.full(n, AUCTION, dtype=np.int64)
        self._bids = np.zeros((n, P), dtype=np.int64)  # 0: not spoken yet; PASS, CHIAMO or SOLO
        self._contract = np.zeros(n, dtype=np.int64)
        self._declarer = np.full(n, -1, dtype=np.int64)
        self._called = np.full(n, -1, dtype=np.int64)
        self._partner = np.full(n, -1, dtype=np.int64)  # the holder of the called card (the caller on a self-call)
        # For the heuristic's suspects (``a_chiamare_heuristic._suspects``), 5 bits by seat: the seats that loaded
        # points onto a trick the declarer was winning, and those that beat his card (the declarer left out).
        self._loaders = np.zeros(n, dtype=np.int64)
        self._beaters = np.zeros(n, dtype=np.int64)
        self._hand_number = np.zeros(n, dtype=np.int64)
        self._match_score = np.zeros((n, P), dtype=np.int64)
        self._playing = np.ones(n, dtype=bool)
        self.reset()

    # ------------------------------------------------------------------ dealing

    def reset(
        self,
        seed: SeedLike = None,
        *,
        hands: Sequence | np.ndarray | None = None,
        dealer: int | Sequence[int] | np.ndarray | None = None,
        deals: np.ndarray | Sequence[int] | None = None,
    ) -> None:
        """Deal new episodes (match score 0, hand 0).

        Args:
            seed: reseed the batch's generator (an int or a ``Generator``); None keeps it.
            hands: chosen hands: five lists of eight card ids, by seat (the same everywhere),
                or M of them (one per deal reset).
            dealer: the dealer, an int or (M,) seats; drawn at random when None.
            deals: which deals to reset: a bool mask (N,) or indices (M,); all when None.

        Raises:
            ValueError: a bad argument (nothing changes, the generator included), with the
                scalar game's message for a chosen deal.
        """
        self._state_changes()  # the legal words are computed anew
        idx = distinct_deals(deal_indices(deals, self.n, self._ar))
        m = len(idx)
        dealers = None if dealer is None else self._check_dealers(dealer, m)
        chosen = None if hands is None else self._check_hands(hands, m)
        if seed is not None:
            self._rng = _as_generator(seed)
        if m == 0:
            return
        if dealers is None:
            dealers = self._rng.integers(0, P, m)
        self._match_score[idx] = 0
        self._hand_number[idx] = 0
        self._deal(idx, dealers, chosen)

    def _check_hands(self, hands: Any, m: int) -> np.ndarray:
        """(M, 5) hand masks of the chosen deals, by the scalar game's check."""
        if isinstance(hands, np.ndarray):
            hands = hands.tolist()
        several = depth(hands) == 3
        if several and len(hands) != m:
            raise ValueError(f"{len(hands)} chosen hands for {m} deals to reset")
        out = np.zeros((m, P), dtype=U64)
        for j in range(len(hands) if several else 1):
            try:
                checked = A_CHIAMARE.check_deal_options(self.rules, {"hands": hands[j] if several else hands})
            except ValueError as error:
                raise ValueError(f"chosen deal {j}: {error}" if several else str(error)) from None
            if several:
                out[j] = np.array(checked["hands"], dtype=U64)
            else:
                out[:] = np.array(checked["hands"], dtype=U64)
        return out

    def _deal(self, idx: np.ndarray, dealers: np.ndarray, hands: np.ndarray | None = None) -> None:
        """Deal a hand to the deals ``idx`` with these dealers: the auction opens with the forehand."""
        m = len(idx)
        if hands is None:
            deck = key_order(self._rng.random((m, 40)))
            bits = _CARD_BIT.take(deck).reshape(m, P, HAND)
            hands = np.bitwise_or.reduce(bits, axis=2)
        forehand = (dealers + 1) % P
        self._hands[idx] = hands
        self._dealt[idx] = hands
        for a in (self._played, self._voids, self._signals, self._thirds, self._won, self._bids):
            a[idx] = 0
        self._trick[idx] = -1
        self._count[idx] = 0
        self._led[idx] = -1
        self._tricks[idx] = 0
        self._dealer[idx] = dealers
        self._first[idx] = forehand
        self._leader[idx] = forehand
        self._turn[idx] = forehand
        self._phase[idx] = AUCTION
        self._contract[idx] = 0
        self._declarer[idx] = -1
        self._called[idx] = -1
        self._partner[idx] = -1
        self._loaders[idx] = 0
        self._beaters[idx] = 0
        self._playing[idx] = True

    # ------------------------------------------------------------------ masks

    def _callable(self, hand: np.ndarray) -> np.ndarray:
        """The cards a caller holding ``hand`` may name (``call_rule``, ``allow_self_call``)."""
        lacking = _FULL & ~hand
        if self.rules.call_rule == "any":
            cards = lacking
        else:
            cards = np.zeros(len(hand), dtype=U64)
            for rank in _RANKS:  # the strongest rank of which a card is lacking
                cards = np.where(cards == _ZERO, lacking & rank, cards)
        if self.rules.allow_self_call:
            cards = cards | hand
        return cards

    def _words(self, rows: np.ndarray | None = None) -> np.ndarray:
        """(N, 4) uint64 (of ``rows`` only, when given): the legal actions of the seat on turn as 256 bits (bit a: action a)."""
        at = rows_reader(rows)
        turn = at(self._turn)
        hand = self._hands.reshape(-1).take((self._ar if rows is None else rows) * self._hands.shape[1] + turn)
        phase = np.where(at(self._playing), at(self._phase), -1)
        led = at(self._led)
        play = phase == PLAY
        words = np.zeros((len(turn), 4), dtype=U64)
        words[:, 0] = np.where(play, playable(hand, led), _ZERO)
        if self._signs:  # the leader may signal, truthfully: busso and striscio keep the suit, volo is the last card
            lead = play & (led < 0) & (at(self._tricks) >= self._signals_from)
            signal_words(words, hand, lead, volo=self._volo)
        calling = phase == CALL_PHASE
        if calling.any():
            cards = np.where(calling, self._callable(hand), _ZERO)
            words[:, 2] |= cards << U64(CALL - 128)
            words[:, 3] |= cards >> U64(192 - CALL)
        bidding = phase == AUCTION
        standing = max_columns(at(self._bids))
        bids = (
            (_ONE << U64(PASS - 192))
            | np.where(standing < CHIAMO, _ONE << U64(CHIAMO - 192), _ZERO)
            | np.where(standing < SOLO, _ONE << U64(SOLO - 192), _ZERO)
        )
        words[:, 3] |= np.where(bidding, bids, _ZERO)
        return words

    # ------------------------------------------------------------------ observations

    def observe(self, seats: int | np.ndarray | None = None, deals: np.ndarray | None = None) -> np.ndarray:
        """(M, size) int8 observations: the bytes of the scalar ``observation(rules).encode(view(state, seat))``.

        Args:
            seats: the observing seat: None for the seat on turn, an int for the same seat
                everywhere, or an array with one seat per observed deal.
            deals: which deals (indices or a bool mask); all when None.

        Raises:
            ValueError: a seat outside 0..4, or ``seats=None`` for a finished deal (no seat on turn).
        """
        rows = deal_indices(deals, self.n, self._ar)
        m = len(rows)
        playing = self._playing.take(rows)
        if seats is None:
            if not playing.all():
                raise ValueError("a finished deal has no seat on turn: name the observing seats")
            me = self._turn.take(rows)
        else:
            me = check_seats(seats, m, P)
        compiled = compiled_kernel("_a_chiamare_words")
        if compiled is not None:
            return unpack_little(compiled.packed(self, rows, me), self.observation.size).view(np.int8)
        fields = self._fields
        f = np.zeros((len(fields), m), dtype="<u8")  # by field: each a contiguous row (``_pack``)
        seats_of = self._seat
        at = rows[:, None] * P + self._seat.rel.take(me, axis=0)  # (M, 5): the observer's relative seats, flat
        mine = rows * P + me

        def by_seat(x: np.ndarray) -> np.ndarray:  # (N, 5) -> (M, 5), the observer's seat first
            return x.reshape(-1).take(at)

        f[fields[("hand", None, 0)]] = self._hands.reshape(-1).take(mine)
        f[self._rows_of("trick", P)] = _bits(by_seat(self._trick)).T
        f[fields[("leader", None, 0)]] = seats_of.rel_bits(self._leader.take(rows), me)
        played = by_seat(self._played)
        f[self._rows_of("played", P)] = played.T
        if self._signs:
            f[fields[("signals", None, 0)]] = or_columns(by_seat(self._signals), 12)
        f[fields[("voids", None, 0)]] = or_columns(by_seat(self._voids), 4)
        f[fields[("trick_number", None, 0)]] = BIT.take(self._tricks.take(rows))
        if not playing.all():  # a finished deal: no leader and no trick number
            f[fields[("leader", None, 0)], ~playing] = 0
            f[fields[("trick_number", None, 0)], ~playing] = 0
        f[self._rows_of("thirds", P)] = THERMO.take(by_seat(self._thirds)).T
        if self._match:
            need = np.clip(self.rules.target_score - by_seat(self._match_score), 0, 41)
            f[self._rows_of("to_target", P)] = THERMO.take(need).T
        # The auction and the call.
        f[fields[("phase", None, 0)]] = BIT_FROM_1.take(self._phase.take(rows))  # AUCTION = 1, CALL_PHASE; 0: the play
        f[fields[("bids", None, 0)]] = or_columns(_BID_BITS.take(by_seat(self._bids) + _BID_ROWS))
        contract = self._contract.take(rows)
        f[fields[("contract", None, 0)]] = _CONTRACT_BIT.take(contract)
        declarer = self._declarer.take(rows)
        f[fields[("declarer", None, 0)]] = seats_of.rel_bits(declarer, me)
        called = self._called.take(rows)
        f[fields[("called", None, 0)]] = _bits(called)
        chiamo = contract == CHIAMO
        dealt = self._dealt.reshape(-1).take(mine)
        holds = (called >= 0) & _has(dealt, called)  # held at the call: in hand or played since
        role = np.where(
            declarer < 0,
            0,
            np.where(me == declarer, 1, np.where(chiamo & (called < 0), 0, np.where(chiamo & holds, 2, 4))),
        )
        f[fields[("role", None, 0)]] = role
        partner = self._partner.take(rows)
        known = self._revealed(rows, partner, called)
        partner_bits = np.where(known, seats_of.rel_bits(partner, me), _ZERO)
        partner_bits = np.where((me != declarer) & holds, _ONE, partner_bits)
        f[fields[("partner", None, 0)]] = np.where(chiamo & (called >= 0), partner_bits, _ZERO)
        return self._pack(f)

    def _revealed(self, rows: np.ndarray, partner: np.ndarray, called: np.ndarray) -> np.ndarray:
        """The table knows the partner: announced at the call (``reveal_partner``), or the called card played."""
        if self.rules.reveal_partner:
            return called >= 0
        return (called >= 0) & _has(self._played[rows, np.maximum(partner, 0)], called)

    # ------------------------------------------------------------------ stepping

    def step(
        self, actions: np.ndarray | Sequence[int], *, active: np.ndarray | None = None, autoreset: bool = True
    ) -> AChiamareStepResult:
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
        n = self.n
        ar = self._ar
        active, a, ok, bad = self._judge(actions, active)
        good = active & ok
        seat = self._turn.copy()
        phase = self._phase.copy()
        start = np.zeros(n, dtype=bool)  # the card play begins
        void = np.zeros(n, dtype=bool)  # every player passed

        # The auction and the call, each on the rows of the deals in it (a few of a large batch).
        # --- the auction: one speaking turn each, from the forehand
        r = np.flatnonzero(good & (phase == AUCTION))
        if len(r):
            bids = self._bids[r]
            bids[np.arange(len(r)), seat[r]] = a[r]
            self._bids[r] = bids
            best = max_columns(bids)
            over = bids[:, 0] != 0
            for k in range(1, P):
                over &= bids[:, k] != 0
            if self._first_taker:
                over |= best > PASS
            self._turn[r] = np.where(over, seat[r], (seat[r] + 1) % P)
            void[r] = over & (best == PASS)
            taken = over & (best > PASS)
            declarer = bids.argmax(axis=1)
            self._contract[r[taken]] = best[taken]
            self._declarer[r[taken]] = declarer[taken]
            to_call = taken & (best == CHIAMO)
            self._phase[r[to_call]] = CALL_PHASE
            self._turn[r[to_call]] = declarer[to_call]
            start[r[taken & (best == SOLO)]] = True

        # --- the call: its holder becomes the caller's (secret) partner
        r = np.flatnonzero(good & (phase == CALL_PHASE))
        if len(r):
            card = a[r] - CALL
            self._called[r] = card
            self._partner[r] = _has(self._dealt[r], card[:, None]).argmax(axis=1)
            start[r] = True
        if start.any():
            r = np.flatnonzero(start)
            rule = self.rules.first_lead
            forehand = (self._dealer[r] + 1) % P
            if rule == "forehand":
                first = forehand
            elif rule == "declarer":
                first = self._declarer[r]
            else:
                first = np.where(self._contract[r] == CHIAMO, forehand, self._declarer[r])
            self._phase[r] = PLAY
            self._first[r] = first
            self._leader[r] = first
            self._turn[r] = first

        # --- the card play
        play = good & (phase == PLAY)
        hand_complete = np.zeros(n, dtype=bool)
        if play.any():
            card = _PLAY_CARD.take(a)
            bit = np.where(play, _CARD_BIT.take(card), _ZERO)
            flat_view(self._hands)[ar * P + seat] ^= bit  # by flat index, as play_cards writes the trick
            led = self._led
            suit = card // 10
            # The suspects: a card on a trick the declarer was winning (before it) beats his card, or loads points.
            trick = self._trick  # (N, P) card ids, -1 none (the tables' last entry)
            on_table = _LED_STRENGTH.take((led * 41 + 42)[:, None] + trick)  # led-suit strengths, -1 off it
            top = max_columns(on_table)  # a led trick's strongest card: one seat holds it
            declarer = self._declarer
            winning = on_table.reshape(-1).take(ar * P + np.maximum(declarer, 0)) == top
            his = play & (led >= 0) & (declarer >= 0) & winning & (seat != declarer)
            beats = his & (suit == led) & (_STRENGTH.take(card) > top)
            loads = his & ~beats & (_THIRDS.take(card) > 0)
            self._beaters |= np.where(beats, 1 << seat, 0)
            self._loaders |= np.where(loads, 1 << seat, 0)
            complete = play_cards(self, play, seat, a, card, bit, P, self._signs)
            if complete.any():
                done, winner, taken, last, _ = close_tricks(self, complete, HAND)
                at = done * P + winner  # the (deal, seat) that took each trick
                flat_view(self._thirds)[at] += taken
                flat_view(self._won)[at] += 1
                hand_complete[done[last]] = True
        ended = hand_complete | bad | void
        if not ended.any():
            return self._quiet_result()
        return self._end_hands(ended, bad, seat, autoreset)

    def _quiet_result(self) -> AChiamareStepResult:
        """The result of a step in which no hand ended: zeros and -1."""
        n = self.n
        no = np.zeros(n, dtype=bool)
        none = np.full(n, -1, dtype=np.int8)
        return AChiamareStepResult(
            np.zeros((n, P), dtype=np.float32), no, no.copy(), np.zeros((n, 2), dtype=np.int64),
            np.zeros((n, 2), dtype=np.int64), none, none.copy(), np.zeros((n, P), dtype=np.int64), none.copy(),
            np.zeros(n, dtype=np.int64), np.zeros((n, P), dtype=np.int64),
        )  # fmt: skip

    def _stakes(self, team: np.ndarray, won: np.ndarray, cappotto: np.ndarray, declarer: np.ndarray) -> np.ndarray:
        """(M, 5) ``TressetteAChiamare._stakes``: each opponent pays ``m * c``; a caller takes 2 of 3 units, his partner 1."""
        alone = team.sum(axis=1) == 1  # a sola, or a call of one's own card (scored as a sola)
        unit = np.where(alone, self._m_sola, self._m_chiamo) * np.where(cappotto, 2, 1) * np.where(won, 1, -1)
        unit = unit[:, None]
        is_declarer = np.arange(P)[None, :] == declarer[:, None]
        share = np.where(alone[:, None], (P - 1) * unit, np.where(is_declarer, 2 * unit, unit))
        return np.where(team, share, -unit)

    def _end_hands(
        self, ended: np.ndarray, renuncio: np.ndarray, acting: np.ndarray, autoreset: bool
    ) -> AChiamareStepResult:
        """Score the hands that ended (computed on their deals only), close episodes, deal next hands and new episodes."""
        rules = self.rules
        e = np.flatnonzero(ended)
        m = len(e)
        seat = np.arange(P)[None, :]
        declarer = self._declarer[e]
        team = (seat == declarer[:, None]) | (seat == self._partner[e][:, None])
        team &= (declarer >= 0)[:, None]
        ours = (self._thirds[e] * team).sum(axis=1)
        theirs = HAND_THIRDS - ours
        won = ours >= WIN_THIRDS
        our_tricks = (self._won[e] * team).sum(axis=1)
        loser_thirds = np.where(won, theirs, ours)
        loser_tricks = np.where(won, HAND - our_tricks, our_tricks)
        if rules.cappotto_rule == "zero_points":
            cappotto = loser_thirds < 3
        elif rules.cappotto_rule == "zero_thirds":
            cappotto = loser_thirds == 0
        else:
            cappotto = loser_tricks == 0
        bad, actor = renuncio[e], acting[e]
        played = ~bad & (declarer >= 0) & (self._phase[e] == PLAY)
        stakes = np.where(played[:, None], self._stakes(team, won, cappotto, declarer), 0)
        if bad.any():  # renuncio: before any card is called the offender pays each other 2; in the play his side
            early = (self._called[e] < 0) & (self._contract[e] != SOLO)  # loses as on cappotto
            offender = seat == actor[:, None]
            penalty = self._stakes(team, ~team[np.arange(m), actor], np.ones(m, dtype=bool), declarer)
            early_stakes = np.where(offender, -2 * (P - 1), 2)
            stakes = np.where(bad[:, None], np.where(early[:, None], early_stakes, penalty), stakes)
        score = self._match_score[e] + stakes
        winner = np.full(m, -1, dtype=np.int64)
        if self._match:
            best = score.max(axis=1)
            unique = (score == best[:, None]).sum(axis=1) == 1
            if rules.match_end == "rounds":
                over = self._hand_number[e] + 1 >= rules.rounds * P
            else:
                over = (best >= rules.target_score) & unique
            terminated = over
            winner = np.where(terminated & unique, score.argmax(axis=1), -1)
            rewards = score.astype(np.float64)
        else:
            terminated = np.ones(m, dtype=bool)
            rewards = stakes.astype(np.float64)
        self._match_score[e] = score
        result = self._quiet_result()  # the deals whose hand went on keep its zeros and -1
        result.rewards[e] = (rewards * terminated[:, None]).astype(np.float32) + np.float32(0.0)  # no -0.0
        result.terminated[e] = terminated
        result.hand_over[e] = True
        result.hand_points[e] = np.where(played[:, None], np.stack([ours // 3, theirs // 3], axis=1), 0)
        result.card_thirds[e] = np.where(played[:, None], np.stack([ours, theirs], axis=1), 0)
        result.cappotto[e] = np.where(played & cappotto, np.where(won, 0, 1), -1)
        result.renuncio[e] = np.where(bad, actor, -1)
        result.match_score[e] = score
        result.winner[e] = winner
        result.hand_number[e] = self._hand_number[e]
        result.stakes[e] = stakes
        go_on = e[~terminated]
        over_idx = e[terminated]
        if len(go_on):  # the next hand of an unfinished match, dealt by the next player
            self._hand_number[go_on] += 1
            self._deal(go_on, (self._dealer[go_on] + 1) % P)
        if len(over_idx):
            if autoreset:
                self._match_score[over_idx] = 0
                self._hand_number[over_idx] = 0
                self._deal(over_idx, self._rng.integers(0, P, len(over_idx)))
            else:
                self._playing[over_idx] = False
        return result

    # ------------------------------------------------------------------ reading the state

    @property
    def agent(self) -> np.ndarray:
        """(N,) int64: the player on turn in each deal (its seat); -1 in a finished deal."""
        return self.turn

    def lead(self, agents: np.ndarray) -> np.ndarray:
        """(N,) float32: ``Game.lead`` of each deal's player ``agents[i]``: the thirds it has taken this hand, in points."""
        a = self._agents_arg(agents)
        return (self._thirds[self._ar, a] / 3).astype(np.float32)

    @property
    def first_leader(self) -> np.ndarray:
        """(N,) the seat that leads (or led) the hand's first trick (the forehand during the auction and the call)."""
        return self._first.copy()

    @property
    def leader(self) -> np.ndarray:
        """(N,) the seat that leads (or led) the current trick (the forehand during the auction and the call)."""
        return self._leader.copy()

    @property
    def phase(self) -> np.ndarray:
        """(N,) the scalar game's phase: ``AUCTION`` (1), ``CALL_PHASE`` (2) or ``PLAY`` (0)."""
        return self._phase.copy()

    @property
    def thirds(self) -> np.ndarray:
        """(N, 5) thirds each seat has taken this hand (``PublicState.thirds``)."""
        return self._thirds.copy()

    @property
    def match_score(self) -> np.ndarray:
        """(N, 5) each player's stakes over the finished hands of the episode."""
        return self._match_score.copy()

    @property
    def bids(self) -> np.ndarray:
        """(N, 5) each seat's bid (``PASS``, ``CHIAMO``, ``SOLO``; 0 not spoken yet)."""
        return self._bids.copy()

    @property
    def contract(self) -> np.ndarray:
        """(N,) ``CHIAMO`` or ``SOLO`` once the auction is won, 0 before or when every player passed."""
        return self._contract.copy()

    @property
    def declarer(self) -> np.ndarray:
        """(N,) the caller's or the soloist's seat, -1 before."""
        return self._declarer.copy()

    @property
    def called(self) -> np.ndarray:
        """(N,) the called card, -1 before the call."""
        return self._called.copy()

    @property
    def partner(self) -> np.ndarray:
        """(N,) ``partner_of``: the holder of the called card (the caller after a self-call); -1 after a sola or before the call."""
        return self._partner.copy()

    def heuristic_actions(self, deals: np.ndarray | Sequence[int] | None = None) -> np.ndarray:
        """``AChiamareHeuristic``'s action for the seat on turn in ``deals`` (``vector.a_chiamare_heuristic``)."""
        from .a_chiamare_heuristic import heuristic_actions  # it reads this module: imported when first played

        return heuristic_actions(self, deals)

    def hands(self) -> np.ndarray:
        """(N, 5) uint64: the cards each seat holds, as engine card masks (bit c = card c)."""
        return self._hands.copy()

    def dealt(self) -> np.ndarray:
        """(N, 5) uint64: the cards each seat was dealt this hand."""
        return self._dealt.copy()

    def deal_of(self, deal: int) -> dict[str, list]:
        """One deal's current hand as dealt: ``{"hands": one list per player}``.

        The keyword arguments of ``new_game`` (with ``dealer=batch.dealer[deal]``) or ``next_hand``.
        """
        deal = self._deal_arg(deal)
        return {"hands": [[c for c in range(40) if int(m) >> c & 1] for m in self._dealt[deal]]}
