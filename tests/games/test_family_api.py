"""Every game of the family passes PettingZoo's and Gymnasium's tests, under several rule sets.

A game is tested here the moment it is listed in ``tests/games/family.py``.
"""

import random
import warnings

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import tressette_env
from tressette_env.engine import HAND_OVER, PLAYING, apply, legal_actions, new_game, next_hand
from tressette_env.envs.spec import game_spec
from tressette_env.wrappers.single_agent import SingleAgentEnv

from .family import CASES, IDS, MODULES


@pytest.fixture(autouse=True)
def quiet_api_test_advice():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        yield


@pytest.mark.parametrize("game, rules", CASES, ids=IDS)
def test_pettingzoo_api_seed_and_render(game, rules):
    module = MODULES[game]
    api_test(module.env(**rules), num_cycles=200)
    seed_test(lambda: module.env(**rules), num_cycles=200)
    render_test(lambda render_mode: module.env(render_mode=render_mode, **rules))


@pytest.mark.parametrize("game, rules", CASES, ids=IDS)
def test_the_gymnasium_and_sb3_checkers_pass(game, rules):
    from gymnasium.utils.env_checker import check_env

    env = SingleAgentEnv(game, others="random", **rules)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unmasked random actions are renuncios, as the rules say
        check_env(env, skip_render_check=True)
        sb3 = pytest.importorskip("stable_baselines3.common.env_checker")
        sb3.check_env(SingleAgentEnv(game, others="random", **rules), warn=False)


@pytest.mark.parametrize("game", ["tressette_in_due", "tressette_col_morto"])
def test_the_gymnasium_ids_make_the_single_agent_env(game):
    spec = game_spec(game)
    assert spec.gym_id == tressette_env.GAMES[game][0]
    env = gym.make(spec.gym_id, others="random")
    obs, _ = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape and env.unwrapped.action_masks().any()
    pettingzoo = pytest.importorskip("pettingzoo")
    if hasattr(pettingzoo, "make"):
        assert pettingzoo.make("aec", spec.pettingzoo_id).metadata["name"] == spec.env_name


@pytest.mark.parametrize("game, rules", CASES, ids=IDS)
def test_invariants_of_random_play(game, rules):
    """Every card is played once a hand; without declarations the hand is worth 11; side rewards are zero-sum."""
    make = game_spec(game).make_rules
    r = make(**rules)
    rng = random.Random(0)
    for seed in range(25):
        state = new_game(r, seed)
        while True:
            while state.public.status == PLAYING:
                legal = legal_actions(state)
                assert legal
                state = apply(state, legal[rng.randrange(len(legal))])
            p = state.public
            result = p.result
            if result.renuncio is None and result.called_out is None:
                assert p.all_played == (1 << 40) - 1
                assert sum(result.card_thirds) == 35
                if not any(result.accusi) and (result.cappotto is None or not r.cappotto_bonus):
                    assert sum(result.points) == 11
            if p.status != HAND_OVER:
                break
            state = next_hand(state, rng)
        returns = p.rules.game.returns(p)
        table = p.table
        by_side = [
            [returns[a] for a in range(len(table.seat_of)) if table.sides[table.seat_of[a]] == s] for s in (0, 1)
        ]
        if p.rules.episode == "hand":  # each side's players get the same, and the sides' rewards are opposite
            assert len({*by_side[0]}) == 1 and len({*by_side[1]}) == 1
            assert by_side[0][0] == -by_side[1][0]
        else:
            assert abs(sum(returns)) < 1e-9


@pytest.mark.parametrize("game, rules", CASES, ids=IDS)
def test_observations_fit_their_space_and_masks_the_legal_actions(game, rules):
    env = MODULES[game].raw_env(**rules)
    env.reset(seed=3)
    for agent in env.agent_iter(400):
        obs, _, term, trunc, _ = env.last()
        assert env.observation_space(agent).contains(obs)
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.tolist() == legal_actions(env.game)
        env.step(int(legal[0]))


@pytest.mark.parametrize(
    "game, switches, message",
    [
        ("tressette_in_due", {"deal": "heap"}, "deal='heap': must be one of 'stock', 'packets'"),
        ("tressette_in_due", {"show_drawn": 1}, "show_drawn=1: must be True or False"),
        ("tressette_in_due", {"deal": "packets", "accusi": "dealt"}, "accusi='dealt' is for deal=\"stock\""),
        ("tressette_in_due", {"pizzichi_pickup": True}, 'is for deal="packets"'),
        ("tressette_in_due", {"calling_out": True}, 'needs episode="match"'),
        ("tressette_in_due", {"calling_out": True, "episode": "match", "objective": "avoid"}, 'needs objective="take"'),
        ("tressette_in_due", {"target_score": 0}, "target_score=0: must be an int >= 1"),
        ("tressette_col_morto", {"players": 4}, "players=4: must be one of 3, 2"),
        ("tressette_col_morto", {"players": 2, "dummy_holder": "fixed"}, "is for players=3"),
        ("tressette_col_morto", {"dummy_exposed": "later"}, "dummy_exposed='later'"),
    ],
)
def test_bad_switches_are_named(game, switches, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        MODULES[game].env(**switches)


@pytest.mark.parametrize("game", ["tressette_in_due", "tressette_col_morto"])
def test_an_unknown_switch_lists_the_switches(game):
    with pytest.raises(TypeError, match="unknown rule switch 'singals'; the switches are: "):
        MODULES[game].env(singals=False)


@pytest.mark.parametrize(
    "game, rules",
    [c for c in CASES if c[0] != "tressette"],
    ids=[i for c, i in zip(CASES, IDS, strict=True) if c[0] != "tressette"],
)
def test_pettingzoo_state(game, rules):
    from pettingzoo.test.state_test import test_state as state_test

    env = MODULES[game].env(**rules)
    env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unmasked random actions are renuncios, as the rules say
        state_test(env, num_cycles=100)
