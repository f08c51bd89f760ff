"""Rule switches written as text (``tressette_env.rule_text``): the reading the command line and the web table share."""

import re

import pytest

from tressette_env.engine.rules import Rules
from tressette_env.rule_text import game_rules, rule_switches


def test_each_kind_of_value_is_read_as_the_module_table_says():
    switches = rule_switches(["episode=match", "target_score=21", "accusi=FALSE"], Rules)
    assert switches == {"episode": "match", "target_score": 21, "accusi": False}
    assert type(switches["target_score"]) is int and switches["accusi"] is False
    rules = game_rules("tressette", ["episode=match", "target_score=21", "accusi=false"])
    assert (rules.episode, rules.target_score, rules.accusi) == ("match", 21, False)
    assert rule_switches([], Rules) == {} and game_rules("tressette", []) == Rules()


@pytest.mark.parametrize(
    ("items", "words"),
    [
        (["episode"], "--rule 'episode': write name=value, e.g. --rule episode=match"),
        (["accusi=1"], "--rule 'accusi=1': accusi is true or false, e.g. --rule accusi=false"),
        (["accusi=yes"], "accusi is true or false"),
        (["target_score=many"], "target_score"),  # the rules' own check names the switch
        (["no_such_switch=1"], "no_such_switch"),
    ],
)
def test_a_switch_written_wrong_is_refused_with_what_is_allowed(items, words):
    with pytest.raises((ValueError, TypeError), match=re.escape(words)):
        game_rules("tressette", items)


def test_an_unknown_game_is_refused_with_the_games():
    with pytest.raises(ValueError, match="calabresella"):
        game_rules("briscola", [])


def test_the_command_line_and_the_web_table_read_switches_here_only():
    """One home: neither the command line nor the web table keeps a reading of its own."""
    import tressette_env.cli as cli
    import tressette_env.web.table as table

    assert cli.game_rules is game_rules and cli.rule_switches is rule_switches
    assert table.game_rules is game_rules
    assert not hasattr(cli, "_game_rules") and not hasattr(cli, "_rule_switches")


@pytest.mark.parametrize(
    "game, switch",
    [("tressette_in_due", "accusi"), ("calabresella", "signals"), ("tressette_a_chiamare", "signals"),
     ("tressette_a_perdere", "cappotto")],
)  # fmt: skip
def test_a_switchs_own_none_is_that_word_not_pythons_none(game, switch):
    """``--rule signals=none`` (and a page's ``"signals": "none"``) is the switch's value "none"; it was refused."""
    from tressette_env.web.table import table_rules

    for text in ("none", "None", "NONE"):
        assert getattr(game_rules(game, [f"{switch}={text}"]), switch) == "none"
    assert getattr(table_rules(game, {switch: "none"}), switch) == "none"
    assert game_rules("tressette_a_perdere", ["zero_point_charge=none"]).zero_point_charge is None  # (an int|None)
    with pytest.raises(ValueError, match="episode=None: must be one of 'hand', 'match'"):
        game_rules(game, ["episode=none"])


def test_list_and_mapping_switches_are_written_with_commas():
    rules = game_rules("calabresella", ["contracts=chiamo, solo", "multipliers=solo:4,chiamo:2"])
    assert rules.contracts == ("chiamo", "solo") and rules.multipliers == (("chiamo", 2), ("solo", 4))
    assert game_rules("calabresella", ["contracts=none"]).contracts is None
    for items, words in [
        (["contracts=solo,chiamo"], "must list some of 'chiamo', 'solo'"),  # the rules' own check
        (
            ["multipliers=solo"],
            "multipliers is written name:number,name:number, e.g. --rule multipliers=chiamo:2,solo:4",
        ),
        (["multipliers=solo:x"], "multipliers is written name:number"),
        (["multipliers=solo:²"], "multipliers is written name:number"),  # (a digit to isdigit, not to int)
        (["multipliers=solo:4,solo:5"], "'solo' is given twice"),
        (["players=3,4"], "players takes one value (a comma separates a list switch's values)"),
    ]:
        with pytest.raises(ValueError, match=re.escape(words)):
            game_rules("calabresella", items)
    with pytest.raises(ValueError, match=re.escape("e.g. --rule multipliers=chiamo:2,sola:4")):  # the game's own names
        game_rules("tressette_a_chiamare", ["multipliers=solo4"])


def test_a_number_is_ascii_digits_only_and_a_long_one_is_not_read_as_infinity():
    """``int()`` reads ``1_0`` and other scripts' digits (``١٢``) as numbers, and a 5,000-digit one was read as ``inf``."""
    for text in ("1_0", "\u0661\u0662", "1.5", "9" * 5000):
        with pytest.raises((TypeError, ValueError), match="target_score") as error:
            game_rules("tressette", ["episode=match", f"target_score={text}"])
        assert "inf" not in str(error.value) and len(str(error.value)) < 400
    assert game_rules("tressette", ["episode=match", "target_score=+31"]).target_score == 31


def test_the_web_table_names_a_switch_as_it_was_sent_not_as_a_command_line_option():
    from tressette_env.web.table import TableError, table_rules

    with pytest.raises(TableError) as error:
        table_rules("tressette", {"accusi": 1})
    assert "--rule" not in str(error.value) and "accusi is true or false, e.g. accusi=false" in str(error.value)
    with pytest.raises(
        ValueError, match=re.escape("--rule 'accusi=1': accusi is true or false, e.g. --rule accusi=false")
    ):
        game_rules("tressette", ["accusi=1"])
