"""Action ids, the same for every rule set.

| action id | meaning |
| --- | --- |
| `0..39` | play card `id` with no signal |
| `40..79` | play card `id - 40` and signal **busso** (lead only; the leader keeps another card of the suit) |
| `80..119` | play card `id - 80` and signal **striscio** (lead only; the leader keeps another card of the suit, with `striscio="no_honours"` none of them a 3, 2 or asso) |
| `120..159` | play card `id - 120` and signal **volo** (lead only; it is the leader's last card of the suit) |
| `160` | **chiamarsi fuori**: claim the match (only with `calling_out=True`, only on lead) |

So ``action = card + 40 * signal``. A rule set without signals or without
calling out masks those ids out; the space keeps its 161 ids, so one policy
head fits every variant.

Example:
    >>> action_to_string(2 + 40 * BUSSO)
    '3d busso'
    >>> action_to_string(CALL_OUT)
    'chiamarsi fuori'
"""

from __future__ import annotations

from .cards import CardMask, card_code, cards_of

Action = int
"""An action id, 0..160."""
ActionMask = int
"""A set of action ids: bit ``id`` set for each legal action."""

NO_SIGNAL, BUSSO, STRISCIO, VOLO = 0, 1, 2, 3
SIGNAL_NAMES = ("", "busso", "striscio", "volo")
CALL_OUT: Action = 160
NUM_ACTIONS = 161


def card_of(action: Action) -> int:
    """The card an action plays (for 0..159)."""
    return action % 40


def signal_of(action: Action) -> int:
    """The signal an action gives: 0 none, 1 busso, 2 striscio, 3 volo (for 0..159)."""
    return action // 40


def actions_of(mask: ActionMask) -> list[Action]:
    """The action ids in an action mask, lowest first."""
    return cards_of(mask)  # the same bit walk: ids are bit positions in both


def cards_with_signal(cards: CardMask, signal: int) -> ActionMask:
    """The action mask that plays any of ``cards`` with ``signal``."""
    return cards << (40 * signal)


def action_table() -> str:
    """The Markdown table of action ids (the README and docstrings show it)."""
    return "\n".join(
        [
            "| action id | meaning |",
            "| --- | --- |",
            "| `0..39` | play card `id` with no signal |",
            "| `40..79` | play card `id - 40` and signal **busso** (lead only; the leader keeps another card of the suit) |",
            "| `80..119` | play card `id - 80` and signal **striscio** (lead only; the leader keeps another card of "
            'the suit, with `striscio="no_honours"` none of them a 3, 2 or asso) |',
            "| `120..159` | play card `id - 120` and signal **volo** (lead only; it is the leader's last card of the suit) |",
            f"| `{CALL_OUT}` | **chiamarsi fuori**: claim the match (only with `calling_out=True`, only on lead) |",
        ]
    )


def action_to_string(action: Action) -> str:
    """Short human-readable form of an action, e.g. ``'Ad'``, ``'3c striscio'``."""
    if action == CALL_OUT:
        return "chiamarsi fuori"
    if not 0 <= action < CALL_OUT:
        raise ValueError(f"no action {action!r}: actions are 0..{NUM_ACTIONS - 1}")
    code = card_code(card_of(action))
    signal = signal_of(action)
    return f"{code} {SIGNAL_NAMES[signal]}" if signal else code
