"""The AEC environment's contract: deals, rewards, infos, illegal and bad input, rendering."""

import pickle

import numpy as np
import pytest

from tests.helpers import SUITS_DEAL, action, fill
from tressette_env import tressette_v0
from tressette_env.encoders import SIZE, STATE_SIZE
from tressette_env.engine import IllegalActionError, legal_actions
from tressette_env.wrappers import SingleSeatEnv

AGENTS = tressette_v0.AGENTS


def play_episode(env, seed=None, chooser=None, options=None):
    """Play to the end with the lowest legal action (or ``chooser``); return the trajectory."""
    env.reset(seed=seed, options=options)
    trajectory = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        trajectory.append((agent, obs["observation"].copy(), obs["action_mask"].copy(), reward, term, dict(info)))
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(chooser(legal) if chooser else legal[0]))
    return trajectory


def test_chosen_deal_and_dealer():
    env = tressette_v0.raw_env()
    env.reset(options={"hands": SUITS_DEAL, "dealer": 3})
    assert env.game.hands[0] == sum(1 << c for c in range(10))
    assert env.game.public.dealer == 3 and env.agent_selection == "player_0"
    env.reset(options={"dealer": 1})
    assert env.game.public.dealer == 1 and env.agent_selection == "player_2"


@pytest.mark.parametrize(
    "options, message",
    [
        ({"hands": [[0] * 10] * 4}, "dealt twice"),
        ({"hands": SUITS_DEAL[:3]}, "a deal is 4 lists"),
        ({"hands": [h[:9] for h in SUITS_DEAL]}, "has 9 cards"),
        ({"hands": [[c + 1 for c in h] for h in SUITS_DEAL]}, "card id 40"),
        ({"hands": SUITS_DEAL, "dealer": 4}, "dealer must be a seat 0..3"),
    ],
)
def test_a_bad_deal_is_named_and_changes_nothing(options, message):
    env = tressette_v0.raw_env()
    env.reset(seed=1)
    game, rng_state = env.game, env.np_random.bit_generator.state
    with pytest.raises(ValueError, match=message):
        env.reset(seed=99, options=options)
    assert env.game is game and env.np_random.bit_generator.state == rng_state


def test_a_mistyped_reset_option_is_an_error_naming_the_options():
    env = tressette_v0.raw_env()
    env.reset(seed=1)
    game = env.game
    with pytest.raises(
        ValueError, match=r"unknown reset option\(s\) \['hand'\]; the options are \['hands', 'dealer'\]"
    ):
        env.reset(seed=0, options={"hand": SUITS_DEAL})
    assert env.game is game
    single = SingleSeatEnv()
    with pytest.raises(ValueError, match=r"\['learner'\]; the options are \['hands', 'dealer', 'seat'\]"):
        single.reset(seed=0, options={"learner": 2})
    # PettingZoo's api_test probes reset with options={"options": 1}: that key alone is let through.
    env.reset(seed=0, options={"options": 1})
    assert env.game is not game


def test_step_and_observe_outside_an_episode_say_so():
    with pytest.raises(RuntimeError, match=r"step\(\) before reset\(\)"):
        tressette_v0.raw_env().step(0)
    env = tressette_v0.env()
    play_episode(env, seed=0)
    assert env.agents == []
    with pytest.raises(RuntimeError, match="player_0 is done: the episode is over"):
        env.last()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="agents are"):
        env.observe("nobody")


def test_view_names_the_agents():
    env = tressette_v0.raw_env()
    env.reset(seed=0)
    assert env.view("player_2").seat == 2
    with pytest.raises(ValueError, match=r"agents are \['player_0', 'player_1', 'player_2', 'player_3'\]; got 1"):
        env.view(1)


def test_same_seed_same_actions_same_trajectory():
    rng_a, rng_b = np.random.default_rng(5), np.random.default_rng(5)
    a = play_episode(tressette_v0.env(episode="match"), seed=11, chooser=lambda legal: rng_a.choice(legal))
    b = play_episode(tressette_v0.env(episode="match"), seed=11, chooser=lambda legal: rng_b.choice(legal))
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x[0] == y[0] and np.array_equal(x[1], y[1]) and np.array_equal(x[2], y[2]) and x[3:] == y[3:]
    c = play_episode(tressette_v0.env(episode="match"), seed=12)
    assert [t[0] for t in c] != [t[0] for t in a] or any(
        not np.array_equal(x[1], y[1]) for x, y in zip(a, c, strict=False)
    )


def test_hand_rewards_are_team_point_differences():
    env = tressette_v0.env(accusi=False)
    trajectory = play_episode(env, options={"hands": SUITS_DEAL, "dealer": 3})
    final = {agent: reward for agent, _, _, reward, term, _ in trajectory if term}
    assert final == {"player_0": 11.0, "player_2": 11.0, "player_1": -11.0, "player_3": -11.0}
    assert all(reward == 0 for _, _, _, reward, term, _ in trajectory if not term)
    info = next(info for *_, term, info in trajectory if term)
    assert info == {"hand": 0, "hand_score": [11, 0], "card_thirds": [35, 0], "accusi": [0, 0]}


def test_partners_equal_and_teams_opposite_over_random_deals():
    rng = np.random.default_rng(0)
    for seed in range(20):
        trajectory = play_episode(tressette_v0.env(), seed=seed, chooser=lambda legal: rng.choice(legal))
        final = {agent: reward for agent, _, _, reward, term, _ in trajectory if term}
        assert final["player_0"] == final["player_2"] == -final["player_1"] == -final["player_3"]
        info = next(info for *_, term, info in trajectory if term)
        assert final["player_0"] == info["hand_score"][0] - info["hand_score"][1]
        assert sum(info["card_thirds"]) == 35


def test_match_rewards_and_hand_infos():
    rng = np.random.default_rng(1)
    env = tressette_v0.env(episode="match", target_score=21)
    trajectory = play_episode(env, seed=3, chooser=lambda legal: rng.choice(legal))
    final = {agent: reward for agent, _, _, reward, term, _ in trajectory if term}
    assert sorted(final.values()) == [-1.0, -1.0, 1.0, 1.0]
    assert final["player_0"] == final["player_2"]
    hands_seen = sorted({info["hand"] for *_, info in trajectory if "hand" in info})
    assert len(hands_seen) >= 2 and hands_seen == list(range(len(hands_seen)))
    last = next(info for *_, term, info in trajectory if term)
    winner = 0 if final["player_0"] > 0 else 1
    assert last["match_score"][winner] >= 21 and last["match_score"][winner] > last["match_score"][1 - winner]


def test_mask_is_zero_for_agents_not_on_turn_and_obs_in_space():
    env = tressette_v0.raw_env()
    env.reset(seed=0)
    for agent in AGENTS:
        obs = env.observe(agent)
        assert env.observation_space(agent).contains(obs)
        assert obs["observation"].shape == (SIZE,) and obs["observation"].dtype == np.int8
        if agent == env.agent_selection:
            assert sorted(np.flatnonzero(obs["action_mask"])) == legal_actions(env.game)
        else:
            assert not obs["action_mask"].any()
    assert env.state().shape == (STATE_SIZE,) and env.state_space.contains(env.state())


def test_renuncio_ends_the_hand_with_a_warning_and_an_info():
    env = tressette_v0.env()
    env.reset(options={"hands": fill(seat_1="3d", seat_2="Rd"), "dealer": 0})
    env.step(action("3d"))  # player_1 leads
    assert env.agent_selection == "player_2"
    with pytest.warns(tressette_v0.RenuncioWarning, match=r"player_2 took illegal action 20 \(As\); legal: \[9\]"):
        env.step(action("As"))
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -11.0, "player_1": 11.0, "player_2": -11.0, "player_3": 11.0}
    info = env.infos["player_2"]
    assert info["hand_score"] == [0, 11]
    assert info["renuncio"] == {"agent": "player_2", "action": 20, "legal_actions": [9]}


def test_renuncio_in_a_match_loses_the_hand_and_play_goes_on():
    env = tressette_v0.env(episode="match")
    env.reset(seed=0)
    offender = env.agent_selection
    with pytest.warns(tressette_v0.RenuncioWarning):
        env.step(int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0]))
    assert not any(env.terminations.values())
    team = AGENTS.index(offender) % 2
    assert env.infos[offender]["match_score"][1 - team] == 11
    assert env.game.public.hand_number == 1


def test_raise_mode_names_the_problem_and_changes_nothing():
    env = tressette_v0.env(illegal_action="raise")
    env.reset(options={"hands": fill(seat_1="3d", seat_2="Rd"), "dealer": 0})
    env.step(action("3d"))
    game, before = env.unwrapped.game, env.observe("player_2")
    with pytest.raises(IllegalActionError, match=r"player_2 took illegal action 20 \(As\); legal: \[9\]"):
        env.step(action("As"))
    assert isinstance(IllegalActionError("x"), ValueError)
    assert env.unwrapped.game is game and env.agent_selection == "player_2"
    after = env.observe("player_2")
    assert all(np.array_equal(before[k], after[k]) for k in before)


@pytest.mark.parametrize("mode", ["renuncio", "raise"])
@pytest.mark.parametrize(
    "bad, error, message",
    [
        (161, ValueError, "action 161 is out of range: action ids are 0..160"),
        (-1, ValueError, "out of range"),
        (3.0, TypeError, "an action is an integer id 0..160; got 3.0"),
        ("3", TypeError, "got '3'"),
        (True, TypeError, "got True"),
        (np.array([3]), TypeError, "an action is an integer"),
    ],
)
def test_non_actions_are_errors_in_every_mode_from_raw_env(mode, bad, error, message):
    env = tressette_v0.raw_env(illegal_action=mode)
    env.reset(seed=0)
    game, agent = env.game, env.agent_selection
    with pytest.raises(error, match=message):
        env.step(bad)
    assert env.game is game and env.agent_selection == agent


def test_numpy_integers_are_actions():
    for kind in (np.int64, np.int32, np.int8, np.uint8):
        env = tressette_v0.raw_env()
        env.reset(seed=0)
        first = legal_actions(env.game)[0]
        env.step(kind(first))
        assert env.game.public.history == (first,)
    env.reset(seed=0)
    env.step(np.array(legal_actions(env.game)[0]))
    assert len(env.game.public.history) == 1


def test_step_after_the_end(caplog):
    env = tressette_v0.raw_env()
    play_episode(env, seed=0)
    assert env.agents == []
    with pytest.raises(RuntimeError, match="step\\(\\) after the episode ended"):
        env.step(0)
    wrapped = tressette_v0.env()
    play_episode(wrapped, seed=0)
    wrapped.step(0)  # PettingZoo's wrapper logs its usual warning instead
    assert "step() called after all agents are terminated" in caplog.text


def test_a_dead_agent_only_steps_none():
    env = tressette_v0.raw_env()
    env.reset(options={"hands": SUITS_DEAL, "dealer": 3})
    while not any(env.terminations.values()):
        env.step(legal_actions(env.game)[0])
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)


def test_unknown_or_bad_rule_switches_fail_at_construction():
    with pytest.raises(TypeError, match="unknown rule switch 'signal'"):
        tressette_v0.env(signal=False)
    with pytest.raises(ValueError, match="target_score=-5"):
        tressette_v0.raw_env(target_score=-5)
    for make in (tressette_v0.raw_env, SingleSeatEnv):
        with pytest.raises(
            ValueError, match=r"render_mode='rgb' is not supported: None or one of \['ansi', 'human', 'rgb_array'\]"
        ):
            make(render_mode="rgb")


def test_sb3_make_vec_env_still_makes_the_single_seat_env():
    # make_vec_env asks for render_mode="rgb_array" (a picture of the table, drawn only when render() is called)
    # and, on a TypeError, makes the env without it.
    env_util = pytest.importorskip("stable_baselines3.common.env_util")
    venv = env_util.make_vec_env("tressette_env/Tressette-v0", n_envs=2)
    assert venv.reset().shape == (2, SIZE)
    venv.close()


def test_render_ansi_and_human(capsys):
    env = tressette_v0.env(render_mode="ansi")
    env.reset(options={"hands": fill(seat_1="3d Ac 2c", seat_2="Rd"), "dealer": 0})
    env.step(action("3d"))
    text = env.render()
    assert "player_1 3 di denari" in text and "player_2 to play" in text and "this hand: team 0: 0 · team 1: 0" in text
    human = tressette_v0.env(render_mode="human")
    human.reset(seed=0)
    human.step(legal_actions(human.unwrapped.game)[0])
    assert "to play" in capsys.readouterr().out
    quiet = tressette_v0.env()
    quiet.reset(seed=0)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert quiet.render() is None


def test_env_pickles_and_rebuilds_with_its_rules():
    env = tressette_v0.raw_env(episode="match", target_score=31, signals=False)
    clone = pickle.loads(pickle.dumps(env))
    assert clone.rules == env.rules


def test_players_plug_into_the_aec_loop_through_view():
    import random

    from tressette_env.agents import RandomPlayer

    env = tressette_v0.env()
    env.reset(seed=0)
    player, rng = RandomPlayer(), random.Random(0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        seat_view = env.unwrapped.view(agent)
        assert seat_view.seat == AGENTS.index(agent)
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        env.step(player.act(seat_view, legal, rng))
    assert "hand_score" in info
