"""The single-learner vector environment: Gymnasium's contract, rewards, autoreset, policies."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from tests.vector._scalar import Reference, mask_bits
from tressette_env.encoders import encode
from tressette_env.engine import legal_actions_mask, view
from tressette_env.vector import RandomPolicy, TressetteBatch, TressetteVectorEnv, sample_mask
from tressette_env.wrappers import SingleSeatEnv


def play(env: TressetteVectorEnv, steps: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        out.append(env.step(sample_mask(env.action_masks(), rng)))
    return out


def test_spaces_metadata_and_reset():
    env = TressetteVectorEnv(6, seed=0)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.single_observation_space.shape == (790,) and env.single_action_space.n == 161
    assert env.observation_space.shape == (6, 790) and env.action_space.shape == (6,)
    obs, infos = env.reset(seed=1)
    assert obs.dtype == np.int8 and obs.shape == (6, 790) and list(infos) == ["action_mask"]
    assert env.observation_space.contains(obs)
    # After reset and after every step the learner is on turn everywhere.
    assert (env.batch.turn == env.seats).all()
    masks = env.action_masks()
    assert masks.dtype == bool and masks.any(axis=1).all()
    obs2, _ = env.reset(seed=1)
    assert np.array_equal(obs, obs2)


@pytest.mark.parametrize("learner_seat", [0, 3, "random"])
def test_rewards_and_terminations_of_whole_hands(learner_seat):
    env = TressetteVectorEnv(50, seed=2, learner_seat=learner_seat)
    env.reset(seed=2)
    totals = np.zeros(50)
    episodes = 0
    for _obs, rewards, terminated, truncated, infos in play(env, 30, seed=2):
        assert not truncated.any()
        assert (rewards[~terminated] == 0).all()
        totals += rewards
        if terminated.any():
            episodes += int(terminated.sum())
            info = infos["final_info"]
            assert infos["_final_obs"].tolist() == terminated.tolist()
            seat = info["learner_seat"][terminated]
            points = info["hand_points"][terminated]
            own, other = points[np.arange(len(seat)), seat % 2], points[np.arange(len(seat)), 1 - seat % 2]
            assert (rewards[terminated] == own - other).all()
            for i in np.flatnonzero(terminated):
                final = infos["final_obs"][i]
                assert final.shape == (790,) and final[588:598].sum() == 0  # no trick number: the hand is over
        assert (env.batch.turn == env.seats).all()
    assert episodes >= 100  # ten learner steps a hand
    if learner_seat == "random":
        assert len(set(env.seats.tolist())) > 1


@pytest.mark.parametrize(
    "learner_seat, rules, unmasked",
    [
        (1, {}, 0.0),
        ("random", {}, 0.1),  # a tenth of the learner's actions unmasked: renuncio in its own step
        ("random", {"accusi": False, "signals": False, "first_lead": "four_of_denari"}, 0.0),
        (3, {"cappotto_bonus": 3}, 0.05),
    ],
)
@pytest.mark.filterwarnings("ignore::tressette_env.envs.playing.RenuncioWarning")  # the scalar env's, on purpose
def test_dense_rewards_are_single_seat_env_dense_rewards(learner_seat, rules, unmasked):
    """The same deals, seats and learner actions in SingleSeatEnv(dense_reward=True) pay the same rewards."""
    n = 12
    env = TressetteVectorEnv(n, seed=3, learner_seat=learner_seat, opponent="heuristic", dense_reward=True, **rules)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    scalars = [None] * n

    def start(i):  # a scalar copy of deal i, from its start (the heuristic plays as the batched one)
        scalar = SingleSeatEnv(partner="heuristic", opponents="heuristic", dense_reward=True, **rules)
        deal = {"hands": env.batch.deal_of(i), "dealer": int(env.batch.dealer[i]), "seat": int(env.seats[i])}
        obs, _ = scalar.reset(options=deal)
        scalars[i] = scalar
        return obs

    obs = env.batch.observe(seats=env.seats)
    for i in range(n):
        assert np.array_equal(start(i), obs[i])
    hands = 0
    for _ in range(35):
        actions = sample_mask(env.action_masks(), rng)
        actions = np.where(rng.random(n) < unmasked, rng.integers(0, 161, n), actions)
        obs, rewards, terminated, _, infos = env.step(actions)
        for i in range(n):
            _, reward, done, _, _ = scalars[i].step(int(actions[i]))
            assert done == terminated[i]
            assert rewards[i] == pytest.approx(reward, abs=1e-5)
            if done:
                hands += 1
                assert np.array_equal(start(i), obs[i])  # the deal dealt in its place
    assert hands >= 30


def test_dense_reward_episodes_add_up_to_the_hand_result():
    env = TressetteVectorEnv(40, seed=4, learner_seat="random", dense_reward=True)
    env.reset(seed=4)
    totals = np.zeros(40)
    nonzero = 0
    for _obs, rewards, terminated, _, infos in play(env, 40, seed=4):
        totals += rewards
        nonzero += int((rewards[~terminated] != 0).sum())
        for i in np.flatnonzero(terminated):
            info = infos["final_info"]
            seat = info["learner_seat"][i]
            points = info["hand_points"][i]
            assert totals[i] == pytest.approx(points[seat % 2] - points[1 - seat % 2], abs=1e-4)
            totals[i] = 0
    assert nonzero > 100  # the thirds are paid as they are taken, not only at the end
    with pytest.raises(ValueError, match='dense_reward=True needs episode="hand"'):
        TressetteVectorEnv(2, dense_reward=True, episode="match")


def test_the_learner_sees_its_engine_observation():
    env = TressetteVectorEnv(40, seed=4, learner_seat="random", episode="match", target_score=11)
    obs, _ = env.reset(seed=4)
    batch = env.batch
    rng = np.random.default_rng(4)
    for _ in range(25):
        masks = env.action_masks()
        assert np.array_equal(obs, batch.observe(seats=env.seats))
        assert np.array_equal(masks, batch.legal_masks().astype(bool))
        obs, rewards, terminated, _, infos = env.step(sample_mask(masks, rng))
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert (rewards[terminated] != 0).all()


def test_a_custom_policy_sees_the_engine_view_of_its_seat():
    seen = []

    def policy(obs, mask):
        seen.append((obs.copy(), mask.copy()))
        return RandomPolicy(0)(obs, mask)

    env = TressetteVectorEnv(8, seed=6, opponent=policy)
    env.reset(seed=6)
    play(env, 12, seed=6)
    assert seen and all(o.shape[0] == m.shape[0] and o.shape[1] == 790 for o, m in seen)
    # Each row a policy gets is the view and mask of the seat on turn there.
    batch = TressetteBatch(3, seed=1)
    ref = Reference(batch, {})
    got = []
    env2 = TressetteVectorEnv(3, seed=1, opponent=lambda o, m: got.append((o, m)) or RandomPolicy(1)(o, m))
    env2.batch = batch
    env2._seat[:] = 0
    env2._play_others(np.zeros(3, np.float32), np.zeros(3, bool), {})
    assert got
    obs, mask = got[0]  # the first call: the opponents on turn (the partner, seat 2, gets its own call)
    rows = [i for i, s in enumerate(ref.states) if s.public.turn in (1, 3)]
    assert len(rows) == len(obs)
    for row, i in enumerate(rows):
        state = ref.states[i]
        assert np.array_equal(obs[row], encode(view(state, state.public.turn)))
        assert np.array_equal(mask[row], mask_bits(legal_actions_mask(state)))


def test_a_policy_that_plays_illegally_is_an_error():
    env = TressetteVectorEnv(4, seed=0, opponent=lambda obs, mask: np.full(len(obs), 160))
    with pytest.raises(ValueError, match="illegal action"):
        env.reset(seed=0)
        play(env, 5)


def test_partner_policy_plays_only_the_partner_seat():
    calls = []

    def partner(obs, mask):
        calls.append(len(obs))
        return sample_mask(mask, np.random.default_rng(0))

    env = TressetteVectorEnv(16, seed=3, partner=partner, learner_seat=1)
    env.reset(seed=3)
    play(env, 10, seed=3)
    assert sum(calls) >= 16 * 9  # the partner plays once a trick in every deal


def test_calling_out_opponents_never_end_an_episode_before_the_learner_plays():
    env = TressetteVectorEnv(64, seed=8, episode="match", calling_out=True, target_score=1)
    env.reset(seed=8)
    for _, rewards, terminated, _, _ in play(env, 20, seed=8):
        assert (rewards[terminated] != 0).all()


def test_bad_arguments():
    with pytest.raises(ValueError):
        TressetteVectorEnv(2, learner_seat=4)
    with pytest.raises(ValueError):
        TressetteVectorEnv(2, opponent="greedy")
    with pytest.raises(TypeError):
        TressetteVectorEnv(2, singals=False)
    with pytest.raises(RuntimeError):
        TressetteVectorEnv(2).step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match=r"unknown reset option\(s\) \['seat'\]; the options are"):
        TressetteVectorEnv(2).reset(options={"seat": 1})


def test_the_history_observation_for_the_learner_and_a_callable_opponent():
    seen = []

    def opponent(obs, masks):
        seen.append(obs.shape[1])
        return np.argmax(masks, axis=1)

    env = TressetteVectorEnv(6, opponent=opponent, learner_seat="random", seed=2, history=True)
    assert env.single_observation_space.shape == (1460,) and env.history
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(12):
        states = env.batch
        for d in range(6):  # the learner's observation is its seat's in the batch (its parity: test_parity.py)
            turn = int(states.turn[d])
            assert obs[d].shape == (1460,) and np.array_equal(obs[d], states.observe(seats=turn)[d])
        obs, *_ = env.step(sample_mask(env.action_masks(), rng))
    assert set(seen) == {1460}
    assert TressetteVectorEnv(2).single_observation_space.shape == (790,)
