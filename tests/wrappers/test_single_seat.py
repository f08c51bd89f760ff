"""The single-seat Gymnasium environment: checkers, masks, the team's reward, bad input."""

import random
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tressette_env
from tests.helpers import SUITS_DEAL, action, fill
from tressette_env import tressette_v0
from tressette_env.agents import HeuristicPlayer, RandomPlayer
from tressette_env.engine import PLAYING, IllegalActionError, legal_actions
from tressette_env.wrappers import SingleSeatEnv


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.mark.parametrize("rules", [{}, {"episode": "match", "target_score": 11}, {"signals": False, "accusi": False}])
def test_gymnasium_env_checker(rules):
    quiet(check_env, SingleSeatEnv(opponents="random", **rules))


def test_sb3_env_checker():
    sb3 = pytest.importorskip("stable_baselines3.common.env_checker")
    quiet(sb3.check_env, SingleSeatEnv(), warn=False)


def test_registered_with_gymnasium_and_pettingzoo():
    env = gym.make(tressette_env.GYMNASIUM_ID, seat=2, opponents="random")
    obs, info = env.reset(seed=0)
    assert obs.shape == (790,) and env.unwrapped.seat == 2
    pettingzoo = pytest.importorskip("pettingzoo")
    if hasattr(pettingzoo, "make"):
        aec = pettingzoo.make("aec", tressette_env.PETTINGZOO_ID)
        aec.reset(seed=0)
        assert aec.agents == list(tressette_v0.AGENTS)


def test_the_reward_is_the_team_s_partner_plays_included():
    # SUITS_DEAL: seat 0 leads every trick and takes them all (nobody can follow).
    for seat, expected in ((0, 11.0), (2, 11.0), (1, -11.0), (3, -11.0)):
        env = SingleSeatEnv(seat=seat, partner="random", opponents="random", accusi=False)
        env.reset(seed=0, options={"hands": SUITS_DEAL, "dealer": 3})
        total, terminated, steps = 0.0, False, 0
        while not terminated:
            legal = np.flatnonzero(env.action_masks())
            _, reward, terminated, truncated, info = env.step(int(legal[0]))
            total += reward
            steps += 1
            assert not truncated
        assert total == expected and steps == 10  # one card per trick from the learner
        assert info["hand_score"] == [11, 0]


def test_observation_is_the_aec_one_for_the_learner_seat():
    seat = 1
    env = SingleSeatEnv(seat=seat, partner=HeuristicPlayer(), opponents=RandomPlayer())
    obs, _ = env.reset(seed=4)
    aec = tressette_v0.raw_env()
    aec.reset(
        options={
            "hands": [[c for c in range(40) if h >> c & 1] for h in env.game.dealt],
            "dealer": env.game.public.dealer,
        }
    )
    for played in env.game.public.history:  # replay what the others played before the learner's turn
        aec.step(played)
    assert aec.agent_selection == "player_1"
    aec_obs = aec.observe("player_1")
    assert np.array_equal(obs, aec_obs["observation"])
    assert np.array_equal(env.action_masks(), aec_obs["action_mask"].astype(bool))


def test_same_seed_same_actions_same_episode():
    def run():
        env = SingleSeatEnv(episode="match", target_score=11)
        obs, _ = env.reset(seed=21)
        rng = random.Random(0)
        trace = [obs.tobytes()]
        terminated = False
        while not terminated:
            obs, reward, terminated, _, info = env.step(rng.choice(np.flatnonzero(env.action_masks()).tolist()))
            trace.append((obs.tobytes(), reward, sorted(info.items(), key=str)))
        return trace

    assert run() == run()


def test_match_reward_is_plus_or_minus_one_at_the_end():
    env = SingleSeatEnv(seat=0, episode="match", target_score=11, partner="random", opponents="random")
    env.reset(seed=3)
    rewards, hands = [], set()
    terminated = False
    while not terminated:
        _, reward, terminated, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        rewards.append(reward)
        hands.update([info["hand"]] if "hand" in info else [])
    assert rewards[-1] in (1.0, -1.0) and not any(rewards[:-1])
    assert len(hands) >= 1 and info["match_score"][0 if rewards[-1] > 0 else 1] >= 11


def test_illegal_action_is_a_renuncio_or_an_error():
    env = SingleSeatEnv(seat=2, partner="random", opponents="random")
    env.reset(options={"hands": fill(seat_1="3d", seat_2="Rd"), "dealer": 0})
    # Seat 1 led; the learner (seat 2) must follow with the re di denari.
    with pytest.warns(tressette_v0.RenuncioWarning, match="player_2 took illegal action"):
        _, reward, terminated, _, info = env.step(action("As"))
    assert terminated and reward == -11.0 and info["renuncio"]["agent"] == "player_2"
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="after the episode ended"):
        env.step(0)

    strict = SingleSeatEnv(seat=2, partner="random", opponents="random", illegal_action="raise")
    strict.reset(options={"hands": fill(seat_1="3d", seat_2="Rd"), "dealer": 0})
    game = strict.game
    with pytest.raises(IllegalActionError, match=r"player_2 took illegal action 20 \(As\)"):
        strict.step(action("As"))
    assert strict.game is game


@pytest.mark.parametrize("bad, error", [(3.5, TypeError), ("x", TypeError), (161, ValueError), (-2, ValueError)])
def test_non_actions_are_errors_and_change_nothing(bad, error):
    env = SingleSeatEnv()
    env.reset(seed=0)
    game = env.game
    with pytest.raises(error):
        env.step(bad)
    assert env.game is game


def test_bad_construction_and_options():
    with pytest.raises(ValueError, match="seat must be a seat 0..3"):
        SingleSeatEnv(seat=5)
    with pytest.raises(ValueError, match="unknown player 'chess'"):
        SingleSeatEnv(partner="chess")
    with pytest.raises(TypeError, match="unknown keyword 'trumps': SingleSeatEnv takes seat, partner, opponents"):
        SingleSeatEnv(trumps=True)
    with pytest.raises(TypeError, match=r"unknown keyword 'oponents' \(did you mean 'opponents'\?\)"):
        SingleSeatEnv(oponents="random")  # make_rules alone listed only the switches
    env = SingleSeatEnv()
    env.reset(seed=0)
    game, state = env.game, env.np_random.bit_generator.state
    with pytest.raises(ValueError, match="dealt twice"):
        env.reset(seed=1, options={"hands": [[0] * 10] * 4})
    with pytest.raises(ValueError, match="seat must be a seat"):
        env.reset(seed=1, options={"seat": 7})
    with pytest.raises(TypeError, match="reset options are a dict"):
        env.reset(seed=1, options=[("seat", 1)])
    assert env.game is game and env.np_random.bit_generator.state == state


def test_others_names_every_other_seat_as_the_family_environments_take_it():
    # gym.make(id, others="random") works for every game of the catalog, the four-seat one too.
    env = gym.make(tressette_env.GYMNASIUM_ID, seat=1, others="random").unwrapped
    assert all(isinstance(p, RandomPlayer) for p in (env.partner, *env.opponents))
    three = SingleSeatEnv(seat=0, others=[RandomPlayer(), HeuristicPlayer(), "random"])
    assert isinstance(three.partner, HeuristicPlayer)  # turn order from the seat after the learner
    assert [type(p) for p in three.opponents] == [RandomPlayer, RandomPlayer]
    assert [type(p) for p in three.others] == [RandomPlayer, HeuristicPlayer, RandomPlayer]
    with pytest.raises(ValueError, match="not both"):
        SingleSeatEnv(others="random", partner="random")
    with pytest.raises(ValueError, match="one player or 3 "):
        SingleSeatEnv(others=["random", "random"])
    assert isinstance(SingleSeatEnv().partner, HeuristicPlayer)  # the default: the heuristic everywhere


def test_players_can_be_swapped_between_episodes():
    env = SingleSeatEnv(seat=0, partner="random", opponents="random")
    env.set_players(HeuristicPlayer(), [HeuristicPlayer(), RandomPlayer()])
    assert isinstance(env.partner, HeuristicPlayer) and isinstance(env.opponents[1], RandomPlayer)
    with pytest.raises(ValueError, match="opponents is one player or 2 "):
        env.set_players("random", ["random"] * 3)
    for keywords, words in [({"opponents": 5}, "opponents: a player is a name"), ({"partner": 3}, "partner: a player"),
                            ({"others": 5}, "others: a player is a name")]:  # fmt: skip
        with pytest.raises(TypeError, match=words):  # (they were a bare "object of type 'int' has no len()")
            SingleSeatEnv(**keywords)


def test_render_ansi():
    env = SingleSeatEnv(seat=3, render_mode="ansi")
    env.reset(seed=0)
    assert "learner: player_3" in env.render()
    assert legal_actions(env.game)


def test_dense_reward_adds_up_to_the_hand_result():
    for seed in range(20):
        totals = []
        for dense in (False, True):
            env = SingleSeatEnv(seat=seed % 4, dense_reward=dense)
            env.reset(seed=seed)
            rng = random.Random(seed)
            total, rewards, terminated = 0.0, [], False
            while not terminated:
                _, reward, terminated, _, info = env.step(rng.choice(np.flatnonzero(env.action_masks()).tolist()))
                rewards.append(reward)
                total += reward
            totals.append((total, info["hand_score"]))
            if dense:
                assert any(rewards[:-1])  # thirds were paid along the way
        assert totals[0][1] == totals[1][1]  # the same hand was played
        assert totals[1][0] == pytest.approx(totals[0][0])


def test_dense_reward_is_for_single_hands():
    with pytest.raises(ValueError, match='dense_reward=True needs episode="hand"'):
        SingleSeatEnv(dense_reward=True, episode="match")


SWITCH_SETS = [
    {},
    {"episode": "match", "calling_out": True},
    {"episode": "match", "calling_out": True, "target_score": 1, "signals": False},
    {"accusi": False, "signals": False},
    {"first_lead": "four_of_denari", "episode": "match", "target_score": 11},
    {"striscio": "no_honours", "cappotto_bonus": 11},
    {"illegal_action": "raise"},
]


@pytest.mark.parametrize("switches", SWITCH_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default")
def test_reset_always_hands_back_a_position_where_the_learner_acts(switches):
    # With calling_out a random seat may claim before the learner's first action (seed 102 did):
    # reset deals again rather than hand back a finished game.
    env = SingleSeatEnv(seat=0, partner="random", opponents="random", **switches)
    for seed in range(300):
        obs, _ = env.reset(seed=seed)
        assert env.game.public.status == PLAYING and env.game.public.turn == 0, seed
        legal = np.flatnonzero(env.action_masks())
        assert len(legal)
        env.step(int(legal[0]))


def test_a_policy_that_ignores_the_mask_is_warned_once():
    from tressette_env.envs.playing import UNMASKED_HANDS, UnmaskedPolicyWarning

    env = gym.make(tressette_env.GYMNASIUM_ID, opponents="random", partner="random").unwrapped
    env.reset(seed=0)
    caught = []

    def hands(count, action):
        for _ in range(count):
            with warnings.catch_warnings(record=True) as got:
                warnings.simplefilter("always")
                terminated = False
                while not terminated:
                    step = action if action is not None else int(np.flatnonzero(env.action_masks())[0])
                    _, _, terminated, _, _ = env.step(step)
            caught.extend(w for w in got if issubclass(w.category, UnmaskedPolicyWarning))
            env.reset()

    # 160 (calling out) is never legal without calling_out=True: every hand is a renuncio.
    hands(UNMASKED_HANDS - 1, 160)
    hands(1, None)  # a hand played legally: the count starts again
    hands(UNMASKED_HANDS - 1, 160)
    assert caught == []
    hands(1, 160)
    assert len(caught) == 1 and "illegal in 10 hands in a row" in str(caught[0].message)
    assert "MaskablePPO" in str(caught[0].message)
    hands(2 * UNMASKED_HANDS, 160)
    assert len(caught) == 1  # once per environment


def test_the_other_games_agent_keyword_is_named_as_the_four_seat_games_seat():
    """``gym.make(..., agent=9)`` said ``__init__() got multiple values for argument 'agent'``."""
    for make in (lambda: SingleSeatEnv(agent=1), lambda: gym.make("tressette_env/Tressette-v0", agent=9)):
        with pytest.raises(TypeError, match="names the learner's seat seat=0..3 or 'random'"):
            make()
