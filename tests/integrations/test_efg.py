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


def test_four_players_write_and_solve():
    game = pyspiel.load_game("python_tressette_mini", {"players": 4, "suits": 1, "ranks": 4})  # one card each
    tree = efg.write(game)
    assert tree.players == 4 and tree.load().num_players() == 4
    uniform = pyspiel.nash_conv(tree.load(), tree.policy(efg.uniform))
    assert uniform == pytest.approx(0.0)  # one card each: nothing to choose


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
