"""The catalog is the one home of a game: a toy game from the test tree plays everywhere through its entry alone.

``tests/games/toy.py`` defines Due a cinque (two players, five tricks) and registers it; no
file of ``tressette_env`` names it. It must pass PettingZoo's API tests (AEC and parallel),
Gymnasium's checker as a one-learner environment, and play in the duplicate evaluation with
the random player and the heuristic (the generic one: the game has no heuristic of its own).
"""

from __future__ import annotations

import ast
import pickle
import warnings
from pathlib import Path

import gymnasium
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

from tressette_env import catalog
from tressette_env.agents import HeuristicPlayer, RandomPlayer
from tressette_env.agents.generic import GenericHeuristic
from tressette_env.encoders.family import observation_of
from tressette_env.evaluation.duplicate import duplicate
from tressette_env.learned.mlp import family_shapes

from . import toy

PACKAGE = Path(__file__).resolve().parents[2] / "tressette_env"


def test_the_toy_is_in_the_catalog_and_nothing_in_the_package_names_it():
    assert "due_a_cinque" in catalog.names()
    assert catalog.entry("due_a_cinque") is toy.ENTRY
    named = [p for p in PACKAGE.rglob("*.py") if "due_a_cinque" in p.read_text() or "DueACinque" in p.read_text()]
    assert named == []


def test_the_aec_environment_passes_pettingzoos_api_test():
    env = toy.ENTRY.env_functions().env()
    api_test(env, num_cycles=200)
    if hasattr(pettingzoo, "make"):  # pettingzoo 1.27 and later: its registry has the toy's id
        env = pettingzoo.make("aec", toy.ENTRY.pettingzoo_id)
        env.reset(seed=1)
        assert env.agents == ["player_0", "player_1"]


def test_the_parallel_environment_passes_pettingzoos_parallel_api_test():
    parallel_api_test(toy.ENTRY.env_functions().parallel_env(), num_cycles=200)
    if hasattr(pettingzoo, "make"):
        parallel_api_test(pettingzoo.make("parallel", toy.ENTRY.pettingzoo_id), num_cycles=50)


def test_the_one_learner_gymnasium_environment_passes_gymnasiums_checker():
    env = gymnasium.make(toy.ENTRY.gym_id)
    with warnings.catch_warnings():  # the checker's random actions are renuncios
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (observation_of(toy.ToyRules()).size,)
    done, steps = False, 0
    while not done:
        mask = env.unwrapped.action_masks()
        obs, reward, terminated, truncated, _ = env.step(int(mask.nonzero()[0][0]))
        done, steps = terminated or truncated, steps + 1
    assert steps == toy.TRICKS  # the learner plays one card a trick


def test_its_environment_pickles_where_it_is_registered():
    env = toy.ENTRY.env_functions().raw_env(episode="match")
    again = pickle.loads(pickle.dumps(env))
    assert type(again) is type(env) and again.rules == env.rules


def test_a_switch_of_another_game_is_refused_naming_its_own():
    with pytest.raises(TypeError, match="target_score"):
        toy.ENTRY.env_functions().env(players=3)


def test_it_plays_in_the_duplicate_evaluation_with_the_random_player_and_the_generic_heuristic():
    assert isinstance(catalog.entry("due_a_cinque").heuristic_player(), GenericHeuristic)
    result = duplicate(
        HeuristicPlayer(), RandomPlayer(), boards=300, seed=0, rules=toy.ToyRules(), workers=1, progress=False
    )
    assert result.boards == 300
    lo, hi = result.ci95
    assert lo > 0, (
        f"the generic heuristic should beat random play at five tricks: {result.mean_points_diff} ({lo}, {hi})"
    )
    matches = duplicate(
        RandomPlayer(),
        HeuristicPlayer(),
        boards=4,
        seed=1,
        rules=toy.ToyRules(episode="match"),
        workers=1,
        progress=False,
    )
    assert matches.boards == 4


def test_the_learned_policy_shapes_name_it():
    size = observation_of(toy.ToyRules()).size
    assert family_shapes()[(size, 255)] == "due_a_cinque"


def test_the_catalog_refuses_a_second_game_of_one_name_or_id():
    with pytest.raises(ValueError, match="already"):
        catalog.register(catalog.Entry(**{**toy.ENTRY.__dict__, "title": "Another", "_cache": {}}))
    clash = {**toy.ENTRY.__dict__, "name": "due_a_sei", "_cache": {}}
    with pytest.raises(ValueError, match="DueACinque-v0"):
        catalog.register(catalog.Entry(**clash))
    assert "due_a_sei" not in catalog.names()
    with pytest.raises(ValueError, match="unknown game 'poker'; the games are: tressette, "):
        catalog.entry("poker")


# ---------------------------------------------------------------------- no package file names a family game

FAMILY = {
    "tressette_in_due": "in_due",
    "tressette_col_morto": "col_morto",
    "tressette_a_perdere": "a_perdere",
    "calabresella": "calabresella",
    "tressette_a_chiamare": "a_chiamare",
}


def _code_strings(path: Path) -> set[str]:
    """The string constants of a module's code (its docstrings left out) and the modules it imports."""
    tree = ast.parse(path.read_text())
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
        # An attribute's docstring: a string statement after an assignment.
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for stmt in body:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    docstrings.add(id(stmt.value))
    strings = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    }
    for node in ast.walk(tree):  # the modules it imports, as dotted names (``games.calabresella.``)
        if isinstance(node, ast.ImportFrom) and node.module:
            strings.add(node.module + ".")
        elif isinstance(node, ast.Import):
            strings.update(alias.name + "." for alias in node.names)
    return strings


def test_outside_its_own_files_and_the_catalog_no_package_code_names_a_family_game():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "catalog.py":
            continue
        strings = _code_strings(path)
        for game, short in FAMILY.items():
            if short in path.stem:
                continue  # the game's own files: games/<game>.py, encoders/<game>.py, <game>_heuristic.py, ...
            hits = [s for s in strings if game in s.split() or s == game or f"{game}." in s or f"{short}." in s]
            if hits:
                offenders.append(f"{path.relative_to(PACKAGE)}: {game} in {hits[:2]}")
    assert offenders == []
