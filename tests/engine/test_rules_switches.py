"""Rules: every switch, its default, and the errors for bad ones."""

import pytest

from tressette_env.engine import SWITCHES, Rules, make_rules


def test_defaults_are_those_of_rules_md():
    r = Rules()
    assert (r.target_score, r.episode, r.accusi, r.signals, r.striscio) == (21, "hand", True, True, "keeps_suit")
    assert (r.first_lead, r.cappotto_bonus, r.calling_out, r.illegal_action) == ("dealer_right", 0, False, "renuncio")
    assert SWITCHES == (
        "target_score",
        "episode",
        "accusi",
        "signals",
        "striscio",
        "first_lead",
        "cappotto_bonus",
        "calling_out",
        "illegal_action",
    )


@pytest.mark.parametrize(
    "switches, message",
    [
        ({"target_score": 0}, "target_score=0: must be an int 1..10000"),
        ({"target_score": 21.0}, "target_score=21.0"),
        ({"target_score": True}, "target_score=True"),
        ({"episode": "game"}, "episode='game': must be one of 'hand', 'match'"),
        ({"accusi": 1}, "accusi=1: must be True or False"),
        ({"signals": "yes"}, "signals='yes'"),
        ({"first_lead": "dealer"}, "first_lead='dealer'"),
        ({"striscio": "narrow"}, "striscio='narrow': must be one of 'keeps_suit', 'no_honours'"),
        ({"cappotto_bonus": -1}, "cappotto_bonus=-1: must be an int 0..10000"),
        ({"illegal_action": "ignore"}, "illegal_action='ignore'"),
        ({"calling_out": True}, 'needs episode="match"'),
    ],
)
def test_bad_values_are_named(switches, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_rules(**switches)


def test_unknown_switch_lists_the_allowed_ones():
    with pytest.raises(
        TypeError,
        match=r"unknown rule switch 'target' \(did you mean 'target_score'\?\); the switches are: target_score, episode",
    ):
        make_rules(target=31)
    with pytest.raises(TypeError, match="unknown rule switch 'colour'; the switches are"):  # nothing close: no guess
        make_rules(colour=3)


def test_rules_are_frozen():
    with pytest.raises(AttributeError):
        Rules().accusi = False


def test_an_unknown_switch_is_quoted_cut_short():
    """A huge unknown keyword is named as ``shown`` cuts it, in one bounded line."""
    with pytest.raises(TypeError) as caught:
        make_rules(**{"x" * 10**5: 1})
    assert len(str(caught.value)) < 600 and "\n" not in str(caught.value)


def test_every_switch_has_one_kind_and_the_lists_are_the_auction_games_contracts():
    import dataclasses

    from tressette_env import catalog
    from tressette_env.engine.switches import KINDS, switch_kind

    listed = set()
    for game in catalog.names():
        for field in dataclasses.fields(catalog.entry(game).rules_type()):
            kind = switch_kind(field)
            assert kind in KINDS, (game, field.name, kind)
            if kind in ("subset|None", "mapping|None"):
                listed.add((game, field.name, kind))
            elif kind == "bool":
                assert isinstance(field.default, bool)
    assert listed == {
        ("calabresella", "contracts", "subset|None"),
        ("calabresella", "multipliers", "mapping|None"),
        ("tressette_a_chiamare", "multipliers", "mapping|None"),
    }
