"""The parallel API (``parallel_env()``) of every game: PettingZoo's parallel tests, the same play as the AEC env,
the wait action, rewards to every agent, max_cycles, bad inputs."""

import functools
import types
import warnings

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import max_cycles_test, parallel_api_test, parallel_seed_test

import tressette_env
from tests.games.family import CASES, IDS, MODULES
from tressette_env import tressette_a_perdere_v0, tressette_v0
from tressette_env.engine import IllegalActionError
from tressette_env.engine.actions import PARALLEL_NUM_ACTIONS, WAIT
from tressette_env.envs.playing import RenuncioWarning


@pytest.mark.parametrize(("game", "rules"), CASES, ids=IDS)
def test_pettingzoo_parallel_api_and_seed_tests(game, rules):
    module = MODULES[game]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(module.parallel_env(**rules), num_cycles=1000)
        # The seed test sends every agent an action sampled without the mask: the one on turn makes a renuncio.
        warnings.simplefilter("ignore", RenuncioWarning)
        parallel_seed_test(functools.partial(module.parallel_env, **rules))


def first_legal(observations, agents=None):
    """Every agent's (of ``agents``, default all) lowest legal action."""
    agents = observations if agents is None else agents
    return {agent: int(np.flatnonzero(observations[agent]["action_mask"])[0]) for agent in agents}


def highest_legal(observations, agents):
    """Each of ``agents``' highest legal action: the highest bid (so an auction game's hands are played), else
    the highest card; WAIT off turn."""
    return {agent: int(np.flatnonzero(observations[agent]["action_mask"])[-1]) for agent in agents}


@pytest.mark.parametrize(("game", "rules"), CASES, ids=IDS)
def test_the_parallel_env_plays_the_aec_game(game, rules):
    module = MODULES[game]
    aec = module.raw_env(**rules)
    par = module.parallel_env(**rules)
    aec.reset(seed=5)
    observations, infos = par.reset(seed=5)
    totals = dict.fromkeys(par.possible_agents, 0.0)
    steps = 0
    while par.agents:
        turn = par.agent_on_turn
        assert turn == aec.agent_selection
        # The agent on turn sees the AEC mask (WAIT off); every other agent only WAIT; both see the AEC observation.
        assert set(par.agents) <= set(observations)  # and the agents that just left, with their last observation
        for agent in par.agents:
            obs = observations[agent]
            mask = obs["action_mask"]
            assert mask.shape == (PARALLEL_NUM_ACTIONS,) and mask.dtype == np.int8 and mask.any()
            if agent == turn:
                assert not mask[WAIT] and np.array_equal(mask[: aec._num_actions], aec.observe(agent)["action_mask"])
            else:
                assert np.flatnonzero(mask).tolist() == [WAIT]
            assert np.array_equal(obs["observation"], aec.observe(agent)["observation"])
        assert np.array_equal(par.state(), aec.state())
        actions = highest_legal(
            observations, par.agents
        )  # first_legal would pass every auction: a match to a target never ends
        aec.step(actions[turn])
        while aec.agents and (aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]):
            aec.step(None)
        observations, rewards, terminations, truncations, infos = par.step(actions)
        steps += 1
        for agent, reward in rewards.items():
            totals[agent] += reward
        assert not any(truncations.values())
        # An agent leaves the moment it is done (a perdere's eliminated players at the end of their hand).
        assert par.agents == [a for a in par.possible_agents if a in rewards and not terminations[a]]
        assert set(par.agents) == set(aec.agents)
    # The episode's returns are the game's, paid in full to every agent.
    returns = aec.rules.game.returns(aec.game.public)
    assert [totals[a] for a in par.possible_agents] == pytest.approx(list(returns))
    assert steps > 0


def test_a_hand_s_rewards_reach_every_agent_in_the_step_that_ends_it():
    env = tressette_v0.parallel_env()
    observations, _ = env.reset(seed=0)
    paid = []
    while env.agents:
        observations, rewards, terminations, _, infos = env.step(first_legal(observations))
        if any(rewards.values()):
            paid.append(rewards)
    # One payment, to all four agents at once: the partners the same, zero-sum.
    assert len(paid) == 1 and set(paid[0]) == set(tressette_v0.AGENTS)
    r = paid[0]
    assert r["player_0"] == r["player_2"] == -r["player_1"] == -r["player_3"] != 0
    assert all(terminations.values()) and all("hand_score" in info for info in infos.values())


def test_eliminated_players_leave_with_their_standing():
    env = tressette_a_perdere_v0.parallel_env(players=4, episode="match", match_end="elimination", target_score=11)
    observations, _ = env.reset(seed=3)
    left = []
    while env.agents:
        before = list(env.agents)
        observations, rewards, terminations, _, _ = env.step(first_legal(observations, env.agents))
        out = [a for a in before if terminations[a]]
        if out and env.agents:
            left.append(out)
            assert all(a not in observations or terminations[a] for a in out)
            assert set(env.agents) == set(before) - set(out)
    assert left, "some player was put out before the match ended"


class LegalSampling(spaces.Discrete):
    """A ``Discrete`` whose ``sample()`` draws a legal action of ``env`` (PettingZoo's max_cycles test samples
    without the mask, and in a card game an unmasked action is a renuncio that ends the hand at once)."""

    def __init__(self, n, env, agent):
        super().__init__(n)
        self._env, self._agent = env, agent

    def sample(self, mask=None, probability=None):
        env = self._env
        if hasattr(env, "agent_on_turn"):  # parallel
            if self._agent != env.agent_on_turn:
                return np.int64(WAIT)
            legal = env.aec._legal
        else:
            if env.terminations[self._agent] or env.truncations[self._agent]:
                return None
            legal = env.unwrapped._legal
        ids = [a for a in range(legal.bit_length()) if legal >> a & 1]
        return np.int64(ids[self.np_random.integers(len(ids))])


def with_legal_sampling(env):
    spaces_ = {agent: LegalSampling(env.action_space(agent).n, env, agent) for agent in env.possible_agents}
    env.action_space = lambda agent: spaces_[agent]
    return env


@pytest.mark.parametrize("game", ["tressette", "tressette_in_due", "tressette_a_perdere"])
def test_pettingzoo_max_cycles_test(game):
    # Games where every agent plays once per trick: PettingZoo's test counts each agent's turns.
    module = MODULES[game]
    shim = types.SimpleNamespace(
        parallel_env=lambda max_cycles: with_legal_sampling(module.parallel_env(max_cycles=max_cycles)),
        env=lambda max_cycles: with_legal_sampling(module.env(max_cycles=max_cycles)),
    )
    max_cycles_test(shim)


@pytest.mark.parametrize("game", list(MODULES))
def test_max_cycles_truncates_every_agent(game):
    module = MODULES[game]
    par = module.parallel_env(max_cycles=3)
    observations, _ = par.reset(seed=0)
    for _ in range(3):
        assert par.agents
        observations, rewards, terminations, truncations, _ = par.step(highest_legal(observations, par.agents))
    assert par.agents == [] and all(truncations.values()) and not any(terminations.values())
    # The AEC env: max_cycles turns per agent on average, then every agent is truncated and takes its dead step.
    aec = module.raw_env(max_cycles=2)
    aec.reset(seed=0)
    agents = len(aec.agents)
    played = 0
    for agent in aec.agent_iter():
        _, _, termination, truncation, _ = aec.last()
        if termination or truncation:
            assert truncation and not termination
            aec.step(None)
        else:
            aec.step(int(np.flatnonzero(aec.observe(agent)["action_mask"])[-1]))
            played += 1
    assert played == 2 * agents


@pytest.mark.parametrize("bad", [0, -1, 2.0, "3", True])
def test_a_bad_max_cycles_is_named(bad):
    with pytest.raises(ValueError, match="max_cycles is None .no limit. or an int >= 1"):
        tressette_v0.parallel_env(max_cycles=bad)
    with pytest.raises(ValueError, match="max_cycles is None .no limit. or an int >= 1"):
        tressette_v0.raw_env(max_cycles=bad)


def test_bad_steps_are_errors_that_change_nothing():
    env = tressette_v0.parallel_env()
    with pytest.raises(RuntimeError, match="before reset"):
        env.step({})
    observations, _ = env.reset(seed=1)
    turn = env.agent_on_turn
    before = env.aec.game
    actions = first_legal(observations)
    with pytest.raises(TypeError, match="actions are a dict"):
        env.step([actions[turn]])
    with pytest.raises(ValueError, match=f"{turn} is on turn and has no action"):
        env.step({a: WAIT for a in env.agents if a != turn})
    with pytest.raises(ValueError, match=r"actions for \['player_9'\], who are not in the episode"):
        env.step({**actions, "player_9": 0})
    with pytest.raises(ValueError, match="out of range: action ids are 0..255"):
        env.step({**actions, turn: 256})
    other = next(a for a in env.agents if a != turn)
    with pytest.raises(TypeError, match="an action is an integer id"):
        env.step({**actions, other: "wait"})
    assert env.aec.game is before and env.agent_on_turn == turn
    # An agent off turn may send any id of the space: it is not played.
    observations, *_ = env.step({**actions, other: 7})
    assert env.aec.game.public.history[-1] == actions[turn]
    while env.agents:
        observations, *_ = env.step(first_legal(observations))
    with pytest.raises(RuntimeError, match="after the episode ended"):
        env.step({})


def test_wait_by_the_agent_on_turn_is_an_illegal_action():
    env = tressette_v0.parallel_env()
    env.reset(seed=2)
    turn = env.agent_on_turn
    with pytest.warns(RenuncioWarning, match=f"{turn} took illegal action 255 .aspetta."):
        _, rewards, terminations, _, infos = env.step({turn: WAIT})
    assert all(terminations.values()) and rewards[turn] == -11 and infos[turn]["renuncio"]["agent"] == turn
    env = tressette_v0.parallel_env(illegal_action="raise")
    env.reset(seed=2)
    before = env.aec.game
    with pytest.raises(IllegalActionError, match="illegal action 255"):
        env.step({env.agent_on_turn: WAIT})
    assert env.aec.game is before


def test_every_game_is_in_pettingzoo_s_parallel_registry():
    pettingzoo = pytest.importorskip("pettingzoo")
    if not hasattr(pettingzoo, "make"):
        pytest.skip("this pettingzoo has no registry")
    for _, pz_id, _ in tressette_env.GAMES.values():
        env = pettingzoo.make("parallel", pz_id)
        observations, _ = env.reset(seed=0)
        assert set(observations) == set(env.possible_agents)
