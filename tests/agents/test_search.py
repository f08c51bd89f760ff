"""The deal sampler (every sample fits the public record, every fitting deal can come out)
and the PIMC search player (legal, blind to hidden cards, reproducible, better than random)."""

import itertools
import random
import statistics

import pytest

from tests.helpers import fill, play, play_out
from tests.hidden import random_positions, rejection_deal, replay, sampler_deal
from tressette_env.agents.random_player import RandomPlayer
from tressette_env.agents.sampling import DealSampler, InconsistentViewError, sample_deal
from tressette_env.agents.search import SearchPlayer
from tressette_env.engine import (
    BUSSO,
    CALL_OUT,
    PLAYING,
    STRISCIO,
    SUIT_MASK,
    VOLO,
    Rules,
    SeatView,
    apply,
    cards_of,
    find_accusi,
    legal_actions,
    new_game,
    next_hand,
    view,
)

FULL = (1 << 40) - 1


def signal_facts(public, seat):
    """(suits seat must still hold, suits seat is void in by volo), read plainly from the history."""
    must, volo = set(), set()
    tricks = public.tricks()
    for i, (leader, cards, actions) in enumerate(tricks):
        if leader != seat:
            continue
        suit, signal = cards[0] // 10, actions[0] // 40
        later = [c for _, cs, _ in tricks[i + 1 :] for c in cs if c in cards_of(public.played_by(seat))]
        if signal == VOLO:
            volo.add(suit)
        elif signal in (BUSSO, STRISCIO) and not any(c // 10 == suit for c in later):
            must.add(suit)
    return must, volo


def check_deal(v: SeatView, hands):
    """Every public constraint, checked directly against the view."""
    p = v.public
    assert hands[v.seat] == v.hand
    union = 0
    for s, h in enumerate(hands):
        assert not union & h, "hands overlap"
        union |= h
        assert h.bit_count() == 10 - p.played_by(s).bit_count()
        assert not h & p.all_played
    assert union | p.all_played == FULL
    for s in range(4):
        if s == v.seat:
            continue
        h = hands[s]
        for suit in range(4):
            if p.is_void(s, suit):
                assert not h & SUIT_MASK[suit]
        must, volo = signal_facts(p, s)
        for suit in must:
            assert h & SUIT_MASK[suit], f"seat {s} signalled more {suit}"
        for suit in volo:
            assert not h & SUIT_MASK[suit], f"seat {s} flew {suit}"
        if p.rules.accusi:
            declared = {(a.kind, a.cards) for a in p.accusi.by_seat[s]}
            assert {(a.kind, a.cards) for a in find_accusi(h | p.played_by(s))} == declared
        if p.rules.first_lead == "four_of_denari" and p.hand_number == 0:
            # The match's first leader was dealt the 4 di denari (card 3); nobody else was.
            dealt = h | p.played_by(s)
            assert dealt >> 3 & 1 == (s == p.first_leader), f"seat {s} and the 4 di denari"


def random_states(count, rules, seed=0):
    """States from random legal play (signals included), at random points of random deals."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = new_game(rules, seed=rng.randrange(10**9))
        stop = rng.randrange(40)
        for _ in range(stop):
            legal = [a for a in legal_actions(state) if a != CALL_OUT]
            state = apply(state, rng.choice(legal))
        out.append(state)
    return out


# ------------------------------------------------------------------------------------------
# The sampler


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(accusi=False, signals=False), Rules(first_lead="four_of_denari")],
    ids=["all rules", "plain", "four_of_denari"],
)
def test_every_sample_fits_the_public_record(rules):
    rng = random.Random(1)
    for state in random_states(60, rules, seed=hash(rules.accusi) % 7):
        seat = state.public.turn
        v = view(state, seat)
        check_deal(v, state.hands)  # the checker accepts the true deal
        sampler = DealSampler(v)
        for _ in range(15):
            check_deal(v, sampler.sample(rng))


def test_declared_cards_stay_with_their_declarer():
    # Seat 1 holds the napoletana di denari and three 3s (no 3 of bastoni): it declares both.
    deal = fill(seat_1="Ad 2d 3d 3c 3s", seat_2="3b")
    state = new_game(Rules(), hands=deal, dealer=3)  # seat 0 leads
    state = play(state, "4c")  # a card of seat 0, so that the view has some history
    v = view(state, 2)
    rng = random.Random(0)
    for _ in range(200):
        hands = DealSampler(v).sample(rng)
        assert hands[1] & 0b111 == 0b111  # Ad 2d 3d
        check_deal(v, hands)


def test_a_tris_says_where_the_fourth_card_is_not():
    # Seat 3 declares three 2s without the 2 of bastoni; seat 0 (the viewer) does not hold it.
    deal = fill(seat_3="2d 2c 2s")
    state = new_game(Rules(), hands=deal, dealer=0)
    v = view(state, 0)
    assert not v.hand >> 31 & 1
    rng = random.Random(0)
    holders = {s for s in range(1, 4) for hands in [sample_deal(v, rng) for _ in range(100)] if hands[s] >> 31 & 1}
    assert 3 not in holders and holders


def consistent_deals(v: SeatView):
    """Every deal of the unseen cards that passes ``check_deal`` (brute force; small endings only)."""
    seats = [s for s in range(4) if s != v.seat]
    counts = [10 - v.public.played_by(s).bit_count() for s in seats]
    unseen = cards_of(v.unseen | sum(v.public.revealed_by(s) & ~v.public.played_by(s) for s in seats))
    out = set()
    for first in itertools.combinations(unseen, counts[0]):
        rest = [c for c in unseen if c not in first]
        for second in itertools.combinations(rest, counts[1]):
            third = [c for c in rest if c not in second]
            hands = [0, 0, 0, 0]
            hands[v.seat] = v.hand
            for s, cards in zip(seats, (first, second, third), strict=True):
                hands[s] = sum(1 << c for c in cards)
            try:
                check_deal(v, hands)
            except AssertionError:
                continue
            out.add(tuple(hands))
    return out


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_every_consistent_deal_comes_out(seed):
    # The last two or three tricks, signals on: a few dozen consistent deals at most.
    rng = random.Random(seed)
    state = new_game(Rules(accusi=False), seed=seed)
    while sum(h.bit_count() for h in state.hands) > 9 + seed % 3:
        state = apply(state, rng.choice(legal_actions(state)))
    v = view(state, state.public.turn)
    expected = consistent_deals(v)
    assert tuple(state.hands) in expected
    sampler = DealSampler(v)
    counts = {}
    for _ in range(60 * len(expected)):
        hands = sampler.sample(rng)
        counts[hands] = counts.get(hands, 0) + 1
    assert set(counts) == expected
    # Roughly uniform: no consistent deal is drawn much less often than the average.
    assert min(counts.values()) > 0.3 * statistics.fmean(counts.values())


def test_a_contradictory_view_is_refused():
    state = new_game(Rules(accusi=False), seed=4)
    v = view(state, 0)
    # Everyone else "has shown" a void in every suit: no card can go anywhere.
    bad = v.public._replace(voids=sum(0xF << (4 * s) for s in (1, 2, 3)))
    with pytest.raises(InconsistentViewError, match="no other seat may hold it"):
        DealSampler(SeatView(0, v.hand, bad))


def test_the_exhaustive_fallback_finds_a_consistent_deal():
    rng = random.Random(2)
    for state in random_states(20, Rules(), seed=11):
        v = view(state, state.public.turn)
        check_deal(v, DealSampler(v, attempts=0).sample(rng))


def test_an_impossible_view_ends_in_an_error():
    # Late in a hand, seat 1 "has shown" a void in every suit: its cards can go nowhere.
    state = random_ending_state(6, cards_left=8)
    seat = next(s for s in range(4) if s not in (1, state.public.turn))
    v = view(state, seat)
    bad = SeatView(seat, v.hand, v.public._replace(voids=v.public.voids | 0xF << 4))
    sampler = DealSampler(bad, attempts=20)
    with pytest.raises(InconsistentViewError, match="no deal"):
        sampler.sample(rng=random.Random(0))


def random_ending_state(seed, cards_left):
    rng = random.Random(seed)
    state = new_game(Rules(accusi=False), seed=seed)
    while sum(h.bit_count() for h in state.hands) > cards_left:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


# ------------------------------------------------------------------------------------------
# The search player

FAST = dict(samples=1, exact_tricks=3, horizon=1)


def test_always_a_legal_action():
    # The early player (ppo by default) may call out; the search itself never does.
    player = SearchPlayer(**FAST, early="heuristic")
    rng = random.Random(0)
    checked = 0
    for state in random_states(1200, Rules(), seed=5) + random_states(300, Rules(episode="match", calling_out=True)):
        if state.public.status != PLAYING:
            continue
        legal = legal_actions(state)
        action = player.act(view(state, state.public.turn), legal, rng)
        assert action in legal and action != CALL_OUT
        checked += 1
    assert checked >= 1400


def test_a_whole_game_with_default_settings_is_legal():
    player = SearchPlayer(samples=1, exact_tricks=5)
    rng = random.Random(3)
    state = new_game(Rules(), seed=3)
    while state.public.status == PLAYING:
        legal = legal_actions(state)
        action = player.act(view(state, state.public.turn), legal, rng)
        assert action in legal
        state = apply(state, action)


@pytest.mark.parametrize("method", ["sampler", "rejection"])
def test_hidden_cards_make_no_difference(method):
    # The game rebuilt from the public actions on another deal that seat cannot tell from the real
    # one (tests/hidden.py): the same view, so the same action under the same rng.
    players = [SearchPlayer(samples=2, exact_tricks=4, horizon=2), SearchPlayer(samples=2, exact_tricks=3, early=None)]
    rng = random.Random(7)
    compared = differed = 0
    for position in random_positions(400, seed=21):
        state = position.state
        if rng.random() > 0.02:  # a few positions from all over the hands, the last tricks included
            continue
        seat = state.public.turn
        dealt = sampler_deal(position, seat, rng) if method == "sampler" else rejection_deal(position, seat, rng)
        other = replay(position, dealt)
        assert view(other, seat) == view(state, seat)
        differed += other.hands != state.hands
        for player in players:
            seed = rng.randrange(2**32)
            a = player.act(view(state, seat), legal_actions(state), random.Random(seed))
            b = player.act(view(other, seat), legal_actions(other), random.Random(seed))
            assert a == b
        compared += 1
    assert compared >= 8 and differed >= 0.6 * compared


def test_sampled_deals_replay_under_four_of_denari():
    # The first leader of a match was dealt the 4 di denari: every sampled deal must give it that card.
    rng = random.Random(0)
    rules = [Rules(first_lead="four_of_denari")]
    for position in random_positions(200, seed=5, rule_sets=rules):
        for seat in range(4):
            replay(position, sampler_deal(position, seat, rng))  # raises on a deal the record rules out


def holders_of_the_4_di_denari(state, seat, draws=200):
    """The seats that hold the 4 di denari (card 3) in some of ``draws`` deals sampled for ``seat``."""
    v = view(state, seat)
    rng = random.Random(0)
    holders = set()
    for _ in range(draws):
        hands = sample_deal(v, rng)
        check_deal(v, hands)
        holders |= {s for s in range(4) if hands[s] >> 3 & 1}
    return holders


def test_the_4_di_denari_binds_the_first_leader_of_a_match_only():
    rules = Rules(first_lead="four_of_denari", episode="match", target_score=1000, accusi=False)
    # The first hand: seat 1 holds the 4 di denari, so it leads. It leads the 3 di coppe and keeps
    # the 4 di denari: no deal that seat 2 can imagine gives it to anybody else.
    state = play(new_game(rules, hands=fill(seat_1="3c 4d"), dealer=2), "3c", "4s", "4b", "Ac")
    assert state.public.first_leader == 1 and state.public.turn == 1
    assert holders_of_the_4_di_denari(state, 2) == {1}
    # Once played, it is in no hand (and no longer forced on seat 1).
    state = play(state, "4d", "5s", "5b", "5d")
    assert holders_of_the_4_di_denari(state, 2) == set()
    # The second hand: seat 0, after the dealer, leads whoever holds the 4 di denari (seat 3 here).
    state = next_hand(play_out(state), hands=fill(seat_0="4c", seat_3="4d"))
    assert state.public.hand_number == 1 and state.public.first_leader == 0
    state = play(state, "4c")
    assert holders_of_the_4_di_denari(state, 2) == {0, 1, 3}


def test_a_later_hand_of_a_four_of_denari_match_replays_for_the_early_search():
    from tressette_env.agents.search import _dealt

    rules = Rules(first_lead="four_of_denari", episode="match", target_score=1000, accusi=False)
    first = play(new_game(rules, hands=fill(seat_1="3c 4d"), dealer=2), "3c", "4s", "4b", "Ac")
    state = play(next_hand(play_out(first), hands=fill(seat_0="4c", seat_3="4d")), "4c")
    v = view(state, 2)
    rng = random.Random(0)
    holders = set()
    for _ in range(50):
        hands = sample_deal(v, rng)
        replayed = _dealt(v, hands)
        assert replayed is not None and replayed.public.first_leader == 0  # the seat after the dealer
        replayed = apply(replayed, state.public.plays[0])
        assert replayed.hands[1:] == hands[1:] and replayed.public.turn == state.public.turn
        holders |= {s for s in range(4) if hands[s] >> 3 & 1}
    assert len(holders) > 1  # deals with the 4 di denari away from the first leader replay too


def test_reproducible_under_a_seed():
    player = SearchPlayer(samples=4, exact_tricks=6, horizon=2)
    for state in random_states(8, Rules(), seed=9):
        if state.public.status != PLAYING:
            continue
        v, legal = view(state, state.public.turn), legal_actions(state)
        assert player.act(v, legal, random.Random(42)) == player.act(v, legal, random.Random(42))


def test_the_signal_policy_hook():
    def striscio_when_allowed(v, card, legal):
        return card + 40 * STRISCIO if card + 40 * STRISCIO in legal else card

    state = new_game(Rules(), seed=12)
    legal = legal_actions(state)
    player = SearchPlayer(samples=1, horizon=1, signal_policy=striscio_when_allowed, early=None)
    action = player.act(view(state, state.public.turn), legal, random.Random(0))
    assert action in legal
    card = action % 40
    assert action // 40 == (STRISCIO if card + 40 * STRISCIO in legal else 0)

    def cheat(v, card, legal):
        return (card + 1) % 40

    with pytest.raises(ValueError, match="signal_policy"):
        SearchPlayer(samples=1, horizon=1, signal_policy=cheat, early=None).act(
            view(state, state.public.turn), legal, random.Random(0)
        )


def test_bad_settings_are_refused():
    for kwargs in (dict(samples=0), dict(time_budget=0), dict(horizon=0), dict(prior=-1), dict(prior=True)):
        with pytest.raises(ValueError):
            SearchPlayer(**kwargs)
    # Past their bounds: 10**8 samples held a quarter of a GB and growing after 40 s, with no answer.
    for kwargs, words in [(dict(samples=10**8), "samples must be an int from 1 to 4,096; got 100000000"),
                          (dict(samples=4097), "samples must be an int from 1 to 4,096"),
                          (dict(candidates=65), "candidates must be an int from 1 to 64")]:  # fmt: skip
        with pytest.raises(ValueError, match=words):
            SearchPlayer(**kwargs)
    assert SearchPlayer(samples=4096, candidates=64).samples == 4096


def test_a_time_budget_bounds_the_number_of_deals():
    state = new_game(Rules(), seed=1)
    v = view(state, state.public.turn)
    values, deals = SearchPlayer(samples=1000, time_budget=0.05, horizon=2).card_values(v, random.Random(0))
    assert 1 <= deals < 1000
    assert set(values) == {a % 40 for a in legal_actions(state)}


def duplicate_diffs(search, opponent, deals, seed0=0):
    """Search team's points minus the opponent's, both seatings of each deal added."""
    rules = Rules(accusi=False)
    out = []
    for d in range(deals):
        deal = new_game(rules, seed=seed0 + d)
        total = 0
        for team in (0, 1):
            state = new_game(rules, hands=[cards_of(h) for h in deal.hands], dealer=deal.public.dealer)
            rng = random.Random(d)
            while state.public.status == PLAYING:
                seat = state.public.turn
                player = search if seat % 2 == team else opponent
                state = apply(state, player.act(view(state, seat), legal_actions(state), rng))
            points = state.public.result.points
            total += points[team] - points[1 - team]
        out.append(total)
    return out


def test_beats_random_on_duplicate_deals():
    diffs = duplicate_diffs(SearchPlayer(samples=2, exact_tricks=5, horizon=2), RandomPlayer(), deals=3)
    assert sum(diffs) > 0 and min(diffs) >= 0


@pytest.mark.slow
def test_beats_random_clearly():
    # With a time budget play depends on the machine's speed; the margin over random is wide.
    diffs = duplicate_diffs(SearchPlayer(samples=8, time_budget=0.05), RandomPlayer(), deals=12, seed0=1000)
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    assert mean - half > 0


def test_the_early_tricks_go_to_ppo_without_prior_and_search_v1_to_the_heuristic():
    from tressette_env.agents import HeuristicPlayer, make_player
    from tressette_env.agents.search import search_v1

    state = new_game(Rules(), seed=12)
    legal = legal_actions(state)
    seat_view = view(state, state.public.turn)
    # Ten cards left: more than the eight tricks searched exactly, so the shipped model decides (with
    # prior=0; by default the search decides among the model's six favourite cards, tested below).
    assert SearchPlayer(prior=0).act(seat_view, legal, random.Random(0)) == make_player("ppo").act(
        seat_view, legal, random.Random(0)
    )
    assert SearchPlayer().prior == 6 and make_player("search_v1").prior == 0
    # search_v1: more than six tricks left, so the heuristic decides.
    assert search_v1().act(seat_view, legal, random.Random(0)) == HeuristicPlayer().act(
        seat_view, legal, random.Random(0)
    )
    assert make_player("search_v1").exact_tricks == 6 and make_player("search").exact_tricks == 8
    with pytest.raises(ValueError, match="signal_policy 'loud'"):
        SearchPlayer(signal_policy="loud")


def test_prior_searches_among_the_models_favourite_cards():
    from tressette_env.agents import make_player

    ppo = make_player("ppo")
    state = new_game(Rules(), seed=12)
    for _ in range(8):  # the first two tricks: more than eight tricks left
        legal = legal_actions(state)
        v = view(state, state.public.turn)
        ranked = ppo.ranked(v, legal)
        assert sorted(ranked) == sorted(legal) and ranked[0] == ppo.act(v, legal, random.Random(0))
        favourites = []  # the model's favourite action for each card, in its order
        for a in ranked:
            if all(a % 40 != f % 40 for f in favourites):
                favourites.append(a)
        assert SearchPlayer(prior=1, samples=2).act(v, legal, random.Random(0)) == ranked[0]
        assert SearchPlayer(prior=3, samples=2).act(v, legal, random.Random(0)) in favourites[:3]
        state = apply(state, ranked[0])


def test_a_rollout_is_the_model_to_seven_tricks_left_then_exact_play():
    from tressette_env.agents import make_player
    from tressette_env.agents.search import ROLLOUT_TO
    from tressette_env.agents.solver import solve_state

    ppo = make_player("ppo")
    state = new_game(Rules(), seed=5)
    for _ in range(3):
        state = apply(state, legal_actions(state)[0])
    played = state
    while played.public.trick or played.hands[played.public.turn].bit_count() > ROLLOUT_TO:
        seat = played.public.turn
        played = apply(played, ppo.act(view(played, seat), legal_actions(played), random.Random(0)))
    assert ROLLOUT_TO == 7 and played.hands[0].bit_count() == 7
    assert SearchPlayer(prior=2)._rollout(state, ppo) == solve_state(played).thirds


def test_inference_finds_no_mismatch_in_the_true_deal_of_heuristic_play():
    from tressette_env.agents import HeuristicPlayer
    from tressette_env.agents.sampling import DealSampler

    heuristic = HeuristicPlayer()
    player = SearchPlayer(samples=4, inference=heuristic, candidates=3)
    rng = random.Random(0)
    for seed in range(6):
        state = new_game(Rules(), seed=seed)
        for _ in range(13 + seed):  # three tricks and more, every seat the heuristic
            seat = state.public.turn
            state = apply(state, heuristic.act(view(state, seat), legal_actions(state), rng))
        seat_view = view(state, state.public.turn)
        assert player._mismatches(seat_view, state.hands) == 0
        # Deals drawn at random explain the heuristic's plays less well, on the whole.
        sampler = DealSampler(seat_view)
        drawn = [player._mismatches(seat_view, sampler.sample(rng)) for _ in range(20)]
        assert max(drawn) > 0
        chosen = player._inferred(seat_view, sampler, rng)
        assert len(chosen) == 4
        for hands in chosen:  # consistent deals: the viewer's hand, the cards each seat still holds
            assert hands[seat_view.seat] == seat_view.hand
            assert [h.bit_count() for h in hands] == [h.bit_count() for h in state.hands]


def test_inference_keeps_the_deals_that_explain_the_plays():
    from tressette_env.agents import HeuristicPlayer

    heuristic = HeuristicPlayer()
    rng = random.Random(1)
    state = new_game(Rules(), seed=3)
    for _ in range(18):
        state = apply(state, heuristic.act(view(state, state.public.turn), legal_actions(state), rng))
    seat_view = view(state, state.public.turn)
    from tressette_env.agents.sampling import DealSampler

    sampler = DealSampler(seat_view)
    weighted = SearchPlayer(samples=8, inference=heuristic, candidates=4)
    plain = SearchPlayer(samples=8, inference=None)
    mean = lambda deals: sum(weighted._mismatches(seat_view, h) for h in deals) / len(deals)  # noqa: E731
    kept = mean(weighted._inferred(seat_view, sampler, random.Random(2)))
    drawn = mean([sampler.sample(random.Random(100 + i)) for i in range(32)])
    assert kept < drawn
    assert not plain._infers(seat_view) and weighted._infers(seat_view)
    assert not SearchPlayer(samples=8, inference=heuristic, candidates=1)._infers(seat_view)
    with pytest.raises(ValueError, match="candidates"):
        SearchPlayer(candidates=0)


def test_inference_in_a_later_hand_of_a_match():
    from tressette_env.agents import HeuristicPlayer
    from tressette_env.engine import HAND_OVER, next_hand

    heuristic = HeuristicPlayer()
    player = SearchPlayer(samples=2, inference=heuristic, candidates=2, exact_tricks=4)
    rng = random.Random(0)
    for first_lead in ("dealer_right", "four_of_denari"):
        state = new_game(Rules(episode="match", first_lead=first_lead), seed=2)
        while state.public.status != HAND_OVER:
            state = apply(state, heuristic.act(view(state, state.public.turn), legal_actions(state), rng))
        state = next_hand(state, seed=3)
        for _ in range(22):
            state = apply(state, heuristic.act(view(state, state.public.turn), legal_actions(state), rng))
        seat_view = view(state, state.public.turn)
        if first_lead == "dealer_right":
            assert player._mismatches(seat_view, state.hands) == 0
        action = player.act(seat_view, legal_actions(state), rng)
        assert action in legal_actions(state)


def test_a_spent_time_budget_leaves_one_deal_to_the_early_search(monkeypatch):
    # Mid-trick in the first trick (plays to weigh): once the budget is spent, the inference
    # weighs only as many candidates as deals are wanted, and one deal is searched.
    state = new_game(Rules(), seed=3)
    state = apply(state, legal_actions(state)[0])
    v = view(state, state.public.turn)
    legal = legal_actions(state)
    player = SearchPlayer(samples=50, time_budget=1e-9, prior=3)
    weighed, rollouts = [], []
    mismatches, rollout = player._mismatches, player._rollout
    monkeypatch.setattr(player, "_mismatches", lambda *a: weighed.append(1) or mismatches(*a))
    monkeypatch.setattr(player, "_rollout", lambda *a: rollouts.append(1) or rollout(*a))
    action = player.act(v, legal, random.Random(0))
    assert action in legal
    assert len(weighed) == 50  # not 50 * 3 candidates
    assert len(rollouts) == min(3, len({a % 40 for a in legal}))  # the chosen cards, on one deal
    unbounded = SearchPlayer(samples=2, prior=3)
    weighed.clear()
    monkeypatch.setattr(unbounded, "_mismatches", lambda *a: weighed.append(1) or mismatches(*a))
    unbounded.act(v, legal, random.Random(0))
    assert len(weighed) == 2 * 3  # without a budget every candidate is weighed
