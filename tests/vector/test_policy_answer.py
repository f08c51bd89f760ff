"""A batched policy's answer in the vector environments: checked before any deal plays it, and a step that a policy
stops halfway refused until ``reset`` (``vector.policy_answer``)."""

import gymnasium as gym
import numpy as np
import pytest

import tressette_env  # noqa: F401 (registers the environments)
from tressette_env.vector.policy_answer import policy_actions

MASK = np.zeros((3, 10), dtype=np.int8)
MASK[:, [2, 5]] = 1
MASK[2, 7] = 1
ROWS = np.array([4, 8, 9])


def ask(answer):
    return policy_actions(lambda obs, mask: answer, None, MASK, ROWS)


@pytest.mark.parametrize(
    "answer",
    [
        [2, 5, 7],
        np.array([2, 5, 7], dtype=np.int32),
        np.array([2, 5, 7], dtype=np.uint8),
        np.array([2.0, 5.0, 7.0]),
        np.array([[2], [5], [7]]),
        (2, 5, 7),
        np.array([[2, 5, 7]]),
    ],
)
def test_the_answers_read_as_actions(answer):
    got = ask(answer)
    assert got.tolist() == [2, 5, 7] and got.dtype == np.int64


@pytest.mark.parametrize("answer", [5, np.int64(5), [5], np.array([[5]]), 5.0])
def test_one_deal_asked_takes_one_value(answer):
    """A policy asked for one deal may answer one value (``int(...)``), as it could before the answers were checked."""
    assert policy_actions(lambda obs, mask: answer, None, MASK[:1], ROWS[:1]).tolist() == [5]


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (None, "shape ()"),
        (["2", "5", "7"], "<U1 values"),
        ([True, False, True], "bool values"),
        ([2.5, 5, 7], "float64 values"),
        ([np.nan, 5, 7], "float64 values"),
        ([2, 5], "shape (2,)"),
        ([[2, 5], [7]], "not 3 action ids"),
        ([2, 5, 10], "returned 10 for deal 9: one action id 0..9"),
        ([2, -1, 7], "returned -1 for deal 8"),
        (np.array([2, 2**64 - 1, 7], dtype=np.uint64), "returned 18446744073709551615 for deal 8"),
        ([2, 5, 3], "chose illegal action 3 in deal 9; legal: [2, 5, 7]"),
        (np.array([10**30, 5, 7], dtype=np.float64), "for deal 4: one action id 0..9"),
    ],
)
def test_a_bad_answer_is_a_value_error_that_names_it(answer, words):
    with pytest.raises(ValueError) as error:
        ask(answer)
    message = str(error.value)
    assert words in message, message
    assert "\n" not in message and len(message) < 400


GAMES = [
    ("tressette_env/Tressette-v0", "opponents"),
    ("tressette_env/TressetteInDue-v0", "others"),
    ("tressette_env/Calabresella-v0", "others"),
]


@pytest.mark.parametrize(("env_id", "keyword"), GAMES)
@pytest.mark.parametrize("failure", ["bad answer", "raises"])
def test_a_step_a_policy_stops_halfway_is_refused_until_reset(env_id, keyword, failure):
    broken = {"now": False}

    class Broken(Exception):
        pass

    def policy(obs, mask):
        if broken["now"]:
            if failure == "raises":
                raise Broken("the policy's own error")
            return np.full(len(mask), 999)
        return mask.argmax(axis=1)

    env = gym.make_vec(env_id, num_envs=4, vectorization_mode="vector_entry_point", **{keyword: policy})
    env.reset(seed=0)
    batch = env.unwrapped.batch
    broken["now"] = True
    with pytest.raises(Broken if failure == "raises" else ValueError):
        env.step(env.action_masks().argmax(axis=1))
    turn = batch.turn.copy()
    broken["now"] = False
    for call in (lambda: env.step(np.zeros(4, dtype=np.int64)), env.action_masks):
        with pytest.raises(RuntimeError, match="stopped halfway .* call reset"):
            call()
    assert (batch.turn == turn).all()  # nothing was played in the others' seats
    env.reset(seed=1)
    for _ in range(30):  # plays on
        _, rewards, _, _, _ = env.step(env.action_masks().argmax(axis=1))
        assert np.isfinite(rewards).all()
    env.close()


def test_a_policy_that_fails_in_reset_stops_the_environment_too():
    env = gym.make_vec(
        "tressette_env/Tressette-v0",
        num_envs=4,
        vectorization_mode="vector_entry_point",
        opponents=lambda obs, mask: np.full(len(mask), -5),
        seat=3,  # the opponents play first
    )
    with pytest.raises(ValueError, match="returned -5"):
        env.reset(seed=0)
    with pytest.raises(RuntimeError, match="stopped halfway"):
        env.step(np.zeros(4, dtype=np.int64))
