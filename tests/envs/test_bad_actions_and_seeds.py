"""Bad actions through ``env()`` and bad seeds in every environment: a clear error that changes nothing (issue 31)."""

import gymnasium as gym
import numpy as np
import pytest

import tressette_env  # noqa: F401  (registers the Gymnasium ids)
from tressette_env import GAMES
from tressette_env.envs.aec import ActionSpaceError
from tressette_env.envs.playing import check_seed, shown
from tressette_env.vector.engine import TressetteBatch
from tressette_env.vector.env import TressetteVectorEnv

from ..games.family import MODULES

HUGE = [10**30, 2**63, -1, np.int64(2**62), 10**5000]


@pytest.mark.parametrize("game", list(MODULES))
@pytest.mark.parametrize("action", HUGE, ids=["1e30", "2**63", "-1", "int64", "5000 digits"])
def test_env_names_an_out_of_range_action_and_the_range(game, action):
    env = MODULES[game].env()
    env.reset(seed=3)
    agent, state = env.agent_selection, env.unwrapped.game
    n = env.action_space(agent).n
    with pytest.raises(ActionSpaceError) as caught:
        env.step(action)
    message = str(caught.value)
    assert f"0..{n - 1}" in message and agent in message and len(message) < 200
    assert shown(int(action)) in message  # the value, or how many digits it has
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, AssertionError)
    assert env.agent_selection == agent and env.unwrapped.game is state  # nothing changed


@pytest.mark.parametrize("action", [1.5, None, "3", True])
def test_env_names_a_non_integer_action(action):
    env = MODULES["tressette"].env()
    env.reset(seed=3)
    with pytest.raises(
        ActionSpaceError, match=r"an action is an integer id 0\.\.160; got .*the action space is Discrete\(161\)"
    ):
        env.step(action)
    with pytest.raises(TypeError):  # as raw_env answers
        env.step(action)


def test_a_finished_agent_still_steps_none():
    env = MODULES["tressette"].env()
    env.reset(seed=0)
    for _ in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else int(np.flatnonzero(observation["action_mask"])[0]))
    assert not env.agents


def test_check_seed():
    assert check_seed(np.int64(5)) == 5 and type(check_seed(np.uint8(5))) is int
    assert check_seed(None) is None and check_seed(0) == 0
    for bad in (True, np.True_, 1.0, "1", [1]):
        with pytest.raises(TypeError, match="seed is None or a non-negative integer"):
            check_seed(bad)
    with pytest.raises(ValueError, match="non-negative"):
        check_seed(-1)


def _aec_first(game, seed):
    env = MODULES[game].env()
    env.reset(seed=seed)
    return env.unwrapped.game


@pytest.mark.parametrize("game", list(MODULES))
def test_aec_and_parallel_take_numpy_seeds_and_refuse_bools(game):
    assert _aec_first(game, np.int64(5)) == _aec_first(game, 5)
    env = MODULES[game].env()
    env.reset(seed=1)
    before = env.unwrapped.game
    with pytest.raises(TypeError, match="got True"):
        env.reset(seed=True)
    assert env.unwrapped.game is before  # a bad seed changes nothing
    parallel = MODULES[game].parallel_env()
    a, _ = parallel.reset(seed=np.int32(5))
    b, _ = parallel.reset(seed=5)
    assert all((a[k]["observation"] == b[k]["observation"]).all() for k in a)
    with pytest.raises(TypeError, match="got False"):
        parallel.reset(seed=False)


@pytest.mark.parametrize("game", list(GAMES))
def test_gymnasium_envs_take_numpy_seeds_and_refuse_bools(game):
    gym_id = GAMES[game][0]
    env = gym.make(gym_id)
    a, _ = env.reset(seed=np.int64(5))
    b, _ = env.reset(seed=5)
    assert (a == b).all()
    with pytest.raises(TypeError, match="got True"):
        env.reset(seed=True)


def test_vector_env_and_batch_take_numpy_seeds_and_refuse_bools():
    a, _ = TressetteVectorEnv(3, seed=np.int64(7)).reset(seed=np.int64(5))
    b, _ = TressetteVectorEnv(3, seed=7).reset(seed=5)
    assert (a == b).all()
    with pytest.raises(TypeError, match="got True"):
        TressetteVectorEnv(3, seed=True)
    with pytest.raises(TypeError, match="got True"):
        TressetteVectorEnv(3).reset(seed=True)
    with pytest.raises(TypeError, match="got True"):
        TressetteBatch(2, seed=True)
    assert (TressetteBatch(2, seed=np.int64(4)).observe() == TressetteBatch(2, seed=4).observe()).all()


def test_duplicate_takes_numpy_seeds_and_refuses_bools():
    from tressette_env.agents import HeuristicPlayer, RandomPlayer
    from tressette_env.evaluation.duplicate import duplicate

    def run(seed):
        return duplicate(HeuristicPlayer(), RandomPlayer(), boards=4, seed=seed, workers=1, progress=False)

    assert run(np.int64(5)).mean_points_diff == run(5).mean_points_diff
    for bad in (True, -1):
        with pytest.raises((TypeError, ValueError), match="seed is None or a non-negative integer"):
            run(bad)


def test_train_config_takes_numpy_integers_and_refuses_bools():
    pytest.importorskip("sb3_contrib")
    from tressette_env.training.train import TrainConfig

    config = TrainConfig(seed=np.int64(3), total_timesteps=np.int32(64))
    config.check()
    assert type(config.seed) is int and config.seed == 3
    with pytest.raises(ValueError, match="seed=True: must be an integer >= 0"):
        TrainConfig(seed=True).check()


def test_the_commands_refuse_a_negative_seed(capsys):
    from tressette_env.cli import main

    for command in (["eval", "random", "heuristic", "--seed", "-1"], ["play", "--seed", "-2"]):
        with pytest.raises(SystemExit) as caught:
            main(command)
        assert caught.value.code == 2 and "must be an integer >= 0" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_on_off_settings_are_bools(value):
    with pytest.raises(TypeError, match="history is True or False"):
        MODULES["tressette_in_due"].env(history=value)
    for setting in ("history", "dense_reward"):
        with pytest.raises(TypeError, match=f"{setting} is True or False"):
            gym.make("tressette_env/Calabresella-v0", **{setting: value})
        with pytest.raises(TypeError, match=f"{setting} is True or False"):
            gym.make("tressette_env/Tressette-v0", **{setting: value})
        with pytest.raises(TypeError, match=f"{setting} is True or False"):
            TressetteVectorEnv(2, **{setting: value})
    assert TressetteVectorEnv(2, history=np.True_, dense_reward=False).history is True


@pytest.mark.parametrize("gym_id", [entry.gym_id for entry in map(tressette_env.catalog.entry, GAMES)])
def test_gym_make_names_a_misspelled_keyword_with_the_environments_own(gym_id):
    """``oponents=`` was answered with the rule switches alone (``opponents`` and ``others`` were not among them)."""
    with pytest.raises(TypeError) as caught:
        gym.make(gym_id, oponents="random", disable_env_checker=True)
    message = str(caught.value)
    assert "unknown keyword 'oponents'" in message and "render_mode" in message and "episode" in message
    if gym_id == "tressette_env/Tressette-v0":
        assert "(did you mean 'opponents'?)" in message
    else:
        assert "others" in message and "agent" in message


def test_a_game_spec_of_ones_own_still_makes_a_single_learner_env():
    """The keyword check looked the game up in the catalog by name: a ``GameSpec`` of one's own was refused."""
    import dataclasses

    from tressette_env.envs.spec import game_spec
    from tressette_env.wrappers.single_agent import SingleAgentEnv

    env = SingleAgentEnv(dataclasses.replace(game_spec("tressette_in_due"), name="my_in_due"), deal="packets")
    env.reset(seed=0)
    with pytest.raises(TypeError, match=r"unknown keyword 'histroy' \(did you mean 'history'\?\)"):
        SingleAgentEnv(dataclasses.replace(game_spec("tressette_in_due"), name="my_in_due"), histroy=True)


@pytest.mark.parametrize("game", list(MODULES))
def test_the_space_of_an_unknown_agent_is_named_with_the_agents(game):
    module = MODULES[game]
    for env in (module.env(), module.raw_env(), module.parallel_env()):
        for space in (env.observation_space, env.action_space):
            with pytest.raises(ValueError, match=r"agents are \['player_0', .*\]; got 'player_9'"):  # (a KeyError)
                space("player_9")
            assert space(env.possible_agents[0]) is not None
    parallel = module.parallel_env()  # its own action space (its actions include "wait"), not the AEC one's
    assert parallel.action_space("player_0") is parallel.action_spaces["player_0"]
