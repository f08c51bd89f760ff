"""The batched Tressette a chiamare (``AChiamareBatch``) is the scalar game, deal by deal.

A scalar reference (one engine state per deal, created from the batch's deal: the hands and
the dealer) is stepped with the same actions and checked as it goes: masks, observations (of
every seat now and then, of the seat on turn every step), rewards, terminations and the hand's
results, through the auction, the call and the card play.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pytest

from tressette_env import tressette_a_chiamare_v0
from tressette_env.encoders.a_chiamare import observation
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
from tressette_env.engine.actions import CALL, CHIAMO, PASS, SOLO
from tressette_env.envs import aec
from tressette_env.games.a_chiamare import A_CHIAMARE, AUCTION, CALL_PHASE, AChiamareRules, partner_of
from tressette_env.vector.a_chiamare import AChiamareBatch

NUM_ACTIONS = A_CHIAMARE.num_actions


def mask_bits(mask: int) -> np.ndarray:
    """An engine action mask (int) as the (255,) 0/1 vector of the environments."""
    return np.unpackbits(np.frombuffer(mask.to_bytes(32, "little"), np.uint8), count=NUM_ACTIONS, bitorder="little")


class Reference:
    """Scalar engine states mirroring every deal of an ``AChiamareBatch``."""

    def __init__(self, batch: AChiamareBatch, rules: dict):
        self.batch = batch
        self.rules = AChiamareRules.make(**rules)
        self.encode = observation(self.rules).encode
        self.states = [self.fresh(i) for i in range(batch.num_deals)]

    def fresh(self, i: int):
        return new_game(self.rules, dealer=int(self.batch.dealer[i]), **self.batch.deal_of(i))

    def check_state(self) -> None:
        b = self.batch
        turn, dealer, agent, phase = b.turn, b.dealer, b.agent, b.phase
        contract, declarer, called, partner = b.contract, b.declarer, b.called, b.partner
        leads = np.stack([b.lead(np.full(b.num_deals, a)) for a in range(5)], axis=1)
        for i, state in enumerate(self.states):
            p = state.public
            x = p.table.extra
            assert turn[i] == p.turn and dealer[i] == p.dealer, f"deal {i}: turn or dealer"
            assert agent[i] == p.turn and phase[i] == p.table.phase, f"deal {i}: agent or phase"
            assert b.bids[i].tolist() == list(x.bids), f"deal {i}: bids"
            assert (contract[i], declarer[i], called[i]) == (x.contract, x.declarer, x.called), f"deal {i}"
            assert partner[i] == partner_of(state), f"deal {i}: partner"
            expected = [A_CHIAMARE.lead(p, a) for a in range(5)]
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
        for seat in (None, *range(5)) if seats is None else seats:
            if seat is None and not self.batch.playing.all():
                rows = np.flatnonzero(self.batch.playing)
                got = dict(zip(rows.tolist(), self.batch.observe(deals=rows), strict=True))
            else:
                got = dict(enumerate(self.batch.observe(seats=seat)))
            for i, state in enumerate(self.states):
                if i not in got:
                    continue
                s = state.public.turn if seat is None else seat
                expected = self.encode(view(state, s))
                if not np.array_equal(got[i], expected):
                    diff = np.flatnonzero(got[i] != expected)
                    raise AssertionError(f"deal {i}, seat {s}: observation differs at {diff[:10]}")

    def step(self, actions: np.ndarray, active: np.ndarray | None, result, autoreset: bool = True) -> list[int]:
        """Apply the same actions, check ``result`` deal by deal; return the deals whose episode ended."""
        finished = []
        for i, state in enumerate(self.states):
            if (active is not None and not active[i]) or state.public.status != PLAYING:
                assert not result.hand_over[i] and not result.terminated[i]
                assert not result.rewards[i].any()
                continue
            action = int(actions[i])
            if legal_actions_mask(state) >> action & 1:
                state = apply(state, action)
            else:
                state = renuncio(state)
            p = state.public
            assert result.hand_over[i] == (p.status != PLAYING), f"deal {i}: hand over"
            rewards = np.zeros(5, dtype=np.float32)
            if p.status != PLAYING:
                r = p.result
                assert tuple(result.hand_points[i]) == r.points, (i, result.hand_points[i], r)
                assert tuple(result.card_thirds[i]) == r.card_thirds, (i, result.card_thirds[i], r)
                assert result.cappotto[i] == (-1 if r.cappotto is None else r.cappotto), (i, r)
                assert result.renuncio[i] == (-1 if r.renuncio is None else r.renuncio)
                assert result.hand_number[i] == p.hand_number
                assert tuple(result.stakes[i]) == p.table.extra.stakes, (i, result.stakes[i], p.table.extra)
                assert tuple(result.match_score[i]) == p.match_score, (i, result.match_score[i], p.match_score)
                assert result.winner[i] == (-1 if p.winner is None else p.winner), (i, result.winner[i], p.winner)
                if p.status == GAME_OVER:
                    rewards = np.array(A_CHIAMARE.returns(p), dtype=np.float32)
            else:
                assert result.hand_points[i].tolist() == [0, 0] and result.renuncio[i] == -1
                assert not result.stakes[i].any()
            assert result.terminated[i] == (p.status == GAME_OVER), f"deal {i}: terminated"
            assert np.array_equal(result.rewards[i], rewards), (i, result.rewards[i], rewards)
            if p.status == HAND_OVER:
                assert self.batch.hand_number[i] == p.hand_number + 1
                state = next_hand(state, **self.batch.deal_of(i))
                q = state.public
                assert (self.batch.dealer[i], self.batch.turn[i]) == (q.dealer, q.turn), f"deal {i}: next hand"
            elif p.status == GAME_OVER:
                finished.append(i)
                if autoreset:
                    state = self.fresh(i)
            self.states[i] = state
        return finished


def run(rules: dict, n: int, steps: int, seed: int, *, active_p=0.0, illegal_p=0.0, every=4, pass_p=0.5) -> dict:
    """Step a batch and its scalar reference together, checking everything as they go.

    A bid is a pass with probability ``pass_p`` more than a uniform draw gives: calls and void hands come oftener.
    """
    batch = AChiamareBatch(n, seed=seed, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(seed + 1)
    counts = dict.fromkeys(
        ("hands", "episodes", "renuncio", "cappotto", "plays", "calls", "void", "sola", "self", "signals"), 0
    )
    for step in range(steps):
        ref.check_state()
        ref.check_masks()
        ref.check_observations(None if step % every == 0 else (None,))
        actions = batch.sample_actions(rng)
        actions = np.where((batch.phase == AUCTION) & (rng.random(n) < pass_p), PASS, actions)
        if illegal_p:
            wrong = rng.random(n) < illegal_p
            actions[wrong] = rng.integers(0, NUM_ACTIONS, int(wrong.sum()))
        active = rng.random(n) < rng.choice([0.1, 0.5, 0.9]) if active_p and rng.random() < active_p else None
        on = np.ones(n, dtype=bool) if active is None else active
        calls = on & (actions >= CALL) & (actions < CALL + 40) & (batch.phase == CALL_PHASE)
        counts["calls"] += int(calls.sum())
        hand = batch.hands()[np.arange(n), np.maximum(batch.turn, 0)]
        own = calls & ((hand >> np.clip(actions - CALL, 0, 39).astype(np.uint64)) & np.uint64(1) != 0)
        counts["self"] += int(own.sum())
        counts["sola"] += int(((actions == SOLO) & on & (batch.phase == AUCTION)).sum())
        counts["signals"] += int(((actions >= 40) & (actions < 160) & on).sum())
        result = batch.step(actions, active=active)
        ref.step(actions, active, result)
        counts["hands"] += int(result.hand_over.sum())
        counts["episodes"] += int(result.terminated.sum())
        counts["renuncio"] += int((result.renuncio >= 0).sum())
        counts["cappotto"] += int((result.cappotto >= 0).sum())
        counts["void"] += int((result.hand_over & (result.renuncio < 0) & ~result.stakes.any(axis=1)).sum())
        counts["plays"] += int(on.sum())
    ref.check_masks()
    ref.check_observations()
    return counts


def _ids(rules: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in rules.items()) or "default"


FAMILY_SETS = [  # the a chiamare rule sets of tests/games/family.py
    {},
    {"allow_self_call": True, "call_rule": "highest_missing", "signals": "full"},
    {"reveal_partner": True, "auction": "first_taker", "first_lead": "declarer", "cappotto_rule": "all_tricks"},
    {"episode": "match", "rounds": 1, "multipliers": {"chiamo": 2}, "signals": "none"},
]
MORE_SETS = [  # every other switch value at least once
    {"auction": "first_taker", "call_rule": "highest_missing"},
    {"allow_self_call": True, "reveal_partner": True, "first_lead": "forehand"},
    {"allow_self_call": True, "first_lead": "declarer", "multipliers": {"sola": 5}, "cappotto_rule": "zero_thirds"},
    {"signals": "full", "cappotto_rule": "all_tricks", "multipliers": {"chiamo": 3, "sola": 4}},
    {"signals": "none", "first_lead": "forehand", "auction": "first_taker"},
    {"episode": "match", "match_end": "target", "target_score": 3, "reveal_partner": True},
    {"episode": "match", "rounds": 2, "auction": "first_taker", "allow_self_call": True},
    {"illegal_action": "raise", "call_rule": "highest_missing"},
    {"illegal_action": "raise", "episode": "match", "match_end": "target", "target_score": 5, "signals": "full"},
]


def _steps(rules: dict) -> int:
    """Decisions for a few hands (more with a match): at most 5 bids, a call and 40 card plays a hand."""
    return 46 * (4 if rules.get("episode") == "match" else 2) + 5


@pytest.mark.parametrize("rules", FAMILY_SETS + MORE_SETS, ids=_ids)
def test_every_rule_switch_with_partial_steps_and_renuncio(rules):
    illegal = 0.0 if rules.get("illegal_action") == "raise" else 0.003
    n = 50
    counts = run(rules, n, _steps(rules), seed=len(str(rules)), active_p=0.3, illegal_p=illegal, every=6)
    assert counts["hands"] >= n and counts["calls"] > 0 and counts["sola"] > 0 and counts["void"] > 0
    if illegal:
        assert counts["renuncio"] > 0
    if rules.get("allow_self_call"):
        assert counts["self"] > 0
    if rules.get("signals", "seed") != "none":
        assert counts["signals"] > 0
    if rules.get("cappotto_rule") == "zero_thirds" or rules.get("cappotto_rule") is None:
        pass  # random play leaves a side with nothing now and then: counted, see test_many_more_deals
    if rules.get("episode") == "match" and rules.get("rounds", 1) == 1:
        assert counts["episodes"] > 0


def test_random_illegal_actions_are_renuncio_in_every_phase():
    """Illegal actions in the auction, the call and the card play: the scalar game's penalties."""
    batch = AChiamareBatch(60, seed=5)
    ref = Reference(batch, {})
    rng = np.random.default_rng(5)
    phases = set()
    for _ in range(60):
        ref.check_masks()
        ref.check_observations((None,))
        actions = batch.sample_actions(rng)
        wrong = rng.random(60) < 0.05
        actions[wrong] = rng.integers(0, NUM_ACTIONS, int(wrong.sum()))
        phase = batch.phase
        result = batch.step(actions)
        phases.update(phase[result.renuncio >= 0].tolist())
        ref.step(actions, None, result)
    assert phases == {0, AUCTION, CALL_PHASE}


def test_a_match_through_several_hands():
    rules = {"episode": "match", "match_end": "target", "target_score": 4}
    counts = run(rules, 30, 300, seed=9, active_p=0.2, every=15)
    assert counts["hands"] >= 2 * counts["episodes"] > 0


def _sweep() -> tuple[list[list[int]], list[int]]:
    """Seat 0 (the forehand: dealer 4) holds the four 3s and the four 2s: leading them in turn, it takes every trick."""
    strong = [2, 12, 22, 32, 1, 11, 21, 31]
    rest = [c for c in range(40) if c not in strong]
    hands = [strong] + [rest[8 * k : 8 * k + 8] for k in range(4)]
    return hands, strong


@pytest.mark.parametrize(
    "rules, bid, stakes",
    [
        ({}, SOLO, [16, -4, -4, -4, -4]),
        ({"multipliers": {"sola": 3}}, SOLO, [24, -6, -6, -6, -6]),
        ({"cappotto_rule": "all_tricks"}, CHIAMO, [4, 2, -2, -2, -2]),
        ({"cappotto_rule": "zero_thirds", "multipliers": {"chiamo": 2}}, CHIAMO, [8, 4, -4, -4, -4]),
        ({"allow_self_call": True}, CHIAMO, [16, -4, -4, -4, -4]),
    ],
    ids=["sola", "sola-3", "chiamo", "chiamo-2", "self-call"],
)
def test_a_cappotto_from_a_chosen_deal(rules, bid, stakes):
    hands, strong = _sweep()
    batch = AChiamareBatch(4, seed=1, **rules)
    batch.reset(hands=hands, dealer=4)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(1)
    called = 2 if rules.get("allow_self_call") else 0  # a self-call names seat 0's own 3; else the asso held by seat 1
    first = [bid] + [PASS] * 4 + ([CALL + called] if bid == CHIAMO else [])
    for k in range(len(first) + 40):
        ref.check_masks()
        ref.check_observations((None,) if k % 5 else None)
        actions = batch.sample_actions(rng)
        if k < len(first):
            actions[:] = first[k]
        elif (batch.turn == 0).all():
            actions[:] = strong[batch.tricks_done[0]]
        result = batch.step(actions, autoreset=False)
        ref.step(actions, None, result, autoreset=False)
        if k < len(first) - 1:
            assert not result.hand_over.any()
    assert result.terminated.all() and result.stakes.tolist() == [stakes] * 4
    assert result.cappotto.tolist() == [0] * 4 and result.hand_points.tolist() == [[11, 0]] * 4
    assert result.rewards.tolist() == [stakes] * 4
    ref.check_observations(range(5))


def test_renuncio_before_the_call_costs_two_to_each():
    batch = AChiamareBatch(3, seed=2)
    turn = batch.turn
    actions = batch.sample_actions(np.random.default_rng(0))
    actions[1] = 0  # a card in the auction
    result = batch.step(actions)
    assert result.terminated.tolist() == [False, True, False]
    assert result.renuncio.tolist() == [-1, turn[1], -1]
    expected = [2] * 5
    expected[turn[1]] = -8
    assert result.stakes[1].tolist() == expected and result.rewards[1].tolist() == expected
    assert result.hand_points[1].tolist() == [0, 0] and result.cappotto[1] == -1


def test_every_player_passing_is_a_void_hand():
    batch = AChiamareBatch(2, seed=3, episode="match", rounds=1)
    for k in range(5):
        result = batch.step(np.full(2, PASS))
        assert result.hand_over.tolist() == [k == 4] * 2
    assert not result.terminated.any() and not result.stakes.any() and (batch.hand_number == 1).all()
    assert (batch.phase == AUCTION).all()


@pytest.mark.slow
@pytest.mark.parametrize("rules", FAMILY_SETS + MORE_SETS, ids=_ids)
def test_many_more_deals(rules):
    illegal = 0.0 if rules.get("illegal_action") == "raise" else 0.002
    counts = run(rules, 250, 4 * _steps(rules), seed=7, active_p=0.2, illegal_p=illegal, every=10)
    assert counts["hands"] >= 250 and counts["cappotto"] > 0


@pytest.mark.parametrize(
    "rules",
    [{"episode": "match", "match_end": "target", "target_score": 3}, {"reveal_partner": True}, {"signals": "none"}],
    ids=_ids,
)
def test_finished_deals_wait_for_reset_without_autoreset(rules):
    batch = AChiamareBatch(30, seed=3, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(3)
    finished: set[int] = set()
    for _ in range(3000):
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
        ref.check_observations(range(5))
    assert len(finished) == 30
    assert (batch.turn == -1).all() and (batch.agent == -1).all() and not batch.legal_masks().any()
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
    ref.check_observations(range(5))
    batch.reset(deals=~batch.playing)
    assert batch.playing.all()


def test_partial_steps_leave_the_other_deals_alone():
    rules = {"allow_self_call": True}
    batch = AChiamareBatch(40, seed=4, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(4)
    for k in range(100):
        before = [batch.observe(seats=s) for s in range(5)] + [batch.legal_masks()]
        active = rng.random(40) < (0.0 if k % 7 == 0 else 0.4)
        actions = np.where(active, batch.sample_actions(rng), -1)
        result = batch.step(actions, active=active)
        ref.step(actions, active, result)
        after = [batch.observe(seats=s) for s in range(5)] + [batch.legal_masks()]
        for x, y in zip(before, after, strict=True):
            assert np.array_equal(x[~active], y[~active])
    ref.check_masks()
    ref.check_observations()


def test_raise_mode_rejects_an_illegal_batch_and_changes_nothing():
    batch = AChiamareBatch(8, seed=5, illegal_action="raise")
    rng = np.random.default_rng(5)
    for _ in range(4):
        batch.step(np.full(8, PASS))
    batch.step(batch.sample_actions(rng))  # the last to speak: a void hand, a call or a sola
    assert set(batch.phase.tolist()) == {0, AUCTION, CALL_PHASE}

    def snapshot():
        return [batch.observe(seats=s) for s in range(5)] + [
            batch.legal_masks(), batch.turn, batch.hands(), batch.thirds, batch.bids, batch.called, batch.phase,
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


@pytest.mark.parametrize(
    "actions, match",
    [
        (np.full(3, 255), r"actions are ids 0\.\.254 \(or -1 in a deal that does not play\); deal 0 got 255"),
        (np.array([0, -1, 0]), r"actions are ids 0\.\.254 .*deal 1 got -1"),
        (np.full(3, 300, dtype=np.uint16), r"actions are ids 0\.\.254; deal 0 got"),
        (np.zeros(2, dtype=np.int64), r"actions must have shape \(3,\), one per deal; got \(2,\)"),
        (np.zeros(3, dtype=float), r"actions are integer ids 0\.\.254; got dtype float64"),
        (np.zeros(3, dtype=bool), r"actions are integer ids 0\.\.254; got dtype bool"),
    ],
)
def test_bad_actions_always_raise(actions, match):
    batch = AChiamareBatch(3, seed=0)
    before = batch.observe(), batch.turn
    with pytest.raises(ValueError, match=match):
        batch.step(actions)
    assert np.array_equal(batch.observe(), before[0]) and np.array_equal(batch.turn, before[1])
    with pytest.raises(ValueError, match="active must be a bool mask of shape"):
        batch.step(np.full(3, PASS), active=np.array([1, 0, 1]))


def test_rules_unknown_switches_and_constants():
    with pytest.raises(TypeError, match="unknown rule switch 'foo'"):
        AChiamareBatch(2, foo=1)
    with pytest.raises(ValueError, match="players=4"):
        AChiamareBatch(2, players=4)
    with pytest.raises(ValueError, match="needs"):
        AChiamareBatch(2, rounds=2)  # only with a match: the rules' own refusal
    with pytest.raises(ValueError, match="num_deals must be an int >= 1"):
        AChiamareBatch(0)
    batch = AChiamareBatch(2, seed=0, episode="match", rounds=2, multipliers={"sola": 3})
    assert batch.rules == AChiamareRules.make(episode="match", rounds=2, multipliers={"sola": 3})
    assert batch.num_agents == 5 and batch.num_actions == 255 and batch.n == batch.num_deals == 2
    assert batch.observation.size == observation(batch.rules).size == batch.observe().shape[1]
    assert batch.deal_options == A_CHIAMARE.deal_options
    assert batch.decisions_per_hand is None and batch.players_drop_out is False
    assert batch.turn.dtype == np.int64 and (batch.phase == AUCTION).all()
    with pytest.raises(ValueError, match="int8 \\(the default\\) or bool"):
        batch.legal_masks(np.float32)


def test_chosen_deals_and_dealers():
    rng = np.random.default_rng(1)
    decks = [rng.permutation(40) for _ in range(3)]
    chosen = [[sorted(d[8 * s : 8 * s + 8].tolist()) for s in range(5)] for d in decks]
    batch = AChiamareBatch(5, seed=0)
    batch.reset(hands=chosen[0], dealer=[0, 1, 2, 3, 4])
    assert batch.turn.tolist() == [1, 2, 3, 4, 0]  # the forehand opens the auction
    assert all(batch.deal_of(i) == {"hands": chosen[0]} for i in range(5))
    batch.reset(hands=np.array(chosen[1:]), deals=[1, 3], dealer=2)
    assert batch.deal_of(1) == {"hands": chosen[1]} and batch.deal_of(3) == {"hands": chosen[2]}
    assert batch.dealer[[1, 3]].tolist() == [2, 2] and batch.deal_of(0) == {"hands": chosen[0]}
    ref = Reference(batch, {})
    play = np.random.default_rng(2)
    for _ in range(50):
        actions = batch.sample_actions(play)
        ref.step(actions, None, batch.step(actions))
        ref.check_masks()
        ref.check_observations((None,))


_GOOD = [list(range(8 * s, 8 * s + 8)) for s in range(5)]


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"hands": [list(range(8))] * 5}, "card 0 is dealt in hand 0 and in hand 1"),
        ({"hands": _GOOD[:4]}, "5 lists of 8 card ids"),
        ({"hands": [*_GOOD[:4], list(range(32, 39))]}, "hand 4 of the deal has 7 cards"),
        ({"hands": [*_GOOD[:4], list(range(33, 41))]}, "card id 40"),
        ({"hands": [_GOOD] * 3}, "3 chosen hands for 4 deals to reset"),
        ({"hands": [_GOOD, _GOOD, [list(range(8))] * 5, _GOOD]}, "chosen deal 2: card 0 is dealt"),
        ({"dealer": 5}, "dealer must be a seat 0..4"),
        ({"dealer": [0, 1]}, r"dealer must be one seat or 4 seats \(one per deal reset\); got shape \(2,\)"),
        ({"dealer": True}, "dealer must be a seat 0..4 \\(an int\\)"),
        ({"deals": [0, 4]}, "deal indices are 0..3; got 4"),
        ({"deals": np.ones(3, dtype=bool)}, r"a deal mask has shape \(4,\); got \(3,\)"),
        ({"deals": [0.5]}, "deals are indices 0..3 or a bool mask; got dtype float64"),
    ],
)
def test_bad_chosen_deals_are_refused_and_change_nothing(kwargs, match):
    batch = AChiamareBatch(4, seed=0)
    before = [batch.deal_of(i) for i in range(4)], batch.dealer, batch._rng.bit_generator.state  # noqa: SLF001
    with pytest.raises(ValueError, match=match):
        batch.reset(**kwargs)
    assert [batch.deal_of(i) for i in range(4)] == before[0] and np.array_equal(batch.dealer, before[1])
    assert batch._rng.bit_generator.state == before[2]  # noqa: SLF001


def test_observing_some_deals_from_some_seats():
    batch = AChiamareBatch(30, seed=12)
    rng = np.random.default_rng(12)
    for _ in range(12):
        batch.step(batch.sample_actions(rng))
    every = np.stack([batch.observe(seats=s) for s in range(5)])  # (5, N, size)
    deals = np.array([3, 0, 29, 3])
    seats = np.array([1, 4, 0, 2])
    assert np.array_equal(batch.observe(seats, deals), every[seats, deals])  # positionally, as FamilyVectorEnv
    mask = np.zeros(30, dtype=bool)
    mask[[5, 7]] = True
    assert np.array_equal(batch.observe(deals=mask), batch.observe()[[5, 7]])
    assert np.array_equal(batch.observe(), every[batch.turn, np.arange(30)])
    for bad in (5, -1, np.array([0, 1])):
        with pytest.raises(ValueError, match="seats are"):
            batch.observe(seats=bad)


def test_shuffled_deals_are_partitions_and_look_uniform():
    batch = AChiamareBatch(8000, seed=11)
    hands = batch.hands()
    assert (np.bitwise_or.reduce(hands, axis=1) == (1 << 40) - 1).all() and (np.bitwise_count(hands) == 8).all()
    holder = np.stack([(hands >> np.uint64(c)) & np.uint64(1) for c in range(40)], axis=2).sum(axis=0)  # (5, 40)
    assert np.abs(holder / 8000 - 1 / 5).max() < 0.03
    assert np.abs(np.bincount(batch.dealer, minlength=5) / 8000 - 1 / 5).max() < 0.03
    again = AChiamareBatch(8000, seed=11)
    assert np.array_equal(again.hands(), hands) and np.array_equal(again.dealer, batch.dealer)


@pytest.mark.parametrize("phase", [AUCTION, CALL_PHASE, 0])
def test_sample_actions_is_uniform_over_the_legal_actions(phase):
    batch = AChiamareBatch(1, seed=0, signals="full", auction="first_taker")
    for action in {AUCTION: [], CALL_PHASE: [CHIAMO], 0: [CHIAMO]}[phase]:
        batch.step(np.array([action]))
    if phase == 0:
        batch.step(np.flatnonzero(batch.legal_masks()[0])[:1])  # a call
    assert batch.phase[0] == phase
    legal = np.flatnonzero(batch.legal_masks()[0])
    assert len(legal) > 2
    rng = np.random.default_rng(0)
    draws = np.array([batch.sample_actions(rng)[0] for _ in range(4000)])
    counts = np.array([(draws == a).sum() for a in legal])
    assert set(draws) == set(legal) and abs(counts / 4000 - 1 / len(legal)).max() < 0.03


@pytest.mark.parametrize(
    "rules",
    [{}, {"episode": "match", "match_end": "target", "target_score": 3, "reveal_partner": True}],
    ids=_ids,
)
def test_the_aec_environment_agrees_on_observations_masks_and_rewards(rules, monkeypatch):
    n = 8
    batch = AChiamareBatch(n, seed=9, **rules)
    agents = [f"player_{a}" for a in range(5)]

    class BatchDeal:
        """An environment's deal generator that deals the next hand of a match as the batch dealt it."""

        def __init__(self, i: int):
            self.i = i

    def dealt_by_the_batch(game, rng):
        return next_hand(game, **batch.deal_of(rng.i))

    monkeypatch.setattr(aec, "next_hand", dealt_by_the_batch)
    envs = []
    for i in range(n):
        env = tressette_a_chiamare_v0.raw_env(**rules)
        env.reset(options={**batch.deal_of(i), "dealer": int(batch.dealer[i])})
        env._deal_rng = BatchDeal(i)  # noqa: SLF001
        envs.append(env)
    rng = np.random.default_rng(9)
    paid = np.zeros((n, 5), dtype=np.float32)
    left = np.full((n, 5), np.nan, dtype=np.float32)
    done = np.zeros(n, dtype=bool)
    for step in range(3000):
        if done.all():
            break
        obs = [batch.observe(seats=s) for s in range(5)]
        masks = batch.legal_masks()
        for i, env in enumerate(envs):
            if done[i]:
                continue
            for s in range(5):
                seen = env.observe(agents[s])
                assert np.array_equal(seen["observation"], obs[s][i]), (i, s)
                on_turn = env.agent_selection == agents[s]
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


def test_speed_figure_is_reasonable():
    """Not a benchmark: a guard that a step stays a fixed number of NumPy calls (no loop over deals)."""
    rng = np.random.default_rng(0)
    small, big = AChiamareBatch(64, seed=0), AChiamareBatch(4096, seed=0)
    times = []
    for batch in (small, big):
        start = time.process_time()
        for _ in range(60):
            batch.step(batch.sample_actions(rng))
        times.append(time.process_time() - start)
    assert times[1] < 64 * times[0] / 4  # 64 times the deals, far less than 64 times the time


def test_family_vector_env_drives_the_batch():
    """``FamilyVectorEnv`` plays a chiamare on this batch (the catalog's ``Entry.batch``).

    The learner is on turn after every step, and an episode pays it its stake (the final
    info's match score at its seat, which is the hand's stakes in ``episode="hand"``).
    """
    from tressette_env.vector import family_env

    env = family_env.FamilyVectorEnv(16, "tressette_a_chiamare", agent="random", seed=3)
    assert isinstance(env.batch, AChiamareBatch)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(150):
        assert (env.batch.agent == env.agents).all()
        assert np.array_equal(obs, env.batch.observe())
        mask = info["action_mask"]
        agents = env.agents
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        obs, rewards, terminated, truncated, info = env.step(actions)
        done = np.flatnonzero(terminated)
        if len(done):
            final = info["final_info"]
            assert (final["agent"][done] == agents[done]).all()
            assert np.array_equal(rewards[done], final["match_score"][done, agents[done]])
            assert (final["match_score"][done].sum(axis=1) == 0).all()
        assert not rewards[~terminated].any()
        ended += len(done)
    assert ended > 16
