"""The duplicate evaluation: pairing, reproducibility, and the confidence interval arithmetic."""

import random
import statistics

import pytest

from tressette_env.agents import HeuristicPlayer, RandomPlayer
from tressette_env.engine import Rules
from tressette_env.evaluation import duplicate, mean_ci95, play_board
from tressette_env.evaluation.stats import t95


class Spy:
    """A random player that records the hands it is shown, by seat and by play."""

    name = "spy"

    def __init__(self):
        self.seen = []

    def act(self, view, legal, rng):
        dealt = view.hand | view.public.played_by(view.seat)  # what the seat was dealt
        self.seen.append((view.seat, view.public.dealer, view.public.hand_number, dealt))
        return legal[rng.randrange(len(legal))]


def test_both_plays_of_a_board_deal_the_same_cards_with_the_seats_swapped():
    a, b = Spy(), Spy()
    play_board(a, b, Rules(accusi=False), seed=3, board=7)
    seen_a = set(a.seen)
    seen_b = set(b.seen)
    # Team A sat in 0/2 in one play and 1/3 in the other: it held all four seats, and so did B,
    # each seat with one dealt hand only, the same for both players: the same deal twice.
    dealt_a = {seat: dealt for seat, _, _, dealt in seen_a}
    dealt_b = {seat: dealt for seat, _, _, dealt in seen_b}
    assert len(seen_a) == len(seen_b) == 4
    assert set(dealt_a) == {0, 1, 2, 3} and dealt_a == dealt_b
    assert len({dealer for _, dealer, _, _ in seen_a | seen_b}) == 1


def test_a_board_is_the_average_of_its_two_plays():
    record = play_board(HeuristicPlayer(), RandomPlayer(), Rules(), seed=0, board=0)
    (d1,), (d2,) = record.a_as_team0.diffs, record.a_as_team1.diffs
    assert record.diff_per_hand == (d1 + d2) / 2


def test_identical_deterministic_players_tie_exactly():
    result = duplicate(HeuristicPlayer(), HeuristicPlayer(), boards=10, seed=0, workers=1, progress=False)
    assert result.mean_points_diff == 0 and result.ci95 == (0.0, 0.0)


def test_reproducible_under_a_seed_and_independent_of_the_workers():
    one = duplicate(HeuristicPlayer(), RandomPlayer(), boards=24, seed=9, workers=1, progress=False)
    two = duplicate(HeuristicPlayer(), RandomPlayer(), boards=24, seed=9, workers=2, progress=False)
    assert one == two and one.records == two.records
    other = duplicate(HeuristicPlayer(), RandomPlayer(), boards=24, seed=10, workers=1, progress=False)
    assert other.records != one.records


def test_the_result_is_the_mean_and_ci_of_the_boards():
    result = duplicate(HeuristicPlayer(), RandomPlayer(), boards=30, seed=2, workers=1, progress=False)
    diffs = [r.diff_per_hand for r in result.records]
    assert result.mean_points_diff == pytest.approx(statistics.fmean(diffs))
    assert result.ci95 == pytest.approx(mean_ci95(diffs))
    assert result.per_seat["team0"] == pytest.approx(statistics.fmean(r.a_as_team0.diffs[0] for r in result.records))
    assert result.hands == 60
    assert set(result.to_json()) >= {"players", "deals", "mean_points_diff", "ci95"}


def test_match_mode_reports_win_rates():
    result = duplicate(
        HeuristicPlayer(), RandomPlayer(), boards=6, seed=1, rules=Rules(episode="match"), workers=1, progress=False
    )
    assert result.match_win_rate is not None and 0 <= result.match_win_rate <= 1
    assert result.hands > 12  # matches to 21 take several hands
    assert all(r.a_as_team0.a_won is not None for r in result.records)


def test_the_match_win_interval_stays_within_0_and_1():
    """20 boards of the heuristic against random: Student's interval of the boards' shares passed 100%."""
    result = duplicate(
        HeuristicPlayer(), RandomPlayer(), boards=20, seed=0, rules=Rules(episode="match"), workers=1, progress=False
    )
    shares = [statistics.fmean(0.5 if p.a_won is None else p.a_won for p in r.plays) for r in result.records]
    low, high = mean_ci95(shares)
    assert high > 1  # the case: the interval as computed passes 100%
    assert result.match_win_ci95 == pytest.approx((max(0.0, low), 1.0))
    assert 0 <= result.match_win_ci95[0] <= result.match_win_rate <= result.match_win_ci95[1] <= 1


def test_ci_arithmetic():
    assert t95(1) == 12.706 and t95(30) == 2.042
    assert t95(10**6) == pytest.approx(1.96, abs=1e-3)
    low, high = mean_ci95([1.0, 2.0, 3.0, 4.0])
    # mean 2.5, sd 1.2910, n 4, t(3) = 3.182: half-width 2.054
    assert (low, high) == pytest.approx((2.5 - 2.0539, 2.5 + 2.0539), abs=1e-3)
    # The interval covers the true mean about 95% of the time.
    rng = random.Random(0)
    covered = sum(
        low <= 0 <= high for low, high in (mean_ci95([rng.gauss(0, 1) for _ in range(10)]) for _ in range(2000))
    )
    assert 0.93 < covered / 2000 < 0.97
    with pytest.raises(ValueError, match="at least 2 values"):
        mean_ci95([1.0])
    with pytest.raises(ValueError, match="at least 2 boards"):
        duplicate(RandomPlayer(), RandomPlayer(), boards=1)


# ---------------------------------------------------------------------- a game of individual players


def a_perdere(**switches):
    from tressette_env.games.a_perdere import APerdereRules

    return APerdereRules(**switches)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_an_individual_game_rotates_a_through_every_seat_on_the_same_deal(players):
    a, b = Spy(), Spy()
    record = play_board(a, b, a_perdere(players=players), seed=5, board=2)
    assert len(record.plays) == players
    dealt_a = {seat: dealt for seat, _, _, dealt in set(a.seen)}
    dealt_b = {seat: dealt for seat, _, _, dealt in set(b.seen)}
    # A held each seat once (one play each), B every seat; both saw the same cards in each seat.
    assert set(dealt_a) == set(dealt_b) == set(range(players)) and dealt_a == dealt_b
    assert len(set(a.seen)) == players and len(set(b.seen)) == players


def test_against_a_field_the_value_is_the_others_mean_charge_minus_a_s():
    record = play_board(HeuristicPlayer(), RandomPlayer(), a_perdere(), seed=0, board=4)
    for play in record.plays:
        (mine,), (field,), (diff,) = play.a_points, play.field_points, play.diffs
        assert diff == field - mine  # charges: fewer is better, so positive favours A
    assert record.diff_per_hand == pytest.approx(statistics.fmean(p.diffs[0] for p in record.plays))


def test_identical_players_against_a_field_tie_exactly():
    result = duplicate(
        HeuristicPlayer(), HeuristicPlayer(), boards=10, seed=0, rules=a_perdere(players=5), workers=1, progress=False
    )
    assert result.mean_points_diff == pytest.approx(0, abs=1e-12)
    assert result.against == "field" and result.points_sign == -1
    assert set(result.per_seat) == {f"player_{k}" for k in range(5)}


def test_the_heuristic_takes_fewer_points_than_a_field_of_random_players():
    result = duplicate(
        HeuristicPlayer(), RandomPlayer(), boards=100, seed=0, rules=a_perdere(), workers=1, progress=False
    )
    assert result.ci95[0] > 0.5  # the field's mean charge minus the heuristic's, per hand
    a, field = result.points
    assert a < field and result.points_ci95[0][1] < result.points_ci95[1][0]
    # Without cappotti the four charges of a hand add up to 11: A's and three times the field's.
    assert a + 3 * field == pytest.approx(11, abs=0.5)


def test_a_field_evaluation_does_not_depend_on_the_workers():
    rules = a_perdere(players=3, episode="match", target_score=11)
    one = duplicate(HeuristicPlayer(), RandomPlayer(), boards=8, seed=3, rules=rules, workers=1, progress=False)
    two = duplicate(HeuristicPlayer(), RandomPlayer(), boards=8, seed=3, rules=rules, workers=2, progress=False)
    assert one == two and one.records == two.records
    assert 0 <= one.match_win_rate <= 1 and one.hands > 8 * 3


def test_partnerships_that_avoid_points_count_the_other_way():
    """A perdere for two teams, and in due with objective="avoid": points are charges, so A - B is B's minus A's."""
    from tressette_env.games.in_due import InDueRules

    for rules in (a_perdere(teams=True), InDueRules(objective="avoid")):
        record = play_board(HeuristicPlayer(), RandomPlayer(), rules, seed=1, board=0)
        for play in record.plays:
            assert play.diffs[0] == play.field_points[0] - play.a_points[0]
        result = duplicate(HeuristicPlayer(), RandomPlayer(), boards=2, seed=1, rules=rules, workers=1, progress=False)
        assert result.against == "team" and result.points_sign == -1


@pytest.mark.parametrize("holder", ["dealer", "fixed"])
def test_a_three_player_col_morto_match_is_refused_with_the_reason(holder):
    from tressette_env.evaluation.duplicate import check_duplicate
    from tressette_env.games.col_morto import ColMortoRules

    with pytest.raises(ValueError, match=r"partnerships change from hand to hand \(with a fixed holder, one player"):
        check_duplicate(ColMortoRules(dummy_holder=holder, episode="match"))
    check_duplicate(ColMortoRules(dummy_holder=holder))  # single hands: evaluated


def test_a_player_may_be_given_by_name_and_a_value_that_is_no_player_is_named():
    by_name = duplicate("heuristic", RandomPlayer(), boards=4, seed=3, workers=1, progress=False)
    by_object = duplicate(HeuristicPlayer(), RandomPlayer(), boards=4, seed=3, workers=1, progress=False)
    assert by_name.players == ("heuristic", "random") and by_name.mean_points_diff == by_object.mean_points_diff
    named = duplicate("random:", "heuristic", boards=2, seed=3, workers=1, progress=False)
    assert named.players == ("random:", "heuristic")  # a spec names its player as tressette eval does
    with pytest.raises(TypeError, match="player_b: a player is a name .*; got 5"):  # (was AttributeError deep inside)
        duplicate("heuristic", 5, boards=4, workers=1, progress=False)
