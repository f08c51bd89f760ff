"""The rule switches of the four-seat game (see RULES.md) as one frozen record.

| switch | default | allowed | meaning |
| --- | --- | --- | --- |
| `target_score` | `21` | int 1..10000 | match target; 31 and 41 are common (only with `episode="match"`) |
| `episode` | `"hand"` | `"hand"`, `"match"` | one deal per episode, or a match to `target_score` |
| `accusi` | `True` | bool | declarations (napoletana, three or four 3s/2s/assi) score and are public |
| `signals` | `True` | bool | the leader may signal busso / striscio / volo (truthfully) |
| `striscio` | `"keeps_suit"` | `"keeps_suit"`, `"no_honours"` | when striscio is true: the leader keeps another card of the suit (seed 000), or keeps one and none of them is a 3, 2 or asso (seeds 002, 003) (only with `signals=True`) |
| `first_lead` | `"dealer_right"` | `"dealer_right"`, `"four_of_denari"` | who leads the first trick of a hand: the seat after the dealer, or (the first hand of a match only) the holder of the 4 di denari |
| `cappotto_bonus` | `0` | int 0..10000 | extra points to a team that makes every point of a hand |
| `calling_out` | `False` | bool | chiamarsi fuori: the leader may claim the match (only with `episode="match"`) |
| `illegal_action` | `"renuncio"` | `"renuncio"`, `"raise"` | an illegal action loses the hand 11-0, or raises ValueError |

A switch that matters only under another's value (the table's "only with") is refused at any
value but its default where that does not hold: it would change nothing.

Example:
    >>> Rules(episode="match", target_score=31).target_score
    31
    >>> Rules(target_score=31)
    Traceback (most recent call last):
    ...
    tressette_env.engine.switches.InertSwitchError: rule switch target_score=31 has no effect with episode='hand': it needs episode="match" (leave target_score at its default 21)
    >>> make_rules(singals=False)
    Traceback (most recent call last):
    ...
    TypeError: unknown rule switch 'singals' (did you mean 'signals'?); the switches are: target_score, episode, accusi, signals, striscio, first_lead, cappotto_bonus, calling_out, illegal_action
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .switches import RuleSwitches, switch, switch_names, when


@dataclass(frozen=True)
class Rules(RuleSwitches):
    """A rule set. Every field is a rule switch of RULES.md; build with keywords."""

    game: ClassVar[Any] = None
    """The game these rules are for (``classic.TRESSETTE``, set where it is defined)."""

    target_score: int = switch(21, ("int", 1), "match target; 31 and 41 are common", needs=when(episode="match"))
    episode: str = switch("hand", ("hand", "match"), "one deal per episode, or a match to `target_score`")
    accusi: bool = switch(True, bool, "declarations (napoletana, three or four 3s/2s/assi) score and are public")
    signals: bool = switch(True, bool, "the leader may signal busso / striscio / volo (truthfully)")
    striscio: str = switch(
        "keeps_suit",
        ("keeps_suit", "no_honours"),
        "when striscio is true: the leader keeps another card of the suit (seed 000), or keeps one and none of "
        "them is a 3, 2 or asso (seeds 002, 003)",
        needs=when(signals=True),  # no striscio without signals
    )
    first_lead: str = switch(
        "dealer_right",
        ("dealer_right", "four_of_denari"),
        "who leads the first trick of a hand: the seat after the dealer, or (the first hand of a match only) "
        "the holder of the 4 di denari",
    )
    cappotto_bonus: int = switch(0, ("int", 0), "extra points to a team that makes every point of a hand")
    calling_out: bool = switch(
        False,
        bool,
        "chiamarsi fuori: the leader may claim the match",
        needs=when(episode="match"),  # a claim is about the match target
    )
    illegal_action: str = switch(
        "renuncio", ("renuncio", "raise"), "an illegal action loses the hand 11-0, or raises ValueError"
    )


SWITCHES: tuple[str, ...] = switch_names(Rules)
"""The four-seat game's switches, in order."""

make_rules = Rules.make
"""``Rules`` from keyword switches (an unknown one is a TypeError naming the switches)."""

rules_table = Rules.table
"""The Markdown table of the rule switches (the docs and docstrings show it)."""
