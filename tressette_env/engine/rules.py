"""The rule switches of the four-seat game (see RULES.md) as one frozen record.

| switch | default | allowed | meaning |
| --- | --- | --- | --- |
| `target_score` | `21` | int >= 1 | match target; 31 and 41 are common (only with `episode="match"`) |
| `episode` | `"hand"` | `"hand"`, `"match"` | one deal per episode, or a match to `target_score` |
| `accusi` | `True` | bool | declarations (napoletana, three or four 3s/2s/assi) score and are public |
| `signals` | `True` | bool | the leader may signal busso / striscio / volo (truthfully) |
| `striscio` | `"keeps_suit"` | `"keeps_suit"`, `"no_honours"` | when striscio is true: the leader keeps another card of the suit (seed 000), or keeps one and none of them is a 3, 2 or asso (seeds 002, 003) (only with `signals=True`) |
| `first_lead` | `"dealer_right"` | `"dealer_right"`, `"four_of_denari"` | who leads the first trick of a hand: the seat after the dealer, or (the first hand of a match only) the holder of the 4 di denari |
| `cappotto_bonus` | `0` | int >= 0 | extra points to a team that makes every point of a hand |
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
    TypeError: unknown rule switch 'singals'; the switches are: target_score, episode, accusi, signals, striscio, first_lead, cappotto_bonus, calling_out, illegal_action
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from .switches import inert_error

EPISODES = ("hand", "match")
STRISCI = ("keeps_suit", "no_honours")
FIRST_LEADS = ("dealer_right", "four_of_denari")
ILLEGAL_ACTIONS = ("renuncio", "raise")
NEEDS: dict[str, tuple[tuple[str, tuple], ...]] = {
    "target_score": (("episode", ("match",)),),
    "striscio": (("signals", (True,)),),  # no striscio without signals
    "calling_out": (("episode", ("match",)),),  # a claim is about the match target
}
"""What a switch's value other than its default needs to have an effect: (switch, allowed values) pairs."""


@dataclass(frozen=True)
class Rules:
    """A rule set. Every field is a rule switch of RULES.md; build with keywords."""

    game: ClassVar[Any] = None
    """The game these rules are for (``classic.TRESSETTE``, set where it is defined)."""

    target_score: int = 21
    episode: str = "hand"
    accusi: bool = True
    signals: bool = True
    striscio: str = "keeps_suit"
    first_lead: str = "dealer_right"
    cappotto_bonus: int = 0
    calling_out: bool = False
    illegal_action: str = "renuncio"

    def __post_init__(self) -> None:
        for name in ("accusi", "signals", "calling_out"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise ValueError(f"rule switch {name}={value!r}: must be True or False")
        for name, low in (("target_score", 1), ("cappotto_bonus", 0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not hasattr(value, "__index__") or value.__index__() < low:
                raise ValueError(f"rule switch {name}={value!r}: must be an int >= {low}")
            object.__setattr__(self, name, value.__index__())  # NumPy ints become plain ints
        for name, allowed in (
            ("episode", EPISODES),
            ("striscio", STRISCI),
            ("first_lead", FIRST_LEADS),
            ("illegal_action", ILLEGAL_ACTIONS),
        ):
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"rule switch {name}={value!r}: must be one of {', '.join(map(repr, allowed))}")
        for name, pairs in NEEDS.items():
            value, default = getattr(self, name), _DEFAULTS[name]
            if value == default:
                continue
            failing = tuple(other for other, allowed in pairs if getattr(self, other) not in allowed)
            if failing:
                raise inert_error(name, value, default, self, failing, _needs_text(pairs))

    @property
    def is_match(self) -> bool:
        """True when an episode is a whole match rather than one hand."""
        return self.episode == "match"


SWITCHES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules))
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Rules)}


def _needs_text(pairs: tuple[tuple[str, tuple], ...]) -> str:
    """What ``pairs`` need, in Markdown: ``episode="match"`` in backquotes."""
    return " and ".join(
        " or ".join(f"`{name}={_value(v)}`" if k == 0 else f"`{_value(v)}`" for k, v in enumerate(allowed))
        for name, allowed in pairs
    )


def _value(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


_ALLOWED_AND_MEANING = {
    "target_score": ("int >= 1", "match target; 31 and 41 are common"),
    "episode": ('`"hand"`, `"match"`', "one deal per episode, or a match to `target_score`"),
    "accusi": ("bool", "declarations (napoletana, three or four 3s/2s/assi) score and are public"),
    "signals": ("bool", "the leader may signal busso / striscio / volo (truthfully)"),
    "striscio": (
        '`"keeps_suit"`, `"no_honours"`',
        "when striscio is true: the leader keeps another card of the suit (seed 000), or keeps one and none of "
        "them is a 3, 2 or asso (seeds 002, 003)",
    ),
    "first_lead": (
        '`"dealer_right"`, `"four_of_denari"`',
        "who leads the first trick of a hand: the seat after the dealer, or (the first hand of a match only) "
        "the holder of the 4 di denari",
    ),
    "cappotto_bonus": ("int >= 0", "extra points to a team that makes every point of a hand"),
    "calling_out": ("bool", "chiamarsi fuori: the leader may claim the match"),
    "illegal_action": ('`"renuncio"`, `"raise"`', "an illegal action loses the hand 11-0, or raises ValueError"),
}


def rules_table() -> str:
    """The Markdown table of the rule switches (the README and docstrings show it)."""
    rows = ["| switch | default | allowed | meaning |", "| --- | --- | --- | --- |"]
    for f in dataclasses.fields(Rules):
        allowed, meaning = _ALLOWED_AND_MEANING[f.name]
        if f.name in NEEDS:
            meaning += f" (only with {_needs_text(NEEDS[f.name])})"
        default = f'"{f.default}"' if isinstance(f.default, str) else f.default
        rows.append(f"| `{f.name}` | `{default}` | {allowed} | {meaning} |")
    return "\n".join(rows)


def make_rules(**switches: Any) -> Rules:
    """Build ``Rules`` from keyword switches, naming any unknown switch in the error."""
    for name in switches:
        if name not in SWITCHES:
            raise TypeError(f"unknown rule switch {name!r}; the switches are: {', '.join(SWITCHES)}")
    return Rules(**switches)
