"""The batched Calabresella (``CalabresellaBatch``) is the scalar game, deal by deal.

A scalar reference (one engine state per deal, created from the batch's deal: the hands, the
monte and the dealer) is stepped with the same actions and checked as it goes: masks,
observations (of every seat now and then, of the seat on turn every step), rewards,
terminations and the hand's results, through the auction, the call, the return, the
discards and the card play.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pytest

from tressette_env import calabresella_v0
from tressette_env.encoders.calabresella import observation
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
from tressette_env.engine.actions import CALL, CHIAMO, DIVIDETE, GIVE, PASS, SCEGLIETE, SOLISSIMO, SOLO
from tressette_env.envs import aec
from tressette_env.games.calabresella import (
    AUCTION,
    CALABRESELLA,
    CHOOSE,
    DISCARD,
    PLAY,
    RETURN,
    SPLIT,
    TAKE,
    CalabresellaRules,
)
from tressette_env.vector import family_env
from tressette_env.vector.calabresella import CalabresellaBatch

NUM_ACTIONS = CALABRESELLA.num_actions
CONTRACTS = (CHIAMO, SOLO, SOLISSIMO, DIVIDETE, SCEGLIETE)


def mask_bits(mask: int) -> np.ndarray:
    """An engine action mask (int) as the (255,) 0/1 vector of the environments."""
    return np.unpackbits(np.frombuffer(mask.to_bytes(32, "little"), np.uint8), count=NUM_ACTIONS, bitorder="little")


class Reference:
    """Scalar engine states mirroring every deal of a ``CalabresellaBatch``."""

    def __init__(self, batch: CalabresellaBatch, rules: dict):
        self.batch = batch
        self.rules = CalabresellaRules.make(**rules)
        self.encode = observation(self.rules).encode
        self.states = [self.fresh(i) for i in range(batch.num_deals)]

    def fresh(self, i: int):
        return self.second_deal(new_game(self.rules, dealer=int(self.batch.dealer[i]), **self.batch.deal_of(i)), i)

    def second_deal(self, state, i: int):
        """With ``all_pass="solo_only_redeal"`` the second deal, drawn by the batch (no chosen deal names it)."""
        if self.rules.all_pass != "solo_only_redeal":
            return state
        redeal = tuple(int(h) for h in self.batch.redeal()[i])
        return state._replace(hidden=state.hidden._replace(redeal=redeal))

    def check_state(self) -> None:
        turn, dealer, agent, phase = self.batch.turn, self.batch.dealer, self.batch.agent, self.batch.phase
        players = self.batch.num_agents
        leads = np.stack([self.batch.lead(np.full(self.batch.num_deals, a)) for a in range(players)], axis=1)
        for i, state in enumerate(self.states):
            p = state.public
            assert turn[i] == p.turn and dealer[i] == CALABRESELLA.dealer_agent(p), f"deal {i}: turn or dealer"
            assert self.batch.dealer_seat[i] == p.dealer and self.batch.players_in()[i].tolist() == list(
                p.table.controllers
            )
            assert agent[i] == (p.table.controllers[p.turn] if p.turn >= 0 else -1), f"deal {i}: agent"
            assert phase[i] == p.table.phase, f"deal {i}: phase"
            seat_of = p.table.seat_of
            expected = [CALABRESELLA.lead(p, seat_of[a]) if seat_of[a] >= 0 else 0.0 for a in range(players)]
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
        for seat in (None, *range(self.batch.num_agents)) if seats is None else seats:
            if seat is None and not self.batch.playing.all():
                rows = np.flatnonzero(self.batch.playing)
                got = dict(zip(rows.tolist(), self.batch.observe(deals=rows), strict=True))
            else:
                got = dict(enumerate(self.batch.observe(seats=seat)))
            for i, state in enumerate(self.states):
                if i not in got:
                    continue
                s = state.public.turn if seat is None else state.public.table.seat_of[seat]
                if s < 0:  # the dealer sitting out sees nothing (as in the AEC environment)
                    assert not got[i].any(), f"deal {i}: player {seat} sits out"
                    continue
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
            rewards = np.zeros(self.batch.num_agents, dtype=np.float32)
            if p.status != PLAYING:
                r = p.result
                x = p.table.extra
                assert tuple(result.hand_points[i]) == r.points, (i, result.hand_points[i], r)
                assert tuple(result.card_thirds[i]) == r.card_thirds, (i, result.card_thirds[i], r)
                assert result.cappotto[i] == (-1 if r.cappotto is None else r.cappotto), (i, r)
                assert result.renuncio[i] == (-1 if r.renuncio is None else r.renuncio)
                assert tuple(result.stakes[i]) == x.stakes, (i, result.stakes[i], x.stakes)
                assert result.contract[i] == x.contract
                assert result.hand_number[i] == p.hand_number
                assert tuple(result.match_score[i]) == p.match_score, (i, result.match_score[i], p.match_score)
                assert result.winner[i] == (-1 if p.winner is None else p.winner), (i, result.winner[i], p.winner)
                if p.status == GAME_OVER:  # the AEC environment's rewards: at the end
                    rewards = np.array(CALABRESELLA.returns(p), dtype=np.float32)
            else:
                assert result.hand_points[i].tolist() == [0, 0] and result.renuncio[i] == -1
                assert not result.stakes[i].any()
            assert result.terminated[i] == (p.status == GAME_OVER), f"deal {i}: terminated"
            assert np.array_equal(result.rewards[i], rewards), (i, result.rewards[i], rewards)
            if p.status == HAND_OVER:
                assert self.batch.hand_number[i] == p.hand_number + 1
                state = self.second_deal(next_hand(state, **self.batch.deal_of(i)), i)
                q = state.public
                assert self.batch.dealer[i] == CALABRESELLA.dealer_agent(q) and self.batch.turn[i] == q.turn
            elif p.status == GAME_OVER:
                finished.append(i)
                if autoreset:
                    state = self.fresh(i)
            self.states[i] = state
        return finished


def bidding_actions(batch: CalabresellaBatch, rng: np.random.Generator, pass_p: float = 0.3) -> np.ndarray:
    """Random legal actions, with auctions that end in every contract (a uniform action mostly outbids).

    Before any bid, ``pass_p`` of the seats pass, 60% of the others bid (half of them the lowest
    contract, half any); after a bid, 70% pass; the others (and every other decision) a
    uniformly random legal action.
    """
    actions = batch.sample_actions(rng)
    masks = batch.legal_masks()
    contracts = masks[:, CHIAMO : SCEGLIETE + 1]
    auction = (batch.phase == AUCTION) & batch.playing
    nobody = auction & (batch.bids.max(axis=1) <= PASS) & contracts.any(axis=1)
    lowest = CHIAMO + contracts.argmax(axis=1)
    anyone = CHIAMO + (rng.random(contracts.shape) * contracts).argmax(axis=1)
    u = rng.random(batch.num_deals)
    bid = np.where(u < 0.3, lowest, anyone)
    passing = rng.random(batch.num_deals) < pass_p
    actions = np.where(nobody & (u < 0.6), bid, np.where(auction & ~nobody & (u < 0.7), PASS, actions))
    return np.where(nobody & passing, PASS, actions)


def run(rules: dict, n: int, steps: int, seed: int, *, active_p=0.0, illegal_p=0.0, every=4, pass_p=0.3) -> dict:
    """Step a batch and its scalar reference together, checking everything as they go."""
    batch = CalabresellaBatch(n, seed=seed, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(seed + 1)
    counts = {"hands": 0, "episodes": 0, "renuncio": 0, "cappotto": 0, "plays": 0, "signals": 0, "void": 0}
    counts.update({"calls": 0, "returns": 0, "discards": 0, "takes": 0, "splits": 0, "chooses": 0, "redeals": 0})
    counts.update({f"contract_{c}": 0 for c in CONTRACTS})
    for step in range(steps):
        ref.check_state()
        ref.check_masks()
        ref.check_observations(None if step % every == 0 else (None,))
        actions = bidding_actions(batch, rng, pass_p)
        if illegal_p:
            wrong = rng.random(n) < illegal_p
            actions[wrong] = rng.integers(0, NUM_ACTIONS, int(wrong.sum()))
        active = rng.random(n) < rng.choice([0.1, 0.5, 0.9]) if active_p and rng.random() < active_p else None
        on = np.ones(n, dtype=bool) if active is None else active
        phase = batch.phase
        counts["calls"] += int((on & (actions >= CALL) & (actions < GIVE)).sum())
        counts["returns"] += int((on & (phase == RETURN)).sum())
        counts["discards"] += int((on & (phase == DISCARD)).sum())
        counts["takes"] += int((on & (phase == TAKE) & (actions != PASS)).sum())
        counts["splits"] += int((on & (phase == SPLIT)).sum())
        counts["chooses"] += int((on & (phase == CHOOSE) & (actions != PASS)).sum())
        counts["signals"] += int((on & (phase == PLAY) & (actions >= 40) & (actions < 160)).sum())
        solo_only = batch.solo_only
        result = batch.step(actions, active=active)
        ref.step(actions, active, result)
        counts["redeals"] += int((batch.solo_only & ~solo_only).sum())
        counts["hands"] += int(result.hand_over.sum())
        counts["episodes"] += int(result.terminated.sum())
        counts["renuncio"] += int((result.renuncio >= 0).sum())
        counts["cappotto"] += int((result.cappotto >= 0).sum())
        counts["void"] += int((result.hand_over & (result.contract == 0) & (result.renuncio < 0)).sum())
        for c in CONTRACTS:
            counts[f"contract_{c}"] += int((result.hand_over & (result.contract == c)).sum())
        counts["plays"] += int(on.sum())
    ref.check_masks()
    ref.check_observations()
    return counts


def _ids(rules: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in rules.items()) or "default"


def _steps(rules: dict) -> int:
    """Decisions for a few hands (more with a match): at most 3 bids, a call, a return, 4 discards, 36 plays."""
    hands = 2 if rules.get("episode") != "match" else 4
    return hands * 45 + 7


FAMILY_SETS = [  # the calabresella rule sets of tests/games/family.py that the batch plays
    {},
    {"players": 4},
    {"players": 4, "four_player": "dealer_sits_out", "episode": "match", "rounds": 1},
    {"contracts": ("chiamo", "solo", "solissimo", "dividete", "scegliete"), "signals": "full"},
    {"exchange": "partial", "show_monte_on_call": False, "call_rule": "highest_missing"},
    {"all_pass": "solo_only_redeal", "auction": "first_taker", "scoring": "difference", "signals": "none"},
    {"episode": "match", "match_end": "target", "target_score": 6, "solissimo_peek": True},
]
MORE_SETS = [  # every other switch value the batch plays, at least once
    {"auction": "first_taker", "scoring": "difference", "signals": "none"},
    {"call_rule": "highest_missing", "show_monte_on_call": False, "signals": "full"},
    {"first_lead": "soloist", "cappotto_rule": "zero_thirds", "multipliers": {"chiamo": 2, "solissimo": 5}},
    {"first_lead": "forehand", "cappotto_rule": "all_tricks", "episode": "match", "rounds": 1},
    {"contracts": ("chiamo",), "call_rule": "highest_missing"},
    {"contracts": ("solo", "solissimo"), "solissimo_peek": True, "scoring": "difference"},
    {"illegal_action": "raise", "episode": "match", "match_end": "target", "target_score": 10},
    {"exchange": "partial", "contracts": ("chiamo", "solo"), "first_lead": "forehand", "signals": "none"},
    {"exchange": "partial", "solissimo_peek": True, "episode": "match", "rounds": 1},
    {"contracts": ("dividete", "scegliete"), "multipliers": {"scegliete": 20}, "cappotto_rule": "all_tricks"},
    {"contracts": ("chiamo", "scegliete"), "exchange": "partial", "scoring": "difference", "first_lead": "soloist"},
    {"contracts": ("solo", "dividete"), "auction": "first_taker", "illegal_action": "raise"},
    {"all_pass": "solo_only_redeal", "exchange": "partial", "episode": "match", "rounds": 1},
    {"all_pass": "solo_only_redeal", "contracts": ("chiamo", "solo", "scegliete"), "illegal_action": "raise"},
    {"players": 4, "signals": "full", "cappotto_rule": "all_tricks", "call_rule": "highest_missing"},
    {"players": 4, "episode": "match", "rounds": 1, "scoring": "difference", "first_lead": "soloist"},
    {"players": 4, "all_pass": "solo_only_redeal", "contracts": ("solo",), "multipliers": {"solo": 3}},
    {"players": 4, "contracts": ("chiamo",), "auction": "first_taker", "illegal_action": "raise"},
    {"players": 4, "four_player": "dealer_sits_out", "exchange": "partial", "signals": "full"},
    {
        "players": 4,
        "four_player": "dealer_sits_out",
        "contracts": ("chiamo", "dividete", "scegliete"),
        "all_pass": "solo_only_redeal",
        "episode": "match",
        "match_end": "target",
        "target_score": 12,
    },
]


@pytest.mark.parametrize("rules", FAMILY_SETS + MORE_SETS, ids=_ids)
def test_every_rule_switch_with_partial_steps_and_renuncio(rules):
    illegal = 0.0 if rules.get("illegal_action") == "raise" else 0.004
    n = 40
    redealing = rules.get("all_pass") == "solo_only_redeal"
    pass_p = 0.6 if redealing else 0.3
    counts = run(rules, n, _steps(rules), seed=len(str(rules)), active_p=0.3, illegal_p=illegal, every=6, pass_p=pass_p)
    assert counts["hands"] >= n
    if illegal:
        assert counts["renuncio"] > 0
    r = CalabresellaRules.make(**rules)
    enabled = r.enabled
    for c in enabled:
        assert counts[f"contract_{c}"] > 0, (c, counts)
    if CHIAMO in enabled:
        assert counts["calls"] > 0 and counts["returns"] > 0
    if (CHIAMO in enabled or SOLO in enabled) and not r.all_play:  # (four all dealt in: no monte, no discards)
        assert counts["discards"] > 0
    if rules.get("exchange") == "partial":
        assert counts["takes"] > 0
    if DIVIDETE in enabled:
        assert counts["splits"] > 0
    if SCEGLIETE in enabled:
        assert counts["chooses"] > 0
    if rules.get("signals") != "none":
        assert counts["signals"] > 0
    if rules.get("episode") == "match":
        assert 0 < counts["episodes"] < counts["hands"]
    if redealing:
        assert counts["redeals"] > 0


def test_random_illegal_actions_are_renuncio_in_every_phase():
    batch = CalabresellaBatch(120, seed=5)
    ref = Reference(batch, {})
    rng = np.random.default_rng(5)
    phases = set()
    for _ in range(60):
        ref.check_masks()
        ref.check_observations((None,))
        actions = bidding_actions(batch, rng)
        wrong = rng.random(120) < 0.05
        actions[wrong] = rng.integers(0, NUM_ACTIONS, int(wrong.sum()))
        phase = batch.phase
        result = batch.step(actions)
        phases.update(phase[result.renuncio >= 0].tolist())
        ref.step(actions, None, result)
    assert phases >= {AUCTION, PLAY, DISCARD}


def test_a_match_through_several_hands():
    rules = {"episode": "match", "match_end": "target", "target_score": 8}
    counts = run(rules, 30, 250, seed=9, active_p=0.2, every=15)
    assert counts["hands"] >= 2 * counts["episodes"] > 0


def test_every_one_passes_and_the_hand_is_void():
    batch = CalabresellaBatch(4, seed=3, episode="match", rounds=1)
    ref = Reference(batch, {"episode": "match", "rounds": 1})
    for _ in range(3):
        assert np.flatnonzero(batch.legal_masks()[0]).tolist() == [PASS, CHIAMO, SOLO, SOLISSIMO]
        result = batch.step(np.full(4, PASS))
        ref.step(np.full(4, PASS), None, result)
    assert result.hand_over.all() and not result.terminated.any()
    assert not result.stakes.any() and (result.contract == 0).all() and (result.cappotto == -1).all()
    ref.check_observations()


def test_a_cappotto_of_the_soloist():
    """Seat 1 holds ten denari and two coppe, calls the 3 di coppe, discards low cards: every trick is his."""
    hands = [list(range(20, 32)), list(range(0, 10)) + [10, 11], list(range(32, 40)) + [12, 13, 14, 15]]
    monte = [16, 17, 18, 19]
    for rules, stakes in [
        ({}, [-2, 4, -2]),
        ({"cappotto_rule": "zero_thirds"}, [-2, 4, -2]),
        ({"cappotto_rule": "all_tricks"}, [-2, 4, -2]),
        ({"multipliers": {"chiamo": 3}}, [-6, 12, -6]),
        ({"scoring": "difference"}, [-70, 140, -70]),
        ({"first_lead": "soloist"}, [-2, 4, -2]),
    ]:
        batch = CalabresellaBatch(2, seed=1, **rules)
        batch.reset(hands=hands, monte=monte, dealer=0)
        ref = Reference(batch, rules)
        script = [CHIAMO, PASS, PASS, CALL + 12, GIVE + 10] + [GIVE + c for c in (16, 17, 18, 19)]
        for action in script:
            ref.check_masks()
            ref.check_observations()
            actions = np.full(2, action)
            ref.step(actions, None, batch.step(actions, autoreset=False))
        assert batch.phase.tolist() == [PLAY, PLAY]
        rng = np.random.default_rng(0)
        for _ in range(36):
            ref.check_masks()
            ref.check_observations((None,))
            actions = batch.sample_actions(rng)
            result = batch.step(actions, autoreset=False)
            ref.step(actions, None, result, autoreset=False)
        assert result.terminated.all(), rules
        assert result.stakes.tolist() == [stakes] * 2, (rules, result.stakes)
        assert result.cappotto.tolist() == [0, 0]
        ref.check_observations()


@pytest.mark.slow
@pytest.mark.parametrize("rules", FAMILY_SETS + MORE_SETS, ids=_ids)
def test_many_more_deals(rules):
    illegal = 0.0 if rules.get("illegal_action") == "raise" else 0.002
    counts = run(rules, 200, 4 * _steps(rules), seed=7, active_p=0.2, illegal_p=illegal, every=10)
    assert counts["hands"] >= 200


@pytest.mark.parametrize(
    "rules", [{}, {"episode": "match", "match_end": "target", "target_score": 5, "scoring": "difference"}], ids=_ids
)
def test_finished_deals_wait_for_reset_without_autoreset(rules):
    batch = CalabresellaBatch(30, seed=3, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(3)
    finished: set[int] = set()
    for _ in range(3000):
        playing = batch.playing
        if not playing.any():
            break
        actions = bidding_actions(batch, rng)  # -1 in the finished deals, fed back as it is
        assert ((actions == -1) == ~playing).all()
        if rng.random() < 0.1:  # a renuncio now and then (in every phase), seen in the final observation
            actions[playing] = np.where(rng.random(int(playing.sum())) < 0.05, 254, actions[playing])
        result = batch.step(actions, active=playing, autoreset=False)
        finished.update(ref.step(actions, playing, result, autoreset=False))
        assert not batch.playing[list(finished)].any()
        ref.check_observations(range(3))
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
    ref.check_observations(range(3))
    batch.reset(deals=~batch.playing)
    assert batch.playing.all()


def test_partial_steps_leave_the_other_deals_alone():
    batch = CalabresellaBatch(40, seed=4)
    ref = Reference(batch, {})
    rng = np.random.default_rng(4)
    for k in range(100):
        before = [batch.observe(seats=s) for s in range(3)] + [batch.legal_masks()]
        active = rng.random(40) < (0.0 if k % 7 == 0 else 0.4)
        actions = np.where(active, bidding_actions(batch, rng), -1)
        result = batch.step(actions, active=active)
        ref.step(actions, active, result)
        after = [batch.observe(seats=s) for s in range(3)] + [batch.legal_masks()]
        for x, y in zip(before, after, strict=True):
            assert np.array_equal(x[~active], y[~active])
    ref.check_masks()
    ref.check_observations()


def test_raise_mode_rejects_an_illegal_batch_and_changes_nothing():
    batch = CalabresellaBatch(8, seed=5, illegal_action="raise")
    rng = np.random.default_rng(5)
    for _ in range(7):
        batch.step(bidding_actions(batch, rng))

    def snapshot():
        return [batch.observe(seats=s) for s in range(3)] + [
            batch.legal_masks(), batch.turn, batch.hands(), batch.thirds, batch.face_down(), batch.phase, batch.bids,
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


def test_renuncio_in_the_auction_and_after_a_contract():
    batch = CalabresellaBatch(3, seed=2)
    batch.reset(dealer=0)
    ref = Reference(batch, {})
    some = np.array([True, False, True])

    def step(actions, active=None):
        result = batch.step(np.array(actions), active=active, autoreset=False)
        ref.step(np.array(actions), active, result, autoreset=False)
        return result

    result = step([SOLO, 0, SOLO])  # deal 1: card 0 in the auction, a renuncio by seat 1
    assert result.renuncio.tolist() == [-1, 1, -1] and result.stakes[1].tolist() == [2, -4, 2]
    # Deals 0 and 2: seat 1 bid solo; seats 2 and 0 pass; then seat 1 discards a card he lacks: he loses solo.
    step([PASS, -1, PASS], some)
    step([PASS, -1, PASS], some)
    assert batch.phase[[0, 2]].tolist() == [DISCARD, DISCARD] and batch.soloist[[0, 2]].tolist() == [1, 1]
    lacking = [GIVE + int(np.flatnonzero(batch.legal_masks()[i, GIVE : GIVE + 40] == 0)[0]) for i in (0, 2)]
    result = step([lacking[0], -1, lacking[1]], some)
    assert result.stakes[[0, 2]].tolist() == [[4, -8, 4]] * 2  # solo lost as on cappotto: 2 * 2 to each
    assert result.renuncio[[0, 2]].tolist() == [1, 1] and not batch.playing.any()
    ref.check_observations(range(3))


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
    batch = CalabresellaBatch(3, seed=0)
    with pytest.raises(ValueError, match=match):
        batch.step(actions)
    assert (batch.bids == 0).all() and (batch.phase == AUCTION).all()
    with pytest.raises(ValueError, match="active must be a bool mask of shape"):
        batch.step(np.full(3, PASS), active=np.array([1, 0, 1]))


def test_rules_unknown_switches_and_constants():
    with pytest.raises(TypeError, match="unknown rule switch 'foo'"):
        CalabresellaBatch(2, foo=1)
    with pytest.raises(ValueError, match="needs"):
        CalabresellaBatch(2, rounds=3)  # a match switch without a match: the rules' own refusal
    with pytest.raises(ValueError, match="num_deals must be an int >= 1"):
        CalabresellaBatch(0)
    batch = CalabresellaBatch(2, seed=0, episode="match", rounds=2)
    assert batch.rules == CalabresellaRules(episode="match", rounds=2)
    assert batch.num_agents == 3 and batch.num_actions == 255 and batch.n == batch.num_deals == 2
    assert batch.observation.size == observation(batch.rules).size == batch.observe().shape[1]
    assert batch.players_drop_out is False and batch.decisions_per_hand is None
    assert batch.turn.dtype == np.int64


def test_chosen_deals_and_dealers():
    hands = [list(range(0, 12)), list(range(12, 24)), list(range(24, 36))]
    batch = CalabresellaBatch(5, seed=0)
    batch.reset(hands=hands, dealer=[0, 1, 2, 1, 1])
    assert batch.turn.tolist() == [1, 2, 0, 2, 2]  # the forehand bids first
    assert all(
        batch.deal_of(i)["hands"] == hands and sorted(batch.deal_of(i)["monte"]) == [36, 37, 38, 39] for i in range(5)
    )
    assert len({tuple(batch.deal_of(i)["monte"]) for i in range(5)}) > 1  # the monte's order is shuffled
    ref = Reference(batch, {})
    ref.check_masks()
    ref.check_observations()
    # The monte chosen, the hands shuffled around it; M chosen deals at once.
    batch = CalabresellaBatch(4, seed=1)
    batch.reset(monte=[3, 1, 0, 2], deals=[1, 3], dealer=2)
    assert batch.deal_of(1)["monte"] == [3, 1, 0, 2] and batch.deal_of(1)["hands"] != batch.deal_of(3)["hands"]
    assert batch.dealer[[1, 3]].tolist() == [2, 2]
    rng = np.random.default_rng(1)
    decks = [rng.permutation(40) for _ in range(2)]
    chosen = [[sorted(d[12 * s : 12 * s + 12].tolist()) for s in range(3)] for d in decks]
    montes = [sorted(d[36:].tolist()) for d in decks]
    batch.reset(hands=chosen, monte=montes, deals=np.array([True, False, True, False]))
    assert batch.deal_of(0) == {"hands": chosen[0], "monte": montes[0]}
    assert batch.deal_of(2) == {"hands": chosen[1], "monte": montes[1]}
    ref = Reference(batch, {})
    play = np.random.default_rng(2)
    for _ in range(50):
        actions = bidding_actions(batch, play)
        ref.step(actions, None, batch.step(actions))
        ref.check_masks()
        ref.check_observations((None,))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"hands": [list(range(12))] * 3}, "card 0 is dealt in hand 0 and in hand 1"),
        ({"hands": [list(range(12)), list(range(12, 24))]}, "3 lists of 12 card ids"),
        ({"hands": [list(range(12)), list(range(12, 24)), list(range(24, 35))]}, "hand 2 of the deal has 11 cards"),
        ({"hands": [list(range(12)), list(range(12, 24)), list(range(29, 41))]}, "card id 40"),
        ({"monte": [1, 2]}, r"monte 0 of the deal has 2 cards"),
        ({"monte": "abcd"}, r"monte 0 of the deal is text \('abcd'\); it needs exactly 4 card ids"),  # "has 4 cards"
        ({"monte": [[1, 2, 3, 4]] * 3}, "3 chosen monte for 4 deals to reset"),
        ({"monte": [[1, 2, 3, 4], [5, 6, 7, 7], [1, 2, 3, 4], [1, 2, 3, 4]]}, "chosen deal 1: card 7 is dealt twice"),
        ({"hands": [list(range(12)), list(range(12, 24)), list(range(24, 36))], "monte": [0, 36, 37, 38]}, "card 0"),
        ({"dealer": 3}, "dealer must be a seat 0..2"),
        ({"dealer": [0, 1]}, r"dealer must be one seat or 4 seats \(one per deal reset\); got shape \(2,\)"),
        ({"dealer": True}, "dealer must be a seat 0..2 \\(an int\\)"),
        ({"deals": [0, 4]}, "deal indices are 0..3; got 4"),
        ({"deals": np.ones(3, dtype=bool)}, r"a deal mask has shape \(4,\); got \(3,\)"),
    ],
)  # fmt: skip
def test_bad_chosen_deals_are_refused_and_change_nothing(kwargs, match):
    batch = CalabresellaBatch(4, seed=0)
    before = [batch.deal_of(i) for i in range(4)], batch.dealer, batch._rng.bit_generator.state  # noqa: SLF001
    with pytest.raises(ValueError, match=match):
        batch.reset(**kwargs)
    assert [batch.deal_of(i) for i in range(4)] == before[0] and np.array_equal(batch.dealer, before[1])
    assert batch._rng.bit_generator.state == before[2]  # noqa: SLF001


def test_observing_some_deals_from_some_seats():
    batch = CalabresellaBatch(30, seed=12)
    rng = np.random.default_rng(12)
    for _ in range(25):
        batch.step(bidding_actions(batch, rng))
    every = np.stack([batch.observe(seats=s) for s in range(3)])  # (3, N, size)
    deals = np.array([3, 0, 29, 3])
    seats = np.array([1, 2, 0, 2])
    assert np.array_equal(batch.observe(seats=seats, deals=deals), every[seats, deals])
    mask = np.zeros(30, dtype=bool)
    mask[[5, 7]] = True
    assert np.array_equal(batch.observe(deals=mask), batch.observe()[[5, 7]])
    assert np.array_equal(batch.observe(), every[batch.turn, np.arange(30)])
    for bad in (3, -1, np.array([0, 1])):
        with pytest.raises(ValueError, match="seats are"):
            batch.observe(seats=bad)


def test_shuffled_deals_are_partitions_and_look_uniform():
    batch = CalabresellaBatch(8000, seed=11)
    hands = batch.hands()
    monte = batch.face_down()
    every = np.bitwise_or.reduce(hands, axis=1) | monte
    assert (every == (1 << 40) - 1).all() and (np.bitwise_count(hands) == 12).all()
    assert (np.bitwise_count(monte) == 4).all()
    holder = np.stack([(hands >> np.uint64(c)) & np.uint64(1) for c in range(40)], axis=2).sum(axis=0)  # (3, 40)
    assert np.abs(holder / 8000 - 0.3).max() < 0.03
    assert np.abs(np.bincount(batch.dealer, minlength=3) / 8000 - 1 / 3).max() < 0.03
    again = CalabresellaBatch(8000, seed=11)
    assert np.array_equal(again.hands(), hands) and np.array_equal(again.dealer, batch.dealer)


def test_sample_actions_is_uniform_over_the_legal_actions():
    batch = CalabresellaBatch(1, seed=0, signals="full")
    rng = np.random.default_rng(0)
    for _ in range(2):  # the forehand's bid and the next seat's
        legal = np.flatnonzero(batch.legal_masks()[0])
        draws = np.array([batch.sample_actions(rng)[0] for _ in range(3000)])
        counts = np.array([(draws == a).sum() for a in legal])
        assert set(draws) == set(legal) and abs(counts / 3000 - 1 / len(legal)).max() < 0.04
        batch.step(np.array([PASS]))
    batch.step(np.array([SOLISSIMO]))  # the dealer bids solissimo and leads, with the signs from the first trick
    legal = np.flatnonzero(batch.legal_masks()[0])
    assert (legal >= 40).any()
    draws = np.array([batch.sample_actions(rng)[0] for _ in range(4000)])
    counts = np.array([(draws == a).sum() for a in legal])
    assert set(draws) == set(legal) and abs(counts / 4000 - 1 / len(legal)).max() < 0.03


@pytest.mark.parametrize(
    "rules",
    [
        {},
        {"episode": "match", "match_end": "target", "target_score": 6, "solissimo_peek": True},
        {"players": 4, "contracts": ("chiamo", "solo"), "signals": "full"},
        {"players": 4, "four_player": "dealer_sits_out", "episode": "match", "rounds": 1, "exchange": "partial"},
    ],
    ids=_ids,
)
def test_the_aec_environment_agrees_on_observations_masks_and_rewards(rules, monkeypatch):
    n = 10
    batch = CalabresellaBatch(n, seed=9, **rules)
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
        env = calabresella_v0.raw_env(**rules)
        env.reset(options={**batch.deal_of(i), "dealer": int(batch.dealer[i])})
        env._deal_rng = BatchDeal(i)  # noqa: SLF001
        envs.append(env)
    rng = np.random.default_rng(9)
    paid = np.zeros((n, players), dtype=np.float32)
    left = np.full((n, players), np.nan, dtype=np.float32)
    done = np.zeros(n, dtype=bool)
    for step in range(3000):
        if done.all():
            break
        obs = [batch.observe(seats=a) for a in range(players)]
        masks = batch.legal_masks()
        for i, env in enumerate(envs):
            if done[i]:
                continue
            for a in range(players):
                seen = env.observe(agents[a])
                assert np.array_equal(seen["observation"], obs[a][i]), (i, a)
                on_turn = env.agent_selection == agents[a]
                assert np.array_equal(seen["action_mask"], masks[i] if on_turn else 0 * masks[i])
        actions = bidding_actions(batch, rng)
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


@pytest.mark.parametrize("rules", [{}, {"players": 4, "four_player": "dealer_sits_out"}], ids=_ids)
def test_family_vector_env_drives_the_batch(rules):
    env = family_env.FamilyVectorEnv(4, "calabresella", seed=0, others="random", agent="random", **rules)
    assert isinstance(env.batch, CalabresellaBatch)  # the catalog's batch
    obs, infos = env.reset(seed=0)
    assert obs.shape == (4, env.batch.observation.size)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(200):
        masks = env.action_masks()
        assert (env.batch.agent == env.agents).all() and masks.any(axis=1).all()
        assert np.array_equal(obs, env.batch.observe(env.agents))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert (rewards[~terminated] == 0).all()
        episodes += int(terminated.sum())
        for i in np.flatnonzero(terminated):
            assert rewards[i] == infos["final_info"]["match_score"][i, infos["final_info"]["agent"][i]]
    assert episodes > 4


def test_speed_figure_is_reasonable():
    """Not a benchmark: a guard that a step stays a fixed number of NumPy calls (no loop over deals)."""
    rng = np.random.default_rng(0)
    small, big = CalabresellaBatch(64, seed=0), CalabresellaBatch(4096, seed=0)
    times = []
    for batch in (small, big):
        start = time.process_time()
        for _ in range(60):
            batch.step(batch.sample_actions(rng))
        times.append(time.process_time() - start)
    assert times[1] < 64 * times[0] / 4  # 64 times the deals, far less than 64 times the time


@pytest.mark.parametrize(
    "rules, stakes, cappotto",
    [
        ({}, [-6, 12, -6], 0),
        ({"cappotto_rule": "zero_thirds"}, [-6, 12, -6], 0),
        ({"cappotto_rule": "all_tricks"}, [-3, 6, -3], -1),  # the opponents took a trick (of no thirds)
        ({"scoring": "difference"}, [-70, 140, -70], 0),
    ],
    ids=lambda x: _ids(x) if isinstance(x, dict) else "",
)
def test_solissimo_whose_opponents_take_one_trick_of_no_thirds(rules, stakes, cappotto):
    """Seat 1 bids solissimo and loses only the first trick (4, 5 di coppe, 4 di bastoni) to seat 2."""
    hands = [list(range(30, 40)) + [28, 29], list(range(10)) + [12, 13], [10, 11, 14, 15] + list(range(20, 28))]
    batch = CalabresellaBatch(2, seed=1, **rules)
    batch.reset(hands=hands, monte=[16, 17, 18, 19], dealer=0)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(0)
    script = [SOLISSIMO, PASS, PASS, 13, 14, 33, 15, 34, 12] + [None] * 30
    for action in script:
        ref.check_masks()
        ref.check_observations()
        actions = batch.sample_actions(rng) if action is None else np.full(2, action)
        result = batch.step(actions, autoreset=False)
        ref.step(actions, None, result, autoreset=False)
    assert result.terminated.all() and result.renuncio.tolist() == [-1, -1]
    assert result.card_thirds.tolist() == [[35, 0]] * 2
    assert result.stakes.tolist() == [stakes] * 2 and result.cappotto.tolist() == [cappotto] * 2


def test_four_players_chosen_deals_and_the_dealer_who_sits_out():
    batch = CalabresellaBatch(2, seed=0, players=4)
    with pytest.raises(ValueError, match='four_player="all_play" deals every card: there is no monte to choose'):
        batch.reset(monte=[0, 1, 2, 3])
    hands = [list(range(10 * s, 10 * s + 10)) for s in range(4)]
    batch.reset(hands=hands, dealer=3)
    assert batch.deal_of(1) == {"hands": hands} and batch.turn.tolist() == [0, 0]
    rules = {"players": 4, "four_player": "dealer_sits_out", "episode": "match", "rounds": 1}
    batch = CalabresellaBatch(2, seed=0, **rules)
    hands = [list(range(0, 12)), list(range(12, 24)), list(range(24, 36))]
    batch.reset(hands=hands, dealer=[1, 3])
    assert batch.players_in().tolist() == [[2, 3, 0], [0, 1, 2]] and batch.dealer_seat.tolist() == [2, 2]
    assert batch.turn.tolist() == [0, 0] and batch.agent.tolist() == [2, 0]
    assert not batch.observe(seats=np.array([1, 3])).any() and batch.observe(seats=1)[1].any()
    ref = Reference(batch, rules)
    ref.check_state()
    ref.check_observations()
    for _ in range(3):  # every seat passes: the hand is void, the next player deals
        result = batch.step(np.full(2, PASS))
        ref.step(np.full(2, PASS), None, result)
    assert result.hand_over.all() and batch.dealer.tolist() == [2, 0]
    assert batch.players_in().tolist() == [[3, 0, 1], [1, 2, 3]]
    ref.check_state()
    ref.check_observations()
