"""benchmarks/distill_search.py: the teacher's labels are its legal cards on the student's positions; the fit moves towards them."""

import random

import numpy as np
import pytest

from tests.helpers import load_script
from tressette_env.agents import make_player
from tressette_env.encoders import observation_of
from tressette_env.engine import Rules, new_game, view
from tressette_env.learned.mlp import MLPPolicy

pytest.importorskip("torch")


def _script():
    return load_script("benchmarks/distill_search.py")


def test_labels_are_the_teachers_legal_cards_and_the_fit_learns_them(tmp_path):
    script = _script()
    assert script.label(0, 1, 60, 7, 0.5, "heuristic", tmp_path, 25) == 60
    labels = script.read_labels(tmp_path)
    assert labels["obs"].shape == (60, 790) and labels["masks"].shape == (60, 161)
    rows = np.arange(60)
    assert labels["masks"][rows, labels["teacher"]].all() and labels["masks"][rows, labels["student"]].all()
    assert (labels["masks"].sum(axis=1) > 1).all()  # only real choices
    # The first decision is the first lead of seed 7's hand: the heuristic's card there, the observation that seat's.
    state = new_game(Rules(), 7)
    first = view(state, state.public.turn)
    assert np.array_equal(labels["obs"][0], observation_of(Rules()).encode(first))
    legal = [a for a in range(161) if labels["masks"][0, a]]
    assert labels["teacher"][0] == make_player("heuristic").act(first, legal, random.Random(0))
    policy, figures = script.fit(labels, epochs=30, lr=1e-3, seed=0)
    assert isinstance(policy, MLPPolicy) and figures["labels"] == 60
    fitted = policy.best_actions(labels["obs"], labels["masks"])
    base = MLPPolicy.load(script.shipped_model_path()).best_actions(labels["obs"], labels["masks"])
    assert (fitted == labels["teacher"]).mean() > (base == labels["teacher"]).mean()
