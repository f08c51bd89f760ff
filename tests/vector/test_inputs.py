"""The batched engines refuse bad arguments with an error naming them, and change nothing first."""

import numpy as np
import pytest

from tressette_env import catalog
from tressette_env.vector import TressetteBatch

GAMES = [
    "tressette",
    "tressette_in_due",
    "tressette_col_morto",
    "tressette_a_perdere",
    "calabresella",
    "tressette_a_chiamare",
]
"""Every game with a batched engine, the four-seat one first."""


def make_batch(game: str, n: int):
    return (TressetteBatch if game == "tressette" else catalog.entry(game).batch_type())(n, seed=0)


@pytest.mark.parametrize("dealer", [1.7, "2", True, np.array([1.0, 2.0])])
def test_a_dealer_is_an_int_seat(dealer):
    with pytest.raises(ValueError, match="dealer must be a seat 0..3"):
        TressetteBatch(2, seed=0).reset(dealer=dealer)


def test_a_dealer_array_has_one_seat_per_deal():
    with pytest.raises(
        ValueError, match=r"dealer must be one seat or 3 seats \(one per deal reset\); got shape \(2,\)"
    ):
        TressetteBatch(3, seed=0).reset(dealer=[0, 1])


@pytest.mark.parametrize("first_hand", [None, "no", 0, 1.0])
def test_first_hand_is_true_or_false(first_hand):
    """``reset(first_hand=...)`` took any value by its truth ("no" as True); now a TypeError, before the generator moves."""
    batch = TressetteBatch(2, seed=0)
    state = batch._rng.bit_generator.state
    with pytest.raises(TypeError, match="first_hand is True or False"):
        batch.reset(seed=5, first_hand=first_hand)
    assert batch._rng.bit_generator.state == state
    batch.reset(first_hand=np.bool_(False))


def test_a_failed_reset_leaves_the_generator_as_it_was():
    batch = TressetteBatch(2, seed=0)
    state = batch._rng.bit_generator.state
    with pytest.raises(ValueError):
        batch.reset(seed=123, hands=[[0] * 10] * 4)
    with pytest.raises(ValueError):
        batch.reset(seed=123, dealer=7)
    assert batch._rng.bit_generator.state == state


def test_float_hands_are_named_by_dtype():
    hands = np.arange(40, dtype=float).reshape(4, 10)
    with pytest.raises(ValueError, match="integer card ids 0..39; got dtype float64"):
        TressetteBatch(1, seed=0).reset(hands=hands)


def test_a_huge_unsigned_action_is_reported_as_it_is():
    batch = TressetteBatch(2, seed=0)
    actions = np.array([2**64 - 1, 0], dtype=np.uint64)
    with pytest.raises(ValueError, match="deal 0 got np.uint64\\(18446744073709551615\\)"):
        batch.step(actions)


def test_col_mortos_step_reports_a_huge_unsigned_action_as_it_is():
    batch = make_batch("tressette_col_morto", 2)
    with pytest.raises(ValueError, match="deal 0 got 18446744073709551615"):  # it said -1
        batch.step(np.array([2**64 - 1, 0], dtype=np.uint64))


@pytest.mark.parametrize(
    "seats", [1.7, True, "2", np.zeros(3), np.array([True, False, True]), [0, 1], np.zeros((3, 1), int)]
)
def test_the_observing_seats_are_ints_one_or_one_per_deal(seats):
    """``observe(seats=...)``: 1.7 was read as seat 1, floats and bools as seats, a wrong length a broadcast error."""
    for history in (False, True):
        with pytest.raises(ValueError, match="seats are one seat 0..3 or an array of 3 of them"):
            TressetteBatch(3, seed=0, history=history).observe(seats=seats)
    with pytest.raises(ValueError, match="seats are 0..3; got 4"):
        TressetteBatch(3, seed=0).observe(seats=4)
    assert TressetteBatch(3, seed=0).observe(seats=[0, 1, 3]).shape == (3, 790)


@pytest.mark.parametrize("seats", [None, np.zeros(3), np.array([-1] * 3), np.array([7] * 3), np.zeros(4, int), 4])
def test_lead_takes_one_seat_0_to_3_or_one_per_deal(seats):
    with pytest.raises(ValueError, match="seats are .*0..3"):
        TressetteBatch(3, seed=0).lead(seats)
    batch = TressetteBatch(3, seed=0)
    assert batch.lead(1).tolist() == batch.lead(np.array([1, 1, 1])).tolist()


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_checks_the_observing_seats_alike(game):
    """One home (``_family.check_seats``): the same message in every engine, with its seat count and its noun."""
    batch = make_batch(game, 3)
    count = batch.num_agents if game != "tressette" else 4
    keyword = "agents" if game == "tressette_col_morto" else "seats"
    for bad in (1.7, True, [0, 1], np.zeros((3, 1), int)):
        with pytest.raises(
            ValueError,
            match=rf"{keyword} are one (seat|player) 0\.\.{count - 1} or an array of 3 of them \(one per deal\)",
        ):
            batch.observe(**{keyword: bad})
    with pytest.raises(ValueError, match=rf"{keyword} are (players )?0\.\.{count - 1}; got {count}"):
        batch.observe(**{keyword: count})
    mine = batch.observe(**{keyword: np.array([0, 1, 0])})
    assert (mine[0] == batch.observe(**{keyword: 0})[0]).all() and (mine[1] == batch.observe(**{keyword: 1})[1]).all()


@pytest.mark.parametrize("game", GAMES)
def test_autoreset_is_true_or_false_and_a_bad_one_changes_nothing(game):
    """``step(..., autoreset=None)`` acted as False and ``"no"`` as True; now a TypeError before the step plays."""
    batch = make_batch(game, 3)
    rng = np.random.default_rng(0)
    actions = batch.sample_actions(rng)
    before = (batch.turn.copy(), batch.observe().copy())
    for bad in (None, "no", 1):
        with pytest.raises(TypeError, match="autoreset is True or False"):
            batch.step(actions, autoreset=bad)
    assert (batch.turn == before[0]).all() and (batch.observe() == before[1]).all()
    batch.step(actions, autoreset=np.bool_(True))


@pytest.mark.parametrize("game", GAMES)
def test_a_reset_names_each_deal_once(game):
    """``reset(deals=[0, 0], ...)`` dealt deal 0 twice, the last deal winning; now a ValueError, nothing changed."""
    batch = make_batch(game, 3)
    rng = np.random.default_rng(0)
    batch.step(batch.sample_actions(rng))
    before = batch.observe(0).copy()
    for deals in ([0, 0], [2, 1, 2]):
        with pytest.raises(ValueError, match=f"deal {deals[0]} is named twice"):
            batch.reset(deals=deals)
    assert (batch.observe(0) == before).all()
    with pytest.raises(ValueError, match="deal indices are 0..2; got 18446744073709551615"):
        batch.reset(deals=np.array([2**64 - 1], dtype=np.uint64))
    batch.reset(deals=[2, 0])


@pytest.mark.parametrize("game", GAMES)
def test_a_huge_chosen_deal_is_refused_in_a_message_cut_short(game):
    """Two million ids, or five hands of a million: named cut short (``messages.shown``; it was quoted whole, 17 MB)."""
    batch = make_batch(game, 2)
    for hands in (list(range(2 * 10**6)), [list(range(10**6))] * 5):
        with pytest.raises(ValueError) as error:
            batch.reset(hands=hands)
        assert "\n" not in str(error.value) and len(str(error.value)) < 400
