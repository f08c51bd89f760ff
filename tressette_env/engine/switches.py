"""Rule switches as data: each game's switches are declared once, with what is allowed and what they mean.

Every game's rules record, the four-seat ``Rules`` included, is a frozen dataclass on
``RuleSwitches`` whose fields carry a ``Switch`` in their metadata (``switch(default, allowed,
meaning, needs)``): ``check_switches`` validates a record (raising ``ValueError`` with the bad
value, cut short, and what is allowed), ``switch_table`` writes the table the docs show,
``make_switches`` builds a record from keywords and names an unknown switch (``TypeError``);
``RuleSwitches`` gives each record these as ``__post_init__``, ``table`` and ``make``, and
``is_match``.

A switch whose value matters only under other switches says so with ``needs``
(``when(episode="match")``, or a ``Needs`` with a test): a value other than its default
where a need does not hold would change nothing, and is refused (``InertSwitchError``, a
``ValueError``), naming both switches. The default is never refused (it cannot be told apart
from a switch not given). ``make_effective`` builds a record leaving such switches at their
defaults, for sweeps over the switch space.

Every whole number a switch takes (a target, a bonus, a charge, a count of hands or rounds, a
contract's multiplier) is at most ``MOST`` (10,000) unless its switch allows less (``("int", 3,
8)``: a perdere's players; the mini game's suits and ranks): far above any table's rules, and
far enough below 2**63 that every score, stake and reward the engines add up (the batched ones
in int64) stays exact. The tables say each switch's range (``int 1..10000``).

Example:
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class R:
    ...     episode: str = switch("hand", ("hand", "match"), "one deal, or a match")
    ...     target: int = switch(21, ("int", 1), "match target", needs=when(episode="match"))
    ...     def __post_init__(self):
    ...         check_switches(self)
    >>> R(episode="game")
    Traceback (most recent call last):
    ...
    ValueError: rule switch episode='game': must be one of 'hand', 'match'
    >>> R(target=31)
    Traceback (most recent call last):
    ...
    tressette_env.engine.switches.InertSwitchError: rule switch target=31 has no effect with episode='hand': it needs episode="match" (leave target at its default 21)
    >>> R(episode="match", target=31).target
    31
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ..messages import shown

MOST = 10_000
"""The largest value of any whole-number switch, a multiplier's included (the module docstring)."""


class InertSwitchError(ValueError):
    """A switch set to a value (not its default) that has no effect with the other switches' values.

    ``switch``: its name; ``others``: the switches whose values keep it from having an effect.
    """

    def __init__(self, message: str, switch: str, others: tuple[str, ...]):
        super().__init__(message)
        self.switch = switch
        self.others = others

    def __reduce__(self) -> tuple:  # it crosses process pools (the evaluation's workers) whole
        return (type(self), (str(self), self.switch, self.others))


class Needs(NamedTuple):
    """What a switch's value other than its default needs to have an effect (``when`` builds the usual ones).

    Either ``pairs``, ``((switch, allowed values), ...)``: every named switch holds one of its
    values; or ``test``, a function of the rules record, with ``text`` saying what it asks
    (Markdown, as the docs' table shows it) and ``reads`` naming the switches the refusal names
    (a tuple, or a function of the rules record that gives one).
    ``values``: the values of the switch this need is for (None: every value but the default).
    """

    pairs: tuple[tuple[str, tuple], ...] = ()
    test: Callable[[Any], bool] | None = None
    text: str = ""
    reads: tuple[str, ...] | Callable[[Any], tuple[str, ...]] = ()
    values: tuple | None = None

    def failing(self, rules: Any) -> tuple[str, ...]:
        """The switches that keep this need from holding (their names), or () when it holds."""
        if self.test is not None:
            if self.test(rules):
                return ()
            return self.reads(rules) if callable(self.reads) else self.reads
        return tuple(name for name, allowed in self.pairs if getattr(rules, name) not in allowed)

    def markdown(self) -> str:
        """What the need asks, as the docs' table says it: ``episode="match"``, in backquotes."""
        if self.test is not None:
            return self.text
        return " and ".join(_pair_text(name, allowed, "`") for name, allowed in self.pairs)


def _value_text(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


def _pair_text(name: str, allowed: tuple, quote: str = "") -> str:
    first = f"{quote}{name}={_value_text(allowed[0])}{quote}"
    return " or ".join([first, *(f"{quote}{_value_text(v)}{quote}" for v in allowed[1:])])


def when(*, values: tuple | None = None, **switches: Any) -> Needs:
    """A need as data: each named switch holds this value (or one of this tuple of values).

    ``values``: the values of the switch the need is for (default: every value but its default).

    Example:
        >>> when(episode="match", match_end="target").markdown()
        '`episode="match"` and `match_end="target"`'
    """
    pairs = tuple((name, v if isinstance(v, tuple) else (v,)) for name, v in switches.items())
    return Needs(pairs=pairs, values=values)


class Switch(NamedTuple):
    """What a switch allows, what it means, and what its other values need to have an effect.

    ``allowed``: a tuple of values, ``bool``, ``("int", least)``, ``("int|None", least)`` (whole numbers from
    ``least`` to ``MOST``; ``("int", least, most)`` for a smaller largest value, ``int_bounds``),
    ``("subset|None", values)`` (some of ``values``, in their order, as a tuple) or
    ``("mapping|None", keys)`` (whole numbers >= 1 for some of ``keys``, kept as a tuple of pairs).
    ``needs``: ``Needs`` that must all hold for a value other than the default (see ``check_switches``).
    """

    allowed: Any
    meaning: str
    needs: tuple[Needs, ...] = ()


def switch(default: Any, allowed: Any, meaning: str, needs: Needs | tuple[Needs, ...] = ()) -> Any:
    """A dataclass field that is a rule switch; ``needs``: when a value other than ``default`` has an effect."""
    if isinstance(needs, Needs):
        needs = (needs,)
    return dataclasses.field(default=default, metadata={"switch": Switch(allowed, meaning, needs)})


def int_bounds(allowed: Any) -> tuple[int, int]:
    """The least and largest values of an ``("int", least[, most])`` or ``("int|None", least[, most])`` switch."""
    return allowed[1], allowed[2] if len(allowed) > 2 else MOST


KINDS = ("bool", "int", "int|None", "subset|None", "mapping|None", "choice")
"""What a switch's ``allowed`` can be (``Switch``): ``"choice"`` is a tuple of the values themselves."""
LISTED = ("subset|None", "mapping|None")
"""The kinds whose value is a list or a mapping (``--rule`` writes them ``a,b`` and ``a:2,b:4``)."""


def allowed_kind(allowed: Any) -> str:
    """Which of ``KINDS`` a switch's ``allowed`` is (``Switch``)."""
    if allowed is bool:
        return "bool"
    if isinstance(allowed, tuple) and allowed and allowed[0] in ("int", "int|None", *LISTED):
        return allowed[0]
    return "choice"


def switch_kind(field: dataclasses.Field) -> str | None:
    """Which of ``KINDS`` a rules record's field is; None for a field that is not a rule switch."""
    spec = field.metadata.get("switch")
    return None if spec is None else allowed_kind(spec.allowed)


def _allowed_text(allowed: Any) -> str:
    kind = allowed_kind(allowed)
    if kind == "bool":
        return "bool"
    if kind == "subset|None":
        return "None or some of " + ", ".join(f"`{v!r}`".replace("'", '"') for v in allowed[1]) + ", in that order"
    if kind == "mapping|None":
        keys = ", ".join(f"`{v!r}`".replace("'", '"') for v in allowed[1])
        return f"None or a dict from {keys} to ints 1..{MOST}"
    if kind in ("int", "int|None"):
        least, most = int_bounds(allowed)
        text = f"int {least}..{most}"
        return text + " or None" if kind == "int|None" else text
    return ", ".join(f"`{v!r}`".replace("'", '"') for v in allowed)


def check_switches(rules: Any) -> None:
    """Validate every switch of a rules record (``check_values``), then what their values need (``check_needs``).

    Raises:
        ValueError: a switch has a value it does not allow, or one that has no effect with the
            other switches' values (the message names both switches and what is allowed).
    """
    check_values(rules)
    check_needs(rules)


def check_needs(rules: Any) -> None:
    """Refuse a switch whose value (not its default) has no effect with the other switches' values.

    A game with checks of its own between the switches' values runs them before this one.

    Raises:
        ValueError: ``rule switch X=v has no effect with Y=w: it needs ... (leave X at its default d)``.
    """
    for f in dataclasses.fields(rules):
        spec = f.metadata.get("switch")
        if spec is None or not spec.needs:
            continue
        value = getattr(rules, f.name)
        if value == f.default and type(value) is type(f.default):
            continue
        for need in spec.needs:
            if need.values is not None and value not in need.values:
                continue
            failing = need.failing(rules)
            if failing:
                raise inert_error(f.name, value, f.default, rules, failing, need.markdown())


def inert_error(
    name: str, value: Any, default: Any, rules: Any, failing: tuple[str, ...], needs: str
) -> InertSwitchError:
    """The one-line refusal of a switch value with no effect (``needs``: Markdown; the backquotes go)."""
    others = ", ".join(f"{other}={shown(getattr(rules, other))}" for other in failing)
    message = (
        f"rule switch {name}={shown(value)} has no effect with {others}: it needs {needs.replace('`', '')} "
        f"(leave {name} at its default {default!r})"
    )
    return InertSwitchError(message, name, failing)


def check_values(rules: Any) -> None:
    """Validate every switch's value of a rules record against what it allows; NumPy ints become plain ints.

    Raises:
        ValueError: a switch has a value it does not allow (the message names what is allowed).
    """
    for f in dataclasses.fields(rules):
        spec = f.metadata.get("switch")
        if spec is None:
            continue
        value = getattr(rules, f.name)
        allowed = spec.allowed
        kind = allowed_kind(allowed)
        if kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"rule switch {f.name}={shown(value)}: must be True or False")
        elif kind == "subset|None":
            if value is not None:
                object.__setattr__(rules, f.name, _subset(f.name, value, allowed[1]))
        elif kind == "mapping|None":
            if value is not None:
                object.__setattr__(rules, f.name, _mapping(f.name, value, allowed[1]))
        elif kind in ("int", "int|None"):
            if value is None and kind == "int|None":
                continue
            least, most = int_bounds(allowed)
            if isinstance(value, bool) or not hasattr(value, "__index__") or not least <= value.__index__() <= most:
                raise ValueError(f"rule switch {f.name}={shown(value)}: must be an {_allowed_text(allowed)}")
            object.__setattr__(rules, f.name, value.__index__())
        else:
            if not isinstance(value, (bool, int)) and hasattr(value, "__index__") and int in {type(v) for v in allowed}:
                value = value.__index__()  # a NumPy int among int choices (players=np.int64(3)) is that int
                object.__setattr__(rules, f.name, value)
            try:
                ok = value in allowed and type(value) in {type(v) for v in allowed}
            except TypeError:
                ok = False
            if not ok:
                raise ValueError(f"rule switch {f.name}={shown(value)}: must be one of {', '.join(map(repr, allowed))}")


def _subset(name: str, value: Any, values: tuple) -> tuple:
    """``value`` as a tuple of distinct members of ``values`` in their order, or a ``ValueError``."""
    what = f"some of {', '.join(map(repr, values))}, in that order"
    if isinstance(value, str) or not hasattr(value, "__iter__"):
        raise ValueError(f"rule switch {name}={shown(value)}: must be a tuple of {what}")
    items = tuple(value)
    if not items or any(v not in values for v in items) or len(set(items)) < len(items):
        raise ValueError(f"rule switch {name}={shown(value)}: must be a tuple of {what}")
    if list(items) != sorted(items, key=values.index):
        raise ValueError(f"rule switch {name}={shown(value)}: must list {what}")
    return items


def _mapping(name: str, value: Any, keys: tuple) -> tuple:
    """``value`` (a dict or pairs) as a tuple of (key, int 1..MOST) pairs in ``keys``' order, or a ``ValueError``."""
    what = f"a dict from {', '.join(map(repr, keys))} to ints 1..{MOST}"
    try:
        pairs = dict(value)
    except (TypeError, ValueError):
        raise ValueError(f"rule switch {name}={shown(value)}: must be {what}") from None
    for key, number in pairs.items():
        if key not in keys or isinstance(number, bool) or not hasattr(number, "__index__") or not 1 <= number <= MOST:
            raise ValueError(f"rule switch {name}={shown(value)}: must be {what}; {shown(key)}: {shown(number)} is not")
    return tuple((key, int(pairs[key])) for key in keys if key in pairs)


def switch_names(rules_type: type) -> tuple[str, ...]:
    """The switches of a rules record, in order."""
    return tuple(f.name for f in dataclasses.fields(rules_type) if "switch" in f.metadata)


def needs_text(needs: tuple[Needs, ...]) -> str:
    """What a switch's values need, as the docs' table says it: ``(only with `episode="match"`)``, or ""."""
    if not needs:
        return ""
    every = [n.markdown() for n in needs if n.values is None]
    parts = [" and ".join(every)] if every else []
    by_value: dict[Any, list[str]] = {}
    for n in needs:
        for v in n.values or ():
            by_value.setdefault(v, []).append(n.markdown())
    parts += [f"`{_value_text(v)}` only with {' and '.join(texts)}" for v, texts in by_value.items()]
    return "(" + ("only with " if every else "") + "; ".join(parts) + ")"


def switch_table(rules_type: type) -> str:
    """The Markdown table of a rules record's switches: switch, default, allowed, meaning (and what it needs)."""
    rows = ["| switch | default | allowed | meaning |", "| --- | --- | --- | --- |"]
    for f in dataclasses.fields(rules_type):
        spec = f.metadata.get("switch")
        if spec is None:
            continue
        default = f'"{f.default}"' if isinstance(f.default, str) else f.default
        meaning = " ".join(filter(None, (spec.meaning, needs_text(spec.needs))))
        rows.append(f"| `{f.name}` | `{default}` | {_allowed_text(spec.allowed)} | {meaning} |")
    return "\n".join(rows)


def did_you_mean(name: Any, names: Sequence[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``names`` to a misspelled ``name``; empty when none is close."""
    close = difflib.get_close_matches(name, names, n=1) if isinstance(name, str) else []
    return f" (did you mean {close[0]!r}?)" if close else ""


def make_switches(rules_type: type, **switches: Any) -> Any:
    """Build a rules record from keyword switches, naming any unknown switch in the error."""
    names = switch_names(rules_type)
    for name in switches:
        if name not in names:
            raise TypeError(
                f"unknown rule switch {shown(name)}{did_you_mean(name, names)}; the switches are: {', '.join(names)}"
            )
    return rules_type(**switches)


def make_effective(rules_type: type, **switches: Any) -> Any:
    """A rules record from keyword switches, leaving at its default each switch that would have no effect.

    For sweeps over the switch space (a plain build refuses such a switch, ``InertSwitchError``);
    every other error is raised as usual.

    Example:
        >>> from tressette_env.engine.rules import Rules
        >>> make_effective(Rules, target_score=31, signals=False, striscio="no_honours")
        Rules(target_score=21, episode='hand', accusi=True, signals=False, striscio='keeps_suit', first_lead='dealer_right', cappotto_bonus=0, calling_out=False, illegal_action='renuncio')
    """
    while True:
        try:
            return rules_type(**switches)
        except InertSwitchError as error:
            del switches[error.switch]


class RuleSwitches:
    """The base of every game's rules record: a frozen dataclass of ``switch`` fields.

    One definition for every game of what a rules record does: building checks the values
    (``check_values``), then the game's own checks of switches that cannot go together
    (``check_combinations``, none by default), then what each switch's value needs
    (``check_needs``); ``make`` builds one from keywords naming an unknown switch; ``table``
    is the docs' table of its switches; ``is_match`` says whether an episode is a match.
    """

    def __post_init__(self) -> None:
        check_values(self)
        self.check_combinations()
        check_needs(self)

    def check_combinations(self) -> None:
        """Raise ``ValueError`` for switches whose values cannot go together (a game's own checks)."""

    @property
    def is_match(self) -> bool:
        """True when an episode is a whole match rather than one hand."""
        return self.episode == "match"

    @classmethod
    def make(cls, **switches: Any) -> Any:
        """A record from keyword switches (an unknown one is a ``TypeError`` naming the switches)."""
        return make_switches(cls, **switches)

    @classmethod
    def table(cls) -> str:
        """The Markdown table of the switches: switch, default, allowed, meaning (and what it needs)."""
        return switch_table(cls)
