"""The player ``ppo`` plays each game's own shipped model (``Entry.model``), and names the games that have one."""

import random

import numpy as np
import pytest

from tests.helpers import without_model
from tressette_env import catalog
from tressette_env.agents import make_player
from tressette_env.engine import legal_actions, new_game, view
from tressette_env.learned import MLPPlayer
from tressette_env.learned.loading import shipped_model_path

SHIPPED = [e for e in catalog.entries() if e.model is not None]


@pytest.mark.parametrize("entry", SHIPPED, ids=lambda e: e.name)
def test_ppo_plays_the_model_shipped_for_the_game(entry):
    path = shipped_model_path(entry.name)
    assert path.exists() and path.name == entry.model
    ppo, own = make_player("ppo"), MLPPlayer(path)
    rules = entry.make_rules()
    ppo.check_game(rules)
    rng = random.Random(0)
    for seed in range(5):
        state = new_game(rules, seed=seed)
        table = state.public.table
        seat = table.seat_of[table.controllers[state.public.turn]]  # the player's own seat (a dummy's holder's)
        legal = sorted(legal_actions(state))
        seen = view(state, seat)
        assert ppo.act(seen, legal, rng) == own.act(seen, legal, rng) in legal
        assert np.allclose(ppo.probabilities(seen, legal), own.probabilities(seen, legal))


def test_more_than_the_four_seat_game_has_a_model():
    assert len(SHIPPED) >= 2


def test_every_game_of_the_package_has_a_model():
    assert {e.name for e in SHIPPED} >= set(catalog.PACKAGE_GAMES)


def test_ppo_in_a_game_without_a_model_names_the_games_with_one(monkeypatch):
    without = catalog.entry(without_model(monkeypatch))  # a game with no model: a plugin's
    having = ", ".join(e.name for e in catalog.entries() if e.model is not None)
    with pytest.raises(ValueError, match=f"no model is shipped for {without.name} yet; the games with one: {having}"):
        make_player("ppo").check_game(without.make_rules())


def test_tressette_eval_plays_ppo_in_col_morto(capsys):
    from tressette_env.cli import main

    assert main(["eval", "--game", "tressette_col_morto", "ppo", "heuristic", "--deals", "4", "--workers", "1"]) == 0
    assert "| ppo | heuristic | 4 |" in capsys.readouterr().out
