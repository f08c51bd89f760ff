"""Tressette col morto for N deals at once: ``ColMortoBatch``, on the four-seat batched engine.

Col morto is the four-seat game with one or two hands face up, each played by its partner
(FAMILY.md section 2): the same deal, the same card play, the same declarations and the
same hand score. So its batch is the four-seat ``TressetteBatch`` (whose trick play is
``vector._tricks``'s, every batched engine's) and what col morto adds, by deal: who sits where (the seating of the scalar game,
tabulated once from ``TressetteColMorto.seating``), which seats may signal, when the dummy
is shown, the players' own match scores, its rewards and its observation. Everything is
the scalar game's, byte for byte and reward for reward (``tests/vector/test_col_morto.py``).

| name | what it is |
| --- | --- |
| ``ColMortoBatch(n, seed=None, **rules)`` | N deals under one rule set (every switch of ``ColMortoRules``) |
| ``reset(seed=None, hands=None, dealer=None, holder=None, deals=None)`` | new episodes: shuffled or chosen deals (``dealer``: a player; ``holder``: the dummy's holder with ``dummy_holder="fixed"``) |
| ``turn`` / ``agent`` | (N,) the seat on turn / the player who plays it (its own seat or its dummy's); -1 in a finished deal |
| ``legal_masks(dtype=np.int8)`` | (N, 255): the legal actions of the seat on turn (the family's action ids) |
| ``observe(agents=None, deals=None)`` | (M, size) int8: a player's observation from its own seat (the player on turn by default); compiled where numba is installed (``vector._col_morto_words``) |
| ``step(actions, active=None, autoreset=True)`` | the player on turn acts for the seat on turn; a ``ColMortoStep`` |
| ``sample_actions(rng)`` | (N,) a uniformly random legal action per deal |
| ``heuristic_actions(batch, deals=None)`` | ``ColMortoHeuristic``'s action for the seat on turn, decision for decision (below) |
| ``controllers``, ``seat_of``, ``dummies``, ``match_score`` ... | copies of the state, by deal |

Rewards are the AEC environment's (``TressetteColMorto.returns``), by player: a hand pays
each player his side's points minus the other side's when it ends; a match pays +1 to the
winner and -1/(players - 1) to each other player, or with a fixed holder (whose match is kept
by side, ``COL_MORTO.competitors``) +1 shared by the winning side and -1 by the other (the
holder alone, the pair 0.5 each). A match's hands follow one another inside
the step that ends the one before (the next dealer, the new seats), as in the AEC
environment. Illegal actions follow ``illegal_action``: a renuncio loses the offender's
side the hand 11-0 (the ``StepResult.renuncio`` array names the seat), or
``IllegalActionError`` with nothing changed; an id outside 0..254 (-1 is allowed in a deal
that does not play) always raises ValueError, as in the family's other batches.

Example:
    >>> import numpy as np
    >>> batch = ColMortoBatch(3, seed=0)
    >>> rng = np.random.default_rng(0)
    >>> for _ in range(40):  # a hand is 40 card plays
    ...     result = batch.step(batch.sample_actions(rng))
    >>> result.terminated.tolist(), result.rewards.shape, batch.observe().shape
    ([True, True, True], (3, 3), (3, 999))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..encoders.col_morto import observation as col_morto_observation
from ..engine.actions import CALL_OUT, FAMILY_NUM_ACTIONS, NUM_ACTIONS
from ..engine.game import IllegalActionError
from ..engine.state import PLAY
from ..envs.playing import check_flag
from ..games.col_morto import COL_MORTO, ColMortoRules, by_sides
from ..messages import shown
from . import _tables as tb
from ._family import check_agents, check_seats, compiled_kernel, distinct_deals
from ._tables import U64, placements, put, shifted
from .engine import _H, SeedLike, TressetteBatch, _as_generator, unpack_rows
from .heuristic import _actions, _read, _Table

_M64 = U64(0xFFFFFFFFFFFFFFFF)
_ZERO = U64(0)
_REVERSE4 = np.array([int(f"{b:04b}"[::-1], 2) for b in range(16)], dtype=np.int64)
"""[bits by relative seat, seat 0 lowest] -> the 4-entry field, seat 0 first (highest)."""


def _get(words: np.ndarray | list[np.ndarray], offset: int, width: int) -> np.ndarray:
    """The ``width``-bit field (at most 64) at entry ``offset`` of observation words: ``put``'s inverse."""
    value = None
    for k, shift in placements(offset, width):
        part = shifted(words[k], -shift)
        value = part if value is None else value | part
    return value & U64((1 << width) - 1)


class ColMortoStep(NamedTuple):
    """What one ``ColMortoBatch.step`` did, deal by deal (the hand's fields where ``hand_over``, else 0 / -1)."""

    rewards: np.ndarray
    """(N, players) float32 by player: the AEC environment's rewards (nonzero when an episode ends)."""
    terminated: np.ndarray
    """(N,) bool: the episode ended in this step (with autoreset, a new one was dealt)."""
    hand_over: np.ndarray
    """(N,) bool: a hand ended in this step."""
    hand_points: np.ndarray
    """(N, 2) int64: each side's points for the hand (side 0: seats 0 and 2)."""
    card_thirds: np.ndarray
    """(N, 2) int64: thirds each side took in cards."""
    accusi: np.ndarray
    """(N, 2) int64: declaration points each side scored."""
    cappotto: np.ndarray
    """(N,) int8: the side that made every point, or -1."""
    renuncio: np.ndarray
    """(N,) int8: the seat whose illegal action ended the hand, or -1."""
    match_score: np.ndarray
    """(N, competitors) int64: the match scores after the hand (``episode="match"``; 0 in ``"hand"``): by player,
    or by side (the holder's first) in a fixed holder's match."""
    winner: np.ndarray
    """(N,) int8: the player (with a fixed holder: the side) who won the match when it ended, or -1."""
    hand_number: np.ndarray
    """(N,) int64: the number of the hand that ended (0 for an episode's first)."""


def _seating_tables(rules: ColMortoRules) -> dict[str, np.ndarray]:
    """The scalar game's seating for every (dealer player, holder): row ``3 * dealer + holder``."""
    rows: dict[str, list] = {"dealer_seat": [], "controllers": [], "seat_of": [], "dummies": [], "signal_seats": []}
    for dealer in range(3):
        for holder in range(3):
            if dealer >= rules.players:
                dealer_seat, controllers, seat_of = 0, (0, 0, 0, 0), (0,) * rules.players
                dummies: tuple = ()
                signal = 0
            else:
                dealer_seat, controllers, seat_of = COL_MORTO.seating(rules, dealer, holder)
                dummies = COL_MORTO.dummies(controllers, seat_of)
                signal = COL_MORTO._table(rules, controllers, seat_of, 0, PLAY).signal_seats
            rows["dealer_seat"].append(dealer_seat)
            rows["controllers"].append(controllers)
            rows["seat_of"].append(seat_of)
            rows["dummies"].append(sum(1 << s for s in dummies))
            rows["signal_seats"].append(signal)
    return {
        "dealer_seat": np.array(rows["dealer_seat"], dtype=np.int64),
        "controllers": np.array(rows["controllers"], dtype=np.int64),
        "seat_of": np.array(rows["seat_of"], dtype=np.int64),
        "dummies": np.array(rows["dummies"], dtype=np.uint8),
        "signal_seats": np.array(rows["signal_seats"], dtype=np.uint8),
    }


class ColMortoBatch:
    """N deals of Tressette col morto stepped together (see the module docstring).

    Args:
        num_deals: N.
        seed: an int, a ``numpy.random.Generator`` or None: the dealers, the holders and the shuffles.
        **rules: switches of ``ColMortoRules`` (all are supported).
    """

    seats = 4
    """Seats at the table, each playing once a trick (``SeatRows`` makes each a row)."""
    deal_options = ("hands", "dealer", "holder")
    decisions_per_hand = 10
    """Decisions of each seat in a hand (``SeatRows`` keeps the deals in step by it)."""
    """The chosen-deal keywords of ``reset`` (what ``FamilyVectorEnv.reset(options=...)`` passes on)."""

    def __init__(self, num_deals: int, *, seed: SeedLike = None, **rules: Any):
        self.rules = ColMortoRules.make(**rules)
        r = self.rules
        self.observation = col_morto_observation(r)
        """The scalar observation whose bytes ``observe`` gives."""
        self.num_agents = r.players
        self.num_actions = FAMILY_NUM_ACTIONS
        self._rng = _as_generator(seed)
        engine_rules: dict[str, Any] = {
            "signals": r.players == 3 and r.signals,
            "accusi": r.accusi,
            "first_lead": r.first_lead,
            "cappotto_bonus": r.cappotto_bonus,
            "illegal_action": r.illegal_action,
        }
        if engine_rules["signals"]:
            engine_rules["striscio"] = r.striscio
        self.engine = TressetteBatch(num_deals, seed=self._rng, **engine_rules)
        """The four-seat batch that plays the cards (its seats are col morto's seats)."""
        n = self.n = self.engine.n
        self._ar = np.arange(n)
        self._tables = _seating_tables(r)
        self._key = np.zeros(n, dtype=np.int64)  # 3 * dealer player + holder: the row of the seating tables
        self._holder = np.zeros(n, dtype=np.int64)
        self._by_sides = by_sides(r)  # a fixed holder's match: kept by side
        self._score = np.zeros((n, COL_MORTO.competitors(r)), dtype=np.int64)
        self._hand_number = np.zeros(n, dtype=np.int64)
        self._shown = np.zeros(n, dtype=bool)  # the dummies are face up
        self._packed_masks = np.zeros((n, 32), dtype=np.uint8)
        self._all_shown = False
        self._quiet: ColMortoStep | None = None
        sl = self.observation.slices
        self._at = {name: (s.start, s.stop) for name, s in sl.items()}
        self.reset()

    # ------------------------------------------------------------------ dealing

    def reset(
        self,
        seed: SeedLike = None,
        *,
        hands: Sequence | np.ndarray | None = None,
        dealer: int | Sequence[int] | np.ndarray | None = None,
        holder: int | Sequence[int] | np.ndarray | None = None,
        deals: np.ndarray | Sequence[int] | None = None,
    ) -> None:
        """Deal new episodes (match scores 0, hand 0).

        Args:
            seed: reseed the generator; None keeps it.
            hands: chosen deals, card ids (4, 10) or (M, 4, 10) by seat (as ``TressetteBatch.reset``).
            dealer: the dealing player (0..players-1), one or one per deal; drawn when None.
            holder: with ``dummy_holder="fixed"``, the player who holds the dummy all match; drawn when None.
            deals: which deals (a bool mask or indices); all when None.
        """
        engine = self.engine
        idx = distinct_deals(engine._deal_indices(np.arange(self.n) if deals is None else deals))
        m = len(idx)
        players = self.rules.players
        dealers = self._players(dealer, m, "dealer")
        fixed = players == 3 and self.rules.dummy_holder == "fixed"
        if holder is not None and not fixed:
            raise ValueError('holder is chosen only with players=3 and dummy_holder="fixed"')
        holders = self._players(holder, m, "holder")
        if hands is not None:
            engine._check_hands(hands, max(m, 1))  # checked before anything changes
        if seed is not None:
            self._rng = _as_generator(seed)
            engine.reset(self._rng, deals=np.zeros(self.n, dtype=bool))
        if m == 0:
            return
        if dealers is None:
            dealers = self._rng.integers(0, players, m)
        if holders is None:
            holders = self._rng.integers(0, 3, m) if fixed else np.zeros(m, dtype=np.int64)
        self._holder[idx] = holders
        self._score[idx] = 0
        self._hand_number[idx] = 0
        self._deal(idx, dealers, hands, first_hand=True)

    def _players(self, value: Any, m: int, name: str) -> np.ndarray | None:
        if value is None:
            return None
        top = self.rules.players if name == "dealer" else 3
        v = np.asarray(value)
        if v.dtype == bool or not np.issubdtype(v.dtype, np.integer) or v.shape not in ((), (m,)):
            raise ValueError(f"{name} must be a player 0..{top - 1} (an int) or {m} of them; got {shown(value)}")
        if ((v < 0) | (v >= top)).any():
            raise ValueError(f"{name} must be a player 0..{top - 1}; got {shown(value)}")
        return np.broadcast_to(v, (m,)).astype(np.int64)

    def _deal(self, idx: np.ndarray, dealers: np.ndarray, hands: Any, first_hand: bool) -> None:
        """Seat and deal a hand in the deals ``idx``: the seating of (dealer player, holder), then the cards."""
        key = 3 * dealers + self._holder[idx]
        self._key[idx] = key
        t = self._tables
        engine = self.engine
        engine.reset(hands=hands, dealer=t["dealer_seat"][key], deals=idx, first_hand=first_hand)
        if engine.rules.signals:
            engine.set_signal_seats(t["signal_seats"][key], deals=idx)
        # The dummy is face up from the deal, or once the opening lead is made; a dummy on lead is shown.
        first = engine.turn[idx]
        on_lead = (t["dummies"][key] >> first.astype(np.uint8)) & 1
        self._shown[idx] = (self.rules.dummy_exposed == "deal") | on_lead.astype(bool)
        self._all_shown = bool(self._shown.all())

    def _quiet_result(self) -> ColMortoStep:
        """The result of a step in which no hand ended: shared read-only arrays of zeros and -1."""
        if self._quiet is None:
            n, players = self.n, self.rules.players
            no = np.zeros(n, dtype=bool)
            pair = np.zeros((n, 2), dtype=np.int64)
            none = np.full(n, -1, dtype=np.int8)
            fields = (np.zeros((n, players), dtype=np.float32), no, no, pair, pair, pair, none, none)
            fields += (np.zeros_like(self._score), none, np.zeros(n, dtype=np.int64))
            for f in fields:
                f.flags.writeable = False
            self._quiet = ColMortoStep(*fields)
        return self._quiet

    # ------------------------------------------------------------------ reading the state

    @property
    def turn(self) -> np.ndarray:
        """(N,) the seat on turn; -1 in a finished deal."""
        return self.engine.turn

    @property
    def agent(self) -> np.ndarray:
        """(N,) the player on turn (who plays his own seat or his dummy's); -1 in a finished deal."""
        turn = self.engine.turn
        controllers = self._tables["controllers"][self._key]
        return np.where(turn >= 0, controllers[self._ar, np.maximum(turn, 0)], -1)

    @property
    def controllers(self) -> np.ndarray:
        """(N, 4) the player who plays each seat this hand."""
        return self._tables["controllers"][self._key]

    @property
    def seat_of(self) -> np.ndarray:
        """(N, players) each player's own seat this hand."""
        return self._tables["seat_of"][self._key]

    @property
    def dummies(self) -> np.ndarray:
        """(N,) uint8: bit s is set when seat s is a dummy this hand."""
        return self._tables["dummies"][self._key]

    @property
    def thirds(self) -> np.ndarray:
        """(N, 2) thirds each side has taken this hand (side 0: seats 0 and 2)."""
        return self.engine.thirds

    @property
    def tricks_done(self) -> np.ndarray:
        """(N,) completed tricks of the current hand."""
        return self.engine.tricks_done

    def trick_cards(self) -> np.ndarray:
        """(N, 4) int8: the card each seat has on the table in the current trick, -1 for none."""
        return self.engine.trick_cards()

    @property
    def leader(self) -> np.ndarray:
        """(N,) the seat that leads (or led) the current trick."""
        return self.engine.leader

    @property
    def dealer(self) -> np.ndarray:
        """(N,) the dealing player of the current hand."""
        return self._key // 3

    @property
    def match_score(self) -> np.ndarray:
        """(N, competitors) the match scores over the finished hands of the episode.

        By player; by side (the holder's first) with a fixed holder.
        """
        return self._score.copy()

    @property
    def hand_number(self) -> np.ndarray:
        """(N,) 0 for the episode's first hand, then 1, 2, ..."""
        return self._hand_number.copy()

    def deal_of(self, deal: int) -> list[list[int]]:
        """One deal's current hand as dealt: four lists of ten card ids, by seat."""
        return self.engine.deal_of(deal)

    def lead(self, agents: np.ndarray) -> np.ndarray:
        """(N,) float32: how far each deal's player ``agents[i]``'s side is ahead in thirds this hand, in points.

        ``Game.lead`` of the player's own seat: what a dense reward pays as the hand goes.
        """
        agents = check_agents(agents, self.n, self.num_agents)
        thirds = self.engine.thirds  # (N, 2) by side
        side = self.seat_of[self._ar, agents] & 1
        own = np.take_along_axis(thirds, side[:, None], axis=1)[:, 0]
        other = np.take_along_axis(thirds, 1 - side[:, None], axis=1)[:, 0]
        return ((own - other) / 3).astype(np.float32)

    def heuristic_actions(self, deals: np.ndarray | Sequence[int] | None = None) -> np.ndarray:
        """``ColMortoHeuristic``'s actions for the seat on turn in ``deals`` (the module's ``heuristic_actions``)."""
        return heuristic_actions(self, deals)

    # ------------------------------------------------------------------ masks and observations

    def legal_masks(self, dtype: Any = np.int8) -> np.ndarray:
        """(N, 255): 1 (True with ``dtype=bool``) for each legal action of the seat on turn; 0 in a finished deal."""
        if dtype not in (bool, np.bool_, np.int8):
            raise ValueError(f"legal_masks gives int8 (the default) or bool masks; got dtype {shown(dtype)}")
        packed = self._packed_masks
        packed[:, :24] = self.engine._packed_legal()  # the engine's 161 bits; the family's actions past them are 0
        bits = unpack_rows(packed, FAMILY_NUM_ACTIONS)
        return bits.view(np.bool_) if dtype in (bool, np.bool_) else bits.view(np.int8)

    def sample_actions(self, rng: np.random.Generator) -> np.ndarray:
        """(N,) a uniformly random legal action in each deal; -1 where none."""
        return self.engine.sample_actions(rng)

    def observe(self, agents: int | np.ndarray | None = None, deals: np.ndarray | None = None) -> np.ndarray:
        """(M, size) int8: each player's observation from his own seat, byte for byte the scalar one.

        Args:
            agents: the observing player: None for the player on turn, an int for the same
                player everywhere, or one per observed deal.
            deals: which deals (indices or a bool mask); all when None.
        """
        engine = self.engine
        rows = self._ar if deals is None else engine._deal_indices(deals)
        m = len(rows)
        key = self._key.take(rows)
        t = self._tables
        turn = engine.turn.take(rows)
        on_turn = t["controllers"].reshape(-1).take(4 * key + np.maximum(turn, 0))  # the player on turn (-1: none)
        if agents is None:
            if (turn < 0).any():
                raise ValueError("a finished deal has no player on turn: name the observing players")
            player = on_turn
        else:
            player = check_seats(agents, m, self.rules.players, name="agents", noun="player")
        me = t["seat_of"].reshape(-1).take(t["seat_of"].shape[1] * key + player)
        compiled = compiled_kernel("_col_morto_words")
        if compiled is not None:
            packed = compiled.packed(self, rows, me, player, turn, key, on_turn)
        else:
            words = self._words(rows, me, player, turn, key, on_turn)
            packed = np.stack(words).T.astype(">u8", order="C").view(np.uint8)
        return unpack_rows(packed, self.observation.size).view(np.int8)

    def _words(
        self,
        rows: np.ndarray,
        me: np.ndarray,
        player: np.ndarray,
        turn: np.ndarray,
        key: np.ndarray,
        on_turn: np.ndarray,
    ) -> list[np.ndarray]:
        """The observation as uint64 words (entry j at bit 63 - j % 64 of word j // 64, as ``vector._tables``).

        The four-seat pieces come from the engine's words of the same seats: hand to accusi
        at the same places, trick_number to thirds moved past the ``exposed`` piece; then
        col morto's own pieces.
        """
        engine = self.engine
        at = self._at
        m = len(rows)
        four = engine._observe_words(me, rows)  # 13 (M,) words: the four-seat observation of seats ``me``
        cut = at["exposed"][0]
        words: list = [None] * ((self.observation.size + 63) // 64)
        for k in range(cut // 64):
            words[k] = four[k]
        if cut % 64:
            words[cut // 64] = four[cut // 64] & ~(_M64 >> U64(cut % 64))
        moved = at["thirds"][1] - at["trick_number"][0]  # trick_number, declared_points, thirds
        for offset in range(0, moved, 60):
            width = min(60, moved - offset)
            put(words, _get(four, cut + offset, width), at["trick_number"][0] + offset, width)
        dummies = self._tables["dummies"].take(key)
        shown = self._shown.take(rows)
        if shown.any():
            n = self.n
            slot = (me - engine._q.take(rows)) & 3  # the slot of the observer's seat: slot i holds seat i + q
            for k in range(4):
                seat = (me + k) & 3
                up = shown & ((dummies >> seat.astype(np.uint8)) & np.uint8(1)).astype(bool)
                if up.any():
                    held = engine._rot[_H].reshape(-1).take(((slot + k) & 3) * n + rows)
                    put(words, np.where(up, held, _ZERO), at["exposed"][0] + 40 * k, 40)
        if self.rules.episode == "match":
            n_comp = self._score.shape[1]
            mine = me & 1 if self._by_sides else player  # the observer's score first
            for k in range(n_comp):
                score = self._score[rows, (mine + k) % n_comp]
                need = np.clip(self.rules.target_score - score, 0, 41)
                put(words, tb.THERMO_TARGET.take(need), at["to_target"][0] + 41 * k, 41)
        rel = (dummies.astype(np.int64) * 0x11 >> me) & 0xF  # bit k: relative seat k is a dummy
        put(words, _REVERSE4.take(rel).astype(U64), at["dummies"][0], 4)
        acting = (turn >= 0) & (on_turn == player)
        field = np.where(acting, U64(8) >> ((turn - me) & 3).astype(U64), _ZERO)
        put(words, field, at["acting_for"][0], 4)
        zero = np.zeros(m, dtype=U64)
        return [zero if w is None else w for w in words]

    # ------------------------------------------------------------------ stepping

    def step(
        self, actions: np.ndarray | Sequence[int], *, active: np.ndarray | None = None, autoreset: bool = True
    ) -> ColMortoStep:
        """The player on turn in every (active) deal plays for the seat on turn.

        Args:
            actions: (N,) family action ids 0..254 (a card play is 0..159; the rest are never legal here).
            active: (N,) bool: the deals that play; all when None.
            autoreset: deal a new episode to each deal whose episode ends (same step).
        """
        if type(autoreset) is not bool:  # before anything changes: None or "no" are no flag
            autoreset = check_flag("autoreset", autoreset)
        engine = self.engine
        a = np.asarray(actions)
        if a.shape != (self.n,):
            raise ValueError(f"actions must have shape ({self.n},), one per deal; got {a.shape}")
        if a.dtype == bool or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions are integer ids 0..{FAMILY_NUM_ACTIONS - 1}; got dtype {a.dtype}")
        if a.dtype.kind == "u" and (a >= FAMILY_NUM_ACTIONS).any():  # before int64 wraps 2**64 - 1 to -1
            bad = int(np.flatnonzero(a >= FAMILY_NUM_ACTIONS)[0])
            raise ValueError(f"actions are ids 0..{FAMILY_NUM_ACTIONS - 1}; deal {bad} got {int(a[bad])}")
        if a.dtype != np.int64:
            a = a.astype(np.int64)
        playing = None
        if a.min() < 0 or a.max() >= NUM_ACTIONS:  # out of range, -1 for a deal that does not play, or not a card
            playing = engine.turn >= 0 if active is None else np.asarray(active, dtype=bool) & (engine.turn >= 0)
            wide = (a >= NUM_ACTIONS) & (a < FAMILY_NUM_ACTIONS)
            if (a >= FAMILY_NUM_ACTIONS).any() or ((a < 0) & ((a != -1) | playing)).any():
                bad = int(np.flatnonzero((a >= FAMILY_NUM_ACTIONS) | ((a < 0) & ((a != -1) | playing)))[0])
                raise ValueError(
                    f"actions are ids 0..{FAMILY_NUM_ACTIONS - 1} (or -1 in a deal that does not play); "
                    f"deal {bad} got {int(a[bad])}"
                )
            if (wide & playing).any() and self.rules.illegal_action == "raise":
                bad = int(np.flatnonzero(wide & playing)[0])
                raise IllegalActionError(
                    f"illegal action {int(a[bad])} in deal {bad}: col morto's actions are card plays (0..159); "
                    f"legal: {np.flatnonzero(self.legal_masks()[bad]).tolist()}"
                )
            if wide.any():
                a = np.where(wide, CALL_OUT, a)  # never legal in col morto: the engine's renuncio
        if not self._all_shown and playing is None:
            playing = engine.turn >= 0 if active is None else np.asarray(active, dtype=bool) & (engine.turn >= 0)
        result = engine.step(a, active=active, autoreset=False)
        if not self._all_shown:
            # The opening lead shows a dummy dealt face down (after_first_card); a renuncio ends the hand first.
            self._shown |= playing & (result.renuncio < 0)
            self._all_shown = bool(self._shown.all())
        if not result.hand_over.any():
            return self._quiet_result()
        n_players = self.rules.players
        rewards = np.zeros((self.n, n_players), dtype=np.float32)
        match_score = np.zeros_like(self._score)
        winner = np.full(self.n, -1, dtype=np.int8)
        ended = result.hand_over
        terminated = ended.copy()
        if ended.any():
            key = self._key
            seat_of = self._tables["seat_of"][key]  # (N, players)
            side = seat_of & 1
            points = result.hand_points  # (N, 2) by side
            mine = np.take_along_axis(points, side, axis=1)
            theirs = np.take_along_axis(points, 1 - side, axis=1)
            if self.rules.episode == "match":
                self._score += np.where(ended[:, None], points if self._by_sides else mine, 0)
                top = self._score.max(axis=1)
                unique = (self._score == top[:, None]).sum(axis=1) == 1
                decided = ended & (top >= self.rules.target_score) & unique
                best = self._score.argmax(axis=1)
                winner = np.where(decided, best, -1).astype(np.int8)
                terminated = decided
                if self._by_sides:  # +1 shared by the winning side, -1 by the other: the holder alone (side 0)
                    share = np.where(side == 0, np.float32(1.0), np.float32(0.5))
                    rewards = np.where(side == best[:, None], share, -share)
                else:
                    rewards = np.where(
                        np.arange(n_players) == best[:, None], np.float32(1.0), np.float32(-1.0 / (n_players - 1))
                    ).astype(np.float32)
                rewards *= decided[:, None]
                match_score = self._score * ended[:, None]
            else:
                rewards = ((mine - theirs) * ended[:, None]).astype(np.float32)
        out = ColMortoStep(
            rewards, terminated, ended.copy(), result.hand_points, result.card_thirds, result.accusi,
            result.cappotto, result.renuncio, match_score, winner, np.where(ended, self._hand_number, 0),
        )  # fmt: skip
        if ended.any():
            go_on = np.flatnonzero(ended & ~terminated)
            if len(go_on):  # the next hand of the match: the next player deals, the seats move
                dealer_player = self._key[go_on] // 3
                self._hand_number[go_on] += 1
                self._deal(go_on, (dealer_player + 1) % n_players, None, first_hand=False)
            over = np.flatnonzero(terminated)
            if len(over) and autoreset:
                self.reset(deals=over)
        return out


def heuristic_actions(batch: ColMortoBatch, deals: np.ndarray | Sequence[int] | None = None) -> np.ndarray:
    """The action ``ColMortoHeuristic`` takes for the seat on turn in each deal (-1 in a finished deal).

    The four-seat batched heuristic (``vector.heuristic``) with col morto's knowledge: a
    face-up hand is known card by card (the next seat's, when face up, is all that can beat
    a card; no face-up card lies in a hidden hand), and a seat whose partner is a dummy gives
    no signal. A dummy's turn is played from the dummy's seat, as the scalar player does.
    ``tests/vector/test_col_morto.py`` pins it to the scalar player decision by decision.
    """
    if not isinstance(batch, ColMortoBatch):
        raise TypeError(f"col morto's heuristic_actions plays a ColMortoBatch; got {type(batch).__name__}")
    engine = batch.engine

    def read(engine: TressetteBatch, rows: np.ndarray, turn: np.ndarray) -> _Table:
        t = _read(engine, rows, turn)
        hands = engine._rot[_H].take(rows, axis=1)  # (4, M) by slot, reversed masks
        q = engine._q.take(rows)
        shown = batch._shown.take(rows)
        dummies = batch._tables["dummies"].take(batch._key.take(rows))
        m = len(rows)
        face_up = np.zeros(m, dtype=np.uint64)
        for seat in range(4):
            up = shown & ((dummies >> np.uint8(seat)) & np.uint8(1)).astype(bool)
            held = hands.reshape(-1).take(((seat - q) & 3) * m + np.arange(m))
            face_up |= np.where(up, held, np.uint64(0))
        nxt = (turn + 1) & 3
        nxt_up = shown & ((dummies >> nxt.astype(np.uint8)) & np.uint8(1)).astype(bool)
        next_hand = hands.reshape(-1).take(((nxt - q) & 3) * m + np.arange(m))
        return t._replace(face_up=face_up, next_up=np.where(nxt_up, next_hand, np.uint64(0)))

    return _actions(engine, None if deals is None else engine._deal_indices(deals), read)
