"""Policies over the history observation: the file says which observation they read, and they play with it."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from tressette_env.agents import make_player
from tressette_env.engine import PLAYING, Rules, apply, legal_actions, new_game, view
from tressette_env.evaluation import against_baselines
from tressette_env.learned import MLPPlayer, load_player
from tressette_env.learned.mlp import MLPPolicy, ModelFileError

from .sb3_files import actor_state, sb3_zip


def play_hand(player) -> int:
    state = new_game(Rules(), seed=3)
    rng = random.Random(0)
    moves = 0
    while state.public.status == PLAYING:
        legal = legal_actions(state)
        action = player.act(view(state, state.public.turn), legal, rng)
        assert action in legal
        state = apply(state, action)
        moves += 1
    return moves


def test_a_history_policy_keeps_its_observation_through_a_file_and_plays(tmp_path):
    policy = MLPPolicy.random(hidden=(8,), seed=1, observation="history")
    assert policy.layers[0][0].shape == (8, 1460)
    path = policy.save(tmp_path / "h.npz")
    loaded = MLPPolicy.load(path)
    assert loaded.observation == "history"
    assert play_hand(MLPPlayer(loaded)) == 40
    results = against_baselines(MLPPlayer(loaded), ["random"], 4, 0, workers=1, progress=False)
    assert results[0].boards == 4


def test_the_shipped_model_and_older_files_read_the_default_observation(tmp_path):
    assert make_player("ppo").policy.observation == "default"
    policy = MLPPolicy.random(hidden=(4,), seed=0)
    path = policy.save(tmp_path / "old.npz")
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    del meta["observation"]  # as files written before the history observation
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(tmp_path / "older.npz", **arrays)
    assert MLPPolicy.load(tmp_path / "older.npz").observation == "default"


def test_an_unknown_observation_or_a_mismatched_size_is_refused(tmp_path):
    policy = MLPPolicy.random(hidden=(4,), seed=0)
    path = policy.save(tmp_path / "p.npz")
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    meta["observation"] = "everything"
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(ModelFileError, match="'observation'='everything': must be one of default, history"):
        MLPPolicy.load(tmp_path / "bad.npz")
    history = MLPPolicy.random(hidden=(4,), seed=0, observation="history")
    with pytest.raises(ValueError, match="takes 1460 inputs, but it is fed the 790 observation entries"):
        MLPPolicy(history.layers, observation="default")
    with pytest.raises(ValueError, match="observation 'full'"):
        MLPPolicy(history.layers, observation="full")


def test_an_sb3_zip_over_the_history_observation_plays_it(tmp_path):
    pytest.importorskip("torch")  # writing and reading a zip's weights
    path = sb3_zip(tmp_path / "h.zip", weights=actor_state(inputs=1460))
    player = load_player(path)
    assert player.policy.observation == "history"
    assert play_hand(player) == 40
    assert load_player(sb3_zip(tmp_path / "d.zip")).policy.observation == "default"
