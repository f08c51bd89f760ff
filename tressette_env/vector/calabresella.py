"""Calabresella for a batch of N deals at once, in NumPy: ``CalabresellaBatch``.

The scalar game is ``games.calabresella`` (``Calabresella``); this module plays it for N deals
under one rule set with a fixed number of NumPy calls per method, whatever N is: no Python
loop over the deals. Every rule switch: three players, or four (all dealt in, or the dealer
sitting out); the auction (ascending or first taker), the call of a card (any card, or the
highest rank missing), the monte (turned up or not), the full or partial exchange, solo,
solissimo (with or without a peek at the monte), dividete and scegliete, the second deal
after all passed, the card play with its signs, the stake or the difference of the thirds,
every cappotto rule, the multipliers, the first lead, a hand or a match. The legal masks, the
observations (what each seat knows of the monte, of the discards, of the cards swapped with
the monte and of the cards handed over face up included), the results and the rewards are
those of the scalar engine and encoder, byte for byte (``tests/vector/test_calabresella_batch.py``
steps a scalar state per deal alongside and pins them). No switch is refused.

| method | what it does |
| --- | --- |
| ``CalabresellaBatch(n, seed=None, **rules)`` | N deals under one rule set (the switches of ``CalabresellaRules``: an unknown one, or a combination the rules refuse, the same error) |
| ``reset(seed=None, hands=None, monte=None, dealer=None, deals=None)`` | deal new episodes: shuffled, or chosen deals in the scalar game's form; all deals or some (a bool mask or indices) |
| ``legal_masks()`` / ``legal_masks(bool)`` | (N, 255) int8 (or bool): ``legal_actions_mask`` of the seat on turn in each deal; 0 in a finished deal |
| ``observe(seats=None, deals=None)`` | (M, size) int8: the scalar ``observation(rules)`` of each deal's given player (``seats`` are players), the player on turn by default; zeros for a dealer who sits out; compiled where numba is installed (``vector._calabresella_words``) |
| ``step(actions, active=None, autoreset=True)`` | the seat on turn acts in each (active) deal; a ``CalabresellaStepResult`` |
| ``sample_actions(rng)`` | (N,) a uniformly random legal action in each deal; -1 where none |
| ``heuristic_actions(deals=None)`` | ``CalabresellaHeuristic``'s action in each deal, decision for decision (``vector.calabresella_heuristic``); -1 in a finished deal |
| ``turn``, ``agent``, ``dealer``, ``dealer_seat``, ``leader``, ``first_leader``, ``phase``, ``tricks_done``, ``thirds``, ``match_score``, ``hand_number``, ``playing`` | copies of the state, by deal (``turn``: a seat; ``agent``, ``dealer``: players) |
| ``contract``, ``soloist``, ``bids``, ``solo_only`` | the auction: the contract won (a bid action id, 0 none), the soloist's seat (-1), each seat's bid, the hands dealt again |
| ``players_in()``, ``lead(agents)`` | the player at each seat (``Table.controllers``); ``Game.lead`` of each deal's given player (0 before the card play, and for one who sits out) |
| ``hands()``, ``face_down()``, ``redeal()``, ``deal_of(i)`` | the cards as engine masks (bit c = card c): held by seat, face down, the second deal; one deal's hand as dealt, for ``new_game``/``next_hand`` |
| ``num_deals`` / ``n``, ``num_agents`` (players), ``num_actions`` (255), ``deal_options``, ``rules``, ``observation`` | the batch's constants |

Inside, a set of cards is a uint64 engine card mask (bit ``c`` is card ``c``); facts about the
seats are (N, S) arrays (S seats: 3, or 4 with ``four_player="all_play"``; a seat's player in
``players_in()``: itself, but with the dealer sitting out, where seat 0 is the forehand and
seat 2 the player before the dealer), the two sides' thirds (N, 2) (side 0: the soloist's, the
forehand's before the auction ends); the stakes and match scores by player (N, P). Every
update is a mask and an ``np.where`` (or an assignment at ``[rows, seat]``); the observation is
built as uint64 fields shifted into the scalar layout's words and unpacked at once
(``_family.FamilyBatch``'s ``_build_fields`` and ``_pack``, shared with the family's other
engines, as are ``legal_masks`` and ``sample_actions`` from this module's ``_words``, the
step's checks, the dealers' check, the shuffle, the illegal-action error and the plain
accessors). The card tables, the follow-suit mask, the signals, ``put_bits`` and the trick
play (a card into the trick, its winner, the thirds taken, the last trick's bonus) are
``vector._tricks``'s; this module credits each trick to its side.

Decisions:

- Chosen deals take the scalar game's form: ``hands`` (one list of card ids per seat), or M of
  them; ``monte`` (four card ids, in the monte's order), or M of them; ``dealer`` (a player,
  or (M,)). Each is checked by the scalar game's own check (``Game.check_deal_options``: the
  same error and message, prefixed with the chosen deal's index when M are given), a loop
  over the chosen deals at reset only, before anything changes (the generator included).
  ``deal_of(i)`` gives back ``{"hands", "monte"}`` of a deal's current first deal as dealt,
  the monte in its dealt order (dividete reads it: the first two cards to the first
  opponent); no ``"monte"`` with four all dealt in. Hands chosen without a monte leave the
  four cards over in a shuffled order.
- ``all_pass="solo_only_redeal"``: the second deal is drawn with the first (by the batch's
  generator, as the scalar game draws it with its own); the scalar game has no deal option for
  it, so ``redeal()`` gives it (the tests put it into the scalar state's hidden record).
- The dealer of a shuffled first hand is drawn at random (a player); a match's next hand is
  dealt inside the step that ended the one before, by the next player.
- ``CalabresellaStepResult``: ``hand_points``, ``card_thirds`` and ``cappotto`` are by side
  (0 the soloist's), the scalar ``HandScore``; ``renuncio`` a seat; ``stakes`` and
  ``match_score`` by player. ``rewards`` (N, P) are the AEC environment's: ``Game.returns``
  when the episode ends (the hand's stakes, or a match's totals), 0 before.
- ``autoreset=True`` (default): a deal whose episode ended is dealt a new one in the same
  step (the result describes the ended one). ``autoreset=False``: it stays finished (``turn``
  -1, an all-zero mask, the scalar engine's final observation, for which ``seats`` must be
  named) until ``reset(deals=...)``; stepping it raises ValueError.
- Illegal actions follow ``illegal_action``: ``"renuncio"`` ends the hand as the scalar game
  does, in every phase; ``"raise"`` raises ``IllegalActionError`` naming the first offending
  deals and changes nothing. An action that is not an integer, or outside 0..254 (-1 is
  allowed in a deal that does not play), always raises ValueError.

Example:
    >>> import numpy as np
    >>> batch = CalabresellaBatch(3, seed=0)
    >>> rng = np.random.default_rng(0)
    >>> ended = np.zeros(3, dtype=bool)
    >>> for _ in range(60):  # at most 3 bids, a call, a return, 4 discards and 36 card plays
    ...     result = batch.step(batch.sample_actions(rng), active=~ended, autoreset=False)
    ...     ended |= result.terminated
    >>> ended.tolist(), batch.observe(seats=0).shape, batch.legal_masks().shape
    ([True, True, True], (3, 859), (3, 255))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..encoders.calabresella import observation as calabresella_observation
from ..engine.actions import CALL, CHIAMO, DIVIDETE, FAMILY_NUM_ACTIONS, GIVE, PASS, SCEGLIETE, SOLISSIMO, SOLO
from ..engine.state import PLAY
from ..envs.playing import check_flag
from ..games import auction
from ..games.calabresella import (
    AUCTION,
    CALABRESELLA,
    CALL_PHASE,
    CHOOSE,
    DISCARD,
    IN_MONTE,
    MONTE,
    RETURN,
    SPLIT,
    TAKE,
    CalabresellaRules,
)
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
    max_columns,
    or_columns,
    rows_reader,
    unpack_little,
)
from ._tricks import CARD_BIT as _CARD_BIT
from ._tricks import FULL as _FULL
from ._tricks import RANKS as _RANKS
from ._tricks import card_bits as _bits
from ._tricks import close_tricks, flat_view, play_cards, playable, put_bits, signal_words
from ._tricks import thirds_of as _thirds_of
from .engine import SeedLike, _as_generator

U64 = np.uint64
_ZERO = U64(0)
_ONE = U64(1)
_CONTRACT_BIT = np.zeros(256, dtype=U64)
"""The observation's contract by the action id of the contract won: bit 0 chiamo .. bit 4 scegliete; 0 for none."""
_CONTRACT_BIT[CHIAMO : SCEGLIETE + 1] = 1 << np.arange(SCEGLIETE + 1 - CHIAMO, dtype=U64)
_IDS = np.arange(FAMILY_NUM_ACTIONS, dtype=np.int64)
_ACTION_CARD = np.clip(np.where(_IDS >= GIVE, _IDS - GIVE, np.where(_IDS >= CALL, _IDS - CALL, _IDS % 40)), 0, 39)
"""The card an action id names (a card play, a call or a take ``CALL + c``, a card given ``GIVE + c``); 0..39 for the
others, which name none (one lookup a step instead of eight passes over the deals)."""
NUM_ACTIONS = FAMILY_NUM_ACTIONS  # 255


class CalabresellaStepResult(NamedTuple):
    """What one ``CalabresellaBatch.step`` did, deal by deal (arrays with the batch axis first).

    The fields about the hand that ended (``hand_points`` to ``hand_number``) are meaningful
    where ``hand_over`` is True and 0 / -1 elsewhere. By side: 0 the soloist's, 1 the opponents'.
    """

    rewards: np.ndarray
    """(N, P) float32 by player: the AEC environment's rewards (``Game.returns`` when an episode ends, else 0)."""
    terminated: np.ndarray
    """(N,) bool: the episode ended in this step (then, with autoreset, a new one was dealt)."""
    hand_over: np.ndarray
    """(N,) bool: a hand ended in this step (the same as ``terminated`` in ``episode="hand"``)."""
    hand_points: np.ndarray
    """(N, 2) int64 by side: ``HandScore.points``, the whole points of each side's thirds (0 after a renuncio or all passed)."""
    card_thirds: np.ndarray
    """(N, 2) int64 by side: ``HandScore.card_thirds`` (the last trick's 3 and the face-down cards included)."""
    cappotto: np.ndarray
    """(N,) int8: the side that made a cappotto, or -1."""
    renuncio: np.ndarray
    """(N,) int8: the seat whose illegal action ended the hand, or -1."""
    match_score: np.ndarray
    """(N, P) int64 by player: the match score after the hand (the hand's stakes in ``episode="hand"``)."""
    winner: np.ndarray
    """(N,) int8: the player that won the match when it ended, or -1 (always -1 in ``episode="hand"``)."""
    hand_number: np.ndarray
    """(N,) int64: the number of the hand that ended (0 for an episode's first)."""
    stakes: np.ndarray
    """(N, P) int64 by player: the hand's stakes (``Table.extra.stakes``, zero-sum)."""
    contract: np.ndarray
    """(N,) int64: the contract of the hand that ended (a bid action id; 0: none, all passed or a renuncio in the auction)."""


class CalabresellaBatch(FamilyBatch):
    """N deals of Calabresella stepped together under one rule set.

    Args:
        num_deals: N, the batch size.
        seed: an int, a ``numpy.random.Generator`` (used as it is) or None; draws the dealers
            and the shuffles of every deal, now and at every reset.
        **rules: rule switches, as for ``CalabresellaRules`` (an unknown one is the same TypeError).

    Raises:
        ValueError: a bad ``num_deals``, or a rule set the rules refuse.
    """

    num_actions = NUM_ACTIONS
    deal_options = ("hands", "monte", "dealer")
    """The keys of a chosen deal (``reset``'s keywords, the scalar game's ``deal_options``)."""
    players_drop_out = False
    """Nobody leaves the table during an episode."""
    decisions_per_hand = None
    """The decisions of a seat in a hand differ (the auction, the soloist's exchange)."""

    def __init__(self, num_deals: int, *, seed: SeedLike = None, **rules: Any):
        if isinstance(num_deals, bool) or not isinstance(num_deals, (int, np.integer)) or num_deals < 1:
            raise ValueError(f"num_deals must be an int >= 1; got {shown(num_deals)}")
        self.rules: CalabresellaRules = CalabresellaRules.make(**rules)
        r = self.rules
        self.observation = calabresella_observation(r)
        """The scalar observation whose bytes ``observe`` gives."""
        self.num_agents = r.players
        s, self._t, self._k = r.table_shape  # seats (= players), cards (tricks) each, the monte's size
        self._s = s
        self._p = p = r.players
        self._all_play = r.all_play
        self._sits_out = p == 4 and not r.all_play  # four_player="dealer_sits_out": three seats, four players
        self._match = r.episode == "match"
        self._enabled = np.array(r.enabled, dtype=np.int64)
        mult = np.zeros(8, dtype=np.int64)
        for c in r.enabled:
            mult[c - CHIAMO] = r.multiplier(c) if r.scoring == "stake" else 0
        self._mult = mult
        self._signals_on = r.signals != "none"
        self._signals_from = 1 if r.signals == "seed" else 0
        self._kinds = 0b011 if r.signals == "seed" else 0b111
        self._partial = r.exchange == "partial"
        self._dividete = DIVIDETE in r.enabled
        self._scegliete = SCEGLIETE in r.enabled
        self._redealing = r.all_pass == "solo_only_redeal"
        self._build_fields(() if self._match else ("to_target",))  # the pieces these rules never fill
        self._seat = SeatTables.of(s)
        # The observation's bids: [k * 256 + bid] the bit of relative seat k's bid (6 a seat, from PASS), 0 for none.
        bid_bits = np.zeros((s, 256), dtype=U64)
        bid_bits[:, PASS : SCEGLIETE + 1] = BIT.take(np.arange(s)[:, None] * 6 + np.arange(SCEGLIETE + 1 - PASS))
        self._bid_bits = bid_bits.reshape(-1)
        self._bid_rows = np.arange(s, dtype=np.int64)[None, :] * 256
        # called_from's field: [(from + 2) * S + me] the bit of the relative seat that handed the called card
        # over, bit S for the monte (from = IN_MONTE, -2), 0 for none (-1).
        called_from = np.zeros((s + 2, s), dtype=U64)
        called_from[IN_MONTE + 2] = BIT[s]
        called_from[2:] = self._seat.rel_bit.reshape(s + 1, s)[1:]
        self._called_from_bit = called_from.reshape(-1)
        n = self.n = int(num_deals)
        self._ar = np.arange(n, dtype=np.int64)
        self._rng = _as_generator(seed)
        z3 = np.zeros((n, s), dtype=U64)
        self._hands, self._dealt, self._played, self._voids = z3, z3.copy(), z3.copy(), z3.copy()
        self._signals, self._known, self._exposed = z3.copy(), z3.copy(), z3.copy()
        self._down = np.zeros(n, dtype=U64)  # the face-down cards: the monte, then the discards
        self._monte_ids = np.zeros((n, self._k), dtype=np.int64)  # the monte as dealt, in its order (dividete)
        self._given = np.zeros(n, dtype=U64)  # scegliete: the cards the opponent exchanging now put into the monte
        self._monte_shown = np.zeros(n, dtype=U64)
        self._bids = np.zeros((n, s), dtype=np.int64)
        self._thirds = np.zeros((n, 2), dtype=np.int64)
        self._side_tricks = np.zeros((n, 2), dtype=np.int64)
        self._trick = np.full((n, s), -1, dtype=np.int64)
        i64 = np.zeros(n, dtype=np.int64)
        self._count, self._tricks, self._leader, self._first, self._turn = (i64.copy() for _ in range(5))
        self._dealer, self._phase, self._contract, self._face_down, self._owed = (i64.copy() for _ in range(5))
        self._taken = i64.copy()
        self._redeal = np.zeros((n, s), dtype=U64)  # all_pass="solo_only_redeal": the second deal
        self._solo_only = np.zeros(n, dtype=bool)
        self._led = np.full(n, -1, dtype=np.int64)
        self._soloist = np.full(n, -1, dtype=np.int64)
        self._side0 = i64.copy()  # the seat of side 0: the forehand, then the soloist
        self._called = np.full(n, -1, dtype=np.int64)
        self._called_from = np.full(n, -1, dtype=np.int64)
        self._returned = np.full(n, -1, dtype=np.int64)
        self._hand_number = i64.copy()
        self._match_score = np.zeros((n, p), dtype=np.int64)  # by player
        self._agent_of = np.tile(np.arange(s, dtype=np.int64), (n, 1))  # the player at each seat
        self._forehand = i64.copy()
        self._playing = np.ones(n, dtype=bool)
        self.reset()

    # ------------------------------------------------------------------ dealing

    def reset(
        self,
        seed: SeedLike = None,
        *,
        hands: Sequence | np.ndarray | None = None,
        monte: Sequence | np.ndarray | None = None,
        dealer: int | Sequence[int] | np.ndarray | None = None,
        deals: np.ndarray | Sequence[int] | None = None,
    ) -> None:
        """Deal new episodes (match score 0, hand 0).

        Args:
            seed: reseed the batch's generator (an int or a ``Generator``); None keeps it.
            hands: chosen hands: one list of card ids per seat (twelve, or ten with four all dealt in) (the same everywhere),
                or M of them (one per deal reset).
            monte: the chosen monte: four card ids, or M lists of them.
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
        chosen_hands, chosen_monte = self._check_chosen(hands, monte, m)
        if seed is not None:
            self._rng = _as_generator(seed)
        if m == 0:
            return
        if dealers is None:
            dealers = self._rng.integers(0, self.num_agents, m)
        self._match_score[idx] = 0
        self._hand_number[idx] = 0
        self._deal(idx, dealers, chosen_hands, chosen_monte)

    def _check_chosen(self, hands: Any, monte: Any, m: int) -> tuple[np.ndarray | None, np.ndarray | None]:
        """(M, S) hand masks and (M, 4) monte card ids (in order) of chosen deals (None where not chosen), by the scalar game's check."""
        if hands is None and monte is None:
            return None, None
        given: dict[str, list] = {}
        several = False
        for key, value, nesting in (("hands", hands, 2), ("monte", monte, 1)):
            if value is None:
                continue
            if isinstance(value, np.ndarray):
                value = value.tolist()
            if depth(value) == nesting + 1:  # M chosen deals
                if len(value) != m:
                    raise ValueError(f"{len(value)} chosen {key} for {m} deals to reset")
                given[key] = list(value)
                several = True
            else:
                given[key] = [value] * m
        hand_masks = np.zeros((m, self._s), dtype=U64)
        monte_ids = np.zeros((m, self._k), dtype=np.int64)
        if m == 0:  # nothing is dealt; still check the one chosen deal
            given = {key: [hands if key == "hands" else monte] for key in given}
        out: dict = {}
        for j in range(max(m, 1)):
            if j == 0 or several:
                options = {key: values[j] for key, values in given.items()}
                try:
                    out = CALABRESELLA.check_deal_options(self.rules, options, first=True)
                except ValueError as error:
                    raise ValueError(f"chosen deal {j}: {error}" if several else str(error)) from None
            if m == 0:
                break
            if "hands" in out:
                hand_masks[j] = np.array(out["hands"], dtype=U64)
            if "monte" in out:
                monte_ids[j] = out["monte"]
        return (hand_masks if hands is not None else None), (monte_ids if monte is not None else None)

    def _deal(
        self, idx: np.ndarray, dealers: np.ndarray, hands: np.ndarray | None = None, monte: np.ndarray | None = None
    ) -> None:
        """Deal a hand to the deals ``idx`` with these dealers: the cards of each seat and the monte (``monte``: (M, 4) ids)."""
        m = len(idx)
        chosen = None if monte is None else np.bitwise_or.reduce(_CARD_BIT.take(monte), axis=1)
        if hands is None:
            deck = self._shuffle(m, chosen)  # the cards not fixed first, shuffled; a chosen monte last
            hands = self._hands_of(deck)
            ids = deck[:, self._s * self._t :]
        else:  # the four cards left, in a shuffled order
            ids = self._shuffle(m, np.bitwise_or.reduce(hands, axis=1))[:, : self._k]
        if monte is not None:
            ids = monte
        down = np.bitwise_or.reduce(_CARD_BIT.take(ids), axis=1)
        self._monte_ids[idx] = ids
        if self._redealing:  # the second deal, drawn now: the same cards but the monte
            self._redeal[idx] = self._hands_of(self._shuffle(m, down))
            self._solo_only[idx] = False
        self._given[idx] = 0
        self._taken[idx] = 0
        if self._sits_out:  # the others, the forehand first: the dealer's seat is the last, and he is none of them
            forehand = np.zeros(m, dtype=np.int64)
            self._agent_of[idx] = (dealers[:, None] + 1 + np.arange(self._s)) % self._p
        else:
            forehand = (dealers + 1) % self._s
        self._forehand[idx] = forehand
        self._hands[idx] = hands
        self._dealt[idx] = hands
        self._down[idx] = down
        for a in (self._played, self._voids, self._signals, self._known, self._exposed, self._thirds):
            a[idx] = 0
        self._side_tricks[idx] = 0
        self._monte_shown[idx] = 0
        self._bids[idx] = 0
        self._trick[idx] = -1
        self._count[idx] = 0
        self._led[idx] = -1
        self._tricks[idx] = 0
        self._dealer[idx] = dealers
        self._first[idx] = forehand
        self._leader[idx] = forehand
        self._turn[idx] = forehand
        self._side0[idx] = forehand
        self._phase[idx] = AUCTION
        self._contract[idx] = 0
        self._soloist[idx] = -1
        self._called[idx] = -1
        self._called_from[idx] = -1
        self._returned[idx] = -1
        self._face_down[idx] = self._k
        self._owed[idx] = 0
        self._playing[idx] = True

    def _hands_of(self, deck: np.ndarray) -> np.ndarray:
        """(M, S) masks: the hands a shuffled deck deals, seat s the cards at its places s * t .. s * t + t - 1."""
        s, t = self._s, self._t
        return np.bitwise_or.reduce(_CARD_BIT.take(deck[:, : s * t]).reshape(len(deck), s, t), axis=2)

    # ------------------------------------------------------------------ masks

    def _words(self, rows: np.ndarray | None = None) -> np.ndarray:
        """(N, 4) uint64 (of ``rows`` only, when given): the legal actions of the seat on turn as 256 bits (bit a: action a)."""
        at = rows_reader(rows)
        turn = at(self._turn)
        n = len(turn)
        hand = self._hands.reshape(-1).take((self._ar if rows is None else rows) * self._hands.shape[1] + turn)
        phase = np.where(at(self._playing), at(self._phase), -1)
        words = np.zeros((n, 4), dtype=U64)
        # The card play: follow the led suit; the leader may signal, truthfully.
        led = at(self._led)
        play = phase == PLAY
        words[:, 0] = np.where(play, playable(hand, led), _ZERO)
        if self._signals_on:  # busso and striscio always, volo unless the seed signals
            lead = play & (led < 0) & (at(self._tricks) >= self._signals_from)
            signal_words(words, hand, lead, volo=bool(self._kinds & 0b100))
        other = np.flatnonzero(phase > PLAY)  # the deals before their card play: a few of a long run's
        if len(other):
            deals = other if rows is None else rows[other]
            words[other] = self._before_play_words(rows_reader(deals), hand[other], phase[other])
        return words

    def _before_play_words(self, at: Any, hand: np.ndarray, phase: np.ndarray) -> np.ndarray:
        """(M, 4) uint64: the legal actions of deals before their card play (the auction, the call, the exchange).

        ``at`` reads the state at those deals (``rows_reader``); ``hand`` is the hand of the seat on turn, ``phase``
        the phase, both at them.
        """
        n = len(phase)
        words = np.zeros((n, 4), dtype=U64)
        # The auction: pass, or an enabled contract above the standing bid.
        bidding = phase == AUCTION
        standing = max_columns(at(self._bids))
        bid_bits = np.where(bidding, _ONE << U64(PASS - 192), _ZERO)
        for c in self._enabled:
            allowed = bidding & (standing < c) & (~at(self._solo_only) if c < SOLO else True)
            bid_bits |= np.where(allowed, _ONE << U64(int(c) - 192), _ZERO)
        words[:, 3] |= bid_bits
        # The call: a card he lacks (of the highest rank he lacks one of, with "highest_missing").
        calling = phase == CALL_PHASE
        if calling.any():
            lacking = _FULL & ~hand
            if self.rules.call_rule == "highest_missing":
                chosen = np.zeros(n, dtype=U64)
                for rank in _RANKS:
                    chosen = np.where(chosen == _ZERO, lacking & rank, chosen)
                lacking = chosen
            put_bits(words, np.where(calling, lacking, _ZERO), CALL)
        # Giving a card: back to the giver (not the called one), or a discard.
        give = np.where(phase == DISCARD, hand, _ZERO)
        give |= np.where(phase == RETURN, hand & ~_bits(at(self._called)), _ZERO)
        if self._dividete or self._scegliete:  # an opponent discards (dividete), or puts a card into the monte
            owed = at(self._owed)
            give |= np.where((phase == SPLIT) | ((phase == CHOOSE) & (owed > 0)), hand, _ZERO)
        put_bits(words, give, GIVE)
        if self._partial or self._scegliete:  # a card taken from the monte (CALL + y), or PASS to stop
            taking = (phase == TAKE) | ((phase == CHOOSE) & (at(self._owed) == 0))
            put_bits(words, np.where(taking, at(self._down) & ~at(self._given), _ZERO), CALL)
            words[:, 3] |= np.where(taking, _ONE << U64(PASS - 192), _ZERO)
        return words

    # ------------------------------------------------------------------ observations

    def observe(self, seats: int | np.ndarray | None = None, deals: np.ndarray | None = None) -> np.ndarray:
        """(M, size) int8 observations: the bytes of the scalar ``observation(rules).encode(view(state, seat))``.

        Args:
            seats: the observing players (agents; a player's seat is his own but with
                ``four_player="dealer_sits_out"``, where the dealer has none and sees zeros, as in
                the AEC environment): None for the player on turn, an int for the same player
                everywhere, or an array with one per observed deal.
            deals: which deals (indices or a bool mask); all when None.

        Raises:
            ValueError: a player outside 0..P-1, or ``seats=None`` for a finished deal (nobody on turn).
        """
        rows = deal_indices(deals, self.n, self._ar)
        m = len(rows)
        playing = self._playing.take(rows)
        if seats is None:
            if not playing.all():
                raise ValueError("a finished deal has no seat on turn: name the observing seats")
            me = self._turn.take(rows)
            seated = np.ones(m, dtype=bool)
        else:
            agents = check_seats(seats, m, self._p, noun="player")
            at = self._agent_of[rows] == agents[:, None]  # (M, S)
            me, seated = at.argmax(axis=1), at.any(axis=1)
        compiled = compiled_kernel("_calabresella_words")
        if compiled is not None:
            return unpack_little(compiled.packed(self, rows, me, seated), self.observation.size).view(np.int8)
        fields = self._fields
        s = self._s
        f = np.zeros((len(fields), m), dtype="<u8")  # by field: each a contiguous row (``_pack``)
        at = rows[:, None] * s + self._seat.rel.take(me, axis=0)  # (M, S): the observer's relative seats, flat
        mine = rows * s + me

        def by_seat(x: np.ndarray) -> np.ndarray:  # (N, S) -> (M, S), the observer's seat first
            return x.reshape(-1).take(at)

        hand = self._hands.reshape(-1).take(mine)
        f[fields[("hand", None, 0)]] = hand
        f[self._rows_of("trick", s)] = _bits(by_seat(self._trick)).T
        seats_of = self._seat
        f[fields[("leader", None, 0)]] = seats_of.rel_bits(self._leader.take(rows), me)
        played = by_seat(self._played)
        f[self._rows_of("played", s)] = played.T
        f[fields[("voids", None, 0)]] = or_columns(by_seat(self._voids), 4)
        if self._signals_on:
            f[fields[("signals", None, 0)]] = or_columns(by_seat(self._signals), 12)
        f[self._rows_of("exposed", s)] = (by_seat(self._exposed) & ~played).T
        f[fields[("trick_number", None, 0)]] = BIT.take(self._tricks.take(rows))
        if not playing.all():  # a finished deal: no leader and no trick number
            f[fields[("leader", None, 0)], ~playing] = 0
            f[fields[("trick_number", None, 0)], ~playing] = 0
        own = (me != self._side0.take(rows)).astype(np.int64)
        thirds = self._thirds.reshape(-1)
        f[self._rows_of("thirds", 2)[0]] = THERMO.take(thirds.take(2 * rows + own))
        f[self._rows_of("thirds", 2)[1]] = THERMO.take(thirds.take(2 * rows + 1 - own))
        if self._match:  # by player, the observer's first
            p = self._p
            player = self._agent_of.reshape(-1).take(mine)
            by_player = rows[:, None] * p + (player[:, None] + np.arange(p)) % p
            need = np.clip(self.rules.target_score - self._match_score.reshape(-1).take(by_player), 0, 41)
            f[self._rows_of("to_target", p)] = THERMO.take(need).T
        f[fields[("phase", None, 0)]] = BIT_FROM_1.take(self._phase.take(rows))  # AUCTION = 1 .. CHOOSE; 0: the play
        f[fields[("bids", None, 0)]] = or_columns(self._bid_bits.take(by_seat(self._bids) + self._bid_rows))
        f[fields[("contract", None, 0)]] = _CONTRACT_BIT.take(self._contract.take(rows))
        f[fields[("soloist", None, 0)]] = seats_of.rel_bits(self._soloist.take(rows), me)
        f[fields[("called", None, 0)]] = _bits(self._called.take(rows))
        f[fields[("called_from", None, 0)]] = self._called_from_bit.take((self._called_from.take(rows) + 2) * s + me)
        f[fields[("monte_shown", None, 0)]] = self._monte_shown.take(rows)
        f[fields[("returned", None, 0)]] = _bits(self._returned.take(rows))
        all_played = or_columns(played)
        f[fields[("face_down_known", None, 0)]] = self._known.reshape(-1).take(mine) & ~hand & ~all_played
        f[fields[("face_down", None, 0)]] = THERMO.take(self._face_down.take(rows))
        f[fields[("solo_only", None, 0)]] = self._solo_only.take(rows)
        if not seated.all():
            f[:, ~seated] = 0  # the dealer who sits out: nothing to see
        return self._pack(f)

    # ------------------------------------------------------------------ stepping

    def step(
        self, actions: np.ndarray | Sequence[int], *, active: np.ndarray | None = None, autoreset: bool = True
    ) -> CalabresellaStepResult:
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
        active, a, ok, bad = self._judge(actions, active)
        act = active & ok
        seat = self._turn.copy()
        phase = self._phase.copy()
        card = _ACTION_CARD.take(a)
        bit = _CARD_BIT.take(card)
        all_passed = np.zeros(n, dtype=bool)
        start = np.zeros(n, dtype=bool)

        # The phases before the card play, each on the rows of the deals in it (a few of a large batch):
        # ``r`` their indices; a (deal, seat) place in the (N, S) state arrays seen flat is ``r * S + seat``.
        S = self._s
        hands, known, exposed = flat_view(self._hands), flat_view(self._known), flat_view(self._exposed)

        # --- the auction
        r = np.flatnonzero(act & (phase == AUCTION))
        if len(r):
            bids = self._bids[r]
            bids[np.arange(len(r)), seat[r]] = a[r]
            over = (bids > 0).all(axis=1)
            if self.rules.auction == "first_taker":
                over |= (bids > PASS).any(axis=1)
            best = max_columns(bids)
            self._turn[r] = np.where(over, seat[r], (seat[r] + 1) % S)
            passed = over & (best <= PASS)
            soloist = bids.argmax(axis=1)
            if self._redealing:  # the hands are dealt again around the monte: solo or higher only
                again = passed & ~self._solo_only[r]
                passed &= ~again
                redeal = r[again]
                self._hands[redeal] = self._redeal[redeal]
                bids[again] = 0
                self._solo_only[redeal] = True
                self._turn[redeal] = self._forehand[redeal]
            self._bids[r] = bids
            all_passed[r] = passed
            won = over & (best > PASS)
            w, best, soloist = r[won], best[won], soloist[won]
            self._contract[w] = best
            self._soloist[w] = soloist
            self._side0[w] = soloist
            self._turn[w] = soloist
            self._phase[w[best == CHIAMO]] = CALL_PHASE
            solo = best == SOLO
            if solo.any():
                if self._k:
                    self._exchange(w[solo], soloist[solo], shown=False)
                elif self._all_play:  # no monte: solo plays at once
                    start[w[solo]] = True
            solissimo = best == SOLISSIMO
            if self.rules.solissimo_peek:
                known[w[solissimo] * S + soloist[solissimo]] |= self._down[w[solissimo]]
            start[w[solissimo]] = True
            first, second = (soloist + 1) % S, (soloist + 2) % S
            dividete = best == DIVIDETE
            if dividete.any():  # the monte's first two cards to the first opponent, the last two to the other
                d = w[dividete]
                cards = _CARD_BIT.take(self._monte_ids[d])
                hands[d * S + first[dividete]] |= cards[:, 0] | cards[:, 1]
                hands[d * S + second[dividete]] |= cards[:, 2] | cards[:, 3]
                self._down[d] = 0
                self._face_down[d] = 0
                self._owed[d] = 2
                self._phase[d] = SPLIT
                self._turn[d] = first[dividete]
            scegliete = best == SCEGLIETE
            if scegliete.any():  # the first opponent looks at the monte
                g = w[scegliete]
                known[g * S + first[scegliete]] |= self._down[g]
                self._owed[g] = 0
                self._phase[g] = CHOOSE
                self._turn[g] = first[scegliete]

        # --- the call: the holder hands the card over face up; the soloist takes the monte
        r = np.flatnonzero(act & (phase == CALL_PHASE))
        if len(r):
            soloist = self._soloist[r]
            b = bit[r]
            holds = (self._hands[r] & b[:, None]) != _ZERO  # (M, S)
            handed = holds.any(axis=1)
            holder = holds.argmax(axis=1)
            h, b_h, to = r[handed], b[handed], soloist[handed]
            hands[h * S + holder[handed]] &= ~b_h
            hands[h * S + to] |= b_h
            exposed[h * S + to] |= b_h
            self._called[r] = card[r]
            self._called_from[r] = np.where(handed, holder, IN_MONTE)
            if self._k:
                self._exchange(r, soloist, shown=self.rules.show_monte_on_call)
            self._phase[h] = RETURN

        # --- the card returned face up to the giver
        r = np.flatnonzero(act & (phase == RETURN))
        if len(r):
            giver = np.maximum(self._called_from[r], 0)
            b = bit[r]
            hands[r * S + seat[r]] &= ~b
            hands[r * S + giver] |= b
            exposed[r * S + giver] |= b
            self._returned[r] = card[r]
            self._phase[r] = TAKE if self._partial else DISCARD
            if self._all_play:  # no monte: the play begins
                start[r] = True

        # --- the soloist takes from the monte (exchange="partial")
        r = np.flatnonzero(act & (phase == TAKE))
        if len(r):
            stop = a[r] == PASS
            take = ~stop
            got = np.where(take, bit[r], _ZERO)
            self._down[r] &= ~got
            hands[r * S + seat[r]] |= got
            taken = self._taken[r] + take
            self._taken[r] = taken
            self._face_down[r] -= take
            discard = (take & (taken == MONTE)) | (stop & (taken > 0))
            self._owed[r[discard]] = taken[discard]
            self._phase[r[discard]] = DISCARD
            start[r[stop & (taken == 0)]] = True

        # --- dividete: each opponent in turn discards two
        r = np.flatnonzero(act & (phase == SPLIT))
        if len(r):
            self._put_down(r, seat[r], bit[r])
            done = self._owed[r] == 0
            then = done & (seat[r] == (self._soloist[r] + 1) % S)
            self._owed[r[then]] = 2
            self._turn[r[then]] = (self._soloist[r[then]] + 2) % S
            start[r[done & ~then]] = True

        # --- scegliete: each opponent in turn swaps cards with the monte
        r = np.flatnonzero(act & (phase == CHOOSE))
        if len(r):
            ar_ = a[r]
            stop = ar_ == PASS
            give = (ar_ >= GIVE) & (ar_ < PASS)
            take = (ar_ >= CALL) & (ar_ < GIVE)
            self._put_down(r[give], seat[r[give]], bit[r[give]])
            self._given[r[give]] |= bit[r[give]]
            got = np.where(take, bit[r], _ZERO)
            self._down[r] &= ~got
            hands[r * S + seat[r]] |= got
            self._face_down[r] -= take
            self._owed[r[take]] = 1
            self._given[r[stop]] = 0
            then = stop & (seat[r] == (self._soloist[r] + 1) % S)
            t = r[then]
            second = (self._soloist[t] + 2) % S
            known[t * S + second] |= self._down[t]
            self._turn[t] = second
            start[r[stop & ~then]] = True

        # --- the discards, face down
        r = np.flatnonzero(act & (phase == DISCARD))
        if len(r):
            self._put_down(r, seat[r], bit[r])
            start[r[self._owed[r] == 0]] = True

        if start.any():
            self._start_play(np.flatnonzero(start))

        # --- the card play
        play = act & (phase == PLAY)
        hand_complete = np.zeros(n, dtype=bool)
        if play.any():
            hand_complete = self._play(play, seat, a, card, bit)
        ended = hand_complete | all_passed | bad
        if not ended.any():
            return self._quiet_result()
        return self._end_hands(ended, bad, all_passed, seat, autoreset)

    def _put_down(self, rows: np.ndarray, seat: np.ndarray, bit: np.ndarray) -> None:
        """The seat on turn (``seat``) in the deals ``rows`` puts a card (``bit``) face down (a discard, or into the monte); it knows it."""
        at = rows * self._s + seat
        flat_view(self._hands)[at] &= ~bit
        self._down[rows] |= bit
        flat_view(self._known)[at] |= bit
        self._face_down[rows] += 1
        self._owed[rows] -= 1

    def _exchange(self, rows: np.ndarray, soloist: np.ndarray, *, shown: bool) -> None:
        """The soloist (``soloist``) of the deals ``rows`` takes the monte (turned up for all when ``shown``) and owes four discards.

        With ``exchange="partial"`` he looks at it, and takes from it what he chooses (``TAKE``).
        """
        at = rows * self._s + soloist
        down = self._down[rows]
        if shown:
            self._monte_shown[rows] = down
        if self._partial:
            flat_view(self._known)[at] |= down
            self._phase[rows] = TAKE
            return
        flat_view(self._hands)[at] |= down
        self._down[rows] = 0
        self._face_down[rows] = 0
        self._owed[rows] = MONTE
        self._phase[rows] = DISCARD

    def _start_play(self, rows: np.ndarray) -> None:
        """The card play of the deals ``rows`` begins: the forehand or the soloist leads."""
        rule = self.rules.first_lead
        if rule == "forehand":
            first = self._forehand[rows]
        elif rule == "soloist":
            first = self._soloist[rows]
        else:
            first = np.where(self._contract[rows] == CHIAMO, self._forehand[rows], self._soloist[rows])
        self._phase[rows] = PLAY
        self._owed[rows] = 0
        for state in (self._first, self._leader, self._turn):
            state[rows] = first

    def _play(self, play: np.ndarray, seat: np.ndarray, a: np.ndarray, card: np.ndarray, bit: np.ndarray) -> np.ndarray:
        """The card plays of the deals ``play``; True where the hand's last trick was completed."""
        bit = np.where(play, bit, _ZERO)
        flat_view(self._hands)[self._ar * self._s + seat] &= ~bit  # by flat index, as play_cards writes the trick
        complete = play_cards(self, play, seat, a, card, bit, self._s, self._signals_on)
        if not complete.any():
            return complete
        done, winner, taken, last, _ = close_tricks(self, complete, self._t)
        at = 2 * done + (winner != self._side0[done])  # the (deal, side) that took each trick
        flat_view(self._thirds)[at] += taken
        flat_view(self._side_tricks)[at] += 1
        hand_complete = np.zeros(len(complete), dtype=bool)
        hand_complete[done[last]] = True
        return hand_complete

    def _quiet_result(self) -> CalabresellaStepResult:
        """The result of a step in which no hand ended: zeros and -1."""
        n, s = self.n, self._p
        no = np.zeros(n, dtype=bool)
        none = np.full(n, -1, dtype=np.int8)
        z2 = np.zeros((n, 2), dtype=np.int64)
        z3 = np.zeros((n, s), dtype=np.int64)
        return CalabresellaStepResult(
            np.zeros((n, s), dtype=np.float32), no, no.copy(), z2, z2.copy(), none, none.copy(), z3,
            none.copy(), np.zeros(n, dtype=np.int64), z3.copy(), np.zeros(n, dtype=np.int64),
        )  # fmt: skip

    def _stakes(self, unit: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """(M, P) by player in the deals ``rows``: each opponent (every player but the soloist, one who sits out included) pays the soloist ``unit``."""
        soloist = np.arange(self._p)[None, :] == self._agent_of[rows, np.maximum(self._soloist[rows], 0)][:, None]
        return np.where(soloist, (self._p - 1) * unit[:, None], -unit[:, None])

    def _end_hands(
        self, ended: np.ndarray, renuncio: np.ndarray, all_passed: np.ndarray, acting: np.ndarray, autoreset: bool
    ) -> CalabresellaStepResult:
        """Score the hands that ended (computed on their deals only), close episodes, deal next hands and new episodes."""
        rules = self.rules
        e = np.flatnonzero(ended)
        m = len(e)
        am = np.arange(m)
        bad, passed, actor = renuncio[e], all_passed[e], acting[e]
        # The hands played out: the face-down cards go to the side that took the last trick.
        held = self._thirds[e]
        thirds = held.copy()
        last = np.where(self._leader[e] == self._side0[e], 0, 1)
        thirds[am, last] += _thirds_of(self._down[e])
        solo, other = thirds[:, 0], thirds[:, 1]
        won = solo >= auction.WIN_THIRDS
        loser = np.where(won, 1, 0)
        loser_thirds = thirds[am, loser]
        if rules.cappotto_rule == "zero_points":
            cappotto = loser_thirds < 3
        elif rules.cappotto_rule == "zero_thirds":
            cappotto = loser_thirds == 0
        else:
            cappotto = self._side_tricks[e, loser] == 0
        contract = self._contract[e]
        mult = self._mult.take(contract - CHIAMO, mode="clip")  # no contract (0): index 0 (np.clip cost 3x)
        if rules.scoring == "difference":
            unit = (solo - other) * np.where(thirds.max(axis=1) == auction.HAND_THIRDS, 2, 1)
            lost_unit = np.full(m, 2 * auction.HAND_THIRDS)
        else:
            unit = mult * np.where(cappotto, 2, 1) * np.where(won, 1, -1)
            lost_unit = 2 * mult
        stakes = self._stakes(unit, e)
        points = thirds // 3  # (solo, other)
        capp_side = np.where(cappotto, 1 - loser, -1)
        if bad.any():  # a renuncio: before a contract the offender pays each other player 2; after, his side
            soloist = self._soloist[e]  # loses as on cappotto
            offender_lost = actor == soloist
            r_stakes = self._stakes(np.where(offender_lost, -lost_unit, lost_unit), e)
            is_offender = np.arange(self._p)[None, :] == self._agent_of[e, actor][:, None]
            auction_stakes = np.where(is_offender, -2 * (self._p - 1), 2)
            r_stakes = np.where((soloist < 0)[:, None], auction_stakes, r_stakes)
            stakes = np.where(bad[:, None], r_stakes, stakes)
        void = bad | passed
        if passed.any():
            stakes = np.where(passed[:, None], 0, stakes)
        score = self._match_score[e] + stakes
        winner = np.full(m, -1, dtype=np.int64)
        if self._match:
            if rules.match_end == "rounds":
                over = self._hand_number[e] + 1 >= rules.rounds * self._p
            else:
                top = score.max(axis=1)
                over = (top >= rules.target_score) & ((score == top[:, None]).sum(axis=1) == 1)
            best = score.max(axis=1)
            unique = (score == best[:, None]).sum(axis=1) == 1
            terminated = over
            winner = np.where(over & unique, score.argmax(axis=1), -1)
            rewards = score.astype(np.float64)
        else:
            terminated = np.ones(m, dtype=bool)
            rewards = stakes.astype(np.float64)
        self._match_score[e] = score
        result = self._quiet_result()  # the deals whose hand went on keep its zeros and -1
        result.rewards[e] = (rewards * terminated[:, None]).astype(np.float32) + np.float32(0.0)  # no -0.0
        result.terminated[e] = terminated
        result.hand_over[e] = True
        result.hand_points[e] = np.where(void[:, None], 0, points)
        result.card_thirds[e] = np.where(bad[:, None], held, np.where(passed[:, None], 0, thirds))
        result.cappotto[e] = np.where(void, -1, capp_side)
        result.renuncio[e] = np.where(bad, actor, -1)
        result.match_score[e] = score
        result.winner[e] = winner
        result.hand_number[e] = self._hand_number[e]
        result.stakes[e] = stakes
        result.contract[e] = contract
        go_on = e[~terminated]
        over_idx = e[terminated]
        if len(go_on):
            self._hand_number[go_on] += 1
            self._deal(go_on, (self._dealer[go_on] + 1) % self._p)
        if len(over_idx):
            if autoreset:
                self._match_score[over_idx] = 0
                self._hand_number[over_idx] = 0
                self._deal(over_idx, self._rng.integers(0, self._p, len(over_idx)))
            else:
                self._playing[over_idx] = False
        return result

    # ------------------------------------------------------------------ reading the state

    def heuristic_actions(self, deals: np.ndarray | Sequence[int] | None = None) -> np.ndarray:
        """``CalabresellaHeuristic``'s action for the seat on turn in ``deals`` (``vector.calabresella_heuristic``)."""
        from .calabresella_heuristic import heuristic_actions  # it reads this module: imported when first played

        return heuristic_actions(self, deals)

    @property
    def turn(self) -> np.ndarray:
        """(N,) int64: the seat on turn in each deal; -1 in a finished deal."""
        return np.where(self._playing, self._turn, -1)

    @property
    def agent(self) -> np.ndarray:
        """(N,) int64: the player on turn in each deal (the player of the seat on turn); -1 in a finished deal."""
        return np.where(self._playing, self._agent_of[self._ar, self._turn], -1)

    def players_in(self) -> np.ndarray:
        """(N, S) int64: the player at each seat of the current hand (``Table.controllers``)."""
        return self._agent_of.copy()

    def lead(self, agents: np.ndarray) -> np.ndarray:
        """(N,) float32: ``Calabresella.lead`` of each deal's player ``agents[i]``: his side's thirds lead in points.

        0 before the card play (the auction, the call, the exchange).
        """
        a = self._agents_arg(agents)
        at = self._agent_of == a[:, None]
        side = np.where(at.argmax(axis=1) == self._side0, 0, 1)
        lead = (self._thirds[self._ar, side] - self._thirds[self._ar, 1 - side]) / 3
        return np.where((self._phase == PLAY) & at.any(axis=1), lead + 0.0, 0.0).astype(np.float32)

    @property
    def dealer(self) -> np.ndarray:
        """(N,) the player who dealt each deal's current hand (``Calabresella.dealer_agent``: ``new_game``'s ``dealer``)."""
        return self._dealer.copy()

    @property
    def dealer_seat(self) -> np.ndarray:
        """(N,) ``PublicState.dealer``: the dealer's seat (with ``four_player="dealer_sits_out"`` the last seat, 2)."""
        return np.where(self._sits_out, self._s - 1, self._dealer)

    @property
    def first_leader(self) -> np.ndarray:
        """(N,) the seat that leads (or led) the hand's first trick (the forehand before the card play)."""
        return self._first.copy()

    @property
    def leader(self) -> np.ndarray:
        """(N,) the seat that leads (or led) the current trick (the forehand before the card play)."""
        return self._leader.copy()

    @property
    def phase(self) -> np.ndarray:
        """(N,) the scalar game's phase: ``PLAY`` (0), ``AUCTION`` (1), ``CALL_PHASE``, ``RETURN``, ``TAKE``, ``DISCARD``, ``SPLIT``, ``CHOOSE``."""
        return self._phase.copy()

    @property
    def thirds(self) -> np.ndarray:
        """(N, 2) thirds each side has taken in tricks this hand (``PublicState.thirds``; side 0 the soloist's)."""
        return self._thirds.copy()

    @property
    def match_score(self) -> np.ndarray:
        """(N, P) each player's stakes over the finished hands of the episode."""
        return self._match_score.copy()

    @property
    def contract(self) -> np.ndarray:
        """(N,) the contract won (a bid action id: ``CHIAMO``, ``SOLO``, ``SOLISSIMO``), 0 while none."""
        return self._contract.copy()

    @property
    def soloist(self) -> np.ndarray:
        """(N,) the soloist's seat, -1 while none."""
        return self._soloist.copy()

    @property
    def bids(self) -> np.ndarray:
        """(N, S) each seat's bid (``PASS`` or a contract's action id; 0: not spoken yet)."""
        return self._bids.copy()

    def redeal(self) -> np.ndarray:
        """(N, S) uint64: the second deal's hands (``all_pass="solo_only_redeal"``; drawn with the first), else 0."""
        return self._redeal.copy()

    @property
    def solo_only(self) -> np.ndarray:
        """(N,) bool: the hands were dealt again after every player passed: solo or higher only."""
        return self._solo_only.copy()

    def hands(self) -> np.ndarray:
        """(N, S) uint64: the cards each seat holds, as engine card masks (bit c = card c)."""
        return self._hands.copy()

    def face_down(self) -> np.ndarray:
        """(N,) uint64: the cards face down: the monte, then the soloist's discards."""
        return self._down.copy()

    def deal_of(self, deal: int) -> dict[str, list]:
        """One deal's current hand as dealt: ``{"hands": one list per seat, "monte": four card ids in the monte's order}``.

        The keyword arguments of ``new_game`` (with ``dealer=batch.dealer[deal]``) or ``next_hand``; no
        ``"monte"`` with four players all dealt in.
        """
        deal = self._deal_arg(deal)
        out: dict[str, list] = {"hands": [[c for c in range(40) if int(m) >> c & 1] for m in self._dealt[deal]]}
        if self._k:
            out["monte"] = self._monte_ids[deal].tolist()
        return out


__all__ = ["CalabresellaBatch", "CalabresellaStepResult"]
