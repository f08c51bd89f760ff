"""Team self-play on the batched engine: every learning seat of N deals is a row of its own, ``SeatRows``.

A single-learner environment yields one learner decision in four: the other seats are
played by someone else. ``SeatRows`` plays N deals of the four-seat game in which the
learning policy plays every seat (``learners="all"``: team self-play, four rows per deal) or
one team of each deal (``learners="team"``: seats 0 and 2 of the even deals, 1 and 3 of the
odd ones, two rows per deal), the other team played by a batched opponent (``"heuristic"``,
``"random"`` or a ``policy(obs, mask) -> actions``, e.g. a frozen snapshot) or by a pool of
them: with ``opponent=(a, b, c)`` deals 0 and 1 are played by ``a``, 2 and 3 by ``b``, 4 and 5
by ``c``, 6 and 7 by ``a`` again..., so each member of the pool meets the learner on both
sides of the table (N at least twice the pool; equal shares when N is a multiple of that);
``set_opponent(x, slot=k)`` replaces member ``k``, e.g. with a newer snapshot. Every decision
of a learning seat is a sample of that seat's row, with its own team's reward:

| row | holds, decision after decision of its seat |
| --- | --- |
| observation | (790,) int8: ``encode(view(state, seat))``, as every environment shows that seat; (1460,) with ``history=True`` (``encoders.history``) |
| action mask | (161,) bool: its legal actions |
| reward | its team's: the hand's points difference at its last decision of the hand (0 before); with ``dense_reward=True`` the thirds its team took minus the other's since its previous decision, as points, the last decision settling the difference, as ``SingleSeatEnv(dense_reward=True)`` |
| episode start | True at its first decision of each hand |

A hand is ten tricks and every seat plays once in each, so every seat decides exactly ten
times a hand, and a hand is forty card plays in every deal: the deals stay in step, and
``collect(act, decisions)`` with ``decisions`` a multiple of ten returns whole hands for
every row (no value to bootstrap at the end of a rollout). That needs ``episode="hand"``
and no ``calling_out`` (a claim ends a hand early); other switches are free.

Where the seats of a hand decide unequally often (the batch's ``decisions_per_hand`` is None:
an auction, a call, a discard, in due's packets), the rows are the learning players and
``collect_hands(act, samples)`` plays whole hands of every deal until the rows have made at
least ``samples`` decisions, returning the samples in the order played with their rows
(``HandsRollout``; it plays the other games too, the same cards as ``collect``). In a game
without fixed partners, ``learners="team"`` is the players (seats) of one parity, as above.

``act(obs, masks)`` is called once per card play for the deals whose seat on turn learns,
with their observations (M, 790) int8 and masks (M, 161) bool, and returns (M,) actions and
any per-sample arrays to keep (values, log-probabilities). ``training.team_play`` feeds
sb3-contrib's MaskablePPO this way, its algorithm unchanged.

Example:
    >>> rows = SeatRows(8, seed=0)
    >>> rng = np.random.default_rng(0)
    >>> rollout = rows.collect(lambda obs, masks: (sample_mask(masks, rng),), decisions=10)
    >>> rollout.observations.shape, rollout.rewards.shape  # ten decisions of 32 seats
    ((10, 32, 790), (10, 32))
    >>> by_seat = rollout.rewards.sum(axis=0).reshape(8, 4)  # rows 4d..4d+3 are deal d's seats
    >>> bool((by_seat[:, 0] == by_seat[:, 2]).all() and (by_seat[:, 1] == -by_seat[:, 0]).all())
    True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from ..messages import shown
from .engine import SeedLike, TressetteBatch, sample_mask
from .family_env import batch_type

LEARNERS = ("all", "team")
DECISIONS_PER_HAND = 10
"""Every seat plays once in each of a hand's ten tricks (the four-seat game; ``SeatRows.decisions_per_hand``)."""


class SeatRollout(NamedTuple):
    """What ``SeatRows.collect`` played: arrays of shape (decisions, rows, ...)."""

    observations: np.ndarray
    """(T, R, 790) int8 ((T, R, 1460) with ``history=True``)."""
    action_masks: np.ndarray
    """(T, R, 161) bool."""
    actions: np.ndarray
    """(T, R) int64."""
    rewards: np.ndarray
    """(T, R) float32: each seat's own team's reward (see the module docstring)."""
    episode_starts: np.ndarray
    """(T, R) bool: the seat's first decision of a hand."""
    extras: tuple[np.ndarray, ...]
    """What ``act`` returned after the actions, stacked the same way: (T, R, ...) each."""
    hand_rewards: np.ndarray
    """(H, R) float32: each row's reward of each hand that ended (its team's points difference)."""


class HandsRollout(NamedTuple):
    """What ``SeatRows.collect_hands`` played: S samples in the order they were played, whole hands of every row."""

    observations: np.ndarray
    """(S, size) int8: the observation of the deciding row's player."""
    action_masks: np.ndarray
    """(S, actions) bool."""
    actions: np.ndarray
    """(S,) int64."""
    rows: np.ndarray
    """(S,) int64: the row that decided."""
    rewards: np.ndarray
    """(S,) float32: the row's reward for the hand at its last decision of the hand (``hand_ends``), 0 before;
    with ``dense_reward`` the thirds its side took until its next decision, the last one settling the rest."""
    hand_ends: np.ndarray
    """(S,) bool: the row's last decision of a hand."""
    extras: tuple[np.ndarray, ...]
    """What ``act`` returned after the actions, stacked the same way: (S, ...) each."""
    hand_rewards: np.ndarray
    """(H,) float32: the reward of each (row, hand) that ended, in the order the hands ended; a player with no
    decision in a hand (a dealer sitting out) has its reward here and no sample to carry it."""
    hand_decisions: np.ndarray
    """(H,) int64: the decisions of that row in that hand (0 for a player with no decision in it)."""
    hand_rows: np.ndarray
    """(H,) int64: the row of each of them."""


class SeatRows:
    """N deals of a game (the four-seat one by default) whose learning seats are rows (see the module docstring).

    Args:
        num_deals: N.
        learners: ``"all"`` (every seat learns: team self-play) or ``"team"`` (one team per deal).
        opponent: with ``learners="team"``, who plays the other team: ``"heuristic"``,
            ``"random"``, a batched ``policy(obs, mask) -> actions``, or a sequence of them
            (a pool: deals ``2k`` and ``2k + 1`` are played by member ``k`` modulo its size).
        dense_reward: pay the thirds as they are taken (see the module docstring).
        seed: the deals' seed (and the random opponent's).
        history: the history observation (``TressetteBatch(history=True)``), for the learner and a callable opponent.
        **rules: the rule switches (``episode="hand"``, no ``calling_out``).
    """

    def __init__(
        self,
        num_deals: int,
        learners: str = "all",
        opponent: str | Callable | Sequence[str | Callable] = "heuristic",
        dense_reward: bool = False,
        seed: SeedLike = None,
        history: bool = False,
        game: str = "tressette",
        **rules: Any,
    ):
        if learners not in LEARNERS:
            raise ValueError(f"learners is one of {', '.join(LEARNERS)}; got {shown(learners)}")
        if game == "tressette":
            self.batch = TressetteBatch(num_deals, seed=seed, history=history, **rules)
        else:
            if history:
                raise ValueError(
                    f"history=True: the history observation is batched in the four-seat game only, not {game}"
                )
            self.batch = batch_type(game)(num_deals, seed=seed, **rules)
        self.game = game
        r = self.batch.rules
        calling_out = getattr(r, "calling_out", False)
        if r.episode != "hand" or calling_out:
            raise ValueError(
                'team self-play rows need episode="hand" and calling_out=False: every seat then decides as often '
                f"every hand and the deals stay in step; got episode={shown(r.episode)}, calling_out={shown(calling_out)}"
            )
        per_hand = self.batch.decisions_per_hand
        self.seats = self.batch.seats if per_hand is not None else self.batch.num_agents
        """The places of a deal that are rows: its seats (4; 2 in in due; col morto's dummies too), or its players
        where the decisions of a hand vary (``decisions_per_hand`` None: ``collect_hands``)."""
        self.decisions_per_hand = per_hand
        """Decisions of each seat in a hand (10 in the four-seat game, 20 in in due's stock form); None where they
        vary (an auction, a call, a discard: Calabresella, a chiamare, in due's packets, a perdere's dealer discards)."""
        self.learners = learners
        self.dense_reward = dense_reward
        self.history = history
        n = self.batch.n
        deals = np.arange(n)
        seats = self.seats
        if learners == "all":
            learns = np.ones((n, seats), dtype=bool)
        else:  # the side of seats of parity d % 2 in deal d (partners sit opposite)
            learns = (np.arange(seats)[None, :] % 2) == (deals % 2)[:, None]
        self.learns = learns
        """(N, seats) bool: the seats that learn, by deal and absolute seat."""
        self.row_of = np.where(learns, np.cumsum(learns.reshape(-1)).reshape(n, seats) - 1, -1)
        """(N, seats) int: each learning seat's row, -1 for the others."""
        self.num_rows = int(learns.sum())
        self.deal_of_row, self.seat_of_row = np.nonzero(learns)
        self.set_opponent(opponent)
        self._rng = np.random.default_rng(
            seed if isinstance(seed, (int, np.integer)) else None
        )  # TressetteBatch checked it

    def set_opponent(self, opponent: str | Callable | Sequence[str | Callable], slot: int | None = None) -> None:
        """Who plays the seats that do not learn (``learners="team"``), from the next card on.

        ``opponent``: one player or a pool (module docstring); with ``slot``, the one player
        that replaces member ``slot`` of the pool (e.g. a newer snapshot of the learner).
        """
        if slot is not None:
            if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < len(self.opponents):
                raise ValueError(f"slot is a member of the pool, 0 to {len(self.opponents) - 1}; got {shown(slot)}")
            _check_opponent(opponent)
            self.opponents = (*self.opponents[:slot], opponent, *self.opponents[slot + 1 :])
            return
        pool = tuple(opponent) if isinstance(opponent, (list, tuple)) else (opponent,)
        if not pool:
            raise ValueError("opponent is a player or a non-empty pool of them; got an empty pool")
        if self.learners == "team" and self.batch.n < 2 * len(pool):
            raise ValueError(
                f"a pool of {len(pool)} opponents plays two deals of every {2 * len(pool)} (one each side): "
                f"it needs at least {2 * len(pool)} deals; got {self.batch.n}"
            )
        for member in pool:
            _check_opponent(member)
            heuristic = isinstance(member, str) and member == "heuristic"
            if heuristic and self.learners == "team" and not hasattr(self.batch, "heuristic_actions"):
                raise ValueError(
                    f"{self.game}'s batched engine has no batched heuristic yet: the opponent is 'random', a batched "
                    "policy or 'self' (every seat learning)"
                )
        self.opponents = pool
        """The pool of opponents (one member when a single opponent was given)."""
        self.opponent_of_deal = (np.arange(self.batch.n) // 2) % len(pool)
        """(N,) int: the member of the pool that plays each deal's other team."""

    @property
    def opponent(self) -> str | Callable:
        """The opponent when there is one; with a pool of several, the pool (a tuple)."""
        return self.opponents[0] if len(self.opponents) == 1 else self.opponents

    def _opponent_actions(self, deals: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The opponents' actions in ``deals``, whose legal actions are ``masks``."""
        if len(self.opponents) == 1:
            return self._member_actions(self.opponents[0], deals, masks)
        actions = np.empty(len(deals), dtype=np.int64)
        which = self.opponent_of_deal[deals]
        for k in np.unique(which):
            mine = np.flatnonzero(which == k)
            actions[mine] = self._member_actions(self.opponents[k], deals[mine], masks[mine])
        return actions

    def _member_actions(self, opponent: str | Callable, deals: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One opponent's actions in ``deals``."""
        batch = self.batch
        if opponent == "heuristic":
            return batch.heuristic_actions(deals)
        if opponent == "random":
            return sample_mask(masks, self._rng)
        actions = np.asarray(opponent(batch.observe(deals=deals), masks.astype(np.int8)), dtype=np.int64)
        if not masks[np.arange(len(actions)), actions].all():
            raise ValueError("the opponent policy returned an illegal action")
        return actions

    def _agent_of_seat(self) -> np.ndarray:
        """(N, seats): the agent whose reward each seat's row takes (the seat itself; its player in col morto)."""
        controllers = getattr(self.batch, "controllers", None)
        if controllers is None:
            return np.broadcast_to(np.arange(self.seats), (self.batch.n, self.seats))
        return controllers

    def _lead_points(self) -> np.ndarray:
        """(N, seats) by seat: its side's thirds minus the other side's, in points (the batch's ``Game.lead``)."""
        agents = self._agent_of_seat()
        return np.stack([self.batch.lead(np.ascontiguousarray(agents[:, s])) for s in range(self.seats)], axis=1)

    def collect(self, act: Callable, decisions: int) -> SeatRollout:
        """Play until every row has made ``decisions`` decisions (a multiple of ten: whole hands).

        The deals must be at the start of a hand (as after construction, a ``reset`` or a
        previous ``collect``): they are when every collect ends.
        """
        per_hand = self.decisions_per_hand
        if per_hand is None:
            raise ValueError(
                f"{self.game} under these rules gives the seats of a hand different numbers of decisions: "
                "collect_hands plays it"
            )
        if decisions < per_hand or decisions % per_hand:
            raise ValueError(f"decisions must be a positive multiple of {per_hand} (whole hands); got {decisions}")
        batch = self.batch
        if (batch.tricks_done != 0).any() or (batch.turn != batch.leader).any():
            raise ValueError("collect starts at the start of a hand: reset the batch first")
        n, rows, t_max = batch.n, self.num_rows, decisions
        obs = np.zeros((t_max, rows, batch.observation.size), dtype=np.int8)
        masks = np.zeros((t_max, rows, batch.legal_masks().shape[1]), dtype=bool)
        actions = np.zeros((t_max, rows), dtype=np.int64)
        rewards = np.zeros((t_max, rows), dtype=np.float32)
        starts = np.zeros((t_max, rows), dtype=bool)
        extras: list[np.ndarray] | None = None
        position = np.zeros(rows, dtype=np.int64)  # the next decision of each row
        paid = np.zeros(rows, dtype=np.float32)  # dense rewards paid this hand
        hand_rewards = []
        all_deals = np.arange(n)
        seats = self.seats
        hand_plays = seats * per_hand  # every deal is at the same card of its hand
        for play in range(seats * t_max):
            turn = batch.turn
            if (
                play % hand_plays == hand_plays - 1
            ):  # the hand's last card: whose reward each seat's is, before the next deal
                agent_of_seat = self._agent_of_seat()
            row = self.row_of[all_deals, turn]
            learning = row >= 0
            mine = np.flatnonzero(learning)
            r = row[mine]
            p = position[r]
            step_obs = batch.observe() if mine.size == n else batch.observe(deals=mine)
            legal = batch.legal_masks(bool)  # every deal's, once a card
            step_masks = legal[mine]
            out = act(step_obs, step_masks)
            chosen = np.asarray(out[0], dtype=np.int64)
            if not step_masks[np.arange(mine.size), chosen].all():
                raise ValueError("act returned an illegal action: mask the policy's logits with the masks it is given")
            obs[p, r], masks[p, r], actions[p, r] = step_obs, step_masks, chosen
            first_trick = play % hand_plays < seats
            starts[p, r] = first_trick  # each seat's first decision of the hand
            if extras is None:
                extras = [np.zeros((t_max, rows, *np.shape(x)[1:]), dtype=np.asarray(x).dtype) for x in out[1:]]
            for kept, x in zip(extras, out[1:], strict=True):
                kept[p, r] = x
            if self.dense_reward and not first_trick:  # the thirds since the seat's previous decision
                lead = self._lead_points()[mine, turn[mine]].astype(np.float32)
                rewards[p - 1, r] += lead - paid[r]
                paid[r] = lead
            position[r] += 1
            every = np.empty(n, dtype=np.int64)
            every[mine] = chosen
            others = np.flatnonzero(~learning)
            if others.size:
                every[others] = self._opponent_actions(others, legal[others])
            result = batch.step(every)
            if result.terminated.any():
                if not result.terminated.all():
                    raise RuntimeError("the deals left step: a hand ended early (this should not happen)")
                last = position - 1
                final = result.rewards[self.deal_of_row, agent_of_seat[self.deal_of_row, self.seat_of_row]]
                final = final.astype(np.float32)
                rewards[last, np.arange(rows)] += final - paid
                paid[:] = 0.0
                hand_rewards.append(final)
        if not (position == t_max).all():
            raise RuntimeError("a row made another number of decisions (this should not happen)")
        return SeatRollout(obs, masks, actions, rewards, starts, tuple(extras or ()), np.array(hand_rewards))

    def collect_hands(self, act: Callable, samples: int) -> HandsRollout:
        """Play whole hands until the rows have made at least ``samples`` decisions; every game, any rules.

        Each deal plays hand after hand while the rows' decisions are fewer than ``samples``;
        then the hands under way are played to their end, so every row's samples are whole
        hands (nothing to bootstrap), and the deals are dealt anew for the next call. The rows
        are the learning players where a hand's decisions vary, the learning seats elsewhere
        (``seats``); ``act`` is called as in ``collect``. A hand's reward is the batch's reward
        of the row's player when the hand ends (``Game.returns``: the game's own sides, as the
        auction or the called card set them); with ``dense_reward``, the thirds the row's side
        took since its previous decision in the hand are paid to that decision (``lead``, as
        ``collect``), the last one settling the rest.
        """
        if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 1:
            raise ValueError(f"samples is a number of decisions, at least 1; got {shown(samples)}")
        batch = self.batch
        n = batch.n
        observations: list[np.ndarray] = []
        action_masks: list[np.ndarray] = []
        actions: list[np.ndarray] = []
        rows_played: list[np.ndarray] = []
        extras: list[list[np.ndarray]] = []
        reward_at: list[np.ndarray] = []
        reward_of: list[np.ndarray] = []
        end_at: list[np.ndarray] = []
        hand_rewards: list[np.ndarray] = []
        hand_decisions: list[np.ndarray] = []
        hand_rows: list[np.ndarray] = []
        last = np.full(self.num_rows, -1, dtype=np.int64)  # each row's last sample in the hand under way
        made = np.zeros(self.num_rows, dtype=np.int64)  # each row's decisions in the hand under way
        paid = np.zeros(self.num_rows, dtype=np.float32)  # dense rewards paid in the hand under way
        count = 0
        by_seat = self.decisions_per_hand is not None  # rows are seats; else players
        while True:
            live = batch.turn >= 0  # the deals whose hand goes on
            if not live.any():
                break
            on_turn = batch.turn if by_seat else batch.agent  # the row's place on turn, -1 in a finished deal
            row = np.where(live, self.row_of[np.arange(n), np.maximum(on_turn, 0)], -1)
            mine = np.flatnonzero(row >= 0)
            legal = batch.legal_masks(bool)
            every = np.full(n, -1, dtype=np.int64)
            if mine.size:
                step_obs = batch.observe(deals=mine)
                step_masks = legal[mine]
                out = act(step_obs, step_masks)
                chosen = np.asarray(out[0], dtype=np.int64)
                if not step_masks[np.arange(mine.size), chosen].all():
                    raise ValueError(
                        "act returned an illegal action: mask the policy's logits with the masks it is given"
                    )
                r = row[mine]
                if self.dense_reward:  # the thirds since the row's previous decision in the hand, paid to that one
                    who = np.zeros(n, dtype=np.int64)
                    who[mine] = on_turn[mine] if not by_seat else self._agent_of_seat()[mine, on_turn[mine]]
                    lead = batch.lead(who)[mine].astype(np.float32)
                    had = last[r] >= 0
                    reward_at.append(last[r][had])
                    reward_of.append(lead[had] - paid[r[had]])
                    paid[r[had]] = lead[had]
                last[r] = count + np.arange(mine.size)
                made[r] += 1
                count += mine.size
                observations.append(step_obs)
                action_masks.append(step_masks)
                actions.append(chosen)
                rows_played.append(r)
                extras.append([np.asarray(x) for x in out[1:]])
                every[mine] = chosen
            others = np.flatnonzero(live & (row < 0))
            if others.size:
                every[others] = self._opponent_actions(others, legal[others])
            result = batch.step(every, active=live, autoreset=False)
            ended = np.flatnonzero(result.terminated & live)
            if ended.size:
                ended_rows = self.row_of[ended]
                learning = ended_rows >= 0
                r = ended_rows[learning]
                players = self._agent_of_seat()[ended] if by_seat else np.arange(self.seats)[None, :]
                reward = np.asarray(result.rewards, dtype=np.float32)[ended[:, None], players][learning]
                hand_rewards.append(reward)
                hand_decisions.append(made[r].copy())
                hand_rows.append(r)
                decided = made[r] > 0  # a player with no decision in the hand (a dealer sitting out) has no sample
                end_at.append(last[r][decided])
                reward_at.append(last[r][decided])
                reward_of.append(reward[decided] - paid[r[decided]])  # what the dense rewards have not paid
                last[r], made[r], paid[r] = -1, 0, 0.0
                if count < samples:
                    batch.reset(deals=ended)
        batch.reset()  # the next call starts at the start of a hand
        if not count:
            raise RuntimeError("no row decided (this should not happen)")
        rewards = np.zeros(count, dtype=np.float32)
        np.add.at(rewards, np.concatenate(reward_at), np.concatenate(reward_of))
        hand_ends = np.zeros(count, dtype=bool)
        hand_ends[np.concatenate(end_at)] = True
        kept = tuple(np.concatenate(column) for column in zip(*extras, strict=True)) if extras else ()
        return HandsRollout(
            np.concatenate(observations), np.concatenate(action_masks), np.concatenate(actions),
            np.concatenate(rows_played), rewards, hand_ends, kept,
            np.concatenate(hand_rewards), np.concatenate(hand_decisions), np.concatenate(hand_rows),
        )  # fmt: skip


def _check_opponent(opponent: Any) -> None:
    """A ``ValueError`` unless ``opponent`` is a player ``SeatRows`` can play."""
    if not (opponent in ("heuristic", "random") or callable(opponent)):
        raise ValueError(f"opponent is 'heuristic', 'random' or a batched policy(obs, mask); got {shown(opponent)}")
