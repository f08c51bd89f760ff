"""The search player in Calabresella and Tressette a chiamare: the deals it samples, the sides, the stake it values."""

import random

import pytest

from tests.helpers import load_script
from tressette_env.agents.heuristic import HeuristicPlayer
from tressette_env.agents.open_solver import open_moves, solve_open
from tressette_env.agents.sampling import PILE, DealSampler, face_down_known
from tressette_env.agents.side_search import _utility, deal_sides, side_card_values
from tressette_env.engine import PLAYING, apply, legal_actions, new_game, view
from tressette_env.engine.actions import PASS
from tressette_env.engine.cards import THIRDS, cards_of
from tressette_env.engine.scoring import LAST_TRICK_THIRDS
from tressette_env.engine.state import PLAY
from tressette_env.games.a_chiamare import AChiamareRules
from tressette_env.games.calabresella import CalabresellaRules

FULL = (1 << 40) - 1
ALL_CONTRACTS = ("chiamo", "solo", "solissimo", "dividete")
RULES = {
    "calabresella": CalabresellaRules(),
    "calabresella_monte_unseen": CalabresellaRules(show_monte_on_call=False),
    "calabresella_partial": CalabresellaRules(exchange="partial"),
    "calabresella_dividete": CalabresellaRules(contracts=ALL_CONTRACTS),
    "calabresella_4": CalabresellaRules(players=4),
    "calabresella_dealer_sits_out": CalabresellaRules(players=4, four_player="dealer_sits_out"),
    "a_chiamare": AChiamareRules(),
    "a_chiamare_announced": AChiamareRules(reveal_partner=True),
    "a_chiamare_self_call": AChiamareRules(allow_self_call=True),
}


def card_play(rules, seeds, every=1):
    """States of the card play (every ``every``-th decision) of hands bid at random, the heuristic playing the rest."""
    heuristic = HeuristicPlayer()
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(rules, seed)
        k = 0
        while state.public.status == PLAYING:
            p = state.public
            legal = legal_actions(state)
            if p.phase == PLAY:
                k += 1
                if k % every == 0:
                    yield state
            if p.phase == 1:  # the auction: a bid or a pass at random, so that every contract comes up
                action = rng.choice(legal)
            else:
                action = heuristic.act(view(state, p.turn), legal, rng)
            state = apply(state, action)


def face_down(state):
    """The cards out of every hand and not played: Calabresella's monte or discards."""
    out = FULL & ~state.public.all_played
    for hand in state.hands:
        out &= ~hand
    return out


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_true_deal_meets_every_constraint_and_samples_fit(name):
    rng = random.Random(0)
    checked = 0
    for state in card_play(RULES[name], range(25), every=3):
        p = state.public
        pile = face_down(state)
        for seat in range(p.table.seats):
            v = view(state, seat)
            sampler = DealSampler(v)
            for c in sampler.seats:  # what the record says of each hand, and of the pile, holds of the truth
                truth = pile & ~face_down_known(v) if c.seat == PILE else state.hands[c.seat]
                assert c.accepts(truth), (name, seat, c, truth)
            hands, sampled_pile = sampler.sample_with_pile(rng)
            assert hands[seat] == state.hands[seat]
            assert [h.bit_count() for h in hands] == [h.bit_count() for h in state.hands]
            known = face_down_known(v)
            assert sampled_pile.bit_count() == pile.bit_count() and sampled_pile & known == known
            dealt = sampled_pile
            for s, h in enumerate(hands):
                assert not dealt & h
                dealt |= h
                assert not any(p.is_void(s, suit) and h >> (10 * suit) & 1023 for suit in range(4))
                face_up = p.exposed_by(s) & ~p.rules.game.exposed_face_down(p)  # (a called card may be discarded)
                assert h & face_up == face_up
            assert dealt | p.all_played == FULL
            checked += 1
    assert checked > 30


def test_a_called_card_the_soloist_discarded_may_lie_face_down():
    """The called card handed over face up may be discarded (FAMILY.md 7.4): the opponents' sampler deals it to the
    soloist or to the face-down pile, never forces it into his hand (the true deal with it discarded fits)."""
    rules = CalabresellaRules()
    game = type(rules).game
    found = 0
    for seed in range(400):
        rng = random.Random(seed)
        state = new_game(rules, rng)
        while state.public.status == PLAYING and state.public.table.phase != PLAY:
            state = apply(state, rng.choice(legal_actions(state)))
        p = state.public
        x = p.table.extra
        if p.status != PLAYING or x.called < 0 or state.hands[x.soloist] >> x.called & 1 or x.called_from < 0:
            continue
        assert game.exposed_face_down(p) == 1 << x.called
        assert face_down(state) >> x.called & 1  # discarded
        opponent = next(s for s in range(p.table.seats) if s != x.soloist)
        sampler = DealSampler(view(state, opponent))
        for c in sampler.seats:
            truth = face_down(state) if c.seat == PILE else state.hands[c.seat]
            assert c.accepts(truth), c
            if c.seat not in (x.soloist, PILE):
                assert not c.allowed >> x.called & 1
        places = set()
        for _ in range(40):
            hands, pile = sampler.sample_with_pile(rng)
            places.add("pile" if pile >> x.called & 1 else next(s for s, h in enumerate(hands) if h >> x.called & 1))
        assert places == {"pile", x.soloist}
        found += 1
        if found == 2:
            break
    assert found == 2  # (2 of the first 400 random hands)


def scegliete_play(seeds):
    """States of the card play of solissimo scegliete hands (the forehand bids it), the heuristic exchanging and playing."""
    from tressette_env.engine.actions import SCEGLIETE

    rules = CalabresellaRules(contracts=(*ALL_CONTRACTS, "scegliete"))
    heuristic = HeuristicPlayer()
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(rules, seed)
        while state.public.status == PLAYING:
            p = state.public
            legal = legal_actions(state)
            if p.phase == PLAY:
                yield state
            if p.phase == 1:
                action = SCEGLIETE if SCEGLIETE in legal and not any(p.extra.bids) else PASS
            else:
                action = heuristic.act(view(state, p.turn), legal, rng)
            state = apply(state, action)


def test_in_scegliete_the_monte_the_first_opponent_saw_is_in_the_monte_or_the_second_opponents_hand():
    rng = random.Random(3)
    moved_seen = checked = 0
    for state in scegliete_play(range(40)):
        p = state.public
        x = p.extra
        first, second = (x.soloist + 1) % 3, (x.soloist + 2) % 3
        v = view(state, first)
        saw = v.private
        assert saw and face_down_known(v) == 0 and face_down_known(view(state, second)) == view(state, second).private
        sampler = DealSampler(v)
        for c in sampler.seats:  # the truth fits every constraint
            assert c.accepts(face_down(state) if c.seat == PILE else state.hands[c.seat]), c
        for _ in range(4):
            hands, pile = sampler.sample_with_pile(rng)
            assert not hands[x.soloist] & saw  # the soloist never had them
            assert (hands[second] | pile) & saw == saw & ~p.all_played
            moved_seen += bool(hands[second] & saw)
            checked += 1
        if state.hands[second] & saw:  # the second opponent took one: a deal may say so
            assert any(state.hands[second] & DealSampler(v).sample_with_pile(rng)[0][second] & saw for _ in range(50))
    assert checked > 40 and moved_seen > 0


def test_the_monte_shown_stays_with_the_soloist_or_his_discards():
    rng = random.Random(1)
    checked = 0
    for state in card_play(CalabresellaRules(), range(60), every=2):
        p = state.public
        x = p.extra
        if not x.monte_shown:
            continue
        for seat in range(p.table.seats):
            if seat == x.soloist:
                continue
            v = view(state, seat)
            for _ in range(5):
                hands, _pile = DealSampler(v).sample_with_pile(rng)
                for s, h in enumerate(hands):
                    if s != x.soloist:
                        assert not h & x.monte_shown & ~p.exposed_by(s) & ~state.hands[seat]
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("announced", [False, True])
def test_the_called_card_is_not_the_callers_and_makes_the_partner(announced):
    rng = random.Random(2)
    checked = 0
    for state in card_play(AChiamareRules(reveal_partner=announced), range(30), every=4):
        p = state.public
        x = p.extra
        if x.called < 0 or p.all_played >> x.called & 1:
            continue
        for seat in range(5):
            v = view(state, seat)
            hands = DealSampler(v).sample(rng)
            holder = next(s for s in range(5) if hands[s] >> x.called & 1)
            assert holder != x.declarer
            if announced:
                assert holder == x.announced
            sides = deal_sides(v, hands)
            assert [s for s in range(5) if sides[s] == 0] == sorted({x.declarer, holder})
            checked += 1
    assert checked > 20


@pytest.mark.parametrize(
    "solo, declarer, rule, value",
    [
        (18, True, "zero_points", 1),  # six points: the contract is made (the seed's worked example)
        (17, True, "zero_points", -1),  # five points and two thirds: lost
        (35, True, "zero_points", 2),  # the others made no point: cappotto
        (33, True, "zero_points", 2),  # two thirds are no whole point
        (33, True, "zero_thirds", 1),  # but they are some thirds
        (2, True, "zero_points", -2),  # the seed's worked example: the coalition took 33, cappotto against the soloist
        (2, False, "zero_points", 2),  # the same from the coalition's side
        (18, False, "zero_points", -1),
    ],
)
def test_the_value_of_an_outcome_is_the_contracts(solo, declarer, rule, value):
    rules = CalabresellaRules(cappotto_rule=rule)
    mine = solo if declarer else 35 - solo
    tricks = [1, 1]  # both sides have taken a trick
    assert _utility(rules, mine, 35 - mine, declarer, tricks, [0, 0]) == pytest.approx(value + 0.01 * mine)


def test_difference_scoring_values_the_thirds():
    assert _utility(CalabresellaRules(scoring="difference"), 23, 12, True, [1, 1], [0, 0]) == 23


@pytest.mark.parametrize("name", ["calabresella", "calabresella_dividete", "a_chiamare", "a_chiamare_self_call"])
def test_the_solver_and_the_engine_agree_on_the_outcome(name):
    # On the true deal, from four tricks left: the solver's thirds for the declarer's side, with the
    # face-down cards on the last trick, are what the engine scores when every seat plays the solver's
    # best card; and the value of that outcome is the engine's stake (won or lost, cappotto or not).
    rules = RULES[name]
    checked = 0
    for seed in range(40):
        state = next((s for s in card_play(rules, [seed]) if s.hands[s.public.turn].bit_count() == 4), None)
        if state is None:
            continue
        p = state.public
        v = view(state, p.turn)
        sides = deal_sides(v, state.hands)
        pile = face_down(state)
        last = LAST_TRICK_THIRDS + sum(THIRDS[c] for c in cards_of(pile))
        taken = [0, 0]
        for ps in set(p.table.sides):
            taken[sides[p.table.sides.index(ps)]] += p.thirds[ps]
        predicted = solve_open(state.hands, p.leader, p.trick, taken, sides=sides, last_trick=last)
        while state.public.status == PLAYING:
            q = state.public
            moves = open_moves(state.hands, q.leader, q.trick, (0, 0), sides=sides, last_trick=last)
            best = max(moves.values())
            card = min(c for c, value in moves.items() if value == best)
            state = apply(state, next(a for a in legal_actions(state) if a % 40 == card))
        result = state.public.result
        assert result.card_thirds[0] == predicted[0], (name, seed)
        won = result.card_thirds[0] >= 18
        stake = (2 if result.cappotto is not None else 1) * (1 if won else -1)
        tricks = [1, 1] if result.cappotto is None else [1, 0] if won else [0, 1]
        value = _utility(rules, predicted[0], predicted[1], True, tricks, taken)
        assert round(value) == stake, (name, seed)
        checked += 1
    assert checked >= 5


def test_side_card_values_values_every_legal_card():
    rng = random.Random(3)
    checked = 0
    for state in card_play(CalabresellaRules(), range(30)):
        p = state.public
        if state.hands[p.turn].bit_count() > 3:
            continue
        values = side_card_values(view(state, p.turn), 3, rng)
        assert sorted(values) == sorted({a % 40 for a in legal_actions(state)})
        assert all(-2.0 <= value <= 2.0 + 0.01 * 35 for value in values.values())
        checked += 1
    assert checked > 10


@pytest.mark.parametrize(
    "rules",
    [CalabresellaRules(contracts=(*ALL_CONTRACTS, "scegliete")), CalabresellaRules(players=4), AChiamareRules()],
    ids=["calabresella_every_contract", "calabresella_4", "a_chiamare"],
)
def test_the_search_player_plays_every_contract_legally(rules):
    from tressette_env.agents.search import SearchPlayer

    search = SearchPlayer(samples=2)
    rng = random.Random(4)
    contracts = set()
    for seed in range(20):
        state = new_game(rules, seed)
        while state.public.status == PLAYING:
            p = state.public
            legal = legal_actions(state)
            action = rng.choice(legal) if p.phase == 1 else search.act(view(state, p.turn), legal, rng)
            assert action in legal
            state = apply(state, action)
        contracts.add(state.public.extra.contract)
    assert len(contracts - {0}) >= 2


def _bench_side_play():
    return load_script("benchmarks/bench_side_play.py")


@pytest.mark.parametrize("game", ["calabresella", "tressette_a_chiamare"])
def test_bench_side_play_reads_the_declarers_unit(game):
    """benchmarks/bench_side_play.py: the unit is what each opponent pays, won when the side took 18 thirds."""
    bench = _bench_side_play()
    results = set()
    for seed in range(8):
        state, team = bench.play_deal(game, seed, "heuristic", "heuristic")
        p = state.public
        unit, made = bench.declarer_unit(game, seed, "heuristic", "heuristic")
        ours = sum(p.thirds[side] for side in {p.table.sides[s] for s in team})
        assert made == (ours >= 18)
        stakes = [p.table.extra.stakes[p.table.controllers[s]] for s in range(p.table.seats)]
        assert all(stakes[s] == -unit for s in range(p.table.seats) if s not in team)
        assert all((stakes[s] > 0) == made for s in team) and sum(stakes) == 0
        results.add(made)
    assert results == {True, False}


def test_a_passed_deadline_leaves_one_deal_to_the_side_search(monkeypatch):
    import tressette_env.agents.side_search as side_search

    calls = []
    solve = side_search.open_moves
    monkeypatch.setattr(side_search, "open_moves", lambda *a, **k: calls.append(1) or solve(*a, **k))
    state = next(s for s in card_play(RULES["calabresella"], range(5)) if s.hands[s.public.turn].bit_count() <= 3)
    v = view(state, state.public.turn)
    assert side_card_values(v, 6, random.Random(0)).keys() == side_card_values(v, 6, random.Random(0), 0.0).keys()
    assert len(calls) == 6 + 1  # every deal without a deadline; one once it has passed
