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
        # a perdere's elimination: a player just put out sees nothing before its dead step
        warnings.filterwarnings("ignore", message="Observation numpy array is all zeros")
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


@pytest.mark.parametrize("game", ["tressette_in_due", "tressette_col_morto", "tressette_a_perdere"])
def test_the_gymnasium_ids_make_the_single_agent_env(game):
    spec = game_spec(game)
    assert spec.gym_id == tressette_env.GAMES[game][0]
    env = gym.make(spec.gym_id, others="random")
    obs, _ = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape and env.unwrapped.action_masks().any()
    # others=None is the default (the heuristic), as for the four-seat id; a value that is no player is named.
    assert [p.name for p in gym.make(spec.gym_id, others=None).unwrapped.others] == ["heuristic"] * len(
        env.unwrapped.others
    )
    with pytest.raises(TypeError, match="others: a player is a name .*; got 5"):
        gym.make(spec.gym_id, others=5)
    pettingzoo = pytest.importorskip("pettingzoo")
    if hasattr(pettingzoo, "make"):
        assert pettingzoo.make("aec", spec.pettingzoo_id).metadata["name"] == spec.env_name


def check_hand_totals(r, p) -> None:
    """Every card is played once (but a perdere's removed and face-down ones); the hand's thirds and points add up."""
    result = p.result
    if result.renuncio is not None or result.called_out is not None:
        return
    if r.game.name in ("calabresella", "tressette_a_chiamare"):
        extra = p.table.extra
        assert sum(extra.stakes) == 0
        if extra.contract:  # every card played or face down; the hand's 35 thirds
            assert p.all_played.bit_count() == p.table.seats * p.table.tricks
            assert sum(result.card_thirds) == 35
        else:  # every player passed: a void hand
            assert p.all_played == 0 and set(extra.stakes) == {0}
        return
    if r.game.name == "tressette_a_perdere":
        extra = p.table.extra
        assert (p.all_played | extra.removed).bit_count() == 40 - extra.set_aside
        assert not p.all_played & extra.removed
        v = r.asso_bastoni_value
        assert sum(result.card_thirds) == 35 + (3 * (v - 1) if not extra.removed >> 30 & 1 else 0)
        plain = result.cappotto is None and r.zero_point_charge is None and r.last_trick == "remainder"
        if plain:
            assert sum(result.points) == r.total
        elif result.cappotto is not None and r.objective == "avoid":
            assert sorted(set(result.points)) == [0, r.total]
        return
    assert p.all_played == (1 << 40) - 1
    assert sum(result.card_thirds) == 35
    if not any(result.accusi) and (result.cappotto is None or not r.cappotto_bonus):
        assert sum(result.points) == 11


def check_rewards(p, returns) -> None:
    """Each side's players get the same and two sides' rewards are opposite (a hand); a match's rewards add up to 0.

    A perdere for individual players: a hand's rewards are minus the charges (plus the points
    with ``objective="take"``).
    """
    rules = p.rules
    table = p.table
    if rules.game.lineup(rules) == "field" and rules.game.sides(rules) == 2:  # stakes: zero-sum
        assert abs(sum(returns)) < 1e-9
        return
    individual = rules.game.sides(rules) > 2
    if individual and rules.episode == "hand":
        sign = rules.game.points_sign(rules)
        assert sorted(returns) == sorted(sign * x for x in p.result.points)
        return
    by_side = [[returns[a] for a in range(len(table.seat_of)) if table.sides[table.seat_of[a]] == s] for s in (0, 1)]
    if rules.episode == "hand":
        assert len({*by_side[0]}) == 1 and len({*by_side[1]}) == 1
        assert by_side[0][0] == -by_side[1][0]
    else:
        assert abs(sum(returns)) < 1e-9


@pytest.mark.parametrize("game, rules", CASES, ids=IDS)
def test_invariants_of_random_play(game, rules):
    """Every card is played once a hand; the hand's points add up; the rewards are as the game's returns say."""
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
            check_hand_totals(r, p)
            if p.status != HAND_OVER:
                break
            state = next_hand(state, rng)
        check_rewards(p, p.rules.game.returns(p))


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
        ("tressette_in_due", {"deal": "packets", "accusi": "dealt"}, "accusi='dealt' has no effect"),
        ("tressette_in_due", {"pizzichi_pickup": True}, 'it needs deal="packets"'),
        ("tressette_in_due", {"calling_out": True}, 'needs episode="match"'),
        ("tressette_in_due", {"calling_out": True, "episode": "match", "objective": "avoid"}, 'needs objective="take"'),
        ("tressette_in_due", {"target_score": 0}, "target_score=0: must be an int 1..10000"),
        ("tressette_col_morto", {"players": 4}, "players=4: must be one of 3, 2"),
        ("tressette_col_morto", {"players": 2, "dummy_holder": "fixed"}, "no effect with players=2"),
        ("tressette_col_morto", {"dummy_exposed": "later"}, "dummy_exposed='later'"),
        ("tressette_a_perdere", {"players": 2}, "players=2: must be an int 3..8"),
        ("tressette_a_perdere", {"players": 9}, "players=9: must be an int 3..8"),
        ("tressette_a_perdere", {"teams": True, "players": 5}, "teams=True needs players=4"),
        ("tressette_a_perdere", {"asso_bastoni_value": 5}, "asso_bastoni_value=5: must be one of 1, 11, 18"),
        (
            "tressette_a_perdere",
            {"reduce": "burn"},
            "reduce='burn': must be one of 'remove', 'dealer_discard', 'monte'",
        ),
    ],
)
def test_bad_switches_are_named(game, switches, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        MODULES[game].env(**switches)


@pytest.mark.parametrize("game", ["tressette_in_due", "tressette_col_morto", "tressette_a_perdere"])
def test_an_unknown_switch_lists_the_switches(game):
    with pytest.raises(
        TypeError, match=r"unknown rule switch 'singals'( \(did you mean 'signals'\?\))?; the switches are: "
    ):
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
