"""Tressette a perdere for a batch of N deals at once, in NumPy: ``APerdereBatch``.

The scalar game is ``games.a_perdere`` (``TressetteAPerdere``); this module plays it for N
deals under one rule set with a fixed number of NumPy calls per method, whatever N is: no
Python loop over the deals. Every rule switch: three to eight players each for himself, or
the 2 v 2 form (``teams=True``, with signals); one hand or a match ending at a target, after a
number of hands, or by elimination (players reaching the target drop out, the table shrinks);
the cards left over removed, dealt to the dealer who discards them, or left as a monte. The legal masks, the observations, the results and the rewards are those of the
scalar engine and encoder, byte for byte (``tests/vector/test_a_perdere_batch.py`` steps a
scalar state per deal alongside and pins them).

| method | what it does |
| --- | --- |
| ``APerdereBatch(n, seed=None, **rules)`` | N deals under one rule set (the switches of ``APerdereRules``, an unknown one the same TypeError) |
| ``reset(seed=None, hands=None, monte=None, dealer=None, deals=None)`` | deal new episodes: shuffled, or chosen deals in the scalar game's form; all deals or some (a bool mask or indices) |
| ``legal_masks()`` / ``legal_masks(bool)`` | (N, 255) int8 (or bool): ``legal_actions_mask`` of the seat on turn in each deal; 0 in a finished deal |
| ``observe(seats=None, deals=None)`` | (M, size) int8: the scalar ``observation(rules)`` of each deal, the seat on turn by default |
| ``step(actions, active=None, autoreset=True)`` | the seat on turn acts in each (active) deal; an ``APerdereStepResult`` |
| ``sample_actions(rng)`` | (N,) a uniformly random legal action in each deal; -1 where none |
| ``heuristic_actions(deals=None)`` | (M,) ``APerdereHeuristic``'s action for the seat on turn in each deal; -1 in a finished deal (``vector.a_perdere_heuristic``) |
| ``turn``, ``leader``, ``dealer``, ``first_leader``, ``phase``, ``tricks_done``, ``thirds``, ``match_score``, ``hand_number``, ``playing`` | copies of the state, by deal |
| ``agent``, ``lead(agents)`` | the player on turn; ``Game.lead`` of each deal's given player (a dense reward's pay) |
| ``players_in()``, ``out()`` | the player at each seat of the current hand (-1 beyond those still in); the players out of the match |
| ``hands()``, ``dealt()``, ``removed()``, ``set_aside()``, ``deal_of(i)`` | the cards as engine masks (bit c = card c); one deal's hand as dealt, for ``new_game``/``next_hand`` |
| ``num_deals`` / ``n``, ``num_agents`` (players), ``num_actions`` (255), ``deal_options``, ``rules``, ``observation`` | the batch's constants |

Inside, a set of cards is a uint64 engine card mask (bit ``c`` is card ``c``); facts about
the seats are (N, P) arrays, batch axis first (P the players; seat s is the s-th player still
in, so seat = player until someone is out; the seats from L, the players still in, stay
empty); facts about the sides (N, S) (S = P, or 2 with ``teams``); the match score, by
competitor (player or team). Every update is a mask and an ``np.where`` (or an
assignment at ``[rows, seat]``) over the whole batch: the only Python ``if``s test ``.any()``
of a mask to skip work nobody needs, or raise. The observation is built as uint64 *fields*
(each a piece, or a row of a piece, of at most 64 entries; bit i = entry i), shifted into their
places in little-endian words of the scalar layout and unpacked at once by ``np.unpackbits``.
Shared with the family's other batched engines: the card tables, the follow-suit mask, the
signals and the trick play (a card into the trick, its winner, the thirds taken, the last
trick's bonus) are ``vector._tricks``'s; ``legal_masks`` and ``sample_actions`` (from this
module's ``_words``), the fields, the packing, the step's checks, the dealers' check, the
shuffle, the illegal-action error and the plain accessors are
``vector._family.FamilyBatch``'s. This module credits the tricks (to a side; the asso di
bastoni's side) and keeps the rest of the rules.

Decisions:

- Chosen deals take the scalar game's form: ``hands`` (one list of card ids per player, by
  seat; the dealer's ``h + k`` with ``reduce="dealer_discard"``), or M of them; ``monte`` (the
  ``k`` cards left face down, ``reduce="monte"``), or M of them; ``dealer`` (a seat, or (M,)).
  Each chosen deal is checked by the scalar game's own check (``Game.check_deal_options``:
  the same ValueError and message, prefixed with the chosen deal's index when M are given):
  a loop over the chosen deals at reset only. Every check is made before anything changes, the
  generator included. ``deal_of(i)`` gives back ``{"hands"}`` (and ``"monte"`` with
  ``reduce="monte"``) of a deal's current hand, as dealt (the dealer's discards still in his hand).
- The dealer of a shuffled first hand is drawn at random; the next hand of a match is dealt
  inside the step that ended the one before (as the AEC environment does), by the next player
  still in.
- Rewards (``APerdereStepResult.rewards``, (N, P) by player) are the AEC environment's, that
  is ``TressetteAPerdere.returns`` when the episode ends and 0 before: in ``episode="hand"``
  minus each player's charge (plus his points with ``objective="take"``; with ``teams`` his
  team's); in ``episode="match"`` the standing ``1 - 2 * rank / (P - 1)`` (teams: +1 / -1).
  In an elimination match a player put out has his standing in the step he goes out (the AEC
  environment's agent leaves the episode there), and only the players still in at the end
  have theirs when it ends: each player is paid once.
- The results by side (``hand_points``, ``card_thirds``, ``cappotto``) are by seat of the hand
  (the scalar ``HandScore``); in an elimination the seats from L are 0. ``match_score`` and
  ``winner`` are by player (team). ``observe`` of a seat beyond the players still in gives
  zeros (the AEC environment's observation of an agent with no seat).
- ``autoreset=True`` (default): a deal whose episode ended is dealt a new episode in the same
  step (the result describes the ended one). ``autoreset=False``: it stays finished (``turn``
  -1, an all-zero mask, the scalar engine's final observation, for which ``seats`` must be
  named) until ``reset(deals=...)``; stepping it raises ValueError.
- Illegal actions follow ``illegal_action``: ``"renuncio"`` ends the hand as the scalar game
  does, in either phase (the card play or the dealer's discards); ``"raise"`` raises
  ``IllegalActionError`` naming the first offending deals and changes nothing. An action that
  is not an integer, or outside 0..254 (-1 is allowed in a deal that does not play), always
  raises ValueError, whatever the switch.

Example:
    >>> import numpy as np
    >>> batch = APerdereBatch(3, seed=0, players=5)
    >>> rng = np.random.default_rng(0)
    >>> for _ in range(40):  # a hand of five players is 40 card plays
    ...     result = batch.step(batch.sample_actions(rng))
    >>> result.terminated.tolist(), result.hand_points.sum(axis=1).tolist()
    ([True, True, True], [11, 11, 11])
    >>> batch.observe().shape, batch.legal_masks().shape
    ((3, 943), (3, 255))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..encoders.a_perdere import observation as a_perdere_observation
from ..engine.actions import FAMILY_NUM_ACTIONS, GIVE
from ..engine.cards import FOUR_OF_DENARI
from ..engine.state import PLAY
from ..envs.playing import check_flag
from ..games.a_perdere import A_PERDERE, ASSO_DI_BASTONI, DISCARD, REMOVED, APerdereRules, hand_size
from ..messages import shown
from ._family import (
    BIT,
    FamilyBatch,
    SeatTables,
    check_seats,
    deal_indices,
    depth,
    distinct_deals,
    or_columns,
    popcount,
    rows_reader,
)
from ._family import THERMO as _THERMO
from ._tricks import CARD_BIT as _CARD_BIT
from ._tricks import FULL as _FULL
from ._tricks import PLAY_CARD as _PLAY_CARD
from ._tricks import card_bits as _bits
from ._tricks import close_tricks, flat_view, play_cards, playable, signal_words
from ._tricks import thirds_of as _thirds_of
from .engine import SeedLike, _as_generator

U64 = np.uint64
_ZERO = U64(0)
_ONE = U64(1)
NUM_ACTIONS = FAMILY_NUM_ACTIONS  # 255
_ASSO_BIT = _ONE << U64(ASSO_DI_BASTONI)
_HAND_OF = np.array([0, 0] + [hand_size(x) for x in range(2, 9)], dtype=np.int64)
"""Cards each player is dealt, by players at the table (2..8)."""
_LEFT_OF = np.array([0, 0] + [40 - x * hand_size(x) for x in range(2, 9)], dtype=np.int64)
"""Cards left over, by players at the table."""
_REMOVED_OF = np.array([sum(1 << c for c in REMOVED.get(x, ())) for x in range(9)], dtype=U64)
"""The cards ``reduce="remove"`` removes, by players at the table."""


class APerdereStepResult(NamedTuple):
    """What one ``APerdereBatch.step`` did, deal by deal (arrays with the batch axis first).

    The fields about the hand that ended (``hand_points`` to ``hand_number``) are meaningful
    where ``hand_over`` is True and 0 / -1 elsewhere. By side: by player (seat), or by team
    (``teams=True``).
    """

    rewards: np.ndarray
    """(N, P) float32 by player: the AEC environment's rewards (nonzero only when an episode ends, or for a player put out)."""
    terminated: np.ndarray
    """(N,) bool: the episode ended in this step (then, with autoreset, a new one was dealt)."""
    hand_over: np.ndarray
    """(N,) bool: a hand ended in this step (the same as ``terminated`` in ``episode="hand"``)."""
    hand_points: np.ndarray
    """(N, S) int64 by side (seat of the hand, or team): the hand's charges (the points won with ``objective="take"``), ``HandScore.points``; 0 at the seats beyond the players still in."""
    card_thirds: np.ndarray
    """(N, S) int64 by side: ``HandScore.card_thirds`` (the last trick's 3, the monte or discards and the special asso included)."""
    cappotto: np.ndarray
    """(N,) int8: the side that made a cappotto, or -1."""
    renuncio: np.ndarray
    """(N,) int8: the seat whose illegal action ended the hand, or -1."""
    match_score: np.ndarray
    """(N, S) int64 by player (team): the match score after the hand (the hand's points in ``episode="hand"``)."""
    winner: np.ndarray
    """(N,) int8: the player (team with ``teams``) that won the match when it ended, or -1 (always -1 in ``episode="hand"``)."""
    hand_number: np.ndarray
    """(N,) int64: the number of the hand that ended (0 for an episode's first)."""


class APerdereBatch(FamilyBatch):
    """N deals of Tressette a perdere stepped together under one rule set.

    Args:
        num_deals: N, the batch size.
        seed: an int, a ``numpy.random.Generator`` (used as it is) or None; draws the dealers
            and the shuffles of every deal, now and at every reset.
        **rules: rule switches, as for ``APerdereRules`` (an unknown one is the same TypeError).

    Raises:
        ValueError: a bad ``num_deals``, or a rule set the rules refuse.
    """

    num_actions = NUM_ACTIONS
    deal_options = ("hands", "monte", "dealer")
    """The keys of a chosen deal (``reset``'s keywords, the scalar game's ``deal_options``)."""

    def __init__(self, num_deals: int, *, seed: SeedLike = None, **rules: Any):
        if isinstance(num_deals, bool) or not isinstance(num_deals, (int, np.integer)) or num_deals < 1:
            raise ValueError(f"num_deals must be an int >= 1; got {shown(num_deals)}")
        self.rules: APerdereRules = APerdereRules.make(**rules)
        r = self.rules
        self.observation = a_perdere_observation(r)
        """The scalar observation whose bytes ``observe`` gives."""
        p = self.num_agents = r.players
        self._teams = r.teams
        self._sides = 2 if r.teams else p
        self._side_of = np.arange(p, dtype=np.int64) % self._sides
        self._match = r.episode == "match"
        self._elimination = self._match and r.match_end == "elimination"
        self._low = r.objective == "avoid"
        self.seats = p
        """Seats at the table (one a player until players drop out of an elimination match)."""
        self.decisions_per_hand = None if self._elimination or r.reduce == "dealer_discard" else hand_size(p)
        """Decisions of each seat in a hand (its cards), for ``SeatRows``; None where they differ (the dealer's
        discards) or the table shrinks (an elimination match)."""
        self.players_drop_out = self._elimination
        """Players leave the table during an episode (an elimination match): ``FamilyVectorEnv`` refuses it."""
        self._build_fields(  # the pieces these rules never fill
            ("to_target",) * (not self._match)
            + ("out",) * (not self._elimination)
            + ("face_down_known",) * (r.reduce != "dealer_discard")
        )
        p = self.num_agents
        self._seat = SeatTables.of(p)
        # Seat arithmetic with L players still at the table, L = 0..P (an int64 % cost 29 times a table lookup):
        # _rel_live[L * P + m, k] = (m + k) % L; _seated[L, k] = k < L.
        lives = range(p + 1)
        self._rel_live = np.array([[(m + k) % max(n_, 1) for k in range(p)] for n_ in lives for m in range(p)])
        # _leader_bit[(L * P + leader) * P + m]: the leader's place seen from m at a table of L, as a bit.
        self._leader_bit = np.array(
            [1 << ((x - m) % max(n_, 1)) for n_ in lives for x in range(p) for m in range(p)], dtype=U64
        )
        self._seated = np.arange(p)[None, :] < np.arange(p + 1)[:, None]
        n = self.n = int(num_deals)
        self._ar = np.arange(n, dtype=np.int64)
        self._rng = _as_generator(seed)
        s = self._sides
        # The table: players still in (L), the player (agent) of each seat (-1 beyond L), each player out
        # and the hand he went out in; the cards of a hand and those left over, for L players.
        self._live = np.full(n, p, dtype=np.int64)
        self._agent_of = np.tile(np.arange(p, dtype=np.int64), (n, 1))
        self._out = np.zeros((n, p), dtype=bool)
        self._out_at = np.full((n, p), -1, dtype=np.int64)
        self._hands = np.zeros((n, p), dtype=U64)
        self._dealt = np.zeros((n, p), dtype=U64)  # as dealt (the dealer's discards included)
        self._played = np.zeros((n, p), dtype=U64)
        self._voids = np.zeros((n, p), dtype=U64)  # 4 bits by suit
        self._signals = np.zeros((n, p), dtype=U64)  # 12 bits: suit x (busso, striscio, volo)
        self._thirds = np.zeros((n, s), dtype=np.int64)
        self._trick = np.full((n, p), -1, dtype=np.int64)  # by seat: its card on the table, -1 none
        self._count = np.zeros(n, dtype=np.int64)  # cards on the table
        self._led = np.full(n, -1, dtype=np.int64)  # the led suit, -1 while nobody has led
        self._leader = np.zeros(n, dtype=np.int64)
        self._first = np.zeros(n, dtype=np.int64)
        self._turn = np.zeros(n, dtype=np.int64)  # the seat to act (kept in a finished deal too)
        self._tricks = np.zeros(n, dtype=np.int64)
        self._dealer = np.zeros(n, dtype=np.int64)
        self._phase = np.full(n, PLAY, dtype=np.int64)
        self._removed = np.zeros(n, dtype=U64)
        self._aside = np.zeros(n, dtype=U64)  # the monte, or the dealer's discards so far
        self._asso_side = np.full(n, -1, dtype=np.int64)  # the side that took the asso di bastoni
        self._hand_number = np.zeros(n, dtype=np.int64)
        self._match_score = np.zeros((n, s), dtype=np.int64)  # by competitor: player, or team
        self._playing = np.ones(n, dtype=bool)
        self.reset()

    # ------------------------------------------------------------------ the observation's fields

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
            hands: chosen hands: one list of card ids per player, by seat (the same everywhere),
                or M of them (one per deal reset); the dealer's holds the extra cards with
                ``reduce="dealer_discard"`` (then ``dealer`` is needed).
            monte: the chosen monte (``reduce="monte"``): card ids, or M lists of them.
            dealer: the dealer, an int or (M,) seats; drawn at random when None.
            deals: which deals to reset: a bool mask (N,) or indices (M,); all when None.

        Raises:
            ValueError: a bad argument (nothing changes, the generator included), with the
                scalar game's message for a chosen deal.
        """
        self._state_changes()  # the legal words are computed anew
        idx = distinct_deals(self._deal_indices(deals))
        m = len(idx)
        dealers = None if dealer is None else self._check_dealers(dealer, m)
        chosen_hands, chosen_monte = self._check_chosen(hands, monte, dealers, m)
        if seed is not None:
            self._rng = _as_generator(seed)
        if m == 0:
            return
        if dealers is None:
            dealers = self._rng.integers(0, self.num_agents, m)
        self._new_episodes(idx, dealers, chosen_hands, chosen_monte)

    def _deal_indices(self, deals: Any) -> np.ndarray:
        return deal_indices(deals, self.n, self._ar)

    def _check_chosen(
        self, hands: Any, monte: Any, dealers: np.ndarray | None, m: int
    ) -> tuple[np.ndarray | None, np.ndarray | None]:
        """(M, P) hand masks and (M,) monte masks of chosen deals (None where not chosen), by the scalar game's check."""
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
            else:  # one deal for every deal reset (the scalar check names what is wrong with it)
                given[key] = [value] * m
        hand_masks = np.zeros((m, self.num_agents), dtype=U64)
        monte_masks = np.zeros(m, dtype=U64)
        if m == 0:  # nothing is dealt; still check the one chosen deal
            given = {key: [hands if key == "hands" else monte] for key in given}
        checked: dict[int | None, dict] = {}
        for j in range(max(m, 1)):
            dealer = None if dealers is None or not len(dealers) else int(dealers[j])
            if not several and dealer in checked:
                out = checked[dealer]
            else:
                options: dict[str, Any] = {key: values[j] for key, values in given.items()}
                if dealer is not None:
                    options["dealer"] = dealer
                try:
                    out = A_PERDERE.check_deal_options(self.rules, options, first=True)
                except ValueError as error:
                    raise ValueError(f"chosen deal {j}: {error}" if several else str(error)) from None
                checked[dealer] = out
            if m == 0:
                break
            if "hands" in out:
                hand_masks[j] = np.array(out["hands"], dtype=U64)
            if "monte" in out:
                monte_masks[j] = U64(sum(1 << c for c in out["monte"]))
        return (hand_masks if hands is not None else None), (monte_masks if monte is not None else None)

    def _new_episodes(
        self, idx: np.ndarray, dealers: np.ndarray, hands: np.ndarray | None = None, monte: np.ndarray | None = None
    ) -> None:
        """Every player back at the table, match score 0, hand 0, and the first hand dealt."""
        p = self.num_agents
        self._live[idx] = p
        self._agent_of[idx] = np.arange(p)
        self._out[idx] = False
        self._out_at[idx] = -1
        self._match_score[idx] = 0
        self._hand_number[idx] = 0
        self._deal(idx, dealers, hands, monte, first_hand=True)

    def _deal(
        self,
        idx: np.ndarray,
        dealers: np.ndarray,
        hands: np.ndarray | None = None,
        monte: np.ndarray | None = None,
        *,
        first_hand: bool,
    ) -> None:
        """Deal a hand to the deals ``idx`` with these dealers (seats of the table ``_live``, ``_agent_of``)."""
        m = len(idx)
        p = self.num_agents
        reduce = self.rules.reduce
        live = self._live[idx]
        h, k = _HAND_OF.take(live), _LEFT_OF.take(live)
        rows = np.arange(m)
        removed = np.zeros(m, dtype=U64)
        discarding = (k > 0) & (reduce == "dealer_discard")
        if hands is None:
            fixed = np.zeros(m, dtype=U64) if monte is None else monte.copy()
            if reduce == "remove":
                removed = _REMOVED_OF.take(live)
                fixed |= removed
            deck = self._shuffle(m, fixed)  # the cards not fixed first, shuffled
            bits = _CARD_BIT.take(deck)
            position = np.arange(40)[None, :]
            owner = np.where(position < (live * h)[:, None], position // h[:, None], p)  # (M, 40): p: left over
            hands = np.stack(
                [np.bitwise_or.reduce(np.where(owner == s, bits, _ZERO), axis=1) for s in range(p)], axis=1
            )
            rest = np.bitwise_or.reduce(np.where(owner == p, bits, _ZERO), axis=1)
            hands[rows, dealers] |= np.where(discarding, rest, _ZERO)
            aside = np.zeros(m, dtype=U64)
            if reduce == "monte":
                aside = np.where(k > 0, rest if monte is None else monte, _ZERO)
        else:
            dealt = np.bitwise_or.reduce(hands, axis=1)
            chosen_monte = np.zeros(m, dtype=U64) if monte is None else monte
            rest = _FULL & ~dealt & ~chosen_monte
            aside = np.zeros(m, dtype=U64)
            if reduce == "monte":
                aside = np.where(k > 0, chosen_monte if monte is not None else rest, _ZERO)
            removed = np.where((reduce == "remove") | (k == 0), rest, _ZERO)
        first = (dealers + 1) % live
        if first_hand and self.rules.first_lead == "four_of_denari":
            holds = ((hands >> U64(FOUR_OF_DENARI)) & _ONE) != _ZERO  # (M, P)
            first = np.where(holds.any(axis=1), holds.argmax(axis=1), first)
        self._hands[idx] = hands
        self._dealt[idx] = hands
        for a in (self._played, self._voids, self._signals, self._thirds):
            a[idx] = 0
        self._trick[idx] = -1
        self._count[idx] = 0
        self._led[idx] = -1
        self._tricks[idx] = 0
        self._dealer[idx] = dealers
        self._first[idx] = first
        self._removed[idx] = removed
        self._aside[idx] = aside
        self._asso_side[idx] = -1
        self._playing[idx] = True
        start = np.where(discarding, dealers, first)
        self._phase[idx] = np.where(discarding, DISCARD, PLAY)
        self._turn[idx] = start
        self._leader[idx] = start

    # ------------------------------------------------------------------ masks

    def _words(self, rows: np.ndarray | None = None) -> np.ndarray:
        """(N, 4) uint64 (of ``rows`` only, when given): the legal actions of the seat on turn as 256 bits (bit a: action a)."""
        at = rows_reader(rows)
        turn = at(self._turn)
        hand = self._hands.reshape(-1).take((self._ar if rows is None else rows) * self._hands.shape[1] + turn)
        led = at(self._led)
        playing, phase = at(self._playing), at(self._phase)
        play = playing & (phase == PLAY)
        words = np.zeros((len(turn), 4), dtype=U64)
        words[:, 0] = np.where(play, playable(hand, led), _ZERO)
        if self._teams:  # the leader may signal, truthfully: busso and striscio keep the suit, volo is the last card
            signal_words(words, hand, play & (led < 0), volo=True)
        if self.rules.reduce == "dealer_discard":
            give = np.where(playing & (phase == DISCARD), hand, _ZERO)
            words[:, 3] = give << U64(GIVE - 192)
        return words

    def heuristic_actions(self, deals: np.ndarray | Sequence[int] | None = None) -> np.ndarray:
        """``APerdereHeuristic``'s action for the seat on turn in ``deals`` (``vector.a_perdere_heuristic``)."""
        from .a_perdere_heuristic import heuristic_actions  # it reads this module: imported when first played

        return heuristic_actions(self, deals)

    # ------------------------------------------------------------------ observations

    def observe(self, seats: int | np.ndarray | None = None, deals: np.ndarray | None = None) -> np.ndarray:
        """(M, size) int8 observations: the bytes of the scalar ``observation(rules).encode(view(state, seat))``.

        Args:
            seats: the observing seat: None for the seat on turn, an int for the same seat
                everywhere, or an array with one seat per observed deal.
            deals: which deals (indices or a bool mask); all when None.

        Raises:
            ValueError: a seat outside 0..P-1, or ``seats=None`` for a finished deal (no seat on turn).
        """
        p = self.num_agents
        rows = self._deal_indices(deals)
        m = len(rows)
        playing = self._playing.take(rows)
        if seats is None:
            if not playing.all():
                raise ValueError("a finished deal has no seat on turn: name the observing seats")
            me = self._turn.take(rows)
        else:
            me = check_seats(seats, m, p)
        fields = self._fields
        f = np.zeros((len(fields), m), dtype="<u8")  # by field: each a contiguous row (``_pack``)
        live = self._live.take(rows)
        seated = self._seated.take(live, axis=0) if self._elimination else None  # (M, P): relative seats at the table

        def at_table(x: np.ndarray) -> np.ndarray:  # x's entries of the seats at the table (all but in an elimination)
            return x if seated is None else np.where(seated, x, _ZERO)

        rel = self._rel_live.take(live * p + me, axis=0)  # (M, P): the absolute seat of each relative seat
        at = rows[:, None] * p + rel  # ... as flat positions in the (N, P) arrays
        mine_at = rows * p + me

        def by_seat(x: np.ndarray) -> np.ndarray:  # (N, P) -> (M, P), the observer's seat first
            return x.reshape(-1).take(at)

        f[fields[("hand", None, 0)]] = self._hands.reshape(-1).take(mine_at)
        f[self._rows_of("trick", p)] = at_table(_bits(by_seat(self._trick))).T
        f[fields[("leader", None, 0)]] = self._leader_bit.take((live * p + self._leader.take(rows)) * p + me)
        f[self._rows_of("played", p)] = at_table(by_seat(self._played)).T
        f[fields[("voids", None, 0)]] = or_columns(at_table(by_seat(self._voids)), 4)
        if self._teams:
            f[fields[("signals", None, 0)]] = or_columns(by_seat(self._signals), 12)
        f[fields[("trick_number", None, 0)]] = BIT.take(self._tricks.take(rows))
        if not playing.all():  # a finished deal: no leader and no trick number
            f[fields[("leader", None, 0)], ~playing] = 0
            f[fields[("trick_number", None, 0)], ~playing] = 0
        mine = self._agent_of.reshape(-1).take(mine_at)  # the observer's player
        if self._teams:
            side = me % 2
            by_side = by_competitor = np.stack([side, 1 - side], axis=1)
        else:
            by_side = rel
            by_competitor = self._seat.rel.take(mine, axis=0)  # every player, the observer first
        sides = self._thirds.shape[1]
        thirds = _THERMO.take(self._thirds.reshape(-1).take(rows[:, None] * sides + by_side))
        if not self._teams:
            thirds = at_table(thirds)
        f[self._rows_of("thirds", self._sides)] = thirds.T
        if self._match:
            score = self._match_score.reshape(-1).take(rows[:, None] * self._match_score.shape[1] + by_competitor)
            need = np.clip(self.rules.target_score - score, 0, 41)
            f[self._rows_of("to_target", self._sides)] = _THERMO.take(need).T
        f[fields[("removed", None, 0)]] = self._removed.take(rows)
        f[fields[("set_aside", None, 0)]] = _THERMO.take(self._set_aside_count(rows))
        if self._elimination:
            out = self._out.reshape(-1).take(rows[:, None] * self._out.shape[1] + by_competitor)  # by player
            f[fields[("out", None, 0)]] = or_columns(np.where(out, _ONE, _ZERO), 1)
        if self.rules.reduce == "dealer_discard":
            dealer = me == self._dealer.take(rows)
            f[fields[("face_down_known", None, 0)]] = np.where(dealer, self._aside.take(rows), _ZERO)
        if self._elimination:  # a seat beyond the players still in: nothing to see (as the AEC environment)
            f[:, me >= live] = 0
        return self._pack(f)

    def _set_aside_count(self, rows: np.ndarray) -> np.ndarray:
        """Cards face down for the last trick's winner (the monte or the discards) in the deals ``rows``."""
        if self.rules.reduce == "remove":
            return np.zeros(len(rows), dtype=np.int64)
        return _LEFT_OF.take(self._live.take(rows))

    # ------------------------------------------------------------------ stepping

    def step(
        self, actions: np.ndarray | Sequence[int], *, active: np.ndarray | None = None, autoreset: bool = True
    ) -> APerdereStepResult:
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
        renuncio = bad
        seat = self._turn.copy()
        play = active & ok & (a < GIVE)
        give = active & ok & (a >= GIVE)
        card = np.where(give, a - GIVE, _PLAY_CARD.take(a))
        bit = np.where(play | give, _CARD_BIT.take(card), _ZERO)
        flat_view(self._hands)[ar * self._hands.shape[1] + seat] ^= bit  # by flat index, as play_cards writes the trick

        # --- the dealer's discards, face down
        if give.any():
            self._aside |= np.where(give, bit, _ZERO)
            done = give & (popcount(self._aside) == _LEFT_OF.take(self._live))
            self._phase = np.where(done, PLAY, self._phase)
            self._turn = np.where(done, self._first, self._turn)
            self._leader = np.where(done, self._first, self._leader)

        # --- the card play
        complete = play_cards(self, play, seat, a, card, np.where(play, bit, _ZERO), self._live, self._teams)
        hand_complete = np.zeros(n, dtype=bool)
        if complete.any():
            done, winner, taken, last, cards = close_tricks(self, complete, _HAND_OF.take(self._live))
            side = self._side_of.take(winner)
            flat_view(self._thirds)[done * self._sides + side] += taken
            has_asso = (cards & _ASSO_BIT) != _ZERO
            self._asso_side[done[has_asso]] = side[has_asso]
            hand_complete[done[last]] = True
        ended = hand_complete | renuncio
        if not ended.any():
            return self._quiet_result()
        return self._end_hands(ended, renuncio, seat, autoreset)

    def _quiet_result(self) -> APerdereStepResult:
        """The result of a step in which no hand ended: zeros and -1."""
        n, p, s = self.n, self.num_agents, self._sides
        no = np.zeros(n, dtype=bool)
        none = np.full(n, -1, dtype=np.int8)
        return APerdereStepResult(
            np.zeros((n, p), dtype=np.float32), no, no.copy(), np.zeros((n, s), dtype=np.int64),
            np.zeros((n, s), dtype=np.int64), none, none.copy(), np.zeros((n, s), dtype=np.int64), none.copy(),
            np.zeros(n, dtype=np.int64),
        )  # fmt: skip

    def _charges(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``TressetteAPerdere.charges`` of every deal (read where a hand is complete): points, thirds, cappotto by side."""
        n, s = self.n, self._sides
        ar = self._ar
        rules = self.rules
        thirds = self._thirds.copy()
        last = self._side_of.take(self._leader)  # the winner of the last trick leads next: its side
        thirds[ar, last] += _thirds_of(self._aside)
        v = rules.asso_bastoni_value
        if v != 1:
            holder = np.where((self._aside & _ASSO_BIT) != _ZERO, last, self._asso_side)
            thirds[ar, np.maximum(holder, 0)] += np.where(holder >= 0, 3 * (v - 1), 0)
        total = rules.total
        points = thirds // 3
        side = np.arange(s)[None, :]
        seated = side < (2 if self._teams else self._live[:, None])  # the sides of this hand
        is_last = side == last[:, None]
        if rules.last_trick == "remainder":
            others = np.where(is_last, 0, points).sum(axis=1)
            points = np.where(is_last, (total - others)[:, None], points)
        others_zero = ((points == 0) | is_last | ~seated).all(axis=1)
        cappotto = np.full(n, -1, dtype=np.int64)
        if self._low:
            if rules.cappotto != "none":
                capp = others_zero
                cappotto = np.where(capp, last, -1)
                points = np.where(capp[:, None], np.where(is_last, 0, total), points)
            else:
                capp = np.zeros(n, dtype=bool)
            if rules.zero_point_charge is not None:
                points = np.where(~capp[:, None] & (points == 0), rules.zero_point_charge, points)
        elif rules.cappotto == "wins_match":
            cappotto = np.where(others_zero, last, -1)
        return np.where(seated, points, 0), thirds, cappotto

    def _end_hands(
        self, ended: np.ndarray, renuncio: np.ndarray, acting: np.ndarray, autoreset: bool
    ) -> APerdereStepResult:
        """Score the hands that ended, close episodes, deal next hands and new episodes."""
        n, p, s = self.n, self.num_agents, self._sides
        ar = self._ar
        rules = self.rules
        total = rules.total
        points, thirds, cappotto = self._charges()
        # Renuncio: with "avoid" the offender's side is charged the hand's total; with "take" every other scores it.
        side = np.arange(s)[None, :]
        seated = side < (2 if self._teams else self._live[:, None])
        offender = side == self._side_of.take(acting)[:, None]
        penalty = (offender if self._low else ~offender) & seated
        points = np.where(renuncio[:, None], np.where(penalty, total, 0), points)
        thirds = np.where(renuncio[:, None], self._thirds, thirds)
        cappotto = np.where(renuncio, -1, cappotto)
        seat_renuncio = np.where(renuncio, acting, -1).astype(np.int8)
        points = points * ended[:, None]
        card_thirds = thirds * ended[:, None]
        cappotto = np.where(ended, cappotto, -1)
        if self._teams:
            gained = points
        else:  # by player: the player of each seat
            agent_of = self._agent_of
            gained = (points[:, :, None] * (agent_of[:, :, None] == np.arange(p)[None, None, :])).sum(axis=1)
        score = self._match_score + gained
        winner = np.full(n, -1, dtype=np.int64)
        out = self._out
        out_at = self._out_at
        if self._match:
            if self._elimination:
                in_hand = (self._agent_of[:, :, None] == np.arange(p)).any(axis=1)  # by player: dealt in this hand
                over = in_hand & (score >= rules.target_score)
                staying = in_hand & ~over
                count = staying.sum(axis=1)
                among = in_hand
            else:
                among = np.ones((n, p if not self._teams else 2), dtype=bool)
            big = np.iinfo(np.int64).max
            key = np.where(among, score if self._low else -score, big)
            best = key.min(axis=1)
            unique = (key == best[:, None]).sum(axis=1) == 1
            choice = (key == best[:, None]).argmax(axis=1)
            if self._elimination:
                goes_out = over & (count >= 1)[:, None]
                winner = np.where(count == 1, staying.argmax(axis=1), np.where((count == 0) & unique, choice, -1))
            else:
                if rules.match_end == "hands":
                    decided = self._hand_number + 1 >= rules.hands
                else:
                    decided = score.max(axis=1) >= rules.target_score
                winner = np.where(decided & unique, choice, -1)
            if rules.cappotto == "wins_match":
                maker = cappotto if self._teams else self._agent_of[ar, np.maximum(cappotto, 0)]
                winner = np.where(cappotto >= 0, maker, winner)
                if self._elimination:
                    goes_out &= (cappotto < 0)[:, None]
            winner = np.where(ended, winner, -1)
            if self._elimination:
                goes_out &= ended[:, None]
                out = out | goes_out
                out_at = np.where(goes_out, self._hand_number[:, None], out_at)
            terminated = ended & (winner >= 0)
            rewards = self._standing(score, winner, out, out_at)
            if self._elimination:  # those put out have their standing as they leave; the others at the end
                paid = np.where(terminated[:, None], ~self._out, out & ~self._out)
                rewards = np.where(paid, rewards, 0.0)
        else:
            terminated = ended.copy()
            sign = -1.0 if self._low else 1.0
            rewards = sign * points.take(self._side_of, axis=1).astype(np.float64)
        paid = terminated | (ended & self._elimination)
        rewards = (rewards * paid[:, None]).astype(np.float32) + np.float32(0.0)  # no -0.0
        self._match_score = np.where(ended[:, None], score, self._match_score)
        self._out, self._out_at = out, out_at
        result = APerdereStepResult(
            rewards,
            terminated,
            ended.copy(),
            points,
            card_thirds,
            cappotto.astype(np.int8),
            seat_renuncio,
            score * ended[:, None],
            winner.astype(np.int8),
            np.where(ended, self._hand_number, 0),
        )
        # The next hand of an unfinished match, dealt by the next player still in.
        go_on = np.flatnonzero(ended & ~terminated)
        if len(go_on):
            self._next_table(go_on)
            self._hand_number[go_on] += 1
        over_idx = np.flatnonzero(terminated)
        if len(over_idx):
            if autoreset:
                self._new_episodes(over_idx, self._rng.integers(0, p, len(over_idx)))
            else:
                self._playing[over_idx] = False
        return result

    def _next_table(self, idx: np.ndarray) -> None:
        """The next hand of the deals ``idx``: the players still in seated in order, dealt by the next one after the last dealer."""
        p = self.num_agents
        m = len(idx)
        rows = np.arange(m)
        previous = self._agent_of[idx, self._dealer[idx]]  # the last dealer (a player)
        if self._elimination:
            still = ~self._out[idx]  # (M, P) by player
            order = np.argsort(~still, axis=1, kind="stable")  # the players still in, in order, first
            live = still.sum(axis=1)
            agent_of = np.where(np.arange(p)[None, :] < live[:, None], order, -1)
            steps = np.arange(1, p + 1)[None, :]
            after = (previous[:, None] + steps) % p  # the players after the last dealer, in turn
            dealer_agent = after[rows, still[rows[:, None], after].argmax(axis=1)]
            dealer = (agent_of == dealer_agent[:, None]).argmax(axis=1)
            self._live[idx] = live
            self._agent_of[idx] = agent_of
        else:
            dealer = (previous + 1) % p
        self._deal(idx, dealer, first_hand=False)

    def _standing(self, score: np.ndarray, winner: np.ndarray, out: np.ndarray, out_at: np.ndarray) -> np.ndarray:
        """(N, P) float64: the match's ``returns`` at this score and winner (read where the match ended).

        Ranks: the winner first; the players still in by total; then those out, the last out
        first, those out in one hand by total; equal places share their mean rank.
        """
        p = self.num_agents
        if self._teams:
            return np.where(np.arange(p)[None, :] % 2 == winner[:, None], 1.0, -1.0)
        is_winner = np.arange(p)[None, :] == winner[:, None]
        total = score if self._low else -score
        gone = out & ~is_winner
        # A sort key by player, the lowest best: class (winner, still in, out), the hand out (later first), total.
        span = 1 << 20
        key = np.where(is_winner, 0, np.where(gone, 2, 1)) * span * span
        key = key + np.where(gone, span // 2 - out_at, 0) * span + (total + span // 2)
        a = key[:, :, None]  # (N, P, 1): the player
        b = key[:, None, :]  # (N, 1, P): the others
        others = ~np.eye(p, dtype=bool)[None]
        better = (b < a) & others
        equal = (b == a) & others
        rank = better.sum(axis=2) + equal.sum(axis=2) / 2
        return 1.0 - 2.0 * rank / (p - 1)

    # ------------------------------------------------------------------ reading the state

    @property
    def agent(self) -> np.ndarray:
        """(N,) int64: the player on turn in each deal (the seat's player); -1 in a finished deal."""
        return np.where(self._playing, self._agent_of[self._ar, self._turn], -1)

    def lead(self, agents: np.ndarray) -> np.ndarray:
        """(N,) float32: ``Game.lead`` of each deal's player ``agents[i]``'s seat: what a dense reward pays as the hand goes.

        Minus the thirds his side has taken this hand, in points (with ``teams``: minus its lead
        over the other team); the other way round with ``objective="take"``; 0 for a player out.
        """
        a = self._agents_arg(agents)
        seat = (self._agent_of == a[:, None]).argmax(axis=1)
        seated = (self._agent_of == a[:, None]).any(axis=1)
        side = self._side_of.take(seat)
        own = self._thirds[self._ar, side]
        if self._teams:
            own = own - self._thirds[self._ar, 1 - side]
        sign = -1.0 if self._low else 1.0
        return np.where(seated, sign * own / 3 + 0.0, 0.0).astype(np.float32)

    @property
    def first_leader(self) -> np.ndarray:
        """(N,) the seat that leads (or led) the hand's first trick."""
        return self._first.copy()

    @property
    def leader(self) -> np.ndarray:
        """(N,) the seat that leads (or led) the current trick (the dealer while he discards)."""
        return self._leader.copy()

    @property
    def phase(self) -> np.ndarray:
        """(N,) the scalar game's phase: ``PLAY`` (0), or ``DISCARD`` (1) while the dealer discards."""
        return self._phase.copy()

    @property
    def thirds(self) -> np.ndarray:
        """(N, S) thirds each side has taken this hand (``PublicState.thirds``)."""
        return self._thirds.copy()

    @property
    def match_score(self) -> np.ndarray:
        """(N, S) each side's points (charges with ``objective="avoid"``) over the finished hands of the episode."""
        return self._match_score.copy()

    def players_in(self) -> np.ndarray:
        """(N, P) int64: the player (agent) at each seat of the current hand, -1 beyond the players still in.

        Seat s is the s-th player still in (``Table.controllers``); every player, seat = player, but
        in an elimination match once someone is out.
        """
        return self._agent_of.copy()

    def out(self) -> np.ndarray:
        """(N, P) bool by player: out of the match (``match_end="elimination"``)."""
        return self._out.copy()

    def hands(self) -> np.ndarray:
        """(N, P) uint64: the cards each seat holds, as engine card masks (bit c = card c)."""
        return self._hands.copy()

    def dealt(self) -> np.ndarray:
        """(N, P) uint64: the cards each seat was dealt this hand (the dealer's discards included)."""
        return self._dealt.copy()

    def removed(self) -> np.ndarray:
        """(N,) uint64: the cards removed and announced this hand."""
        return self._removed.copy()

    def set_aside(self) -> np.ndarray:
        """(N,) uint64: the cards face down for the last trick's winner: the monte, or the dealer's discards so far."""
        return self._aside.copy()

    def deal_of(self, deal: int) -> dict[str, list]:
        """One deal's current hand as dealt: ``{"hands": one list per player}`` (and ``"monte"`` with ``reduce="monte"``).

        The keyword arguments of ``new_game`` (with ``dealer=batch.dealer[deal]``) or ``next_hand``.
        """
        deal = self._deal_arg(deal)
        live = int(self._live[deal])
        out: dict[str, list] = {"hands": [[c for c in range(40) if int(m) >> c & 1] for m in self._dealt[deal, :live]]}
        if self.rules.reduce == "monte" and _LEFT_OF[live]:
            out["monte"] = [c for c in range(40) if int(self._aside[deal]) >> c & 1]
        return out
