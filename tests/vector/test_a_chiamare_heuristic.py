"""The batched a chiamare heuristic is ``AChiamareHeuristic``, decision by decision, under every rule set.

A scalar reference (one engine state per deal, made from the batch's deal and dealer) is
stepped with the same actions; at every step the batched action of every deal must be the
scalar player's on that deal's state: in the auction, at the call and in the card play.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tressette_env.agents.a_chiamare_heuristic import AChiamareHeuristic
from tressette_env.engine import (
    GAME_OVER,
    HAND_OVER,
    PLAYING,
    action_to_string,
    apply,
    legal_actions,
    legal_actions_mask,
    new_game,
    next_hand,
    renuncio,
    view,
)
from tressette_env.engine.actions import CALL, CHIAMO, PASS, SOLO
from tressette_env.games.a_chiamare import AChiamareRules
from tressette_env.vector.a_chiamare import AChiamareBatch
from tressette_env.vector.a_chiamare_heuristic import heuristic_actions

from .test_a_chiamare_batch import FAMILY_SETS, MORE_SETS, _ids


class Reference:
    """Scalar engine states mirroring every deal of an ``AChiamareBatch``."""

    def __init__(self, batch: AChiamareBatch, rules: dict):
        self.batch = batch
        self.rules = AChiamareRules.make(**rules)
        self.states = [self.fresh(i) for i in range(batch.num_deals)]

    def fresh(self, i: int):
        return new_game(self.rules, dealer=int(self.batch.dealer[i]), **self.batch.deal_of(i))

    def step(self, actions: np.ndarray, active: np.ndarray | None = None) -> None:
        for i, state in enumerate(self.states):
            if (active is not None and not active[i]) or state.public.status != PLAYING:
                continue
            action = int(actions[i])
            state = apply(state, action) if legal_actions_mask(state) >> action & 1 else renuncio(state)
            if state.public.status == HAND_OVER:
                state = next_hand(state, **self.batch.deal_of(i))
            elif state.public.status == GAME_OVER:
                state = self.fresh(i)
            self.states[i] = state

    def actions(self) -> list[int]:
        player, rng = AChiamareHeuristic(), random.Random(0)
        return [
            player.act(view(s, s.public.turn), legal_actions(s), rng) if s.public.status == PLAYING else -1
            for s in self.states
        ]


def run(rules: dict, n: int, steps: int, seed: int, heuristic_p: float = 0.7, hands=None) -> dict:
    """Step a batch, checking its heuristic against the scalar one at every step; play it or a random action."""
    batch = AChiamareBatch(n, seed=seed, **rules)
    if hands is not None:
        batch.reset(hands=hands, dealer=4)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(seed)
    counts = {"bids": 0, "calls": 0, "plays": 0, "chiamo": 0, "sola": 0, "suspects": 0}
    for _ in range(steps):
        got = batch.heuristic_actions()
        expected = np.array(ref.actions())
        if not np.array_equal(got, expected):
            i = int(np.flatnonzero(got != expected)[0])
            s = ref.states[i]
            raise AssertionError(
                f"deal {i}: batched {got[i]} ({action_to_string(int(got[i]))}) != scalar {expected[i]} "
                f"({action_to_string(int(expected[i]))}); phase {s.public.table.phase}, seat {s.public.turn}"
            )
        phase = batch.phase
        counts["bids"] += int((phase == 1).sum())
        counts["calls"] += int((phase == 2).sum())
        counts["plays"] += int((phase == 0).sum())
        counts["chiamo"] += int((got == CHIAMO).sum())
        counts["sola"] += int((got == SOLO).sum())
        suspected = (batch._beaters | batch._loaders) != 0  # noqa: SLF001
        counts["suspects"] += int((suspected & (phase == 0) & (batch.contract == CHIAMO)).sum())
        actions = np.where(rng.random(n) < heuristic_p, got, batch.sample_actions(rng))
        actions = np.where((phase == 1) & (rng.random(n) < 0.3), PASS, actions)  # calls come oftener
        batch.step(actions)
        ref.step(actions)
    return counts


@pytest.mark.parametrize("rules", FAMILY_SETS + MORE_SETS, ids=_ids)
def test_every_decision_is_the_scalar_players(rules):
    counts = run(rules, 40, 110, seed=len(str(rules)))
    assert counts["bids"] and counts["calls"] and counts["plays"] and counts["chiamo"]


def test_the_suspects_over_many_deals():
    """Many deals: the seats suspected while the partner is secret, the calls, the play."""
    counts = run({}, 300, 100, seed=21, heuristic_p=0.9)
    assert counts["suspects"] > 100 and counts["calls"] > 0


@pytest.mark.parametrize("rules", [{}, {"signals": "full", "first_lead": "forehand"}], ids=_ids)
def test_a_sola_from_a_chosen_deal(rules):
    """Seat 0 (the forehand) holds the four 3s and the four 2s: a count of 10.7, so it bids sola."""
    strong = [2, 12, 22, 32, 1, 11, 21, 31]
    rest = [c for c in range(40) if c not in strong]
    hands = [strong] + [rest[8 * k : 8 * k + 8] for k in range(4)]
    counts = run(rules, 20, 45, seed=2, heuristic_p=1.0, hands=hands)
    assert counts["sola"] >= 20


@pytest.mark.slow
@pytest.mark.parametrize("rules", FAMILY_SETS + MORE_SETS, ids=_ids)
def test_many_more_deals(rules):
    run(rules, 200, 300, seed=7)


def test_deals_and_finished_deals():
    batch = AChiamareBatch(6, seed=3)
    every = batch.heuristic_actions()
    assert np.array_equal(heuristic_actions(batch, [4, 1]), every[[4, 1]])
    assert np.array_equal(batch.heuristic_actions(np.arange(6) % 2 == 0), every[::2])
    assert heuristic_actions(batch, []).shape == (0,)
    rng = np.random.default_rng(0)
    while batch.playing.any():
        result = batch.step(batch.sample_actions(rng), active=batch.playing, autoreset=False)
        del result
    assert (batch.heuristic_actions() == -1).all()


def test_a_call_never_names_its_own_card_when_another_helps():
    """With allow_self_call the caller may name his own card; the player names one he lacks."""
    batch = AChiamareBatch(50, seed=4, allow_self_call=True, auction="first_taker")
    batch.step(np.full(50, CHIAMO))  # the forehand calls
    actions = batch.heuristic_actions()
    cards = actions - CALL
    assert ((cards >= 0) & (cards < 40)).all()
    hands = batch.hands()[np.arange(50), batch.turn]
    assert not ((hands >> cards.astype(np.uint64)) & np.uint64(1)).any()


def test_family_vector_env_plays_the_others_by_the_heuristic(monkeypatch):
    """``FamilyVectorEnv(others="heuristic")`` on this batch: between the learner's turns the others play the heuristic."""
    from tressette_env.vector import family_env

    monkeypatch.setattr(family_env, "batch_type", lambda game: AChiamareBatch)
    env = family_env.FamilyVectorEnv(12, "tressette_a_chiamare", others="heuristic", agent="random", seed=5)
    played = []
    original = AChiamareBatch.heuristic_actions

    def spy(self, deals=None):
        out = original(self, deals)
        played.append(len(out))
        return out

    monkeypatch.setattr(AChiamareBatch, "heuristic_actions", spy)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(100):
        assert (env.batch.agent == env.agents).all()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        obs, rewards, terminated, truncated, info = env.step(actions)
        ended += int(terminated.sum())
    assert ended > 0 and sum(played) > 100 * 12
