"""Tressette a perdere as environments: PettingZoo's AEC with eliminations, the single-agent Gymnasium env."""

import random

import numpy as np
import pytest

from tressette_env import tressette_a_perdere_v0
from tressette_env.engine import GAME_OVER, HAND_OVER, legal_actions
from tressette_env.games.a_perdere import APerdereRules
from tressette_env.wrappers.single_agent import SingleAgentEnv

ELIMINATION = {"players": 5, "episode": "match", "match_end": "elimination", "target_score": 11}


def random_aec_episode(env, seed):
    """Play an episode with random legal actions: (agent, final reward, match over) as each agent leaves."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    left = []
    for agent in env.agent_iter(100_000):
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            left.append((agent, env._cumulative_rewards[agent], env.unwrapped.game.public.status == GAME_OVER))
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return left


def test_an_eliminated_player_leaves_the_aec_episode_with_its_standing():
    env = tressette_a_perdere_v0.env(**ELIMINATION)
    early_leavers = 0
    for seed in range(6):
        left = random_aec_episode(env, seed)
        p = env.unwrapped.game.public
        out = p.table.extra.out
        # Players put out while the match goes on leave at once, with the standing the order
        # they went out in fixes (the first out last; put out together, by total, ties shared).
        early = [(agent, reward) for agent, reward, over in left if not over]
        final = p.rules.game.returns(p)
        for agent, reward in early:  # the standing it leaves with is its final one, below all who stayed longer
            a = int(agent[-1])
            assert reward == final[a]
            stayed = [b for b in range(5) if b not in out[: out.index(a) + 1]]
            assert all(final[b] >= reward for b in stayed)
        assert {int(agent[-1]) for agent, _ in early} == set(out[: len(early)])
        early_leavers += len(early)
        # The rest leave when the match is over, with the game's final standings.
        assert {agent: reward for agent, reward, over in left if over} == {
            f"player_{a}": final[a] for a in range(5) if f"player_{a}" not in dict(early)
        }
        assert sorted(reward for _, reward, _ in left) == sorted(final) and sum(final) == pytest.approx(0)
    assert early_leavers > 0


def test_an_eliminated_player_is_named_when_observed_after_it_left():
    env = tressette_a_perdere_v0.env(**ELIMINATION)
    env.reset(seed=0)
    rng = random.Random(0)
    gone = None
    for agent in env.agent_iter(100_000):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            gone = agent
            env.step(None)
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert gone is not None and gone not in env.agents and env.agents  # the match goes on without it
    with pytest.raises(RuntimeError, match=f"{gone} is out of the match"):
        env.observe(gone)


def test_the_single_agent_episode_ends_when_the_learner_is_put_out():
    env = SingleAgentEnv("tressette_a_perdere", agent=0, others="random", **ELIMINATION)
    rng = random.Random(1)
    endings = set()
    for seed in range(12):
        env.reset(seed=seed)
        while True:
            _, reward, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            if terminated:
                break
        p = env.game.public
        out = p.table.extra.out
        n = 5
        if 0 in out:  # put out: the episode ends on that hand, with a standing fixed by when it went out
            assert p.status in (HAND_OVER, GAME_OVER) and reward == p.rules.game.returns(p)[0]
            later = [a for a in range(n) if a not in out]  # still in: they all rank above the learner
            assert reward <= 1 - 2 * len(later) / (n - 1)
            endings.add("out")
        else:
            # the match ended with the learner in: the winner, or ranked by its total
            assert reward == p.rules.game.returns(p)[0] and (reward == 1.0) == (p.winner == 0)
            endings.add("in at the end")
        assert not env.action_masks().any()
        with pytest.raises(RuntimeError, match="after the episode ended"):
            env.step(0)
    assert endings == {"out", "in at the end"}


@pytest.mark.parametrize("players", [3, 4, 5, 8])
def test_dense_rewards_add_up_to_minus_the_charge(players):
    env = SingleAgentEnv("tressette_a_perdere", agent=1, others="random", dense_reward=True, players=players)
    rng = random.Random(players)
    for seed in range(10):
        env.reset(seed=seed)
        total = 0.0
        while True:
            _, reward, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            total += reward
            if terminated:
                break
        assert total == pytest.approx(-info["charges"][1])


def test_a_chosen_deal_through_reset_options():
    env = tressette_a_perdere_v0.raw_env(players=3)
    hands = [list(range(0, 13)), list(range(13, 26)), list(range(26, 33)) + list(range(34, 40))]
    env.reset(options={"hands": hands, "dealer": 2})
    p = env.game.public
    assert p.dealer == 2 and p.turn == 0  # the seat after the dealer leads
    assert p.table.extra.removed == 1 << 33  # the card no hand holds is the removed 4 di bastoni
    obs = env.observe("player_0")["observation"]
    assert obs[:40].tolist() == [1] * 13 + [0] * 27
    with pytest.raises(ValueError, match="hand 2"):
        env.reset(options={"hands": [hands[0], hands[1], hands[2][:-1]], "dealer": 2})
    assert env.game.public.dealer == 2  # a bad deal changes nothing
    assert env.state().shape == env.state_space.shape


def test_the_state_vector_holds_every_hand():
    env = tressette_a_perdere_v0.raw_env(players=4)
    env.reset(seed=0)
    state = env.state()
    hands = state[: 4 * 40].reshape(4, 40)
    assert hands.sum() == 40 and (hands.sum(axis=0) == 1).all()
    assert legal_actions(env.game)


def test_the_rules_record_is_the_game_s():
    env = tressette_a_perdere_v0.raw_env(players=6, reduce="monte")
    assert env.rules == APerdereRules(players=6, reduce="monte")
    assert env.rules.game.name == "tressette_a_perdere" and env.metadata["name"] == "tressette_a_perdere_v0"
