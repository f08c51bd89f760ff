"""The batched Tressette in due (``InDueBatch``) is the scalar game, deal by deal.

A scalar reference (one engine state per deal, created from the batch's deal: the hands,
the stock's order and the dealer) is stepped with the same actions and checked as it goes:
masks, observations (of both seats and of the seat on turn), rewards, terminations and the
hand's results.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pytest

from tressette_env import tressette_in_due_v0
from tressette_env.encoders.in_due import observation
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
from tressette_env.games.in_due import IN_DUE, InDueRules
from tressette_env.vector.in_due import InDueBatch

NUM_ACTIONS = IN_DUE.num_actions


def mask_bits(mask: int) -> np.ndarray:
    """An engine action mask (int) as the (255,) 0/1 vector of the environments."""
    return np.unpackbits(np.frombuffer(mask.to_bytes(32, "little"), np.uint8), count=NUM_ACTIONS, bitorder="little")


class Reference:
    """Scalar engine states mirroring every deal of an ``InDueBatch``."""

    def __init__(self, batch: InDueBatch, rules: dict):
        self.batch = batch
        self.rules = InDueRules.make(**rules)
        self.encode = observation(self.rules).encode
        self.states = [self.fresh(i) for i in range(batch.num_deals)]

    def fresh(self, i: int):
        return new_game(self.rules, dealer=int(self.batch.dealer[i]), **self.batch.deal_of(i))

    def check_state(self) -> None:
        turn, dealer = self.batch.turn, self.batch.dealer
        for i, state in enumerate(self.states):
            p = state.public
            assert turn[i] == p.turn and dealer[i] == p.dealer, f"deal {i}: turn or dealer"

    def check_masks(self) -> None:
        got = self.batch.legal_masks()
        for i, state in enumerate(self.states):
            expected = mask_bits(legal_actions_mask(state))
            if not np.array_equal(got[i], expected):
                raise AssertionError(
                    f"deal {i}: mask {np.flatnonzero(got[i]).tolist()} != {np.flatnonzero(expected).tolist()}"
                )

    def check_observations(self, seats=(None, 0, 1)) -> None:
        for seat in seats:
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
            rewards = np.zeros(2, dtype=np.float32)
            if p.status != PLAYING:
                r = p.result
                assert tuple(result.hand_points[i]) == r.points, (i, result.hand_points[i], r)
                assert tuple(result.card_thirds[i]) == r.card_thirds, (i, result.card_thirds[i], r)
                assert tuple(result.accusi[i]) == r.accusi, (i, result.accusi[i], r)
                assert result.cappotto[i] == (-1 if r.cappotto is None else r.cappotto)
                assert result.renuncio[i] == (-1 if r.renuncio is None else r.renuncio)
                assert result.called_out[i] == (-1 if r.called_out is None else r.called_out)
                assert result.hand_number[i] == p.hand_number
                assert tuple(result.match_score[i]) == p.match_score
                assert result.winner[i] == (-1 if p.winner is None else p.winner)
                if p.status == GAME_OVER:
                    rewards = np.array(IN_DUE.returns(p), dtype=np.float32)
            else:
                assert result.hand_points[i].tolist() == [0, 0] and result.renuncio[i] == -1
            assert result.terminated[i] == (p.status == GAME_OVER), f"deal {i}: terminated"
            assert np.array_equal(result.rewards[i], rewards), (i, result.rewards[i], rewards)
            if p.status == HAND_OVER:
                assert self.batch.dealer[i] == 1 - p.dealer
                assert self.batch.hand_number[i] == p.hand_number + 1
                state = next_hand(state, **self.batch.deal_of(i))
            elif p.status == GAME_OVER:
                finished.append(i)
                if autoreset:
                    state = self.fresh(i)
            self.states[i] = state
        return finished


def run(rules: dict, n: int, steps: int, seed: int, *, active_p=0.0, illegal_p=0.0, every=4, seats_p=1.0) -> dict:
    """Step a batch and its scalar reference together, checking everything as they go."""
    batch = InDueBatch(n, seed=seed, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(seed + 1)
    counts = {"hands": 0, "episodes": 0, "renuncio": 0, "called": 0, "plays": 0}
    for step in range(steps):
        ref.check_state()
        ref.check_masks()
        ref.check_observations((None, 0, 1) if step % every == 0 else (None,))
        actions = batch.sample_actions(rng)
        if illegal_p:
            wrong = rng.random(n) < illegal_p
            actions[wrong] = rng.integers(0, NUM_ACTIONS, int(wrong.sum()))
        active = rng.random(n) < rng.choice([0.1, 0.5, 0.9]) if active_p and rng.random() < active_p else None
        result = batch.step(actions, active=active)
        ref.step(actions, active, result)
        counts["hands"] += int(result.hand_over.sum())
        counts["episodes"] += int(result.terminated.sum())
        counts["renuncio"] += int((result.renuncio >= 0).sum())
        counts["called"] += int((result.called_out >= 0).sum())
        counts["plays"] += n if active is None else int(active.sum())
    ref.check_masks()
    ref.check_observations()
    return counts


def test_the_default_rules_over_hundreds_of_deals_through_whole_episodes():
    counts = run({}, 300, 90, seed=0, every=6)
    assert counts["episodes"] >= 600 and counts["renuncio"] == 0


FAMILY_SETS = [  # the rule sets of tests/games/family.py (but the default, tested above)
    {"follow_suit_with_stock": False, "show_drawn": False, "accusi": "dealt_and_drawn"},
    {"accusi": "dealt", "objective": "avoid", "episode": "match", "target_score": 11},
    {"episode": "match", "target_score": 11, "calling_out": True, "cappotto_bonus": 11},
    {"deal": "packets"},
    {"deal": "packets", "packet_deal": "choose", "pizzichi_pickup": True, "episode": "match", "target_score": 11},
]
MORE_SETS = [  # every other switch value at least once
    {"accusi": "dealt_and_drawn", "show_drawn": True, "follow_suit_with_stock": True, "cappotto_bonus": 3},
    {"accusi": "dealt", "follow_suit_with_stock": False, "objective": "avoid"},
    {"show_drawn": False, "accusi": "dealt", "episode": "match", "target_score": 21, "calling_out": True},
    {"illegal_action": "raise", "accusi": "dealt_and_drawn", "episode": "match", "target_score": 5},
    {"deal": "packets", "pizzichi_pickup": True, "objective": "avoid", "cappotto_bonus": 2},
    {"deal": "packets", "packet_deal": "choose", "episode": "match", "target_score": 11, "calling_out": True},
    {"deal": "packets", "packet_deal": "choose", "illegal_action": "raise", "objective": "avoid"},
]


def _ids(rules: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in rules.items()) or "default"


@pytest.mark.parametrize("rules", FAMILY_SETS + MORE_SETS, ids=_ids)
def test_every_rule_switch_with_partial_steps_and_renuncio(rules):
    illegal = 0.0 if rules.get("illegal_action") == "raise" else 0.004
    counts = run(rules, 150, 100, seed=len(str(rules)), active_p=0.3, illegal_p=illegal, every=5)
    assert counts["hands"] >= 60
    if illegal:
        assert counts["renuncio"] > 0
    if rules.get("calling_out"):
        assert counts["called"] > 0


def test_random_illegal_actions_are_renuncio():
    counts = run({"accusi": "dealt"}, 100, 45, seed=5, illegal_p=0.05, every=3)
    assert counts["renuncio"] > 50


def test_a_match_through_several_hands():
    rules = {"episode": "match", "target_score": 31, "accusi": "dealt_and_drawn", "cappotto_bonus": 2}
    counts = run(rules, 60, 200, seed=9, active_p=0.2, every=10)
    assert counts["hands"] >= 2 * counts["episodes"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("rules", [{}, *FAMILY_SETS, *MORE_SETS], ids=_ids)
def test_many_more_deals(rules):
    illegal = 0.0 if rules.get("illegal_action") == "raise" else 0.002
    counts = run(rules, 1000, 200, seed=7, active_p=0.2, illegal_p=illegal, every=10)
    assert counts["hands"] >= 2000


@pytest.mark.parametrize(
    "rules",
    [
        {"episode": "match", "target_score": 11, "calling_out": True, "accusi": "dealt"},
        {"deal": "packets", "packet_deal": "choose", "pizzichi_pickup": True, "episode": "match", "target_score": 5},
    ],
    ids=_ids,
)
def test_finished_deals_wait_for_reset_without_autoreset(rules):
    batch = InDueBatch(40, seed=3, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(3)
    finished: set[int] = set()
    for _ in range(1000):
        playing = batch.playing
        if not playing.any():
            break
        actions = batch.sample_actions(rng)  # -1 in the finished deals, fed back as it is
        assert ((actions == -1) == ~playing).all()
        if rng.random() < 0.1:  # a renuncio now and then (in every phase), seen in the final observation
            actions[playing] = np.where(rng.random(int(playing.sum())) < 0.05, 0, actions[playing])
        result = batch.step(actions, active=playing, autoreset=False)
        finished.update(ref.step(actions, playing, result, autoreset=False))
        assert not batch.playing[list(finished)].any()
        ref.check_observations((0, 1))
    assert len(finished) == 40
    assert (batch.turn == -1).all() and not batch.legal_masks().any()
    assert (batch.sample_actions(rng) == -1).all()
    ref.check_masks()
    ref.check_observations((0, 1))
    with pytest.raises(ValueError, match="finished deal cannot play"):
        batch.step(np.zeros(40, dtype=np.int64))
    with pytest.raises(ValueError, match="finished deal cannot play"):
        batch.step(np.zeros(40, dtype=np.int64), active=np.ones(40, dtype=bool))
    with pytest.raises(ValueError, match="no seat on turn"):
        batch.observe()
    batch.reset(deals=np.arange(0, 40, 2))
    assert batch.playing.tolist() == [True, False] * 20
    assert (batch.match_score[::2] == 0).all() and (batch.hand_number[::2] == 0).all()
    for i in range(0, 40, 2):
        ref.states[i] = ref.fresh(i)
    ref.check_masks()
    ref.check_observations((0, 1))
    batch.reset(deals=~batch.playing)
    assert batch.playing.all()


def test_partial_steps_leave_the_other_deals_alone():
    batch = InDueBatch(50, seed=4, accusi="dealt_and_drawn")
    ref = Reference(batch, {"accusi": "dealt_and_drawn"})
    rng = np.random.default_rng(4)
    for k in range(120):
        before = batch.observe(seats=0), batch.observe(seats=1), batch.legal_masks()
        active = rng.random(50) < (0.0 if k % 7 == 0 else 0.4)
        actions = np.where(active, batch.sample_actions(rng), -1)
        result = batch.step(actions, active=active)
        ref.step(actions, active, result)
        after = batch.observe(seats=0), batch.observe(seats=1), batch.legal_masks()
        for x, y in zip(before, after, strict=True):
            assert np.array_equal(x[~active], y[~active])
    ref.check_masks()
    ref.check_observations()


def test_raise_mode_rejects_an_illegal_batch_and_changes_nothing():
    batch = InDueBatch(8, seed=5, illegal_action="raise", accusi="dealt")
    rng = np.random.default_rng(5)
    for _ in range(7):
        batch.step(batch.sample_actions(rng))
    before = batch.observe(seats=0), batch.observe(seats=1), batch.legal_masks(), batch.turn, batch.hands()
    actions = batch.sample_actions(rng)
    masks = batch.legal_masks()
    actions[3] = int(np.flatnonzero(masks[3] == 0)[0])
    actions[6] = 254
    with pytest.raises(IllegalActionError, match=r"illegal actions in 2 deal\(s\) \(deal 3: .*deal 6: 254\)"):
        batch.step(actions)
    with pytest.raises(IllegalActionError, match="deal 6"):
        batch.step(actions, active=np.arange(8) == 6)
    after = batch.observe(seats=0), batch.observe(seats=1), batch.legal_masks(), batch.turn, batch.hands()
    for x, y in zip(before, after, strict=True):
        assert np.array_equal(x, y)
    batch.step(batch.sample_actions(rng))  # and it plays on


@pytest.mark.parametrize("objective", ["take", "avoid"])
def test_renuncio_ends_the_hand_eleven_nil(objective):
    batch = InDueBatch(4, seed=2, objective=objective)
    turn = batch.turn
    actions = batch.sample_actions(np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(batch.legal_masks()[1] == 0)[0])
    result = batch.step(actions)
    assert result.terminated.tolist() == [False, True, False, False]
    assert result.renuncio.tolist() == [-1, turn[1], -1, -1]
    s = turn[1]
    if objective == "take":
        assert result.hand_points[1, s] == 0 and result.hand_points[1, 1 - s] == 11
    else:
        assert result.hand_points[1, s] == 11 and result.hand_points[1, 1 - s] == 0
    assert result.rewards[1, s] == -11 and result.rewards[1, 1 - s] == 11


@pytest.mark.parametrize(
    "actions, match",
    [
        (np.full(3, 255), r"actions are ids 0\.\.254 \(or -1 in a deal that does not play\); deal 0 got 255"),
        (np.array([0, -1, 0]), r"actions are ids 0\.\.254 .*deal 1 got -1"),
        (np.array([0, 0, -2]), r"deal 2 got -2"),
        (np.full(3, 300, dtype=np.uint16), r"actions are ids 0\.\.254; deal 0 got"),
        (np.zeros(2, dtype=np.int64), r"actions must have shape \(3,\), one per deal; got \(2,\)"),
        (np.zeros(3), r"actions are integer ids 0\.\.254; got dtype float64"),
        (np.zeros(3, dtype=bool), r"actions are integer ids 0\.\.254; got dtype bool"),
        (["a", "b", "c"], r"actions are integer ids 0\.\.254; got dtype <U1"),
    ],
)
def test_bad_actions_always_raise_value_error_with_the_range(actions, match):
    for mode in ("renuncio", "raise"):
        batch = InDueBatch(3, seed=0, illegal_action=mode)
        before = batch.observe()
        with pytest.raises(ValueError, match=match):
            batch.step(actions)
        assert np.array_equal(batch.observe(), before)


def test_minus_one_is_fine_where_a_deal_does_not_play():
    batch = InDueBatch(3, seed=0)
    actions = batch.sample_actions(np.random.default_rng(0))
    actions[1] = -1
    result = batch.step(actions, active=np.array([True, False, True]))
    assert not result.hand_over.any() and batch.tricks_done.tolist() == [0, 0, 0]
    with pytest.raises(ValueError, match="active must be a bool mask of shape"):
        batch.step(actions, active=np.array([1, 0, 1]))


def test_rules_and_unknown_switches():
    with pytest.raises(TypeError, match="unknown rule switch 'foo'"):
        InDueBatch(2, foo=1)
    with pytest.raises(ValueError, match="needs"):
        InDueBatch(2, deal="packets", accusi="dealt")  # the rules' own refusal
    with pytest.raises(ValueError, match="needs"):
        InDueBatch(2, target_score=11)  # a match switch without episode="match": the rules' own check
    with pytest.raises(ValueError, match="num_deals must be an int >= 1"):
        InDueBatch(0)
    batch = InDueBatch(2, seed=0, accusi="dealt", episode="match", target_score=11)
    assert batch.rules == InDueRules(accusi="dealt", episode="match", target_score=11)
    assert batch.num_agents == 2 and batch.num_actions == 255 and batch.n == batch.num_deals == 2
    assert batch.observation.size == 830 and batch.observe().shape == (2, 830)
    assert batch.turn.dtype == np.int64


def test_chosen_deals_and_dealers():
    hands = [list(range(0, 10)), list(range(10, 20))]
    stock = list(range(39, 19, -1))
    batch = InDueBatch(5, seed=0)
    batch.reset(hands=hands, stock=stock, dealer=[0, 1, 0, 1, 1])
    assert batch.turn.tolist() == [1, 0, 1, 0, 0]
    assert all(batch.deal_of(i) == {"hands": hands, "stock": stock} for i in range(5))
    ref = Reference(batch, {})
    ref.check_masks()
    ref.check_observations()
    # Hands only: the stock is the rest, shuffled; the stock only: the hands are the rest.
    batch.reset(hands=hands, deals=[1, 3])
    assert batch.deal_of(1)["hands"] == hands and sorted(batch.deal_of(1)["stock"]) == list(range(20, 40))
    assert batch.deal_of(1)["stock"] != batch.deal_of(3)["stock"]
    batch.reset(stock=stock, dealer=1, deals=np.array([False, False, True, False, False]))
    deal = batch.deal_of(2)
    assert deal["stock"] == stock and sorted(deal["hands"][0] + deal["hands"][1]) == list(range(20))
    assert batch.dealer[2] == 1 and batch.deal_of(0) == {"hands": hands, "stock": stock}
    # M chosen deals at once.
    rng = np.random.default_rng(1)
    decks = np.stack([rng.permutation(40) for _ in range(2)])
    batch.reset(hands=decks[:, :20].reshape(2, 2, 10), stock=decks[:, 20:], deals=[4, 0])
    for j, i in enumerate([4, 0]):
        assert batch.deal_of(i)["stock"] == decks[j, 20:].tolist()
        assert batch.deal_of(i)["hands"] == [sorted(decks[j, :10].tolist()), sorted(decks[j, 10:20].tolist())]
    ref = Reference(batch, {})
    play = np.random.default_rng(2)
    for _ in range(45):
        actions = batch.sample_actions(play)
        ref.step(actions, None, batch.step(actions))
        ref.check_masks()


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"hands": [[0] * 10] * 2}, "card 0 is dealt twice in chosen deal 0's hands"),
        ({"hands": [list(range(10)), list(range(9, 19))]}, "card 9 is dealt twice"),
        (
            {"hands": [list(range(10))] * 3},
            r"chosen hands are card ids of shape \(2, 10\) or \(M, 2, 10\); got shape \(3, 10\)",
        ),
        ({"hands": [list(range(10)), list(range(10, 19))]}, r"card ids of shape \(2, 10\) or \(M, 2, 10\); got \[\["),
        ({"hands": np.arange(20).reshape(2, 10) + 30}, "chosen hands hold card id 40; card ids are 0..39"),
        ({"hands": np.zeros((2, 10))}, "chosen hands are integer card ids 0..39; got dtype float64"),
        ({"hands": np.stack([np.arange(20).reshape(2, 10)] * 3)}, "3 chosen hands for 4 deals to reset"),
        ({"stock": list(range(19))}, r"chosen stocks are card ids of shape \(20\) or \(M, 20\); got shape \(19,\)"),
        ({"stock": [5] * 20}, "card 5 is twice in chosen deal 0's stock"),
        ({"stock": list(range(-1, 19))}, "card id -1"),
        (
            {"hands": [list(range(10)), list(range(10, 20))], "stock": list(range(19, 39))},
            "card 19 is dealt in a hand and in the stock",
        ),
        ({"dealer": 2}, "dealer must be a seat 0..1"),
        ({"dealer": [0, 1]}, r"dealer must be one seat or 4 seats \(one per deal reset\); got shape \(2,\)"),
        ({"dealer": True}, "dealer must be a seat 0..1 \\(an int\\)"),
        ({"deals": [0, 4]}, "deal indices are 0..3; got 4"),
        ({"deals": np.ones(3, dtype=bool)}, r"a deal mask has shape \(4,\); got \(3,\)"),
        ({"deals": [0.5]}, "deals are indices 0..3 or a bool mask; got dtype float64"),
    ],
)
def test_bad_chosen_deals_are_refused_and_change_nothing(kwargs, match):
    batch = InDueBatch(4, seed=0)
    before = [batch.deal_of(i) for i in range(4)], batch.dealer
    with pytest.raises(ValueError, match=match):
        batch.reset(**kwargs)
    assert [batch.deal_of(i) for i in range(4)] == before[0] and np.array_equal(batch.dealer, before[1])


def test_the_packet_form_with_chosen_packets():
    packets = np.arange(40).reshape(8, 5)
    rules = {"deal": "packets", "packet_deal": "choose"}
    batch = InDueBatch(4, seed=1, **rules)
    batch.reset(packets=packets, dealer=[0, 1, 0, 1])
    assert all(batch.deal_of(i) == {"packets": packets.tolist()} for i in range(4))
    assert batch.turn.tolist() == [1, 0, 1, 0] and batch.phase.tolist() == [1] * 4
    assert (np.flatnonzero(batch.legal_masks()[0]) == np.arange(247, 255)).all()
    ref = Reference(batch, rules)
    # Picks 7, 5, 3, 1; then the packets' bottoms 5, 15, 25, 35 are the non-dealer's to turn up.
    for k in (7, 5, 3, 1):
        actions = np.full(4, 247 + k)
        ref.step(actions, None, batch.step(actions))
        ref.check_observations()
    assert batch.phase.tolist() == [2] * 4
    assert np.flatnonzero(batch.legal_masks()[0]).tolist() == [161 + c for c in (5, 15, 25, 35)]
    for c in (5, 35, 0, 20):  # non-dealer twice, then the dealer twice
        actions = np.full(4, 161 + c)
        ref.step(actions, None, batch.step(actions))
        ref.check_masks()
        ref.check_observations()
    assert batch.phase.tolist() == [4] * 4 and batch.tops()[0, 1].tolist() == [5, 35]
    # Packets given as M deals, and with packet_deal="dealt" the non-dealer's are the first four.
    batch = InDueBatch(2, seed=1, deal="packets")
    decks = np.stack([np.random.default_rng(j).permutation(40).reshape(8, 5) for j in range(2)])
    batch.reset(packets=decks, dealer=0)
    assert [batch.deal_of(i)["packets"] for i in range(2)] == decks.tolist()
    assert batch.phase.tolist() == [2, 2] and batch.hands()[0, 1] == sum(1 << int(c) for c in decks[0, :4, 0])
    ref = Reference(batch, {"deal": "packets"})
    rng = np.random.default_rng(3)
    for _ in range(60):
        ref.check_masks()
        ref.check_observations()
        actions = batch.sample_actions(rng)
        ref.step(actions, None, batch.step(actions))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (
            {"packets": np.arange(40).reshape(4, 10)},
            r"chosen packets are card ids of shape \(8, 5\) or \(M, 8, 5\); got shape \(4, 10\)",
        ),
        ({"packets": np.zeros((8, 5), dtype=int)}, "card 0 is dealt twice in chosen deal 0's packets"),
        ({"packets": np.arange(40).reshape(8, 5) + 1}, "card id 40"),
        (
            {"hands": [list(range(10)), list(range(10, 20))]},
            "'hands' is for deal=\"stock\"; the packet form takes packets: 8 lists of 5",
        ),
        ({"stock": list(range(20))}, "'stock' is for deal=\"stock\""),
    ],
)
def test_bad_chosen_packets_are_refused(kwargs, match):
    batch = InDueBatch(2, seed=0, deal="packets")
    before = [batch.deal_of(i) for i in range(2)]
    with pytest.raises(ValueError, match=match):
        batch.reset(**kwargs)
    assert [batch.deal_of(i) for i in range(2)] == before
    with pytest.raises(ValueError, match='packets are for deal="packets"; the stock form takes hands'):
        InDueBatch(2, seed=0).reset(packets=np.arange(40).reshape(8, 5))


def test_raise_mode_while_turning_packets_changes_nothing():
    batch = InDueBatch(3, seed=0, deal="packets", illegal_action="raise")
    before = batch.observe(seats=0), batch.observe(seats=1), batch.legal_masks(), batch.turn
    for bad in (0, 160, 247, 161 + 39):
        actions = batch.sample_actions(np.random.default_rng(0))
        actions[1] = bad if not batch.legal_masks()[1, bad] else 0
        with pytest.raises(IllegalActionError, match="deal 1"):
            batch.step(actions)
        after = batch.observe(seats=0), batch.observe(seats=1), batch.legal_masks(), batch.turn
        for x, y in zip(before, after, strict=True):
            assert np.array_equal(x, y)


def test_observing_some_deals_from_some_seats():
    batch = InDueBatch(30, seed=12, accusi="dealt")
    rng = np.random.default_rng(12)
    for _ in range(25):
        batch.step(batch.sample_actions(rng))
    every = np.stack([batch.observe(seats=s) for s in range(2)])  # (2, N, 830)
    deals = np.array([3, 0, 29, 3])
    seats = np.array([1, 1, 0, 0])
    assert np.array_equal(batch.observe(seats=seats, deals=deals), every[seats, deals])
    mask = np.zeros(30, dtype=bool)
    mask[[5, 7]] = True
    assert np.array_equal(batch.observe(deals=mask), batch.observe()[[5, 7]])
    assert np.array_equal(batch.observe(), every[batch.turn, np.arange(30)])
    for bad in (2, -1, np.array([0, 1])):
        with pytest.raises(ValueError, match="seats are"):
            batch.observe(seats=bad)


def test_shuffled_deals_are_partitions_and_look_uniform():
    batch = InDueBatch(20000, seed=11)
    hands = batch.hands()
    stock = np.stack([batch._stock[:, k] for k in range(20)], axis=1)  # noqa: SLF001
    bits = np.left_shift(np.uint64(1), stock.astype(np.uint64))
    every = hands[:, 0] | hands[:, 1] | np.bitwise_or.reduce(bits, axis=1)
    assert (every == (1 << 40) - 1).all() and (np.bitwise_count(hands) == 10).all()
    holder = np.stack([(hands >> np.uint64(c)) & np.uint64(1) for c in range(40)], axis=2).sum(axis=0)  # (2, 40)
    assert np.abs(holder / 20000 - 0.25).max() < 0.02
    top = np.bincount(stock[:, 0], minlength=40) / 20000  # the first card drawn
    assert np.abs(top - 1 / 40).max() < 0.006
    assert abs(batch.dealer.mean() - 0.5) < 0.02
    again = InDueBatch(20000, seed=11)
    assert np.array_equal(again.hands(), hands) and np.array_equal(again.dealer, batch.dealer)


def test_sample_actions_is_uniform_over_the_legal_actions():
    batch = InDueBatch(1, seed=0, episode="match", target_score=11, calling_out=True)
    legal = np.flatnonzero(batch.legal_masks()[0])
    assert 160 in legal
    rng = np.random.default_rng(0)
    draws = np.array([batch.sample_actions(rng)[0] for _ in range(4400)])
    counts = np.array([(draws == a).sum() for a in legal])
    assert set(draws) == set(legal) and abs(counts / 4400 - 1 / len(legal)).max() < 0.03


def test_the_aec_environment_agrees_on_observations_masks_and_rewards():
    n = 30
    rules = {"accusi": "dealt_and_drawn", "objective": "avoid"}
    batch = InDueBatch(n, seed=9, **rules)
    envs = []
    for i in range(n):
        env = tressette_in_due_v0.raw_env(**rules)
        env.reset(options={**batch.deal_of(i), "dealer": int(batch.dealer[i])})
        envs.append(env)
    rng = np.random.default_rng(9)
    finals = np.zeros((n, 2), dtype=np.float32)
    agents = tressette_in_due_v0.AGENTS
    for _ in range(40):
        obs = [batch.observe(seats=s) for s in range(2)]
        masks = batch.legal_masks()
        for i, env in enumerate(envs):
            if any(env.terminations.values()):  # deal 5 after its renuncio: the batch dealt a new episode
                continue
            for s, agent in enumerate(agents):
                seen = env.observe(agent)
                assert np.array_equal(seen["observation"], obs[s][i])
                assert np.array_equal(seen["action_mask"], masks[i] if env.agent_selection == agent else 0 * masks[i])
        actions = batch.sample_actions(rng)
        actions[5] = 200 if _ == 3 else actions[5]  # one renuncio
        result = batch.step(actions)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for i, env in enumerate(envs):
                if not any(env.terminations.values()):
                    env.step(int(actions[i]))
        finals += result.rewards
    for i, env in enumerate(envs):
        assert [env.rewards[a] for a in agents] == finals[i].tolist()
        assert all(env.terminations.values())
    assert result.terminated.sum() == n - 1 and finals[5].tolist() in ([11, -11], [-11, 11])


def test_speed_figure_is_reasonable():
    """Not a benchmark: a guard that a step stays a fixed number of NumPy calls (no loop over deals)."""
    rng = np.random.default_rng(0)
    small, big = InDueBatch(64, seed=0), InDueBatch(4096, seed=0)
    times = []
    for batch in (small, big):
        start = time.process_time()
        for _ in range(40):
            batch.step(batch.sample_actions(rng))
            batch.observe()
        times.append(time.process_time() - start)
    assert times[1] < 64 * times[0] / 4  # 64 times the deals, far less than 64 times the time
