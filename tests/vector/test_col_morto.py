"""The batched col morto is the scalar game, deal by deal: masks, observations, rewards, matches, renuncios."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tressette_env.agents.col_morto_heuristic import ColMortoHeuristic
from tressette_env.encoders.col_morto import observation
from tressette_env.encoders.observation import unpack
from tressette_env.engine import (
    GAME_OVER,
    HAND_OVER,
    PLAYING,
    apply,
    legal_actions,
    legal_actions_mask,
    next_hand,
    renuncio,
    view,
)
from tressette_env.engine.actions import FAMILY_NUM_ACTIONS
from tressette_env.engine.game import IllegalActionError, check_deal
from tressette_env.games.col_morto import COL_MORTO, ColMortoRules
from tressette_env.vector.col_morto import ColMortoBatch, heuristic_actions


def mask_bits(mask: int) -> np.ndarray:
    return np.unpackbits(np.frombuffer(mask.to_bytes(32, "little"), np.uint8), bitorder="little")[
        :FAMILY_NUM_ACTIONS
    ].astype(np.int8)


class Reference:
    """One scalar col morto state per deal of a batch, stepped with the same actions."""

    def __init__(self, batch: ColMortoBatch, rules: dict):
        self.batch = batch
        self.rules = ColMortoRules(**rules)
        self.encoder = observation(self.rules)
        self.states = [self.fresh(i) for i in range(batch.n)]

    def fresh(self, i: int):
        b = self.batch
        holder = int(b._holder[i])
        score = (0,) * COL_MORTO.competitors(self.rules)
        return COL_MORTO._deal(self.rules, int(b.dealer[i]), holder, check_deal(b.deal_of(i)), score, 0)

    def check(self, every_player: bool) -> None:
        b = self.batch
        masks = b.legal_masks()
        agents = b.agent
        for i, state in enumerate(self.states):
            p = state.public
            assert np.array_equal(masks[i], mask_bits(legal_actions_mask(state))), f"deal {i}: mask"
            assert agents[i] == p.table.controllers[p.turn], f"deal {i}: agent"
            assert tuple(b.controllers[i]) == p.table.controllers
        players = [None] + (list(range(b.num_agents)) if every_player else [])
        for player in players:
            got = b.observe(agents=player)
            for i, state in enumerate(self.states):
                p = state.public
                who = p.table.controllers[p.turn] if player is None else player
                seat = p.table.seat_of[who]
                expected = unpack(self.encoder.seat_bits(state, seat), self.encoder.size)
                if not np.array_equal(got[i], expected):
                    diff = np.flatnonzero(got[i] != expected)
                    names = [n for n, s in self.encoder.slices.items() if any(s.start <= d < s.stop for d in diff)]
                    raise AssertionError(f"deal {i}, player {who}: observation differs at {diff[:10]} ({names})")

    def step(self, actions: np.ndarray, active: np.ndarray | None, result) -> int:
        b = self.batch
        ended = 0
        for i, state in enumerate(self.states):
            if active is not None and not active[i]:
                assert not result.hand_over[i]
                continue
            action = int(actions[i])
            state = apply(state, action) if legal_actions_mask(state) >> action & 1 else renuncio(state)
            p = state.public
            assert result.hand_over[i] == (p.status != PLAYING), f"deal {i}: hand over"
            rewards = np.zeros(b.num_agents, dtype=np.float32)
            if p.status != PLAYING:
                ended += 1
                r = p.result
                assert tuple(result.hand_points[i]) == r.points, (i, result.hand_points[i], r)
                assert tuple(result.card_thirds[i]) == r.card_thirds
                assert tuple(result.accusi[i]) == r.accusi
                assert result.cappotto[i] == (-1 if r.cappotto is None else r.cappotto)
                assert result.renuncio[i] == (-1 if r.renuncio is None else r.renuncio)
                assert result.hand_number[i] == p.hand_number
                assert result.winner[i] == (-1 if p.winner is None else p.winner)
                if self.rules.episode == "match":
                    assert tuple(result.match_score[i]) == p.match_score, (i, result.match_score[i], p.match_score)
                if p.status == GAME_OVER:
                    rewards = np.array(COL_MORTO.returns(p), dtype=np.float32)
            assert result.terminated[i] == (p.status == GAME_OVER), f"deal {i}: terminated"
            assert np.array_equal(result.rewards[i], rewards), (i, result.rewards[i], rewards)
            if p.status == HAND_OVER:
                state = next_hand(state, hands=b.deal_of(i))
                assert b.dealer[i] == state.public.table.controllers[state.public.dealer]
            elif p.status == GAME_OVER:
                state = self.fresh(i)
            self.states[i] = state
        return ended


def run(rules: dict, n: int, steps: int, seed: int, *, active_p=0.0, illegal_p=0.0, every=4) -> int:
    batch = ColMortoBatch(n, seed=seed, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(seed + 1)
    hands = 0
    for step in range(steps):
        ref.check(every_player=step % every == 0)
        actions = batch.sample_actions(rng)
        if illegal_p:
            wrong = rng.random(n) < illegal_p
            actions[wrong] = rng.integers(0, FAMILY_NUM_ACTIONS, int(wrong.sum()))
        active = rng.random(n) < rng.choice([0.1, 0.5, 0.9]) if active_p and rng.random() < active_p else None
        result = batch.step(actions, active=active)
        hands += ref.step(actions, active, result)
    return hands


RULE_SETS = [
    {},
    {"players": 2},
    {
        "dummy_exposed": "after_first_card",
        "first_lead": "four_of_denari",
        "striscio": "no_honours",
        "episode": "match",
        "target_score": 11,
    },
    {"dummy_holder": "fixed", "signals": False, "accusi": False, "episode": "match", "target_score": 11},
    {"players": 2, "dummy_exposed": "after_first_card", "episode": "match", "target_score": 11},
    {"dummy_holder": "fixed", "dummy_exposed": "after_first_card", "cappotto_bonus": 11},
    {"players": 2, "first_lead": "four_of_denari", "episode": "match", "target_score": 21, "cappotto_bonus": 5},
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "defaults")
def test_every_rule_set_step_for_step_with_the_scalar_game(rules):
    assert run(rules, 48, 130, seed=len(rules)) >= 48


def test_partial_steps_and_renuncios():
    run({"episode": "match", "target_score": 11}, 40, 160, seed=3, active_p=0.7, illegal_p=0.02)
    run({"players": 2, "dummy_exposed": "after_first_card"}, 40, 120, seed=4, active_p=0.5, illegal_p=0.05)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "defaults")
def test_long_runs(rules):
    run(rules, 300, 600, seed=100 + len(rules), active_p=0.3, illegal_p=0.003, every=16)


def test_signals_only_for_a_leader_whose_partner_is_live():
    batch = ColMortoBatch(64, seed=5)
    masks = batch.legal_masks(bool)
    dummies, turn = batch.dummies, batch.turn
    live_pair = 0
    for i in range(batch.n):
        seat, partner = int(turn[i]), (int(turn[i]) + 2) % 4
        if dummies[i] >> seat & 1 or dummies[i] >> partner & 1:
            assert not masks[i, 40:160].any(), f"deal {i}: seat {seat} may signal"
        else:
            live_pair += bool(masks[i, 40:160].any())
    assert live_pair > 10  # the pair's leader (the seat after the dealer) signals in most deals


def test_raise_mode_changes_nothing_and_names_the_action():
    batch = ColMortoBatch(4, seed=1, illegal_action="raise")
    before = batch.observe().copy(), batch.legal_masks().copy()
    actions = batch.sample_actions(np.random.default_rng(0))
    actions[2] = 200
    with pytest.raises(IllegalActionError, match="200"):
        batch.step(actions)
    assert np.array_equal(batch.observe(), before[0]) and np.array_equal(batch.legal_masks(), before[1])
    illegal = np.array([np.flatnonzero(m == 0)[0] for m in batch.legal_masks()])
    with pytest.raises(IllegalActionError):
        batch.step(illegal)
    assert np.array_equal(batch.observe(), before[0])


def test_bad_inputs_are_refused_with_what_is_allowed():
    batch = ColMortoBatch(2, seed=0)
    with pytest.raises(ValueError, match="0..254"):
        batch.step(np.array([255, 0]))
    with pytest.raises(ValueError, match="shape"):
        batch.step(np.array([0]))
    with pytest.raises(ValueError, match=r"actions are integer ids 0\.\.254; got dtype float64"):  # as the family's
        batch.step(np.array([0.5, 1.0]))
    with pytest.raises(ValueError, match=r"0\.\.254 \(or -1 in a deal that does not play\); deal 1 got -1"):
        batch.step(np.array([0, -1]))
    with pytest.raises(ValueError, match=r"deal 0 got -7"):
        batch.step(np.array([-7, 0]))
    with pytest.raises(ValueError, match="dealer must be a player 0..2"):
        batch.reset(dealer=3)
    with pytest.raises(ValueError, match="holder"):
        batch.reset(holder=1)
    with pytest.raises(ValueError, match="every card exactly once"):
        batch.reset(hands=[[0] * 10, list(range(10, 20)), list(range(20, 30)), list(range(30, 40))])
    with pytest.raises(ValueError, match="players 0..2"):
        batch.observe(agents=3)
    for bad in (1.5, True, [0, 1, 2]):
        with pytest.raises(ValueError, match="one player 0..2 or an array of 2 of them"):
            batch.observe(agents=bad)
    with pytest.raises(ValueError, match="players=4: must be one of 3, 2"):
        ColMortoBatch(2, players=4)
    with pytest.raises(TypeError):
        ColMortoBatch(2, seats=4)


def test_chosen_deals_dealers_and_holders():
    hands = [list(range(k, 40, 4)) for k in range(4)]
    batch = ColMortoBatch(3, seed=0, dummy_holder="fixed")
    batch.reset(hands=hands, dealer=[0, 1, 2], holder=2)
    assert batch.deal_of(1) == hands
    assert batch.dealer.tolist() == [0, 1, 2]
    assert (batch.controllers[:, 0] == 2).all() and (batch.controllers[:, 2] == 2).all()
    assert (batch.dummies == 4).all()


def test_a_fixed_holder_match_is_won_by_a_side():
    """Every deal's match ends (the pair, always level, wins together): +1 to the winning side, -1 to the other.

    The holder alone takes his side's; the pair shares its side's, 0.5 each.
    """
    rules = {"dummy_holder": "fixed", "episode": "match", "target_score": 11}
    batch = ColMortoBatch(16, seed=4, **rules)
    ref = Reference(batch, rules)
    assert batch.match_score.shape == (16, 2)
    rng = np.random.default_rng(5)
    seat_of = batch.seat_of.copy()
    done = np.zeros(16, dtype=bool)
    for _ in range(40 * 12):
        actions = batch.sample_actions(rng)
        result = batch.step(actions)
        ref.step(actions, None, result)  # the scalar game's winner, score and returns
        for i in np.flatnonzero(result.terminated & ~done):
            side = seat_of[i] & 1  # the holder's side is 0
            assert (
                result.match_score[i].max() >= 11
                and result.match_score[i, result.winner[i]] > result.match_score[i, 1 - result.winner[i]]
            )
            shares = [(1.0 if s == result.winner[i] else -1.0) / (1 if s == 0 else 2) for s in side]
            assert result.rewards[i].tolist() == shares
            assert result.rewards.dtype == np.float32
        done |= result.terminated
        if done.all():
            break
        seat_of = np.where(done[:, None], seat_of, batch.seat_of)
    assert done.all()


def pin_heuristic(rules: dict, n: int, steps: int, seed: int, random_p: float = 0.3) -> int:
    """At every step the batched heuristic is ``ColMortoHeuristic`` on the scalar state, deal by deal."""
    batch = ColMortoBatch(n, seed=seed, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(seed + 1)
    player, prng = ColMortoHeuristic(), random.Random(0)
    decisions = 0
    for step in range(steps):
        got = heuristic_actions(batch)
        for i, state in enumerate(ref.states):
            p = state.public
            seat = p.table.seat_of[p.table.controllers[p.turn]]
            expected = player.act(view(state, seat), legal_actions(state), prng)
            assert got[i] == expected, f"step {step}, deal {i}: batched {got[i]}, scalar {expected}\n{state}"
        decisions += n
        if step % 5 == 2:
            rows = np.flatnonzero(rng.random(n) < 0.5)
            assert np.array_equal(heuristic_actions(batch, rows), got[rows])
        actions = np.where(rng.random(n) < random_p, batch.sample_actions(rng), got)
        active = rng.random(n) < 0.5 if rng.random() < 0.3 else None
        ref.step(actions, active, batch.step(actions, active=active))
    return decisions


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "defaults")
def test_the_batched_heuristic_is_the_scalar_one(rules):
    assert pin_heuristic(rules, 60, 90, seed=7 + len(rules)) == 5400


def test_the_heuristic_alone():
    pin_heuristic({}, 80, 80, seed=31, random_p=0.0)
    pin_heuristic({"players": 2}, 80, 80, seed=32, random_p=0.0)
