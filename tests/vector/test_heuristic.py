"""The batched heuristic is ``HeuristicPlayer``, decision by decision, under every rule set; and it plays in the envs."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.vector._scalar import Reference
from tressette_env.agents.heuristic import HeuristicPlayer
from tressette_env.encoders.observation import SLICES
from tressette_env.engine import action_to_string, legal_actions, view
from tressette_env.vector import TressetteBatch, TressetteVectorEnv, heuristic_actions, sample_mask
from tressette_env.vector import _tables as tb
from tressette_env.vector.heuristic import _actions, _read, _Table

_SEEN = slice(SLICES["signals"].start, SLICES["voids"].stop)
_U = np.uint64

RULE_SETS = [
    {},
    {"accusi": False, "signals": False},
    {"signals": False},
    {"first_lead": "four_of_denari", "cappotto_bonus": 11},
    {"episode": "match", "target_score": 11},
    {"episode": "match", "target_score": 21, "first_lead": "four_of_denari", "cappotto_bonus": 11},
    {"episode": "match", "target_score": 11, "calling_out": True, "signals": False},
    {"episode": "match", "target_score": 5, "calling_out": True, "accusi": False},
    {"striscio": "no_honours"},
]


def _read_public(batch: TressetteBatch, rows: np.ndarray, turn: np.ndarray) -> _Table:
    """The ``_Table`` from the public readers only (``hands``, ``trick_cards``, ``observe`` ...)."""
    m = len(rows)
    ar = np.arange(m)
    hands = tb.rev40(batch.hands().take(rows, axis=0))
    by_seat = batch.trick_cards().take(rows, axis=0).astype(np.int64)
    leader = batch.leader.take(rows)
    trick = np.stack([by_seat[ar, (leader + k) & 3] for k in range(3)], axis=1)
    fields = batch.observe(deals=rows)[:, _SEEN]  # the signals, then the voids: 64 entries
    seen = np.packbits(fields.view(np.uint8), axis=1).view(">u8").reshape(m).astype(_U)
    return _Table(
        turn,
        hands[ar, turn],
        hands[:, 0] | hands[:, 1] | hands[:, 2] | hands[:, 3],
        np.where(trick < 0, 40, trick),
        batch.tricks_done.take(rows),
        seen,
        tb.rev40(batch.dealt().take(rows, axis=0)[ar, (turn + 2) & 3]),
        np.zeros(m, dtype=_U),
        np.zeros(m, dtype=_U),
    )


def scalar_actions(ref: Reference) -> list[int]:
    player, rng = HeuristicPlayer(), random.Random(0)
    return [player.act(view(s, s.public.turn), legal_actions(s), rng) for s in ref.states]


def pin(rules: dict, n: int, steps: int, seed: int, *, random_p: float = 0.3, active_p: float = 0.3) -> int:
    """Step a batch and its scalar reference; at each step the batched heuristic must be the scalar one.

    A random share of the moves are random legal actions (to reach the states the
    heuristic alone never would), the rest the heuristic's; some steps move only some deals.
    Returns the number of decisions compared.
    """
    batch = TressetteBatch(n, seed=seed, **rules)
    ref = Reference(batch, rules)
    rng = np.random.default_rng(seed + 1)
    decisions = 0
    for step in range(steps):
        got = heuristic_actions(batch)
        expected = scalar_actions(ref)
        wrong = np.flatnonzero(got != np.array(expected))
        if len(wrong):
            i = int(wrong[0])
            raise AssertionError(
                f"step {step}, deal {i}: batched {int(got[i])}, scalar {expected[i]} "
                f"({action_to_string(expected[i])}) in {len(wrong)} deal(s)\n{ref.states[i]}"
            )
        decisions += n
        if step % 7 == 3:  # the private read is the public one; a subset of deals is that subset's actions
            rows = np.flatnonzero(rng.random(n) < 0.5)
            turn = batch.turn[rows]
            for x, y, name in zip(
                _read(batch, rows, turn), _read_public(batch, rows, turn), _read(batch, rows, turn)._fields, strict=True
            ):
                assert np.array_equal(x, y) and x.dtype == y.dtype, name
            assert np.array_equal(_actions(batch, rows, _read_public), got[rows])
            assert np.array_equal(heuristic_actions(batch, rows), got[rows])
        actions = np.where(rng.random(n) < random_p, batch.sample_actions(rng), got)
        active = rng.random(n) < rng.choice([0.2, 0.5, 0.9]) if rng.random() < active_p else None
        result = batch.step(actions, active=active)
        ref.step(actions, active, result)
    return decisions


def test_the_default_rules_over_many_deals():
    assert pin({}, 1500, 50, seed=0) == 75_000


@pytest.mark.parametrize("rules", RULE_SETS[1:], ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()))
def test_every_rule_switch(rules):
    pin(rules, 250, 60, seed=len(str(rules)))


def test_the_heuristic_alone_and_random_play_alone():
    pin({}, 150, 45, seed=21, random_p=0.0, active_p=0.0)
    pin({"episode": "match", "target_score": 11, "calling_out": True}, 150, 45, seed=22, random_p=0.9)


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default")
def test_many_more_deals(rules):
    pin(rules, 1500, 160, seed=5)


def test_finished_deals_get_minus_one_and_chosen_deals_keep_their_order():
    batch = TressetteBatch(6, seed=1, episode="match", target_score=1)
    rng = np.random.default_rng(1)
    while batch.playing.any():
        playing = batch.playing
        assert ((heuristic_actions(batch) == -1) == ~playing).all()
        if not playing.all():
            assert (heuristic_actions(batch, ~playing) == -1).all()
        batch.step(np.where(playing, batch.sample_actions(rng), 0), active=playing, autoreset=False)
    assert (heuristic_actions(batch) == -1).all()
    batch.reset()
    every = heuristic_actions(batch)
    assert np.array_equal(heuristic_actions(batch, [5, 0, 5]), every[[5, 0, 5]])
    assert heuristic_actions(batch, np.zeros(6, dtype=bool)).shape == (0,)
    assert heuristic_actions(batch, []).shape == (0,)


def test_bad_inputs():
    batch = TressetteBatch(4, seed=0)
    with pytest.raises(TypeError, match="TressetteBatch"):
        heuristic_actions(np.zeros((4, 790)))  # type: ignore[arg-type]
    for deals in ([4], [-1], np.zeros(3, dtype=bool), [0.5]):
        with pytest.raises(ValueError, match="deal"):
            heuristic_actions(batch, deals)


# --------------------------------------------------------------------------- the environments


def test_heuristic_opponents_in_the_vector_env():
    env = TressetteVectorEnv(64, seed=3, opponent="heuristic", learner_seat="random")
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    episodes = 0
    for _ in range(25):
        obs, rewards, terminated, truncated, infos = env.step(sample_mask(env.action_masks(), rng))
        assert (env.batch.turn == env.seats).all() and not truncated.any()
        assert (rewards[~terminated] == 0).all()
        if terminated.any():
            episodes += int(terminated.sum())
            seat = infos["final_info"]["learner_seat"][terminated]
            points = infos["final_info"]["hand_points"][terminated]
            rows = np.arange(len(seat))
            assert (rewards[terminated] == points[rows, seat % 2] - points[rows, 1 - seat % 2]).all()
    assert episodes >= 128


def test_the_heuristic_beats_random_play():
    # The learner plays the heuristic too, with a heuristic partner, against random opponents.
    env = TressetteVectorEnv(300, seed=4, opponent="random", partner="heuristic", learner_seat="random")
    env.reset(seed=4)
    total, episodes = 0.0, 0
    for _ in range(10):
        _, rewards, terminated, _, _ = env.step(heuristic_actions(env.batch))
        total += float(rewards.sum())
        episodes += int(terminated.sum())
    assert episodes == 300
    assert total / episodes > 3  # points a hand over the random team (about 11 to share)
    # And random play against two heuristic opponents loses.
    env = TressetteVectorEnv(300, seed=5, opponent="heuristic", partner="random")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    total = 0.0
    for _ in range(10):
        _, rewards, _, _, _ = env.step(sample_mask(env.action_masks(), rng))
        total += float(rewards.sum())
    assert total / 300 < -3


def test_heuristic_matches_with_calling_out_in_the_env():
    env = TressetteVectorEnv(
        32, seed=6, opponent="heuristic", partner="heuristic", episode="match", calling_out=True, target_score=11
    )
    env.reset(seed=6)
    ended = 0
    for _ in range(120):
        _, rewards, terminated, _, _ = env.step(heuristic_actions(env.batch))
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert (rewards[terminated] != 0).all()
        ended += int(terminated.sum())
    assert ended >= 32


def test_bad_policy_names():
    with pytest.raises(ValueError, match="'random', 'heuristic' or a callable"):
        TressetteVectorEnv(2, opponent="greedy")
    with pytest.raises(ValueError, match="'random', 'heuristic' or a callable"):
        TressetteVectorEnv(2, partner="Heuristic")


def test_the_sb3_vecenv_takes_heuristic_opponents():
    pytest.importorskip("stable_baselines3")
    from tressette_env.vector.sb3 import SB3VecEnv

    venv = SB3VecEnv(num_envs=8, seed=0, opponent="heuristic")
    venv.reset()
    ended = 0
    for _ in range(10):
        masks = venv.action_masks()
        _, _, dones, infos = venv.step(np.argmax(masks, axis=1))
        ended += int(dones.sum())
    assert ended == 8
    venv.close()
