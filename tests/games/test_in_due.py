"""Tressette in due (FAMILY.md section 1), rule by rule, with hand-built deals."""

import random

import numpy as np
import pytest

from tests.helpers import action, face_up_first, play
from tressette_env import tressette_in_due_v0
from tressette_env.encoders.in_due import OBSERVATION
from tressette_env.engine import (
    GAME_OVER,
    HAND_OVER,
    PLAYING,
    IllegalActionError,
    apply,
    cards_of,
    legal_actions,
    new_game,
    next_hand,
    parse_card,
    parse_cards,
    renuncio,
    view,
)
from tressette_env.engine.actions import CALL, CALL_OUT, PACKET
from tressette_env.engine.scoring import score_hand
from tressette_env.games.in_due import PLAY_PACKETS, PLAY_STOCK, TURN_PACKETS, InDueRules

FULL = (1 << 40) - 1


def codes(text):
    return [parse_card(c) for c in text.split()]


def two(h0, h1):
    return [codes(h0), codes(h1)]


# Player 0 holds denari and coppe, player 1 spade and bastoni; the stock holds the rest.
HANDS = two("3d 2d Ad Rd Cd Fd 7d 3c 2c Ac", "3s 2s As Rs Cs Fs 7s 3b 2b Ab")
STOCK = codes("6d 5d 4d Rc Cc Fc 7c 6c 5c 4c 6s 5s 4s Rb Cb Fb 7b 6b 5b 4b")


def deal(rules=None, hands=HANDS, stock=STOCK, dealer=1):
    return new_game(rules or InDueRules(), hands=hands, stock=stock, dealer=dealer)


def test_ten_cards_each_a_stock_of_twenty_and_the_non_dealer_leads():
    for seed in range(20):
        state = new_game(InDueRules(), seed)
        assert [h.bit_count() for h in state.hands] == [10, 10]
        stock = state.hidden.stock
        assert len(stock) == 20 and state.hands[0] | state.hands[1] | sum(1 << c for c in stock) == FULL
        assert state.public.turn == state.public.first_leader == 1 - state.public.dealer
        assert state.public.extra.stock == 20 and state.public.phase == PLAY_STOCK


def test_the_winner_draws_the_top_card_then_the_loser_and_both_are_shown():
    state = play(deal(), "3d", "3s")  # player 0 leads (dealer 1); player 1 cannot follow: player 0 takes
    p = state.public
    assert p.thirds == (2, 0) and p.turn == 0  # the winner leads the next trick
    assert state.hands[0] >> parse_card("6d") & 1 and state.hands[1] >> parse_card("5d") & 1
    assert p.exposed_by(0) == parse_cards("6d") and p.exposed_by(1) == parse_cards("5d")
    assert p.extra.stock == 18 and state.hidden.stock == tuple(STOCK[2:])


def test_hidden_draws_are_not_shown_and_clear_the_drawer_voids():
    rules = InDueRules(show_drawn=False)
    state = play(deal(rules), "3d", "3s")  # player 1 showed it has no denari, then drew a hidden card
    assert state.public.exposed == 0
    assert not state.public.is_void(1, 0)
    shown = play(deal(), "3d", "3s")  # with show_drawn the void stays: its hidden cards still hold no denari
    assert shown.public.is_void(1, 0)


def test_the_follower_follows_suit_while_the_stock_lasts_unless_the_switch_lifts_it():
    hands = two("3d 2d Ad Rd Cd Fd 7d 3c 2c Ac", "4d 2s As Rs Cs Fs 7s 3b 2b Ab")
    stock = codes("3s 6d 5d Rc Cc Fc 7c 6c 5c 4c 6s 5s 4s Rb Cb Fb 7b 6b 5b 4b")
    state = play(new_game(InDueRules(), hands=hands, stock=stock, dealer=1), "Ad")
    assert legal_actions(state) == [parse_card("4d")]
    with pytest.raises(IllegalActionError, match="must follow the led suit"):
        apply(state, action("2s"))
    free = play(new_game(InDueRules(follow_suit_with_stock=False), hands=hands, stock=stock, dealer=1), "Ad")
    assert len(legal_actions(free)) == 10
    after = apply(free, action("2s"))
    assert not after.public.is_void(1, 0)  # it held a denaro: no void is shown


def test_once_the_stock_is_empty_the_follower_must_follow_again():
    state = new_game(InDueRules(follow_suit_with_stock=False), seed=3)
    rng = random.Random(0)
    while state.public.tricks_done < 10 or state.public.trick:
        state = apply(state, rng.choice(legal_actions(state)))
    assert state.public.extra.stock == 0 and state.public.phase == 0 and state.public.table.must_follow
    state = apply(state, legal_actions(state)[0])
    led = state.public.trick[0] // 10
    hand = state.hands[state.public.turn]
    if hand & (0x3FF << (10 * led)):
        assert all(a // 10 == led for a in legal_actions(state))


def test_twenty_tricks_and_the_last_one_is_worth_a_point():
    for seed in range(30):
        state = new_game(InDueRules(), seed)
        while state.public.status == PLAYING:
            state = apply(state, legal_actions(state)[0])
        p = state.public
        assert p.tricks_done == 20 and sum(p.result.card_thirds) == 35 and sum(p.result.points) == 11


def test_the_worked_example_six_and_five():
    # Player 0 takes 16 thirds in cards and the last trick (3): 19 thirds = 6 points; player 1 16 thirds = 5.
    assert score_hand((19, 16), (0, 0)).points == (6, 5)


def test_accusi_dealt_are_declared_at_the_deal_and_public():
    hands = two("Ad 2d 3d 4d 5d 6d 7d Fd Cd Rd", "Ac 2c 3c As 2s 3s 4c 5c 6c 7c")
    state = new_game(InDueRules(accusi="dealt"), hands=hands, dealer=1)
    names = [[a.name for a in seat] for seat in state.public.accusi.by_seat]
    assert names == [["napoletana di denari"], ["napoletana di coppe", "napoletana di spade"]]
    assert state.public.accusi.points == (3, 6)
    assert new_game(InDueRules(), hands=hands, dealer=1).public.accusi.points == (0, 0)


def test_dealt_and_drawn_declares_a_combination_a_draw_completes():
    # LOT: "se pesca il quarto Asso avendo in mano gli altri tre, dichiara quattro Assi e segna altri quattro punti".
    hands = two("Ad Ac As 4d 5d 6d 7d 4c 5c 6c", "3d 2d Rd 3s 2s Rs 3b 2b Rb Fb")
    stock = codes("Ab 7c 4s 5s 6s 7s Cd Fd Cs Fs 2c 3c Rc Cc Fc 7b 6b 5b 4b Cb")
    state = new_game(InDueRules(accusi="dealt_and_drawn"), hands=hands, stock=stock, dealer=1)
    assert [a.name for a in state.public.accusi.by_seat[0]] == ["tris di assi (manca bastoni)"]
    state = play(state, "4c", "3s")  # player 0 wins (player 1 cannot follow), draws the asso di bastoni
    declared = state.public.accusi.by_seat[0]
    assert [a.name for a in declared] == ["tris di assi (manca bastoni)", "quattro assi"]
    assert state.public.accusi.points == (7, 6)  # player 1 declared three 3s and three 2s at the deal
    assert state.public.revealed_by(0) == parse_cards("Ad Ac As Ab")
    # The same draw by another rule declares nothing new.
    plain = play(new_game(InDueRules(accusi="dealt"), hands=hands, stock=stock, dealer=1), "4c", "3s")
    assert plain.public.accusi.points == (3, 6)


def test_avoid_counts_the_points_against_the_taker():
    rules = InDueRules(objective="avoid")
    env = tressette_in_due_v0.raw_env(objective="avoid")
    env.reset(seed=0)
    for _agent in env.agent_iter():
        obs, reward, term, _, _ = env.last()
        if term:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    p = env.game.public
    points = p.result.points
    assert p.rules.game.returns(p) == (float(points[1] - points[0]), float(points[0] - points[1]))
    game = rules.game
    assert game.match_winner(InDueRules(objective="avoid", episode="match"), (22, 10)) == 1  # the first to 21 loses
    assert game.match_winner(InDueRules(episode="match"), (22, 10)) == 0


@pytest.mark.parametrize("objective, points", [("take", (11, 0)), ("avoid", (0, 11))])
def test_a_renuncio_loses_the_hand(objective, points):
    state = deal(InDueRules(objective=objective), dealer=0)  # player 1 leads: its renuncio
    assert renuncio(state).public.result.points == points


def test_a_match_alternates_the_dealer_and_ends_at_the_target():
    state = new_game(InDueRules(episode="match", target_score=21), seed=1, dealer=0)
    dealers = []
    while True:
        dealers.append(state.public.dealer)
        while state.public.status == PLAYING:
            state = apply(state, legal_actions(state)[0])
        if state.public.status == GAME_OVER:
            break
        assert state.public.status == HAND_OVER
        state = next_hand(state, seed=len(dealers))
    assert dealers == [d % 2 for d in range(len(dealers))]
    score = state.public.match_score
    assert max(score) >= 21 and state.public.winner == score.index(max(score))


def test_calling_out_wins_the_match_when_true():
    rules = InDueRules(episode="match", target_score=3, calling_out=True)
    # Player 0 takes 3d 3s (2 thirds), 2d 5d (1: player 1 drew the 5d), Ad As (6): 9 thirds, 3 points.
    state = play(deal(rules), "3d", "3s", "2d", "5d", "Ad", "As")
    assert CALL_OUT in legal_actions(state)
    assert apply(state, CALL_OUT).public.winner == 0
    early = deal(rules)
    assert apply(early, CALL_OUT).public.winner == 1  # a false claim loses the match


def test_a_chosen_deal_is_checked_and_changes_nothing():
    env = tressette_in_due_v0.raw_env()
    env.reset(seed=1)
    game = env.game
    for options, message in (
        ({"hands": HANDS[:1]}, "a deal's hands are 2 lists of 10"),
        ({"hands": [HANDS[0], HANDS[0]]}, "is dealt in hand 0 and in hand 1"),
        ({"hands": HANDS, "stock": STOCK[:19]}, "stock 0 of the deal has 19 cards"),
        ({"hands": HANDS, "stock": [STOCK[0]] * 20}, "dealt twice in stock 0"),
        ({"packets": [[0] * 5] * 8}, 'packets are for deal="packets"'),
        ({"dealer": 2}, "dealer must be a seat 0..1"),
    ):
        with pytest.raises(ValueError, match=message):
            env.reset(seed=5, options=options)
        assert env.game is game
    env.reset(options={"hands": HANDS, "stock": STOCK, "dealer": 0})
    assert env.game.hands == (sum(1 << c for c in HANDS[0]), sum(1 << c for c in HANDS[1]))
    assert env.game.hidden.stock == tuple(STOCK) and env.agent_selection == "player_1"


def test_only_hands_or_only_a_stock_shuffle_the_rest():
    state = new_game(InDueRules(), seed=0, hands=HANDS)
    assert sorted(state.hidden.stock) == sorted(STOCK)
    state = new_game(InDueRules(), seed=0, stock=STOCK)
    assert state.hidden.stock == tuple(STOCK) and state.hands[0] | state.hands[1] == FULL & ~sum(1 << c for c in STOCK)


# ------------------------------------------------------------------ the packet form

PACKETS = [codes(p) for p in ("3d 4d 5d 6d 7d", "Ad Fd Cd Rd 2d", "3c 4c 5c 6c 7c", "Ac Fc Cc Rc 2c",
                              "3s 4s 5s 6s 7s", "As Fs Cs Rs 2s", "3b 4b 5b 6b 7b", "Ab Fb Cb Rb 2b")]  # fmt: skip


def turn_up(code: str) -> int:
    """Turn up the packet whose bottom card is ``code``: ``CALL + card``."""
    return CALL + parse_card(code)


def label(state, a: int) -> str:
    """An action's name on the play screen and in the protocol."""
    return state.public.rules.game.action_label(state.public, a)


def test_packets_each_player_turns_up_two_of_four_and_the_tops_are_shown_at_once():
    state = new_game(InDueRules(deal="packets"), packets=PACKETS, dealer=1)
    p = state.public
    assert p.phase == TURN_PACKETS and p.turn == 0  # the non-dealer chooses first
    assert state.hands[0] == parse_cards("3d Ad 3c Ac")  # it sees its packets' bottom cards
    # A packet is turned up by naming its bottom card (which the table sees at once): CALL + card.
    state = apply(state, turn_up("3d"))
    assert state.public.exposed_by(0) == parse_cards("3d") and state.public.turn == 0
    assert legal_actions(state) == [turn_up("Ad"), turn_up("Ac"), turn_up("3c")]
    assert state.public.history == (turn_up("3d"),) and state.public.extra.turned == ((parse_card("3d"),), ())
    assert [label(state, a) for a in legal_actions(state)] == ["volta Ad", "volta Ac", "volta 3c"]
    state = apply(state, turn_up("3c"))
    assert state.public.turn == 1
    state = apply(apply(state, turn_up("As")), turn_up("3s"))
    p = state.public
    assert p.phase == PLAY_PACKETS and p.turn == 0
    assert state.hands[0] == parse_cards("Ad Fd Cd Rd 2d Ac Fc Cc Rc 2c 3d 3c")  # two packets and two tops
    assert p.exposed_by(0) == parse_cards("3d 3c") and p.extra.sizes == ((5, 5), (5, 5))


def test_playing_a_top_uncovers_the_next_card_of_its_packet():
    state = new_game(InDueRules(deal="packets"), packets=PACKETS, dealer=1)
    for card in ("3d", "3c", "As", "3s"):
        state = apply(state, turn_up(card))
    state = apply(state, action("3d"))
    p = state.public
    assert p.extra.tops[0] == (parse_card("4d"), parse_card("3c")) and p.extra.sizes[0] == (4, 5)
    assert state.hands[0] >> parse_card("4d") & 1 and p.exposed_by(0) >> parse_card("4d") & 1


def test_the_follower_follows_suit_with_a_face_up_top():
    state = new_game(InDueRules(deal="packets"), packets=PACKETS, dealer=1)
    for card in ("3d", "3c", "As", "3s"):  # player 1 turns up its As and 3s packets: it holds spade only as tops
        state = apply(state, turn_up(card))
    state = apply(state, action("3c"))  # no: player 0 leads coppe, player 1 has none at all
    assert all(a // 10 != 1 for a in legal_actions(state))
    state = new_game(InDueRules(deal="packets"), packets=PACKETS, dealer=1)
    for card in ("3d", "3c", "As", "3s"):
        state = apply(state, turn_up(card))
    # player 0 leads a spade? it has none; lead denari and check player 1's legal set is its whole playable hand
    state = apply(state, action("Ad"))
    assert set(legal_actions(state)) == set(cards_of(state.hands[1]))


def test_packet_choice_blind_then_turning_up():
    rules = InDueRules(deal="packets", packet_deal="choose")
    state = new_game(rules, packets=PACKETS, dealer=1)
    assert state.public.phase == 1 and state.hands == (0, 0)
    for k in (7, 6, 5, 4):
        state = apply(state, PACKET + k)
    assert state.public.phase == TURN_PACKETS
    assert state.hands[0] == parse_cards("3s As 3b Ab") and state.hands[1] == parse_cards("3d Ad 3c Ac")


def test_pizzichi_pickup_takes_an_honour_top_into_the_hand():
    packets = [list(p) for p in PACKETS]
    packets[0] = codes("3d 2d Ad 6d 7d")  # under the 3d: the 2d, then the asso
    packets[1] = codes("4d Fd Cd Rd 5d")
    state = new_game(InDueRules(deal="packets", pizzichi_pickup=True), packets=packets, dealer=1)
    for card in ("3d", "Ac", "As", "3s"):
        state = apply(state, turn_up(card))
    p = state.public
    # The 3d top is a pizzico: into the hand, and so are the 2d and the asso under it; then the 6d.
    assert p.extra.tops[0][0] == parse_card("6d") and p.extra.sizes[0][0] == 2
    assert state.hands[0] & parse_cards("3d 2d Ad 6d") == parse_cards("3d 2d Ad 6d")


# ------------------------------------------------------------------ what a seat observes


def test_the_observation_shows_the_stock_the_drawn_cards_and_then_the_opponent_hand():
    state = play(deal(), "3d", "3s")
    obs = OBSERVATION.unflatten(OBSERVATION.encode(view(state, 1)))
    assert obs["stock"].sum() == 18
    assert np.flatnonzero(obs["opponent_hand"]).tolist() == [parse_card("6d")]
    assert np.flatnonzero(obs["exposed"][0]).tolist() == [parse_card("5d")]  # its own shown draw
    rng = random.Random(1)
    while state.public.extra.stock:
        state = apply(state, rng.choice(legal_actions(state)))
    me = state.public.turn
    obs = OBSERVATION.unflatten(OBSERVATION.encode(view(state, me)))
    assert obs["stock"].sum() == 0
    assert np.flatnonzero(obs["opponent_hand"]).tolist() == cards_of(state.hands[1 - me])


def test_own_packets_while_choosing():
    state = new_game(InDueRules(deal="packets"), packets=PACKETS, dealer=1)
    obs = OBSERVATION.unflatten(OBSERVATION.encode(view(state, 0)))
    assert [int(np.flatnonzero(row)[0]) for row in obs["own_packets"]] == cards_of(parse_cards("3d Ad 3c Ac"))
    assert obs["phase"].tolist() == [0, 1, 0, 0]


def test_nothing_hidden_reaches_an_observation():
    """Replay the public history on other deals that the observer cannot tell apart: same observations.

    Another deal keeps the observer's hand, every card the opponent has played from its
    dealt hand and the cards drawn so far (shown): the opponent's unseen cards and the rest
    of the stock are dealt again at random.
    """
    rng = random.Random(0)
    compared = 0
    for seed in range(40):
        state = new_game(InDueRules(), seed)
        me = rng.randrange(2)
        for _ in range(rng.randrange(1, 30)):
            if state.public.status != PLAYING:
                break
            state = apply(state, rng.choice(legal_actions(state)))
        p = state.public
        drawn = 2 * min(p.tricks_done, 10)
        other = 1 - me
        dealt_other = state.dealt[other]
        known = (p.played_by(other) | p.exposed_by(other)) & dealt_other
        full_stock = list(new_game(InDueRules(), seed).hidden.stock)
        for _ in range(200):  # rejection: a deal the public record rules out fails to replay
            pool = cards_of(dealt_other & ~known) + full_stock[drawn:]
            rng.shuffle(pool)
            n = (dealt_other & ~known).bit_count()
            hands = [0, 0]
            hands[me] = state.dealt[me]
            hands[other] = known | sum(1 << c for c in pool[:n])
            alt = new_game(
                InDueRules(), hands=[cards_of(h) for h in hands], stock=full_stock[:drawn] + pool[n:], dealer=p.dealer
            )
            try:
                for a in p.history:
                    alt = apply(alt, a)
            except IllegalActionError:
                continue
            assert OBSERVATION.encode(view(alt, me)).tobytes() == OBSERVATION.encode(view(state, me)).tobytes()
            compared += alt.hands[other] != state.hands[other] or alt.hidden.stock != state.hidden.stock
            break
    assert compared >= 25  # most positions were compared with a really different hidden deal


@pytest.mark.parametrize("rules", [{"deal": "packets"}, {"deal": "packets", "pizzichi_pickup": True}, {}])
def test_the_opponent_hand_a_seat_sees_is_what_lies_face_up_and_with_a_stock_the_end(rules):
    """``opponent_hand`` at every decision of every seat, the card play on the mirror included: the opponent's cards
    lying face up (its packets' tops, its shown draws), and with the stock form once the stock is empty its whole hand;
    with packets, never the hidden hand, even after the last packet is gone. The players play face-up cards first, so
    that the packets empty before the hand's last tricks."""
    env = tressette_in_due_v0.raw_env(**rules)
    piece = OBSERVATION.slices["opponent_hand"]
    rng = random.Random(5)
    after_the_packets = 0
    for episode in range(10):
        env.reset(seed=episode)
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            state = env.game
            p = state.public
            for seat, name in enumerate(env.agents):
                other = 1 - seat
                face_up = p.table.exposed >> (40 * other) & FULL & state.hands[other]
                whole = p.rules.deal == "stock" and p.extra.stock == 0
                seen = np.flatnonzero(env.observe(name)["observation"][piece]).tolist()
                assert seen == cards_of(state.hands[other] if whole else face_up), (episode, p.history)
            after_the_packets += p.rules.deal == "packets" and not p.table.phase
            env.step(rng.choice(face_up_first(p, p.turn, np.flatnonzero(env.observe(agent)["action_mask"]))))
    assert after_the_packets > 10 or rules.get("deal") != "packets"


def test_the_dense_reward_points_the_way_of_the_objective():
    from tressette_env.wrappers.single_agent import SingleAgentEnv

    for objective, sign in (("take", 1), ("avoid", -1)):
        env = SingleAgentEnv("tressette_in_due", agent=0, others="random", dense_reward=True, objective=objective)
        env.reset(seed=0, options={"hands": HANDS, "stock": STOCK, "dealer": 1})
        _, reward, *_ = env.step(action("3d"))  # player 0 takes 3d and the opponent's card
        taken = env.game.public.thirds
        assert reward == pytest.approx(sign * (taken[0] - taken[1]) / 3) and taken[0] > 0
