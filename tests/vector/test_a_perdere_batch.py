"""The batched Tressette a perdere (``APerdereBatch``) is the scalar game, deal by deal.

A scalar reference (one engine state per deal, created from the batch's deal: the hands, the
monte and the dealer) is stepped with the same actions and checked as it goes: masks,
observations (of every seat now and then, of the seat on turn every step), rewards,
terminations and the hand's results.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pytest

from tressette_env import tressette_a_perdere_v0
from tressette_env.encoders.a_perdere import observation
from tressette_env.engine import (
    GAME_OVER,
    HAND_OVER,
    PLAYING,
    IllegalActionError,
    apply,
    legal_actions_mask,
    new_game,
    next_hand,
    renuncio,
    view,
)
from tressette_env.envs import aec
from tressette_env.games.a_perdere import A_PERDERE, APerdereRules
from tressette_env.vector.a_perdere import APerdereBatch

NUM_ACTIONS = A_PERDERE.num_actions


def mask_bits(mask: int) -> np.ndarray:
    """An engine action mask (int) as the (255,) 0/1 vector of the environments."""
    return np.unpackbits(np.frombuffer(mask.to_bytes(32, "little"), np.uint8), count=NUM_ACTIONS, bitorder="little")


class Reference:
    """Scalar engine states mirroring every deal of an ``APerdereBatch``."""

    def __init__(self, batch: APerdereBatch, rules: dict):
        self.batch = batch
        self.rules = APerdereRules.make(**rules)
        self.encode = observation(self.rules).encode
        self.states = [self.fresh(i) for i in range(batch.num_deals)]

    def fresh(self, i: int):
        return new_game(self.rules, dealer=int(self.batch.dealer[i]), **self.batch.deal_of(i))

    def check_state(self) -> None:
        turn, dealer, agent = self.batch.turn, self.batch.dealer, self.batch.agent
        players = self.rules.players
        leads = np.stack([self.batch.lead(np.full(self.batch.num_deals, a)) for a in range(players)], axis=1)
        for i, state in enumerate(self.states):
            p = state.public
            assert turn[i] == p.turn and dealer[i] == p.dealer, f"deal {i}: turn or dealer"
            assert agent[i] == (p.table.controllers[p.turn] if p.turn >= 0 else -1), f"deal {i}: agent"
            seat_of = p.table.seat_of
            expected = [A_PERDERE.lead(p, seat_of[a]) if seat_of[a] >= 0 else 0.0 for a in range(players)]
            assert np.array_equal(leads[i], np.array(expected, dtype=np.float32)), (i, leads[i], expected)

    def check_masks(self) -> None:
        got = self.batch.legal_masks()
        for i, state in enumerate(self.states):
            expected = mask_bits(legal_actions_mask(state))
            if not np.array_equal(got[i], expected):
                raise AssertionError(
                    f"deal {i}: mask {np.flatnonzero(got[i]).tolist()} != {np.flatnonzero(expected).tolist()}"
                )

    def check_observations(self, seats=None) -> None:
        players = self.batch.num_agents
        for seat in (None, *range(players)) if seats is None else seats:
            if seat is None and not self.batch.playing.all():
                rows = np.flatnonzero(self.batch.playing)
                got = dict(zip(rows.tolist(), self.batch.observe(deals=rows), strict=True))
            else:
                got = dict(enumerate(self.batch.observe(seats=seat)))
            for i, state in enumerate(self.states):
                if i not in got:
                    continue
                s = state.public.turn if seat is None else seat
                if s >= state.public.table.seats:  # not at the table (out of the match): nothing to see
                    assert not got[i].any(), f"deal {i}, seat {s}: a seat out of the table sees nothing"
                    continue
                expected = self.encode(view(state, s))
                if not np.array_equal(got[i], expected):
                    diff = np.flatnonzero(got[i] != expected)
                    raise AssertionError(f"deal {i}, seat {s}: observation differs at {diff[:10]}")

    def step(self, actions: np.ndarray, active: np.ndarray | None, result, autoreset: bool = True) -> list[int]:
        """Apply the same actions, check ``result`` deal by deal; return the deals whose episode ended."""
        finished = []
        sides = 2 if self.rules.teams else self.rules.players
        for i, state in enumerate(self.states):
            if (active is not None and not active[i]) or state.public.status != PLAYING:
                assert not result.hand_over[i] and not result.terminated[i]
                assert not result.rewards[i].any()
                continue
            action = int(actions[i])
            out_before = state.public.table.extra.out
            if legal_actions_mask(state) >> action & 1:
                state = apply(state, action)
            else:
                state = renuncio(state)
            p = state.public
            assert result.hand_over[i] == (p.status != PLAYING), f"deal {i}: hand over"
            rewards = np.zeros(self.rules.players, dtype=np.float32)
            if p.status != PLAYING:
                r = p.result
                seated = len(r.points)  # the sides of the hand (players still in, with an elimination)
                assert not result.hand_points[i, seated:].any() and not result.card_thirds[i, seated:].any()
                assert tuple(result.hand_points[i, :seated]) == r.points, (i, result.hand_points[i], r)
                assert tuple(result.card_thirds[i, :seated]) == r.card_thirds, (i, result.card_thirds[i], r)
                assert result.cappotto[i] == (-1 if r.cappotto is None else r.cappotto), (i, r)
                assert result.renuncio[i] == (-1 if r.renuncio is None else r.renuncio)
                assert result.hand_number[i] == p.hand_number
                assert tuple(result.match_score[i]) == p.match_score, (i, result.match_score[i], p.match_score)
                assert result.winner[i] == (-1 if p.winner is None else p.winner), (i, result.winner[i], p.winner)
                # The AEC environment's rewards: at the end, for every player still in the episode; in an
                # elimination, each player put out has his standing as he leaves.
                returns = np.array(A_PERDERE.returns(p), dtype=np.float32)
                leaving = [
                    a not in out_before and (p.status == GAME_OVER or a in p.table.extra.out)
                    for a in range(len(returns))
                ]
                if p.status == GAME_OVER or self.rules.match_end == "elimination":
                    rewards = np.where(leaving, returns, np.float32(0))
            else:
                assert result.hand_points[i].tolist() == [0] * sides and result.renuncio[i] == -1
            assert result.terminated[i] == (p.status == GAME_OVER), f"deal {i}: terminated"
            assert np.array_equal(result.rewards[i], rewards), (i, result.rewards[i], rewards)
            if p.status == HAND_OVER:
                assert self.batch.hand_number[i] == p.hand_number + 1
                state = next_hand(state, **self.batch.deal_of(i))
                q = state.public
                assert (self.batch.dealer[i], self.batch.turn[i]) == (q.dealer, q.turn), f"deal {i}: next hand"
                seats = list(q.table.controllers) + [-1] * (self.rules.players - q.table.seats)
                assert self.batch.players_in()[i].tolist() == seats, f"deal {i}: players in"
                assert self.batch.out()[i].tolist() == [a in q.table.extra.out for a in range(self.rules.players)]
            elif p.status == GAME_OVER:
                finished.append(i)
                if autoreset:
                    state = self.fresh(i)
                else:  # the final state stays
                    assert self.batch.out()[i].tolist() == [a in p.table.extra.out for a in range(len(rewards))]
            self.states[i] = state
        return finished


def run(rules: dict, n: int, steps: int, seed: int, *, active_p=0.0, illegal_p=0.0, every=4) -> dict:
    """Step a batch and its scalar reference together, checking everything as they go."""
    batch = APerdereBatch(n, seed=seed, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(seed + 1)
    counts = {"hands": 0, "episodes": 0, "renuncio": 0, "cappotto": 0, "plays": 0, "discards": 0, "signals": 0}
    for step in range(steps):
        ref.check_state()
        ref.check_masks()
        ref.check_observations(None if step % every == 0 else (None,))
        actions = batch.sample_actions(rng)
        if illegal_p:
            wrong = rng.random(n) < illegal_p
            actions[wrong] = rng.integers(0, NUM_ACTIONS, int(wrong.sum()))
        active = rng.random(n) < rng.choice([0.1, 0.5, 0.9]) if active_p and rng.random() < active_p else None
        on = np.ones(n, dtype=bool) if active is None else active
        counts["discards"] += int(((actions >= 201) & (actions < 241) & on).sum())
        counts["signals"] += int(((actions >= 40) & (actions < 160) & on).sum())
        result = batch.step(actions, active=active)
        ref.step(actions, active, result)
        counts["hands"] += int(result.hand_over.sum())
        counts["episodes"] += int(result.terminated.sum())
        counts["renuncio"] += int((result.renuncio >= 0).sum())
        counts["cappotto"] += int((result.cappotto >= 0).sum())
        counts["plays"] += int(on.sum())
    ref.check_masks()
    ref.check_observations()
    return counts


def _ids(rules: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in rules.items()) or "default"


def _steps(rules: dict) -> int:
    """Card plays for a couple of hands (more with a match)."""
    players = rules.get("players", 4)
    per_hand = 40 - 40 % players + (40 % players if rules.get("reduce") == "dealer_discard" else 0)
    hands = 2 if rules.get("episode") != "match" else 8 if rules.get("match_end") == "elimination" else 4
    return hands * per_hand + 7


FAMILY_SETS = [  # the a perdere rule sets of tests/games/family.py
    {},
    {"players": 3},
    {"players": 3, "reduce": "dealer_discard", "asso_bastoni_value": 18},
    {"players": 5, "objective": "take", "last_trick": "plus_one", "first_lead": "four_of_denari"},
    {"players": 8, "asso_bastoni_value": 11, "zero_point_charge": 1},
    {"players": 6, "reduce": "monte", "episode": "match", "target_score": 11},
    {"teams": True, "episode": "match", "target_score": 11, "cappotto": "wins_match"},
    {"players": 7, "reduce": "dealer_discard", "episode": "match", "match_end": "hands", "hands": 3},
    {"players": 3, "reduce": "monte", "last_trick": "plus_one"},
    {"players": 7, "episode": "match", "match_end": "elimination", "target_score": 11},
    {"episode": "match", "match_end": "elimination", "target_score": 11},
]
MORE_SETS = [  # every other switch value at least once, and every player count
    {"players": 6},
    {"players": 7, "cappotto": "none", "zero_point_charge": 0},
    {"players": 4, "cappotto": "wins_match", "first_lead": "four_of_denari", "asso_bastoni_value": 18},
    {"players": 3, "objective": "take", "cappotto": "wins_match", "episode": "match", "target_score": 15},
    {"players": 6, "reduce": "dealer_discard", "first_lead": "four_of_denari", "last_trick": "plus_one"},
    {"players": 7, "reduce": "monte", "asso_bastoni_value": 11, "first_lead": "four_of_denari"},
    {"teams": True},
    {"teams": True, "objective": "take", "asso_bastoni_value": 11, "last_trick": "plus_one"},
    {"teams": True, "episode": "match", "match_end": "hands", "hands": 2, "zero_point_charge": 2},
    {"players": 5, "episode": "match", "match_end": "hands", "hands": 2, "objective": "take"},
    {"players": 8, "episode": "match", "target_score": 6, "cappotto": "wins_match", "first_lead": "four_of_denari"},
    {"players": 4, "illegal_action": "raise", "episode": "match", "target_score": 8},
    {"players": 3, "reduce": "dealer_discard", "illegal_action": "raise", "teams": False},
    {"players": 8, "episode": "match", "match_end": "elimination", "target_score": 4, "reduce": "monte"},
    {"players": 5, "episode": "match", "match_end": "elimination", "target_score": 5, "reduce": "dealer_discard"},
    {"players": 6, "episode": "match", "match_end": "elimination", "target_score": 3, "cappotto": "wins_match"},
    {
        "players": 4,
        "episode": "match",
        "match_end": "elimination",
        "target_score": 9,
        "asso_bastoni_value": 18,
        "zero_point_charge": 1,
        "first_lead": "four_of_denari",
        "last_trick": "plus_one",
    },
]


@pytest.mark.parametrize("rules", FAMILY_SETS + MORE_SETS, ids=_ids)
def test_every_rule_switch_with_partial_steps_and_renuncio(rules):
    illegal = 0.0 if rules.get("illegal_action") == "raise" else 0.004
    n = 60 if rules.get("episode") != "match" else 40
    counts = run(rules, n, _steps(rules), seed=len(str(rules)), active_p=0.3, illegal_p=illegal, every=6)
    assert counts["hands"] >= n
    if illegal:
        assert counts["renuncio"] > 0
    if rules.get("reduce") == "dealer_discard":
        assert counts["discards"] > 0
    if rules.get("teams"):
        assert counts["signals"] > 0


def test_random_illegal_actions_are_renuncio_in_both_phases():
    counts = run({"players": 3, "reduce": "dealer_discard"}, 80, 30, seed=5, illegal_p=0.05, every=3)
    assert counts["renuncio"] > 40


def test_a_match_through_several_hands():
    rules = {"players": 5, "episode": "match", "target_score": 21}
    counts = run(rules, 30, 300, seed=9, active_p=0.2, every=15)
    assert counts["hands"] >= 2 * counts["episodes"] > 0


@pytest.mark.parametrize(
    "rules, charged",
    [
        ({}, [0, 11, 11, 11]),
        ({"asso_bastoni_value": 11, "zero_point_charge": 3}, [0, 21, 21, 21]),
        ({"cappotto": "none", "zero_point_charge": 2}, [11, 2, 2, 2]),
        ({"cappotto": "none", "last_trick": "plus_one"}, [11, 0, 0, 0]),
        ({"objective": "take", "cappotto": "wins_match", "episode": "match", "target_score": 50}, [11, 0, 0, 0]),
        ({"cappotto": "wins_match", "episode": "match", "target_score": 50}, [0, 11, 11, 11]),
        ({"teams": True, "cappotto": "wins_match", "episode": "match", "target_score": 50}, [0, 11]),
        ({"teams": True, "asso_bastoni_value": 18}, [0, 28]),
        (
            {"cappotto": "wins_match", "episode": "match", "match_end": "elimination", "target_score": 50},
            [0, 11, 11, 11],
        ),
        (
            {"cappotto": "wins_match", "episode": "match", "match_end": "elimination", "target_score": 11},
            [0, 11, 11, 11],
        ),
        ({"episode": "match", "match_end": "elimination", "target_score": 11}, [0, 11, 11, 11]),
    ],
    ids=lambda x: _ids(x) if isinstance(x, dict) else "",
)
def test_a_cappotto_from_a_chosen_deal(rules, charged):
    """Seat 0 holds every denaro and leads: the others never follow, it takes every trick."""
    hands = [list(range(10 * s, 10 * s + 10)) for s in range(4)]
    batch = APerdereBatch(6, seed=1, **rules)
    batch.reset(hands=hands, dealer=3)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(1)
    for _ in range(40):
        ref.check_masks()
        ref.check_observations((None,))
        actions = batch.sample_actions(rng)
        result = batch.step(actions, autoreset=False)
        ref.step(actions, None, result, autoreset=False)
    assert result.hand_over.all() and result.hand_points.tolist() == [charged] * 6
    cappotto = rules.get("cappotto", "others_charged") != "none" and (
        rules.get("objective") != "take" or rules.get("cappotto") == "wins_match"
    )
    assert result.cappotto.tolist() == [0 if cappotto else -1] * 6
    if rules.get("cappotto") == "wins_match":
        assert result.terminated.all() and result.winner.tolist() == [0] * 6


def test_elimination_matches_to_their_end():
    """Players drop out, the table shrinks (down to two, twenty cards each), the last one left wins."""
    rules = {"players": 6, "episode": "match", "match_end": "elimination", "target_score": 6, "reduce": "monte"}
    batch = APerdereBatch(24, seed=13, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(13)
    sizes, ended = set(), 0
    paid = np.zeros((24, 6), dtype=np.float64)  # each player's rewards over the episode
    for step in range(700):
        ref.check_masks()
        if step % 5 == 0:
            ref.check_observations()
        sizes.update((batch.players_in() >= 0).sum(axis=1).tolist())
        actions = batch.sample_actions(rng)
        result = batch.step(actions)
        ref.step(actions, None, result)
        ended += int(result.terminated.sum())
        paid += result.rewards
        assert (np.count_nonzero(result.rewards, axis=1) <= 6).all()
        assert np.abs(paid[result.terminated].sum(axis=1)).max(initial=0) < 1e-5  # the standing is zero-sum
        assert (np.sort(paid[result.terminated], axis=1)[:, -1] == 1).all()  # and the last one left won
        paid[result.terminated] = 0
    assert ended >= 24 and sizes >= {2, 3, 4, 5, 6}


@pytest.mark.slow
@pytest.mark.parametrize("rules", FAMILY_SETS + MORE_SETS, ids=_ids)
def test_many_more_deals(rules):
    illegal = 0.0 if rules.get("illegal_action") == "raise" else 0.002
    counts = run(rules, 250, 4 * _steps(rules), seed=7, active_p=0.2, illegal_p=illegal, every=10)
    assert counts["hands"] >= 250


@pytest.mark.parametrize(
    "rules",
    [
        {"players": 6, "reduce": "monte", "episode": "match", "target_score": 5},
        {"players": 3, "reduce": "dealer_discard", "episode": "match", "target_score": 5},
        {"teams": True, "episode": "match", "target_score": 5},
    ],
    ids=_ids,
)
def test_finished_deals_wait_for_reset_without_autoreset(rules):
    batch = APerdereBatch(30, seed=3, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(3)
    finished: set[int] = set()
    for _ in range(2000):
        playing = batch.playing
        if not playing.any():
            break
        actions = batch.sample_actions(rng)  # -1 in the finished deals, fed back as it is
        assert ((actions == -1) == ~playing).all()
        if rng.random() < 0.1:  # a renuncio now and then (in every phase), seen in the final observation
            actions[playing] = np.where(rng.random(int(playing.sum())) < 0.05, 254, actions[playing])
        result = batch.step(actions, active=playing, autoreset=False)
        finished.update(ref.step(actions, playing, result, autoreset=False))
        assert not batch.playing[list(finished)].any()
        ref.check_observations(range(batch.num_agents))
    assert len(finished) == 30
    assert (batch.turn == -1).all() and not batch.legal_masks().any()
    assert (batch.sample_actions(rng) == -1).all()
    ref.check_masks()
    with pytest.raises(ValueError, match="finished deal cannot play"):
        batch.step(np.zeros(30, dtype=np.int64))
    with pytest.raises(ValueError, match="no seat on turn"):
        batch.observe()
    batch.reset(deals=np.arange(0, 30, 2))
    assert batch.playing.tolist() == [True, False] * 15
    assert (batch.match_score[::2] == 0).all() and (batch.hand_number[::2] == 0).all()
    for i in range(0, 30, 2):
        ref.states[i] = ref.fresh(i)
    ref.check_masks()
    ref.check_observations(range(batch.num_agents))
    batch.reset(deals=~batch.playing)
    assert batch.playing.all()


def test_partial_steps_leave_the_other_deals_alone():
    rules = {"players": 3, "reduce": "dealer_discard"}
    batch = APerdereBatch(40, seed=4, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(4)
    for k in range(100):
        before = [batch.observe(seats=s) for s in range(3)] + [batch.legal_masks()]
        active = rng.random(40) < (0.0 if k % 7 == 0 else 0.4)
        actions = np.where(active, batch.sample_actions(rng), -1)
        result = batch.step(actions, active=active)
        ref.step(actions, active, result)
        after = [batch.observe(seats=s) for s in range(3)] + [batch.legal_masks()]
        for x, y in zip(before, after, strict=True):
            assert np.array_equal(x[~active], y[~active])
    ref.check_masks()
    ref.check_observations()


@pytest.mark.parametrize("rules", [{"players": 5}, {"players": 3, "reduce": "dealer_discard"}, {"teams": True}])
def test_raise_mode_rejects_an_illegal_batch_and_changes_nothing(rules):
    batch = APerdereBatch(8, seed=5, illegal_action="raise", **rules)
    rng = np.random.default_rng(5)
    for _ in range(7):
        batch.step(batch.sample_actions(rng))

    def snapshot():
        return [batch.observe(seats=s) for s in range(batch.num_agents)] + [
            batch.legal_masks(), batch.turn, batch.hands(), batch.thirds, batch.set_aside(),
        ]  # fmt: skip

    before = snapshot()
    actions = batch.sample_actions(rng)
    masks = batch.legal_masks()
    actions[3] = int(np.flatnonzero(masks[3] == 0)[0])
    actions[6] = 254
    with pytest.raises(IllegalActionError, match=r"illegal actions in 2 deal\(s\) \(deal 3: .*deal 6: 254\)"):
        batch.step(actions)
    with pytest.raises(IllegalActionError, match="deal 6"):
        batch.step(actions, active=np.arange(8) == 6)
    for x, y in zip(before, snapshot(), strict=True):
        assert np.array_equal(x, y)
    batch.step(batch.sample_actions(rng))  # and it plays on


@pytest.mark.parametrize("objective", ["take", "avoid"])
@pytest.mark.parametrize("teams", [False, True])
def test_renuncio_charges_the_hands_total(objective, teams):
    batch = APerdereBatch(4, seed=2, objective=objective, teams=teams, asso_bastoni_value=11)
    turn = batch.turn
    actions = batch.sample_actions(np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(batch.legal_masks()[1] == 0)[0])
    result = batch.step(actions)
    assert result.terminated.tolist() == [False, True, False, False]
    assert result.renuncio.tolist() == [-1, turn[1], -1, -1]
    side = turn[1] % 2 if teams else turn[1]
    expected = np.zeros(2 if teams else 4, dtype=np.int64)
    expected[:] = 0 if objective == "avoid" else 21
    expected[side] = 21 if objective == "avoid" else 0
    assert result.hand_points[1].tolist() == expected.tolist()
    sign = -1 if objective == "avoid" else 1
    assert result.rewards[1].tolist() == [sign * expected[a % 2 if teams else a] for a in range(4)]


@pytest.mark.parametrize(
    "actions, match",
    [
        (np.full(3, 255), r"actions are ids 0\.\.254 \(or -1 in a deal that does not play\); deal 0 got 255"),
        (np.array([0, -1, 0]), r"actions are ids 0\.\.254 .*deal 1 got -1"),
        (np.array([0, 0, -2]), r"deal 2 got -2"),
        (np.full(3, 300, dtype=np.uint16), r"actions are ids 0\.\.254; deal 0 got"),
        (np.zeros(2, dtype=np.int64), r"actions must have shape \(3,\), one per deal; got \(2,\)"),
        (np.zeros(3, dtype=float), r"actions are integer ids 0\.\.254; got dtype float64"),
        (np.zeros(3, dtype=bool), r"actions are integer ids 0\.\.254; got dtype bool"),
    ],
)
def test_bad_actions_always_raise(actions, match):
    batch = APerdereBatch(3, seed=0)
    with pytest.raises(ValueError, match=match):
        batch.step(actions)
    assert batch.tricks_done.tolist() == [0, 0, 0]


def test_inactive_deals_may_take_minus_one():
    batch = APerdereBatch(3, seed=0)
    actions = batch.sample_actions(np.random.default_rng(0))
    actions[1] = -1
    result = batch.step(actions, active=np.array([True, False, True]))
    assert not result.hand_over.any() and (batch.turn != -1).all()
    with pytest.raises(ValueError, match="active must be a bool mask of shape"):
        batch.step(actions, active=np.array([1, 0, 1]))


def test_rules_unknown_switches_and_refusals():
    with pytest.raises(TypeError, match="unknown rule switch 'foo'"):
        APerdereBatch(2, foo=1)
    with pytest.raises(ValueError, match="needs"):
        APerdereBatch(2, reduce="monte")  # four players leave no card over: the rules' own refusal
    with pytest.raises(ValueError, match="players=9: must be an int 3..8"):
        APerdereBatch(2, players=9)
    with pytest.raises(ValueError, match="num_deals must be an int >= 1"):
        APerdereBatch(0)
    with pytest.raises(ValueError, match='match_end="elimination" needs objective="avoid"'):
        APerdereBatch(2, players=5, episode="match", match_end="elimination", objective="take")
    batch = APerdereBatch(2, seed=0, players=6, reduce="monte", episode="match", target_score=11)
    assert batch.rules == APerdereRules(players=6, reduce="monte", episode="match", target_score=11)
    assert batch.num_agents == 6 and batch.num_actions == 255 and batch.n == batch.num_deals == 2
    assert batch.observation.size == observation(batch.rules).size == batch.observe().shape[1]
    assert batch.turn.dtype == np.int64


def test_chosen_deals_and_dealers():
    hands = [list(range(0, 13)), list(range(13, 26)), list(range(26, 39))]  # card 39 removed
    batch = APerdereBatch(5, seed=0, players=3, first_lead="four_of_denari")
    batch.reset(hands=hands, dealer=[0, 1, 2, 1, 1])
    assert batch.turn.tolist() == [0] * 5  # seat 0 holds the 4 di denari (card 3)
    assert batch.removed().tolist() == [1 << 39] * 5
    assert all(batch.deal_of(i) == {"hands": hands} for i in range(5))
    ref = Reference(batch, {"players": 3, "first_lead": "four_of_denari"})
    ref.check_masks()
    ref.check_observations()
    # The monte chosen, the hands shuffled around it; M chosen deals at once.
    rules = {"players": 6, "reduce": "monte"}
    batch = APerdereBatch(4, seed=1, **rules)
    batch.reset(monte=[0, 1, 2, 3], deals=[1, 3], dealer=2)
    assert batch.deal_of(1)["monte"] == [0, 1, 2, 3] and batch.deal_of(1)["hands"] != batch.deal_of(3)["hands"]
    assert batch.dealer[[1, 3]].tolist() == [2, 2]
    rng = np.random.default_rng(1)
    decks = [rng.permutation(40) for _ in range(2)]
    chosen = [[sorted(d[6 * s : 6 * s + 6].tolist()) for s in range(6)] for d in decks]
    montes = [sorted(d[36:].tolist()) for d in decks]
    batch.reset(hands=chosen, monte=montes, deals=np.array([True, False, True, False]))
    assert batch.deal_of(0) == {"hands": chosen[0], "monte": montes[0]}
    assert batch.deal_of(2) == {"hands": chosen[1], "monte": montes[1]}
    ref = Reference(batch, rules)
    play = np.random.default_rng(2)
    for _ in range(45):
        actions = batch.sample_actions(play)
        ref.step(actions, None, batch.step(actions))
        ref.check_masks()
        ref.check_observations((None,))
    # The dealer's discards: his hand holds the extra card; he discards, then the seat after him leads.
    rules = {"players": 3, "reduce": "dealer_discard"}
    batch = APerdereBatch(2, seed=1, **rules)
    hands = [list(range(0, 14)), list(range(14, 27)), list(range(27, 40))]
    batch.reset(hands=hands, dealer=0)
    assert batch.phase.tolist() == [1, 1] and batch.turn.tolist() == [0, 0]
    assert np.flatnonzero(batch.legal_masks()[0]).tolist() == [201 + c for c in range(14)]
    ref = Reference(batch, rules)
    batch_result = batch.step(np.array([201 + 3, 201 + 0]))
    ref.step(np.array([204, 201]), None, batch_result)
    assert batch.phase.tolist() == [0, 0] and batch.turn.tolist() == [1, 1]
    assert batch.set_aside().tolist() == [1 << 3, 1 << 0]
    ref.check_observations()


@pytest.mark.parametrize(
    "rules, kwargs, match",
    [
        ({}, {"hands": [list(range(10))] * 4}, "card 0 is dealt in hand 0 and in hand 1"),
        ({}, {"hands": [list(range(10))] * 3}, "a deal's hands are 4 lists of 10 card ids"),
        ({}, {"hands": [list(range(10)), list(range(10, 20)), list(range(20, 30)), list(range(30, 39))]}, "hand 3 of the deal has 9 cards"),
        ({}, {"hands": [list(range(10)), list(range(10, 20)), list(range(20, 30)), list(range(31, 41))]}, "card id 40"),
        ({}, {"monte": [1, 2]}, 'a monte is for reduce="monte"'),
        ({"players": 3, "reduce": "dealer_discard"}, {"hands": [list(range(14)), list(range(14, 27)), list(range(27, 40))]}, "names its dealer"),
        ({"players": 6, "reduce": "monte"}, {"monte": [1, 2, 3]}, r"monte 0 of the deal has 3 cards"),
        ({"players": 6, "reduce": "monte"}, {"monte": [[1, 2, 3, 4]] * 3}, "3 chosen monte for 4 deals to reset"),
        (
            {"players": 6, "reduce": "monte"},
            {"monte": [[1, 2, 3, 4], [5, 6, 7, 7], [1, 2, 3, 4], [1, 2, 3, 4]]},
            "chosen deal 1: card 7 is dealt twice in monte 0",
        ),
        ({}, {"dealer": 4}, "dealer must be a seat 0..3"),
        ({}, {"dealer": [0, 1]}, r"dealer must be one seat or 4 seats \(one per deal reset\); got shape \(2,\)"),
        ({}, {"dealer": True}, "dealer must be a seat 0..3 \\(an int\\)"),
        ({}, {"deals": [0, 4]}, "deal indices are 0..3; got 4"),
        ({}, {"deals": np.ones(3, dtype=bool)}, r"a deal mask has shape \(4,\); got \(3,\)"),
        ({}, {"deals": [0.5]}, "deals are indices 0..3 or a bool mask; got dtype float64"),
    ],
)  # fmt: skip
def test_bad_chosen_deals_are_refused_and_change_nothing(rules, kwargs, match):
    batch = APerdereBatch(4, seed=0, **rules)
    before = [batch.deal_of(i) for i in range(4)], batch.dealer, batch._rng.bit_generator.state  # noqa: SLF001
    with pytest.raises(ValueError, match=match):
        batch.reset(**kwargs)
    assert [batch.deal_of(i) for i in range(4)] == before[0] and np.array_equal(batch.dealer, before[1])
    assert batch._rng.bit_generator.state == before[2]  # noqa: SLF001


def test_observing_some_deals_from_some_seats():
    batch = APerdereBatch(30, seed=12, players=5)
    rng = np.random.default_rng(12)
    for _ in range(25):
        batch.step(batch.sample_actions(rng))
    every = np.stack([batch.observe(seats=s) for s in range(5)])  # (5, N, size)
    deals = np.array([3, 0, 29, 3])
    seats = np.array([1, 4, 0, 2])
    assert np.array_equal(batch.observe(seats=seats, deals=deals), every[seats, deals])
    mask = np.zeros(30, dtype=bool)
    mask[[5, 7]] = True
    assert np.array_equal(batch.observe(deals=mask), batch.observe()[[5, 7]])
    assert np.array_equal(batch.observe(), every[batch.turn, np.arange(30)])
    for bad in (5, -1, np.array([0, 1])):
        with pytest.raises(ValueError, match="seats are"):
            batch.observe(seats=bad)


@pytest.mark.parametrize("players", [3, 6, 7])
def test_shuffled_deals_are_partitions_and_look_uniform(players):
    batch = APerdereBatch(8000, seed=11, players=players)
    hands = batch.hands()
    every = np.bitwise_or.reduce(hands, axis=1) | batch.removed()
    assert (every == (1 << 40) - 1).all() and (np.bitwise_count(hands) == 40 // players).all()
    holder = np.stack([(hands >> np.uint64(c)) & np.uint64(1) for c in range(40)], axis=2).sum(axis=0)  # (P, 40)
    kept = holder.sum(axis=0) > 0
    assert np.abs(holder[:, kept] / 8000 - 1 / players).max() < 0.03
    assert np.abs(np.bincount(batch.dealer, minlength=players) / 8000 - 1 / players).max() < 0.03
    again = APerdereBatch(8000, seed=11, players=players)
    assert np.array_equal(again.hands(), hands) and np.array_equal(again.dealer, batch.dealer)


def test_sample_actions_is_uniform_over_the_legal_actions():
    batch = APerdereBatch(1, seed=0, teams=True)
    legal = np.flatnonzero(batch.legal_masks()[0])
    assert (legal >= 40).any()  # signals on the lead
    rng = np.random.default_rng(0)
    draws = np.array([batch.sample_actions(rng)[0] for _ in range(4000)])
    counts = np.array([(draws == a).sum() for a in legal])
    assert set(draws) == set(legal) and abs(counts / 4000 - 1 / len(legal)).max() < 0.03


@pytest.mark.parametrize(
    "rules",
    [
        {"players": 3, "reduce": "dealer_discard", "asso_bastoni_value": 18},
        {"players": 5, "episode": "match", "match_end": "elimination", "target_score": 5, "reduce": "monte"},
        {"teams": True, "episode": "match", "target_score": 6},
    ],
    ids=_ids,
)
def test_the_aec_environment_agrees_on_observations_masks_and_rewards(rules, monkeypatch):
    n = 10
    batch = APerdereBatch(n, seed=9, **rules)
    players = batch.num_agents
    agents = [f"player_{a}" for a in range(players)]

    class BatchDeal:
        """An environment's deal generator that deals the next hand of a match as the batch dealt it."""

        def __init__(self, i: int):
            self.i = i

    def dealt_by_the_batch(game, rng):
        return next_hand(game, **batch.deal_of(rng.i))

    monkeypatch.setattr(aec, "next_hand", dealt_by_the_batch)
    envs = []
    for i in range(n):
        env = tressette_a_perdere_v0.raw_env(**rules)
        env.reset(options={**batch.deal_of(i), "dealer": int(batch.dealer[i])})
        env._deal_rng = BatchDeal(i)  # noqa: SLF001
        envs.append(env)
    rng = np.random.default_rng(9)
    paid = np.zeros((n, players), dtype=np.float32)  # the batch's rewards over each episode
    left = np.full((n, players), np.nan, dtype=np.float32)  # each agent's reward as it leaves the AEC episode
    done = np.zeros(n, dtype=bool)
    for step in range(2000):
        if done.all():
            break
        obs = [batch.observe(seats=s) for s in range(players)]
        masks = batch.legal_masks()
        seats = batch.players_in()
        for i, env in enumerate(envs):
            if done[i]:
                continue
            while env.terminations[env.agent_selection]:  # an agent put out of the match: its dead step
                env.step(None)
            for s, a in enumerate(seats[i]):
                if a < 0:
                    continue
                seen = env.observe(agents[a])
                assert np.array_equal(seen["observation"], obs[s][i]), (i, s, a)
                on_turn = env.agent_selection == agents[a]
                assert np.array_equal(seen["action_mask"], masks[i] if on_turn else 0 * masks[i])
        actions = batch.sample_actions(rng)
        actions[5] = 254 if step == 3 else actions[5]  # one renuncio
        result = batch.step(actions, active=~done)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for i, env in enumerate(envs):
                if done[i]:
                    continue
                env.step(int(actions[i]))
                for a, agent in enumerate(agents):
                    if np.isnan(left[i, a]) and env.terminations.get(agent, False):
                        left[i, a] = env.rewards[agent]
        paid[~done] += result.rewards[~done]
        done |= result.terminated
    assert done.all() and not np.isnan(left).any()
    assert np.array_equal(left, paid)
    assert all(not env.agents or all(env.terminations.values()) for env in envs)


def test_speed_figure_is_reasonable():
    """Not a benchmark: a guard that a step stays a fixed number of NumPy calls (no loop over deals)."""
    rng = np.random.default_rng(0)
    small, big = APerdereBatch(64, seed=0, players=6), APerdereBatch(4096, seed=0, players=6)
    times = []
    for batch in (small, big):
        start = time.process_time()
        for _ in range(60):
            batch.step(batch.sample_actions(rng))
        times.append(time.process_time() - start)
    assert times[1] < 64 * times[0] / 4  # 64 times the deals, far less than 64 times the time
