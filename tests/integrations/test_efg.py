"""``integrations.efg``: a Python OpenSpiel game written out as EFG is the same game for OpenSpiel's solvers."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as python_policy  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

import tressette_env.games.mini  # noqa: E402, F401 - registers tressette_mini
from tressette_env.engine.actions import action_to_string  # noqa: E402
from tressette_env.integrations import efg, openspiel  # noqa: E402

openspiel.register_all()


def small(**rules):
    return pyspiel.load_game("python_tressette_mini", {"ranks": 3, **rules})  # 6 cards, 3 each


def test_uniform_nashconv_is_the_same_on_the_python_game_and_on_its_efg():
    game = small()
    tree = efg.write(game)
    on_efg = pyspiel.nash_conv(tree.load(), tree.policy(efg.uniform))
    on_python = exploitability.nash_conv(game, python_policy.UniformRandomPolicy(game))
    assert on_efg == pytest.approx(on_python, abs=1e-9) and on_efg > 0.5


def test_cfr_plus_iterates_alike_on_the_python_game_and_on_its_efg():
    game = small()
    tree = efg.write(game)
    solved = tree.load()
    ours, theirs = pyspiel.CFRPlusSolver(solved), cfr.CFRPlusSolver(game)
    for _ in range(3):
        ours.evaluate_and_update_policy()
        theirs.evaluate_and_update_policy()
    a = pyspiel.nash_conv(solved, ours.average_policy())
    b = exploitability.nash_conv(game, theirs.average_policy())
    assert a == pytest.approx(b, abs=1e-9)
    averages = theirs.average_policy()
    for (player, number), state in tree.states.items():  # the same average policy at every information set
        cpp = dict(ours.average_policy().get_state_policy(tree.key(player, number)))
        python = averages.action_probabilities(state, player)
        carried = {tree.action_ids[state.action_to_string(player, a)]: p for a, p in python.items()}
        assert cpp == pytest.approx(carried, abs=1e-9)


def test_the_heuristics_nashconv_is_the_same_on_the_python_game_and_on_its_efg():
    """A policy that is not uniform carries across by action name: the two NashConvs agree."""
    game = small(out=2)  # 6 cards, 2 each, 2 out of play: hidden cards
    tree = efg.write(game)
    heuristic = efg.player_policy("heuristic")
    on_efg = pyspiel.nash_conv(tree.load(), tree.policy(heuristic))

    def callable_policy(state):
        return heuristic(state, state.current_player())

    on_python = exploitability.nash_conv(game, python_policy.tabular_policy_from_callable(game, callable_policy))
    assert on_efg == pytest.approx(on_python, abs=1e-9) and on_efg > 0.1


def test_four_players_expected_returns_are_the_python_games():
    """Four players, one card each: the EFG's chance probabilities and payoffs give the Python game's values."""
    from open_spiel.python.algorithms import expected_game_score

    game = pyspiel.load_game("python_tressette_mini", {"players": 4, "suits": 2, "ranks": 3, "out": 2})
    tree = efg.write(game)
    solved = tree.load()
    assert tree.players == 4 and solved.num_players() == 4
    uniform = python_policy.UniformRandomPolicy(game)
    ours = expected_game_score.policy_value(game.new_initial_state(), [uniform] * 4)
    theirs = pyspiel.expected_returns(solved.new_initial_state(), tree.policy(efg.uniform), -1, True)
    assert ours == pytest.approx(theirs, abs=1e-9) and abs(ours[0]) > 0.01 and ours[0] == pytest.approx(ours[2])


def test_a_players_policy_is_its_choice_at_each_information_set():
    game = small()
    tree = efg.write(game)
    heuristic = efg.player_policy("heuristic")
    table = tree.policy(heuristic)
    solved = tree.load()
    state = solved.new_initial_state()
    state.apply_action(state.legal_actions()[5])
    seen = 0
    while not state.is_terminal():
        player = state.current_player()
        key = state.information_state_string(player)
        number = int(key.split("-")[2])
        ours = tree.states[(player, number)]
        (chosen,) = heuristic(ours, player)
        probabilities = dict(table.get_state_policy(key))
        best = max(probabilities, key=probabilities.get)
        assert state.action_to_string(player, best) == action_to_string(chosen) and probabilities[best] == 1.0
        state.apply_action(best)
        seen += 1
    assert seen == 6


def test_a_policy_that_chooses_an_illegal_action_is_refused():
    tree = efg.write(small())
    with pytest.raises(ValueError, match="not legal here"):
        tree.policy(lambda state, player: {999: 1.0})


def test_a_tree_too_large_is_refused_before_it_is_written():
    with pytest.raises(ValueError, match="more than 100 nodes"):
        efg.write(small(), max_nodes=100)
    with pytest.raises(ValueError, match="sequential game with terminal rewards"):
        efg.write(pyspiel.load_game("matrix_rps"))


def test_probabilities_are_asked_of_learned_policies_only():
    with pytest.raises(ValueError, match="gives no probabilities"):
        efg.player_policy("heuristic", probabilities=True)
