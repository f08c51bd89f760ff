"""The batched Calabresella heuristic is ``CalabresellaHeuristic``, decision by decision, under every rule set.

A scalar reference (``test_calabresella_batch.Reference``: one engine state per deal, made from
the batch's deal, monte and dealer) is stepped with the same actions; at every step the batched
action of every deal must be the scalar player's on that deal's state, in every phase: the
auction, the call, the return, the partial exchange, the discards, dividete and scegliete, the
card play.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tressette_env.agents.calabresella_heuristic import SOLISSIMO_AT, SOLO_AT, CalabresellaHeuristic
from tressette_env.agents.side_play import hand_strength
from tressette_env.engine import PLAYING, action_to_string, legal_actions, view
from tressette_env.engine.actions import CALL, CHIAMO, DIVIDETE, GIVE, PASS, SCEGLIETE, SOLISSIMO, SOLO
from tressette_env.engine.cards import mask_of
from tressette_env.games.calabresella import (
    AUCTION,
    CALL_PHASE,
    CHOOSE,
    DISCARD,
    PLAY,
    RETURN,
    SPLIT,
    TAKE,
    CalabresellaRules,
)
from tressette_env.vector.calabresella import CalabresellaBatch
from tressette_env.vector.calabresella_heuristic import heuristic_actions, unseen

from .test_calabresella_batch import FAMILY_SETS, MORE_SETS, Reference, _ids, bidding_actions

PHASES = {AUCTION: "bids", CALL_PHASE: "calls", RETURN: "returns", TAKE: "takes", DISCARD: "discards"}
PHASES.update({SPLIT: "splits", CHOOSE: "chooses", PLAY: "plays"})


def scalar_actions(ref: Reference) -> np.ndarray:
    """The scalar player's action in every deal of the reference; -1 where the episode is over."""
    player, rng = CalabresellaHeuristic(), random.Random(0)
    return np.array(
        [
            player.act(view(s, s.public.turn), legal_actions(s), rng) if s.public.status == PLAYING else -1
            for s in ref.states
        ]
    )


def check(batch: CalabresellaBatch, ref: Reference) -> np.ndarray:
    """The batched actions, checked against the scalar player's (and the unseen cards against the views')."""
    got = heuristic_actions(batch)
    expected = scalar_actions(ref)
    if not np.array_equal(got, expected):
        i = int(np.flatnonzero(got != expected)[0])
        s = ref.states[i]
        raise AssertionError(
            f"deal {i}: batched {got[i]} ({action_to_string(int(got[i]))}) != scalar {expected[i]} "
            f"({action_to_string(int(expected[i]))}); phase {s.public.table.phase}, seat {s.public.turn}"
        )
    rows = np.flatnonzero(batch.playing)
    seen = unseen(batch, rows, batch.turn[rows])
    views = [view(ref.states[i], ref.states[i].public.turn).unseen for i in rows]
    assert seen.tolist() == views
    return got


def run(
    rules: dict, n: int, steps: int, seed: int, *, heuristic_p=0.6, active_p=0.0, illegal_p=0.0, hands=None, dealer=0
) -> dict:
    """Step a batch, checking its heuristic at every step; play it, or an auction-minded random action.

    With ``illegal_p`` some actions are random ids (mostly renuncios, ending the hand); every tenth
    step a shuffled subset of the deals is asked too, and must get the same actions in its order.
    """
    batch = CalabresellaBatch(n, seed=seed, **rules)
    if hands is not None:
        batch.reset(hands=hands, dealer=dealer)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(seed)
    counts = dict.fromkeys(PHASES.values(), 0)
    counts.update({"contracts": 0, "taken": 0, "stopped": 0, "single": 0, "renuncio": 0})
    for _ in range(steps):
        got = check(batch, ref)
        phase = batch.phase
        for p, name in PHASES.items():
            counts[name] += int((phase == p).sum())
        counts["contracts"] += int(((phase == AUCTION) & (got > PASS)).sum())
        counts["taken"] += int((((phase == TAKE) | (phase == CHOOSE)) & (got >= CALL) & (got < GIVE)).sum())
        counts["stopped"] += int((((phase == TAKE) | (phase == CHOOSE)) & (got == PASS)).sum())
        counts["single"] += int((batch.legal_masks().sum(axis=1) == 1).sum())
        if rng.random() < 0.1:
            some = rng.permutation(n)[: n // 2]
            assert np.array_equal(heuristic_actions(batch, some), got[some])
        actions = np.where(rng.random(n) < heuristic_p, got, bidding_actions(batch, rng, 0.3))
        if illegal_p:
            wrong = rng.random(n) < illegal_p
            actions[wrong] = rng.integers(0, 255, int(wrong.sum()))
        active = rng.random(n) < 0.5 if active_p and rng.random() < active_p else None
        result = batch.step(actions, active=active)
        ref.step(actions, active, result)
        counts["renuncio"] += int((result.renuncio >= 0).sum())
    return counts


def _steps(rules: dict) -> int:
    hands = 3 if rules.get("episode") != "match" else 4
    return hands * 45


@pytest.mark.parametrize("rules", FAMILY_SETS + MORE_SETS, ids=_ids)
def test_every_decision_is_the_scalar_players(rules):
    illegal = 0.0 if rules.get("illegal_action") == "raise" else 0.003
    counts = run(rules, 24, _steps(rules), seed=len(str(rules)), active_p=0.3, illegal_p=illegal)
    r = CalabresellaRules.make(**rules)
    assert counts["bids"] and counts["plays"] and counts["single"], counts
    assert counts["renuncio"] or not illegal, counts
    if CHIAMO in r.enabled:
        assert counts["calls"] and counts["returns"], counts
    if (CHIAMO in r.enabled or SOLO in r.enabled) and not r.all_play:
        assert counts["discards"], counts
    if r.exchange == "partial" and (CHIAMO in r.enabled or SOLO in r.enabled):
        assert counts["takes"], counts
    if DIVIDETE in r.enabled:
        assert counts["splits"], counts
    if SCEGLIETE in r.enabled:
        assert counts["chooses"], counts


def test_the_heuristic_alone_over_many_deals():
    """Only the heuristic plays: its own auctions (it passes mostly), exchanges and card play."""
    counts = run({}, 150, 100, seed=3, heuristic_p=1.0)
    assert counts["contracts"] > 0 and counts["discards"] > 0 and counts["plays"] > 1000


@pytest.mark.parametrize(
    "rules",
    [
        {"exchange": "partial"},
        {"contracts": ("chiamo", "solo", "solissimo", "dividete", "scegliete")},
        {"players": 4, "four_player": "dealer_sits_out", "exchange": "partial"},
    ],
    ids=_ids,
)
def test_the_exchange_takes_assi_and_stops(rules):
    """Partial exchange and scegliete: the player takes monte cards at least an asso, and stops."""
    counts = run(rules, 60, 60, seed=11, heuristic_p=0.5)
    assert counts["taken"] > 0 and counts["stopped"] > 0, counts


STRONG = {  # (cards in a hand) -> [(the forehand's hand, the contract its count reaches)]
    12: [([0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32], SOLISSIMO), ([0, 1, 2, 10, 11, 12, 3, 4, 5, 6, 7, 8], SOLO)],
    10: [([0, 1, 2, 10, 11, 12, 20, 21, 22, 30], SOLISSIMO), ([0, 1, 2, 10, 11, 12, 20, 22, 3, 4], SOLO)],
}


@pytest.mark.parametrize(
    "rules",
    [{}, {"players": 4}, {"solissimo_peek": True, "signals": "full"}, {"contracts": ("chiamo", "solo")}],
    ids=_ids,
)
def test_strong_hands_bid_solo_and_solissimo(rules):
    """The forehand holds the 3s, 2s and assi: solissimo (a count of 15 or more), or solo (12 to 14) when fewer."""
    r = CalabresellaRules.make(**rules)
    size = 10 if r.all_play else 12
    seats = 4 if r.all_play else 3
    for strong, contract in STRONG[size]:
        assert 6 * hand_strength(mask_of(strong)) >= 6 * (SOLISSIMO_AT if contract == SOLISSIMO else SOLO_AT)
        rest = [c for c in range(40) if c not in strong]
        hands = [strong] + [rest[size * k : size * (k + 1)] for k in range(seats - 1)]
        batch = CalabresellaBatch(3, seed=1, **rules)
        batch.reset(hands=hands, dealer=seats - 1)
        got = heuristic_actions(batch)
        assert np.array_equal(got, scalar_actions(Reference(batch, rules)))
        expected = contract if contract in r.enabled else SOLO
        assert (got == expected).all(), (got, expected)
        run(rules, 6, 45, seed=2, heuristic_p=1.0, hands=hands, dealer=seats - 1)


@pytest.mark.slow
@pytest.mark.parametrize("rules", FAMILY_SETS + MORE_SETS, ids=_ids)
def test_many_more_deals(rules):
    illegal = 0.0 if rules.get("illegal_action") == "raise" else 0.001
    run(rules, 100, 140, seed=7, active_p=0.2, illegal_p=illegal)


def test_chosen_deals_keep_their_order_and_finished_deals_get_minus_one():
    batch = CalabresellaBatch(6, seed=3)
    every = heuristic_actions(batch)
    assert np.array_equal(heuristic_actions(batch, [4, 1]), every[[4, 1]])
    assert np.array_equal(heuristic_actions(batch, [5, 0, 5]), every[[5, 0, 5]])
    assert np.array_equal(heuristic_actions(batch, np.arange(6) % 2 == 0), every[::2])
    assert heuristic_actions(batch, []).shape == (0,) and heuristic_actions(batch).dtype == np.int64
    ref = Reference(batch, {})
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        playing = batch.playing
        if not playing.any():
            break
        got = check(batch, ref)
        assert ((got == -1) == ~playing).all()
        actions = np.where(rng.random(6) < 0.5, got, bidding_actions(batch, rng))
        result = batch.step(actions, active=playing, autoreset=False)
        finished += len(ref.step(actions, playing, result, autoreset=False))
    assert finished == 6 and (heuristic_actions(batch) == -1).all()
    assert (heuristic_actions(batch, [2, 3]) == -1).all()


@pytest.mark.parametrize(
    "deals, match",
    [
        ([6], "deal indices are 0..5"),
        ([-1], "deal indices are 0..5"),
        (np.ones(5, dtype=bool), r"a deal mask has shape \(6,\)"),
        ([0.5], "deals are indices"),
    ],
)
def test_bad_deals_are_refused(deals, match):
    batch = CalabresellaBatch(6, seed=3)
    before = batch.hands()
    with pytest.raises(ValueError, match=match):
        heuristic_actions(batch, deals)
    assert np.array_equal(batch.hands(), before)


@pytest.mark.parametrize("rules", [{}, {"players": 4, "four_player": "dealer_sits_out"}], ids=_ids)
def test_family_vector_env_plays_the_others_by_the_heuristic(rules, monkeypatch):
    """``FamilyVectorEnv(others="heuristic")``: between the learner's turns the others play the heuristic.

    The batch's ``heuristic_actions`` is this module's (checked), spied on to count the decisions it makes.
    """
    from tressette_env.vector import family_env

    played = []

    def spy(self, deals=None):
        out = heuristic_actions(self, deals)
        played.append(len(out))
        return out

    batch = CalabresellaBatch(3, seed=0)
    assert np.array_equal(batch.heuristic_actions(), heuristic_actions(batch))
    monkeypatch.setattr(CalabresellaBatch, "heuristic_actions", spy)
    env = family_env.FamilyVectorEnv(12, "calabresella", others="heuristic", agent="random", seed=5, **rules)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(80):
        assert (env.batch.agent == env.agents).all()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info["action_mask"]])
        obs, rewards, terminated, truncated, info = env.step(actions)
        ended += int(terminated.sum())
    assert ended > 0 and sum(played) > 80 * 12
