"""The batched engine is the scalar engine, deal by deal: masks, observations, results, rewards."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vector._scalar import Reference, mask_bits
from tressette_env import tressette_v0
from tressette_env.encoders import encode
from tressette_env.engine import PLAYING, IllegalActionError, cards_of, legal_actions_mask, view
from tressette_env.vector import TressetteBatch


def run(
    rules: dict,
    n: int,
    steps: int,
    seed: int,
    *,
    active_p: float = 0.0,
    illegal_p: float = 0.0,
    every: int = 4,
    history: bool = False,
):
    """Step a batch and its scalar reference together, checking everything as they go."""
    batch = TressetteBatch(n, seed=seed, history=history, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(seed + 1)
    hands = 0
    for step in range(steps):
        ref.check_masks()
        if step % every == 1:
            ref.check_leads()
        ref.check_observations((None, 0, 1, 2, 3) if step % every == 0 else (None,))
        actions = batch.sample_actions(rng)
        if illegal_p:
            wrong = rng.random(n) < illegal_p
            actions[wrong] = rng.integers(0, 161, int(wrong.sum()))
        # Partial steps: few, half or most deals play (the batch turns slots either way).
        active = rng.random(n) < rng.choice([0.1, 0.5, 0.9]) if active_p and rng.random() < active_p else None
        result = batch.step(actions, active=active)
        ref.step(actions, active, result)
        hands += int(result.hand_over.sum())
    return hands


def test_the_default_rules_over_a_thousand_deals_and_more():
    assert run({}, 1000, 42, seed=0, every=8) >= 1000


RULE_SETS = [
    {"accusi": False, "signals": False},
    {"first_lead": "four_of_denari", "cappotto_bonus": 11},
    {"episode": "match", "target_score": 11},
    {"episode": "match", "target_score": 21, "first_lead": "four_of_denari", "cappotto_bonus": 11},
    {"episode": "match", "target_score": 11, "calling_out": True, "signals": False},
    {"striscio": "no_honours", "episode": "match", "target_score": 11, "first_lead": "four_of_denari"},
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()))
def test_every_rule_switch_with_partial_steps_and_renuncio(rules):
    assert run(rules, 120, 80, seed=len(str(rules)), active_p=0.3, illegal_p=0.004, every=5) >= 120


@pytest.mark.parametrize(
    "rules", [{}, *RULE_SETS[::2], RULE_SETS[4]], ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default"
)
def test_the_history_observation_with_partial_steps_renuncio_and_claims(rules):
    assert run(rules, 80, 60, seed=3 + len(str(rules)), active_p=0.3, illegal_p=0.004, every=5, history=True) >= 80


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules", [{}, *RULE_SETS], ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default"
)
def test_many_more_deals_with_the_history_observation(rules):
    assert run(rules, 1000, 120, seed=17, active_p=0.2, illegal_p=0.002, every=10, history=True) >= 1000


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules", [{}, *RULE_SETS], ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default"
)
def test_many_more_deals(rules):
    assert run(rules, 2000, 200, seed=7, active_p=0.2, illegal_p=0.002, every=10) >= 4000


@pytest.mark.parametrize("history", [False, True], ids=["default", "history"])
def test_finished_deals_wait_for_reset_without_autoreset(history):
    rules = {"episode": "match", "target_score": 5}
    batch = TressetteBatch(64, seed=3, history=history, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(3)
    finished: set[int] = set()
    for _ in range(400):
        playing = batch.playing
        if not playing.any():
            break
        actions = np.where(playing, batch.sample_actions(rng), 0)
        result = batch.step(actions, active=None if playing.all() else playing, autoreset=False)
        finished.update(ref.step(actions, playing, result, autoreset=False))
        assert not batch.playing[list(finished)].any()
    assert len(finished) == 64
    # The final state: no seat on turn, an empty mask, the engine's final observations.
    assert (batch.turn == -1).all() and not batch.legal_masks().any()
    ref.check_masks()
    ref.check_observations((0, 1, 2, 3))
    with pytest.raises(ValueError, match="finished deal"):
        batch.step(np.zeros(64, dtype=np.int64))
    with pytest.raises(ValueError, match="seat on turn"):
        batch.observe()
    batch.reset(deals=np.arange(0, 64, 2))
    assert batch.playing.tolist() == [True, False] * 32
    for i in range(0, 64, 2):
        ref.states[i] = ref.fresh(i)
    ref.check_observations((0, 1, 2, 3))
    batch.reset(deals=batch.playing == 0)
    assert batch.playing.all()


@pytest.mark.parametrize("history", [False, True], ids=["default", "history"])
def test_finished_deals_take_minus_one_and_a_claim_leads_no_trick(history):
    rules = {"episode": "match", "target_score": 11, "calling_out": True}
    batch = TressetteBatch(64, seed=8, history=history, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(8)
    claims = 0
    for _ in range(400):
        playing = batch.playing
        if not playing.any():
            break
        actions = batch.sample_actions(rng)  # -1 in the finished deals, fed back as it is
        assert ((actions == -1) == ~playing).all()
        claims += int((actions == 160).sum())
        result = batch.step(actions, active=None if playing.all() else playing, autoreset=False)
        ref.step(actions, playing, result, autoreset=False)
        ref.check_leads()
    assert not batch.playing.any() and claims > 10
    batch.reset(deals=[0])
    with pytest.raises(ValueError, match=r"or -1 in a deal that does not play"):
        batch.step(np.full(64, -1), active=batch.playing)


def test_masks_come_as_int8_or_bool_only():
    batch = TressetteBatch(2, seed=0)
    assert batch.legal_masks().dtype == np.int8 and batch.legal_masks(bool).dtype == bool
    with pytest.raises(ValueError, match="int8 \\(the default\\) or bool"):
        batch.legal_masks(np.float32)


def test_raise_mode_rejects_an_illegal_batch_and_changes_nothing():
    batch = TressetteBatch(8, seed=5, illegal_action="raise")
    rng = np.random.default_rng(5)
    for _ in range(6):
        batch.step(batch.sample_actions(rng))
    before = batch.observe(), batch.legal_masks(), batch.turn
    actions = batch.sample_actions(rng)
    masks = batch.legal_masks()
    actions[3] = int(np.flatnonzero(masks[3] == 0)[0])
    with pytest.raises(IllegalActionError, match="deal 3"):
        batch.step(actions)
    after = batch.observe(), batch.legal_masks(), batch.turn
    for x, y in zip(before, after, strict=True):
        assert np.array_equal(x, y)


def test_renuncio_ends_the_hand_eleven_nil():
    batch = TressetteBatch(4, seed=2)
    turn = batch.turn
    actions = batch.sample_actions(np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(batch.legal_masks()[1] == 0)[0])
    result = batch.step(actions)
    assert result.terminated.tolist() == [False, True, False, False]
    assert result.renuncio[1] == turn[1]
    team = turn[1] % 2
    assert result.hand_points[1, team] == 0 and result.hand_points[1, 1 - team] == 11
    assert result.rewards[1, team] == -11 and result.rewards[1, 1 - team] == 11


@pytest.mark.parametrize("actions", [np.full(3, 161), np.full(3, -1), np.zeros(2, dtype=np.int64), np.zeros(3)])
def test_bad_actions_always_raise(actions):
    batch = TressetteBatch(3, seed=0)
    with pytest.raises((ValueError, TypeError)):
        batch.step(actions)


def test_chosen_deals_and_dealers():
    deal = [list(range(s * 10, s * 10 + 10)) for s in range(4)]
    batch = TressetteBatch(5, seed=0, first_lead="dealer_right")
    batch.reset(hands=deal, dealer=[0, 1, 2, 3, 0])
    assert batch.turn.tolist() == [1, 2, 3, 0, 1]
    assert all(batch.deal_of(i) == deal for i in range(5))
    assert [cards_of(int(m)) for m in batch.hands()[0]] == deal
    shuffled = np.random.default_rng(0).permutation(40).reshape(4, 10)
    batch.reset(hands=np.stack([shuffled] * 2), dealer=3, deals=[1, 4])
    assert batch.deal_of(1) == batch.deal_of(4) == [sorted(h) for h in shuffled.tolist()]
    assert batch.deal_of(0) == deal
    for bad in ([[0] * 10] * 4, [list(range(10))] * 3, np.arange(40).reshape(4, 10) + 1):
        with pytest.raises(ValueError):
            batch.reset(hands=bad)
    with pytest.raises(ValueError):
        batch.reset(dealer=4)


def test_shuffled_deals_are_partitions_and_look_uniform():
    batch = TressetteBatch(20000, seed=11)
    hands = batch.hands()
    assert (np.bitwise_or.reduce(hands, axis=1) == (1 << 40) - 1).all()
    assert (np.bitwise_count(hands) == 10).all()
    # Each card lands with each seat a quarter of the time; each dealer too.
    holder = np.stack([(hands >> np.uint64(c)) & np.uint64(1) for c in range(40)], axis=2).sum(axis=0)  # (4, 40)
    assert np.abs(holder / 20000 - 0.25).max() < 0.02
    assert np.abs(np.bincount(batch.dealer, minlength=4) / 20000 - 0.25).max() < 0.02
    # The same seed deals the same cards.
    again = TressetteBatch(20000, seed=11)
    assert np.array_equal(again.hands(), hands) and np.array_equal(again.dealer, batch.dealer)


def test_readers_agree_with_the_engine():
    batch = TressetteBatch(200, seed=4)
    ref = Reference(batch, {})
    rng = np.random.default_rng(4)
    for _ in range(23):
        actions = batch.sample_actions(rng)
        ref.step(actions, None, batch.step(actions))
    turn, leader, trick, hands = batch.turn, batch.leader, batch.trick_cards(), batch.hands()
    thirds, tricks, declared = batch.thirds, batch.tricks_done, batch.declared
    for i, state in enumerate(ref.states):
        p = state.public
        assert turn[i] == p.turn and leader[i] == p.leader and tricks[i] == p.tricks_done
        assert tuple(thirds[i]) == p.thirds and tuple(declared[i]) == p.accusi.points
        assert tuple(int(h) for h in hands[i]) == state.hands
        on_table = {(p.leader + k) % 4: card for k, card in enumerate(p.trick)}
        assert trick[i].tolist() == [on_table.get(s, -1) for s in range(4)]


def test_the_aec_environment_agrees_on_observations_masks_and_rewards():
    n = 60
    batch = TressetteBatch(n, seed=9)
    envs = []
    for i in range(n):
        env = tressette_v0.raw_env()
        env.reset(options={"hands": batch.deal_of(i), "dealer": int(batch.dealer[i])})
        envs.append(env)
    rng = np.random.default_rng(9)
    finals = np.zeros((n, 4), dtype=np.float32)
    for _ in range(40):
        obs = [batch.observe(seats=s) for s in range(4)]
        masks = batch.legal_masks()
        for i, env in enumerate(envs):
            for s, agent in enumerate(tressette_v0.AGENTS):
                seen = env.observe(agent)
                assert np.array_equal(seen["observation"], obs[s][i])
                assert np.array_equal(seen["action_mask"], masks[i] if env.agent_selection == agent else 0 * masks[i])
        actions = batch.sample_actions(rng)
        result = batch.step(actions)
        for i, env in enumerate(envs):
            env.step(int(actions[i]))
        finals += result.rewards
    assert result.terminated.all()
    for i, env in enumerate(envs):
        assert [env.rewards[a] for a in tressette_v0.AGENTS] == finals[i].tolist()


def test_mask_bits_helper():
    from tressette_env.engine import new_game

    state = new_game(seed=0)
    assert np.flatnonzero(mask_bits(legal_actions_mask(state))).tolist() == [
        a for a in range(161) if legal_actions_mask(state) >> a & 1
    ]
    assert state.public.status == PLAYING
    assert encode(view(state, 0)).shape == (790,)


def test_observing_some_deals_from_some_seats():
    batch = TressetteBatch(30, seed=12)
    rng = np.random.default_rng(12)
    for _ in range(7):
        batch.step(batch.sample_actions(rng))
    every = np.stack([batch.observe(seats=s) for s in range(4)])  # (4, N, 790)
    deals = np.array([3, 0, 29, 3])
    seats = np.array([2, 1, 0, 3])
    assert np.array_equal(batch.observe(seats=seats, deals=deals), every[seats, deals])
    mask = np.zeros(30, dtype=bool)
    mask[[5, 7]] = True
    assert np.array_equal(batch.observe(deals=mask), batch.observe()[[5, 7]])
    assert np.array_equal(batch.observe(seats=1, deals=mask), every[1, [5, 7]])
    with pytest.raises(ValueError):
        batch.observe(seats=4)
