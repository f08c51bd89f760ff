"""The engine's functions refuse what is not a game value, with an error that says what is allowed."""

import numpy as np
import pytest

from tressette_env.engine import GameState, Rules, apply, new_game, view


def test_a_bool_is_not_an_action():
    state = new_game(seed=0)
    for flag in (True, False, np.bool_(True)):
        with pytest.raises(TypeError, match="an action is an integer id 0..160"):
            apply(state, flag)


@pytest.mark.parametrize("seat", [-1, 4, 5, 1.0, True, "0", None])
def test_view_takes_a_seat_0_to_3(seat):
    with pytest.raises(ValueError, match="seat must be a seat 0..3"):
        view(new_game(seed=0), seat)


def test_view_takes_numpy_seats():
    state = new_game(seed=0)
    assert view(state, np.int64(2)) == view(state, 2)


@pytest.mark.parametrize("rules", ["x", {"accusi": False}, 3])
def test_new_game_takes_rules_or_none(rules):
    with pytest.raises(TypeError, match="rules must be a game.s rules record"):
        new_game(rules)


@pytest.mark.parametrize("seed", ["x", 1.5, True, [1]])
def test_new_game_takes_an_int_seed_a_random_or_none(seed):
    with pytest.raises(TypeError, match="seed must be an int, None or a random.Random"):
        new_game(Rules(), seed)


def test_numpy_ints_are_rule_values():
    rules = Rules(episode="match", target_score=np.int64(31), cappotto_bonus=np.int32(11))
    assert rules == Rules(episode="match", target_score=31, cappotto_bonus=11)
    assert type(rules.target_score) is int and type(rules.cappotto_bonus) is int
    assert isinstance(new_game(rules, seed=0), GameState)
    with pytest.raises(ValueError, match="target_score=np.float64"):
        Rules(target_score=np.float64(31))


def test_numpy_ints_are_int_choices_too():
    """A switch that takes some ints (Calabresella's players, a perdere's asso di bastoni) takes NumPy ints as those."""
    from tressette_env.games.a_perdere import APerdereRules
    from tressette_env.games.calabresella import CalabresellaRules

    rules = CalabresellaRules(players=np.int64(4))
    assert rules == CalabresellaRules(players=4) and type(rules.players) is int
    assert type(APerdereRules(asso_bastoni_value=np.int32(11)).asso_bastoni_value) is int
    for bad in (np.int64(5), np.float64(4), np.bool_(True)):
        with pytest.raises(ValueError, match="players=.*must be one of 3, 4"):
            CalabresellaRules(players=bad)
