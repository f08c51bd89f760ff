"""The batched engines' lookup tables, each pinned to the expression it stands for over every value it takes.

The engines read card bits, a card's strength in the led suit, the card of an action, a seat's
place seen from another and one-hot fields from tables instead of computing them (NumPy's
``%``, ``np.where`` and shifts cost two to five times as much: ``benchmarks/bench_numpy_idioms.py``);
the parity tests pin the engines that use them, and these tests pin each table on its whole
domain, the "none" values (-1, and Calabresella's -2 for the monte) included.
"""

import numpy as np
import pytest

from tressette_env.engine.actions import CALL, CHIAMO, GIVE, PASS, SCEGLIETE, SOLO
from tressette_env.engine.cards import STRENGTH
from tressette_env.games.calabresella import IN_MONTE
from tressette_env.vector import a_chiamare, calabresella
from tressette_env.vector._family import BIT, BIT_FROM_1, SeatTables
from tressette_env.vector._tricks import LED_STRENGTH, PLAY_CARD, card_bits


def test_card_bits_of_every_card_and_of_none():
    cards = np.arange(-1, 40)
    assert card_bits(cards).tolist() == [0 if c < 0 else 1 << c for c in range(-1, 40)]


def test_led_strength_is_the_strength_in_the_led_suit_or_minus_one():
    for led in range(-1, 4):
        for card in range(-1, 40):
            expected = STRENGTH[card] if card >= 0 and card // 10 == led else -1
            assert LED_STRENGTH[(led + 1) * 41 + card + 1] == expected, (led, card)


def test_play_card_is_the_action_modulo_forty():
    assert PLAY_CARD.tolist() == [a % 40 for a in range(256)]


def test_one_hot_values():
    assert BIT.tolist() == [1 << v for v in range(64)]
    assert BIT_FROM_1.tolist() == [0] + [1 << v for v in range(64)]


@pytest.mark.parametrize("seats", range(2, 9))
def test_rel_bits_is_the_place_seen_from_each_seat(seats):
    tables = SeatTables.of(seats)
    x, me = np.meshgrid(np.arange(-1, seats), np.arange(seats), indexing="ij")
    got = tables.rel_bits(x.reshape(-1), me.reshape(-1)).tolist()
    want = [0 if a < 0 else 1 << ((a - m) % seats) for a, m in zip(x.reshape(-1), me.reshape(-1), strict=True)]
    assert got == want


def test_a_chiamare_bid_and_contract_fields():
    index = {PASS: 0, CHIAMO: 1, SOLO: 2}
    for k in range(a_chiamare.P):
        for bid in range(256):
            want = 1 << (3 * k + index[bid]) if bid in index else 0
            assert a_chiamare._BID_BITS[k * 256 + bid] == want, (k, bid)
    assert a_chiamare._CONTRACT_BIT.tolist() == [{CHIAMO: 1, SOLO: 2}.get(c, 0) for c in range(256)]


@pytest.mark.parametrize("rules", [{}, {"players": 4, "four_player": "dealer_sits_out"}])
def test_calabresella_fields_and_the_card_of_each_action(rules):
    batch = calabresella.CalabresellaBatch(2, seed=0, **rules)
    s = batch._s
    for k in range(s):
        for bid in range(256):
            want = 1 << (6 * k + bid - PASS) if PASS <= bid <= SCEGLIETE else 0
            assert batch._bid_bits[k * 256 + bid] == want, (k, bid)
    for came_from in (IN_MONTE, -1, *range(s)):
        for me in range(s):
            want = {IN_MONTE: 1 << s, -1: 0}.get(came_from, 1 << ((came_from - me) % s))
            assert batch._called_from_bit[(came_from + 2) * s + me] == want, (came_from, me)
    contract = [0] * 256
    for c in range(CHIAMO, SCEGLIETE + 1):
        contract[c] = 1 << (c - CHIAMO)
    assert calabresella._CONTRACT_BIT.tolist() == contract
    cards = [min(max(a - GIVE if a >= GIVE else a - CALL if a >= CALL else a % 40, 0), 39) for a in range(255)]
    assert calabresella._ACTION_CARD.tolist() == cards
