"""Action ids: one table for the whole family, the same id meaning the same thing in every game.

The four-seat game uses ids 0..160 (``NUM_ACTIONS``; its table below); the family's
table (``family_action_table()``, in the docs) appends the phase actions of the other
games: calling a card, giving or discarding one, the auction, choosing a packet.

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
"""An action id, 0..254 (0..160 in the four-seat game; 255, wait, in the parallel API)."""
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


CALL: Action = 161
"""``CALL + c``: call the card ``c`` (161..200)."""
GIVE: Action = 201
"""``GIVE + c``: part with card ``c`` in an exchange (201..240)."""
PASS, CHIAMO, SOLO, SOLISSIMO, DIVIDETE, SCEGLIETE = 241, 242, 243, 244, 245, 246
"""The auction: pass, then the contracts in rank order."""
PACKET: Action = 247
"""``PACKET + k``: choose packet ``k`` (247..254)."""
FAMILY_NUM_ACTIONS = 255
"""The family's action table: every game's ids lie in 0..254 (the four-seat game's in 0..160)."""
WAIT: Action = 255
"""Wait: in the parallel API (``parallel_env()``) the one legal action of every agent not on turn."""
PARALLEL_NUM_ACTIONS = 256
"""The parallel API's actions: the family's 255 and ``WAIT``, in every game."""

ACTION_BLOCKS: tuple[tuple[int, int, str], ...] = (
    (0, 39, "play card `id` with no signal"),
    (40, 79, "play card `id - 40` and signal **busso** (lead only; the leader keeps another card of the suit)"),
    (
        80,
        119,
        "play card `id - 80` and signal **striscio** (lead only; the leader keeps another card of "
        'the suit, with `striscio="no_honours"` none of them a 3, 2 or asso)',
    ),
    (120, 159, "play card `id - 120` and signal **volo** (lead only; it is the leader's last card of the suit)"),
    (CALL_OUT, CALL_OUT, "**chiamarsi fuori**: claim the match (only with `calling_out=True`, only on lead)"),
    (
        CALL,
        CALL + 39,
        "call card `id - 161` (a card the caller lacks; its holder gives it, or becomes a partner); in an exchange, "
        "take card `id - 161` from the monte; in Tressette in due's packet form, turn up the packet whose bottom "
        "card is `id - 161`",
    ),
    (
        GIVE,
        GIVE + 39,
        "part with card `id - 201` in an exchange: return it face up to the giver, or discard it face down "
        "(the phase says which)",
    ),
    (PASS, PASS, "pass (the auction)"),
    (CHIAMO, CHIAMO, "bid **chiamo** (call a card)"),
    (SOLO, SOLO, "bid **solo** (sóla: play alone)"),
    (SOLISSIMO, SOLISSIMO, "bid **solissimo** (alone, the monte untouched)"),
    (DIVIDETE, DIVIDETE, "bid **solissimo dividete**"),
    (SCEGLIETE, SCEGLIETE, "bid **solissimo scegliete**"),
    (PACKET, PACKET + 7, "choose packet `id - 247` (Tressette in due's packet form)"),
    (WAIT, WAIT, "**wait**: the one legal action of an agent not on turn, in `parallel_env()` only"),
)
"""The family's action table, one row per block of ids: the same id means the same thing in every game."""


def action_table(up_to: int = NUM_ACTIONS) -> str:
    """The Markdown table of action ids below ``up_to`` (default: the four-seat game's, 0..160)."""
    rows = ["| action id | meaning |", "| --- | --- |"]
    for first, last, meaning in ACTION_BLOCKS:
        if first < up_to:
            ids = f"{first}" if first == last else f"{first}..{last}"
            rows.append(f"| `{ids}` | {meaning} |")
    return "\n".join(rows)


def family_action_table() -> str:
    """The Markdown table of the whole family's action ids (0..254, and the parallel API's 255)."""
    return action_table(PARALLEL_NUM_ACTIONS)


def action_to_string(action: Action) -> str:
    """Short human-readable form of an action, e.g. ``'Ad'``, ``'3c striscio'``, ``'chiama 3d'``, ``'passo'``."""
    if action == CALL_OUT:
        return "chiamarsi fuori"
    if 0 <= action < CALL_OUT:
        code = card_code(card_of(action))
        signal = signal_of(action)
        return f"{code} {SIGNAL_NAMES[signal]}" if signal else code
    if CALL <= action < GIVE:
        return f"chiama {card_code(action - CALL)}"
    if GIVE <= action < PASS:
        return f"dà {card_code(action - GIVE)}"
    if PASS <= action <= SCEGLIETE:
        return ("passo", "chiamo", "solo", "solissimo", "solissimo dividete", "solissimo scegliete")[action - PASS]
    if PACKET <= action < FAMILY_NUM_ACTIONS:
        return f"pacchetto {action - PACKET}"
    if action == WAIT:
        return "aspetta"
    raise ValueError(f"no action {action!r}: actions are 0..{WAIT}")
