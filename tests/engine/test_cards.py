"""Card ids, taking order and point values (RULES.md, 'Cards')."""

import pytest

from tressette_env.engine.cards import (
    DECK_THIRDS,
    FOUR_OF_DENARI,
    STRENGTH,
    SUIT_MASK,
    THIRDS,
    card_code,
    card_id,
    card_name,
    cards_of,
    mask_of,
    parse_card,
    parse_cards,
    suit_of,
    undealt,
)


@pytest.mark.parametrize(
    "card, name",
    [
        (0, "asso di denari"),
        (2, "3 di denari"),
        (9, "re di denari"),
        (10, "asso di coppe"),
        (27, "fante di spade"),
        (38, "cavallo di bastoni"),
        (39, "re di bastoni"),
    ],
)
def test_card_ids_of_rules_md(card, name):
    assert card_name(card) == name


def test_card_id_formula_and_errors():
    assert card_id(0, 1) == 0 and card_id(3, 10) == 39 and card_id(1, 4) == 13
    assert FOUR_OF_DENARI == card_id(0, 4)
    with pytest.raises(ValueError, match="values 1-10"):
        card_id(0, 11)
    with pytest.raises(ValueError, match="suits are 0-3"):
        card_id(4, 1)


def test_taking_power_order_in_every_suit():
    order = ["3", "2", "A", "R", "C", "F", "7", "6", "5", "4"]  # highest first
    for suit in "dcsb":
        strengths = [STRENGTH[parse_card(rank + suit)] for rank in order]
        assert strengths == sorted(strengths, reverse=True)
        assert len(set(strengths)) == 10


def test_point_values_in_thirds():
    for suit in "dcsb":
        assert THIRDS[parse_card("A" + suit)] == 3
        for rank in "23FCR":
            assert THIRDS[parse_card(rank + suit)] == 1
        for rank in "4567":
            assert THIRDS[parse_card(rank + suit)] == 0
    assert DECK_THIRDS == 32  # 10 2/3 points


def test_masks_and_codes_round_trip():
    for card in range(40):
        assert parse_card(card_code(card)) == card
        assert suit_of(card) == card // 10
        assert mask_of([card]) & SUIT_MASK[suit_of(card)]
    assert cards_of(parse_cards("Rb Ad 7c")) == [0, 16, 39]
    with pytest.raises(ValueError, match="bad card code"):
        parse_card("Xd")


def test_undealt_is_the_rest_of_the_deck_in_id_order():
    assert undealt() == list(range(40))
    assert undealt(parse_cards("Ad Rb"), 0, mask_of([5, 0])) == [c for c in range(40) if c not in (0, 5, 39)]
    assert undealt(mask_of(range(40))) == []
    assert undealt(mask_of(range(10)), mask_of(range(5, 15))) == list(range(15, 40))  # overlapping masks
