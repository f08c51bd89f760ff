"""The rules of play as pure functions over ``GameState``, for every game of the family.

| function | what it does |
| --- | --- |
| ``new_game(rules, seed, **deal)`` | deal the first hand of an episode (a chosen deal, or shuffled); ``rules`` picks the game |
| ``legal_actions_mask(state)`` / ``legal_actions(state)`` | the actions the seat on turn may take |
| ``apply(state, action)`` | a new state after a legal action; raises ``IllegalActionError`` otherwise |
| ``renuncio(state)`` | the penalty for an illegal play by the seat on turn: its side loses the hand |
| ``next_hand(state, seed, **deal)`` | deal the next hand of a match (the dealer moves on) |
| ``view(state, seat)`` | what ``seat`` may see (``SeatView``) |
| ``current_seat(state)`` / ``current_agent(state)`` | the seat to act, and the agent that plays it |

Each game of the family is a ``Game`` (``variant.Game``): its rules record names it
(``type(rules).game``), and these functions hand it what is its own (the deal, the phases
before the card play, the scoring, the match). The card play itself, the same in every game,
is here: follow suit, signals, tricks, thirds (``apply``, ``legal_mask_for``).

Nothing here touches a global RNG: randomness comes from the ``seed`` argument
(an int, None, or a ``random.Random``).

Example:
    >>> state = new_game(Rules(), seed=7)
    >>> while state.public.status == PLAYING:
    ...     state = apply(state, legal_actions(state)[0])
    >>> sum(state.public.result.card_thirds)
    35
"""

from __future__ import annotations

import operator
import random
from typing import Any

from ..messages import shown
from .actions import CALL_OUT, NUM_ACTIONS, STRISCIO, VOLO, ActionMask, action_to_string
from .cards import HONOURS, NUM_CARDS, SUIT_MASK, THIRDS, CardMask, cards_of
from .draws import shuffle
from .rules import Rules
from .scoring import LAST_TRICK_THIRDS
from .state import (
    FIXED_FIELDS,
    GAME_OVER,
    HAND_OVER,
    PLAYING,
    TRICK_FIELDS,
    GameState,
    PublicState,
    Seat,
    SeatView,
)
from .tricks import follow_suit, winning_position

Seed = int | random.Random | None
_new = tuple.__new__


class IllegalActionError(ValueError):
    """An action that the rules do not allow in this state. The state is unchanged."""


class GameOverError(RuntimeError):
    """An action sent to a game in which nobody is to act."""


def rng_of(seed: Seed) -> random.Random:
    """A ``random.Random`` from a seed (an int, None, or a ``random.Random``, used as it is)."""
    if isinstance(seed, random.Random):
        return seed
    if seed is not None and (isinstance(seed, bool) or not hasattr(seed, "__index__")):
        raise TypeError(f"seed must be an int, None or a random.Random; got {shown(seed)}")
    return random.Random(seed)


def check_seat(seat: object, what: str = "dealer", seats: int = 4) -> Seat:
    """Validate a seat number (0..seats-1)."""
    if isinstance(seat, bool) or not hasattr(seat, "__index__") or not 0 <= seat.__index__() < seats:
        raise ValueError(f"{what} must be a seat 0..{seats - 1}; got {shown(seat)}")
    return seat.__index__()


def check_cards(hands: object, sizes: tuple[int, ...], what: str = "hand", pool: dict | None = None) -> list[CardMask]:
    """Validate lists of distinct card ids of the given sizes (one per ``sizes`` entry) and return their masks.

    ``pool`` (card -> where it already is) carries the check across several calls, so that a
    card is refused wherever it appears twice.

    Raises:
        ValueError: naming what is wrong: the shape, a count, a card id, a repeated card.
    """
    pool = {} if pool is None else pool
    shape = " + ".join(map(str, sizes)) if len(set(sizes)) > 1 else f"{len(sizes)} lists of {sizes[0]}"
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__") or len(hands) != len(sizes):
        raise ValueError(f"a deal's {what}s are {shape} card ids (0..39), one list per {what}; got {shown(hands)}")
    masks = []
    for index, (hand, size) in enumerate(zip(hands, sizes, strict=True)):
        if isinstance(hand, (str, bytes)):  # text has a length, but no card ids
            raise ValueError(f"{what} {index} of the deal is text ({shown(hand)}); it needs exactly {size} card ids")
        if not hasattr(hand, "__len__") or len(hand) != size:
            count = len(hand) if hasattr(hand, "__len__") else "no"
            raise ValueError(f"{what} {index} of the deal has {count} cards; it needs exactly {size} card ids")
        mask = 0
        for card in hand:
            if isinstance(card, bool) or not hasattr(card, "__index__"):
                raise ValueError(f"{what} {index} of the deal holds {shown(card)}; card ids are ints 0..39")
            card = card.__index__()
            if not 0 <= card < NUM_CARDS:
                raise ValueError(f"{what} {index} of the deal holds card id {card}; card ids are 0..39")
            here = f"{what} {index}"
            if card in pool:
                where = f"twice in {here}" if pool[card] == here else f"in {pool[card]} and in {here}"
                raise ValueError(f"card {card} is dealt {where}; every card is dealt exactly once")
            pool[card] = here
            mask |= 1 << card
        masks.append(mask)
    return masks


def check_deal(hands: object) -> tuple[CardMask, CardMask, CardMask, CardMask]:
    """Validate a chosen deal of the four-seat game (four lists of ten distinct card ids) and return it as masks.

    Raises:
        ValueError: naming what is wrong: the shape, a count, a card id, a repeated card.
    """
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__") or len(hands) != 4:
        raise ValueError(f"a deal is 4 lists of 10 card ids (0..39), one per seat; got {shown(hands)}")
    return tuple(check_cards(hands, (10, 10, 10, 10)))  # type: ignore[return-value]


def shuffled(rng: random.Random, sizes: tuple[int, ...]) -> list[CardMask]:
    """A shuffled deck dealt in packets of ``sizes`` cards (in order), as masks; the rest is dropped."""
    deck = list(range(NUM_CARDS))
    shuffle(rng, deck)
    bit = _BIT.__getitem__
    out, start = [], 0
    for size in sizes:
        out.append(sum(map(bit, deck[start : start + size])))
        start += size
    return out


_BIT = tuple(1 << card for card in range(NUM_CARDS))


def _game_of(rules: object) -> Any:
    game = getattr(type(rules), "game", None)
    if game is None:
        raise TypeError(f"rules must be a game's rules record (e.g. Rules(accusi=False)); got {shown(rules)}")
    return game


def new_game(rules: Any = None, seed: Seed = None, **deal: Any) -> GameState:
    """Deal the first hand of an episode of the game ``rules`` belongs to.

    Args:
        rules: the rule set (default ``Rules()``, the four-seat game); its type names the game.
        seed: an int, None or a ``random.Random``; draws the dealer (unless given)
            and then the shuffle (unless the deal is given).
        **deal: a chosen deal, checked before anything is drawn: the four-seat game takes
            ``dealer`` (the seat that deals; the seat after it leads under
            ``first_lead="dealer_right"``) and ``hands`` (four lists of ten card ids,
            ``hands[i]`` for seat i); each game names its own (``Game.deal_options``).
    """
    if rules is None:
        rules = Rules()
    game = _game_of(rules)
    return game.new_game(rules, rng_of(seed), game.check_deal_options(rules, deal))


def next_hand(state: GameState, seed: Seed = None, **deal: Any) -> GameState:
    """Deal the next hand of a match (status HAND_OVER); the dealer moves on, the match score is kept.

    ``deal`` is a chosen deal, as for ``new_game`` (its dealer always follows from the last hand).
    """
    p = state.public
    if p.status != HAND_OVER:
        raise GameOverError("next_hand needs a finished hand of an unfinished match (status HAND_OVER)")
    game = p.rules.game
    options = game.check_deal_options(p.rules, deal, first=False)
    return game.next_hand(state, rng_of(seed), options)


def current_seat(state: GameState) -> Seat | None:
    """The seat to act, or None when nobody is to act."""
    turn = state.public.turn
    return turn if turn >= 0 else None


def current_agent(state: GameState) -> int | None:
    """The agent that plays the seat to act (its own seat, or a dummy it plays), or None."""
    p = state.public
    return p.table.controllers[p.turn] if p.turn >= 0 else None


def legal_mask_for(hand: CardMask, public: PublicState) -> ActionMask:
    """Legal card plays of the seat on turn holding ``hand`` (usable from a ``SeatView`` too).

    Follow the led suit when you can; only the leader may signal (where ``public.table``
    lets the seat signal), and only truthfully: busso and striscio when it keeps another
    card of the suit (striscio only where it keeps no 3, 2 or asso with
    ``Table.narrow_striscio``), volo when it keeps none.
    """
    trick = public.trick
    if trick:
        return follow_suit(hand, trick[0] // 10)  # (the rule's one home: engine.tricks)
    mask = hand
    t = public.table
    if t.signal_seats >> public.turn & 1 and public.tricks_done >= t.signals_from:
        narrow = t.narrow_striscio
        for suit, suit_mask in enumerate(SUIT_MASK):
            cards = hand & suit_mask
            if cards:
                if cards & (cards - 1):  # two or more: the leader keeps one after this card
                    mask |= cards << 40
                    if not narrow:
                        mask |= cards << 80
                    else:  # striscio from a card whose leftovers hold no 3, 2 or asso
                        honours = cards & HONOURS[suit]
                        if not honours:
                            mask |= cards << 80
                        elif not honours & (honours - 1):  # one honour: only leading it leaves none
                            mask |= honours << 80
                else:
                    mask |= cards << 120
        kinds = t.signal_kinds
        if kinds != 0b111:  # a game with fewer signs (busso and striscio only, say)
            mask &= _SIGNAL_KIND_MASKS[kinds]
    if t.calling_out:
        mask |= 1 << CALL_OUT
    return mask


_CARD_PLAYS = {action: (action % 40, action // 40, action % 40 // 10) for action in range(CALL_OUT)}
"""Card play action id -> (card, signal, suit): one look-up that is also the range check."""
_M40 = (1 << 40) - 1
_SIGNAL_KIND_MASKS = tuple(
    _M40 | sum(_M40 << (40 * k) for k in (1, 2, 3) if kinds >> (k - 1) & 1) | 1 << CALL_OUT for kinds in range(8)
)
"""The action ids a game's signs leave (bit k - 1 of the index: signal k), with every plain card."""


def legal_actions_mask(state: GameState) -> ActionMask:
    """Legal actions of the seat on turn, as a bit mask over action ids (0 when none)."""
    p = state.public
    if p.status != PLAYING:
        return 0
    if p.table.phase:
        return p.rules.game.legal_phase(state)
    return legal_mask_for(state.hands[p.turn], p)


def legal_actions(state: GameState) -> list[int]:
    """Legal action ids of the seat on turn, lowest first."""
    # ``actions_of(legal_actions_mask(state))``, written out: two calls fewer on the hot path.
    p = state.public
    if p.status != PLAYING:
        return []
    if p.table.phase:
        return cards_of(p.rules.game.legal_phase(state))
    return cards_of(legal_mask_for(state.hands[p.turn], p))


def illegal(state: GameState, action: int, why: str) -> IllegalActionError:
    """The error for ``action`` by the seat on turn, saying ``why`` and naming the legal actions."""
    p = state.public
    legal = " ".join(action_to_string(a) for a in legal_actions(state))
    named = action_to_string(action) if 0 <= action < p.rules.game.num_actions else str(action)
    return IllegalActionError(f"seat {p.turn} may not play {action} ({named}): {why}; legal: {legal}")


def action_int(action: Any, num_actions: int = NUM_ACTIONS) -> int:
    """``action`` as a plain int (NumPy ints and the like too); a TypeError for anything else, a bool included."""
    try:
        if isinstance(action, bool) or getattr(action, "dtype", None) is not None and action.dtype.kind == "b":
            raise TypeError
        return operator.index(action)
    except TypeError:
        raise TypeError(f"an action is an integer id 0..{num_actions - 1}; got {shown(action)}") from None


def apply(state: GameState, action: int) -> GameState:
    """The state after the seat on turn takes ``action``; ``state`` is not changed.

    In the card play (phase ``PLAY``, the same in every game): follow suit, signals, the
    trick, its thirds; at the hand's last trick the game scores the hand (``Game.end_hand``).
    In a game's own phase (``phase`` other than ``PLAY``) the game applies the action
    (``Game.apply_phase``); a game whose card play does more (drawing from a stock after each
    trick, uncovering a packet) plays its cards in a phase of its own, calling ``play`` on
    the state in phase ``PLAY`` and then doing its part.

    Raises:
        IllegalActionError: the action is not legal here (the message names the legal ones).
        GameOverError: nobody is to act.
    """
    p = state.public
    if p.status != PLAYING:
        raise GameOverError(
            "nobody is to act: the hand is over" + (" (call next_hand)" if p.status == HAND_OVER else "")
        )
    if type(action) is not int:  # NumPy ints and the like become a plain int (kept in the history)
        action = action_int(action, p.rules.game.num_actions)
    t = p.table
    if t.phase:
        if action < 0:  # a game's phase tests ``legal >> action``, which a negative id cannot take
            raise illegal(state, action, "action ids are never negative")
        return p.rules.game.apply_phase(state, action)
    try:
        card, signal, suit = _CARD_PLAYS[action]
    except KeyError:
        if action == CALL_OUT:
            return call_out(state)
        raise illegal(state, action, f"card plays are action ids 0..{CALL_OUT}") from None
    seat = p.turn
    hands = state.hands
    hand = hands[seat]
    trick = p.trick
    if not hand >> card & 1:
        raise illegal(state, action, "the card is not in its hand")
    voids = p.voids
    signals = p.signals
    if trick:
        led = trick[0] // 10
        if signal:
            raise illegal(state, action, "only the leader of a trick may signal")
        if suit != led:
            if not hand & SUIT_MASK[led]:
                voids |= 1 << (4 * seat + led)
            elif t.must_follow:  # (only Tressette in due's stock may lift it)
                raise illegal(state, action, "it must follow the led suit")
    elif signal:
        if not t.signal_seats:
            raise illegal(state, action, "signals are off in these rules")
        if not t.signal_seats >> seat & 1 or not t.signal_kinds >> (signal - 1) & 1:
            raise illegal(state, action, "this seat may not give that signal in these rules")
        if p.tricks_done < t.signals_from:
            raise illegal(state, action, f"signals are allowed from trick {t.signals_from + 1} on")
        keeps = hand & SUIT_MASK[suit] & ~(1 << card)
        if (signal == VOLO) == bool(keeps):
            raise illegal(
                state, action, "a signal must be true (busso/striscio: keeps the suit; volo: last card of it)"
            )
        if signal == STRISCIO and keeps & HONOURS[suit] and t.narrow_striscio:
            raise illegal(state, action, 'a striscio must be true: with striscio="no_honours" no 3, 2 or asso is kept')
        signals |= 1 << (12 * seat + 3 * suit + signal - 1)

    n = t.seats
    held = hand ^ (1 << card)
    if n == 4:  # the common case, without a list
        if seat == 0:
            hands = (held, hands[1], hands[2], hands[3])
        elif seat == 1:
            hands = (hands[0], held, hands[2], hands[3])
        elif seat == 2:
            hands = (hands[0], hands[1], held, hands[3])
        else:
            hands = (hands[0], hands[1], hands[2], held)
    else:
        listed = list(hands)
        listed[seat] = held
        hands = tuple(listed)
    played = p.played | 1 << (40 * seat + card)
    history = p.history + (action,)
    trick = trick + (card,)
    # The records are built with tuple.__new__ from a slice of the fields a play leaves as
    # they are and the new ones (see PublicState): this is the hot path.
    if len(trick) < n:
        public = _new(PublicState, p[:TRICK_FIELDS] + ((seat + 1) % n, trick, played, signals, voids, history))
        return _new(GameState, (public, hands, state.dealt, state.hidden))

    winner = (p.leader + winning_position(trick)) % n
    tricks_done = p.tricks_done + 1
    if n == 4:
        taken = THIRDS[trick[0]] + THIRDS[trick[1]] + THIRDS[trick[2]] + THIRDS[trick[3]]
    else:
        taken = 0
        for c in trick:
            taken += THIRDS[c]
    if tricks_done == t.tricks:
        taken += LAST_TRICK_THIRDS
    side = t.sides[winner]
    thirds = p.thirds
    if len(thirds) == 2:
        thirds = (thirds[0] + taken, thirds[1]) if side == 0 else (thirds[0], thirds[1] + taken)
    else:
        listed = list(thirds)
        listed[side] += taken
        thirds = tuple(listed)
    public = _new(
        PublicState, p[:FIXED_FIELDS] + (winner, tricks_done, thirds, winner, (), played, signals, voids, history)
    )
    state = _new(GameState, (public, hands, state.dealt, state.hidden))
    if tricks_done == t.tricks:
        return p.rules.game.end_hand(state)
    return state


def call_out(state: GameState) -> GameState:
    """Chiamarsi fuori by the seat on lead (``Table.calling_out``): the game decides the claim."""
    p = state.public
    if not p.table.calling_out:
        raise illegal(state, CALL_OUT, "calling out is off in these rules")
    if p.trick:
        raise illegal(state, CALL_OUT, "only the seat on lead may call out")
    return p.rules.game.call_out(state)


def renuncio(state: GameState) -> GameState:
    """The penalty for an illegal action by the seat on turn: its side loses the hand (each game says how)."""
    p = state.public
    if p.status != PLAYING:
        raise GameOverError("nobody is to act: the hand is over")
    return p.rules.game.renuncio(state)


def private_of(state: GameState, seat: Seat) -> CardMask:
    """The cards out of every hand whose place ``seat`` alone knows (``SeatView.private``; ``Game.private_of``)."""
    if state.hidden is None:
        return 0
    return state.public.rules.game.private_of(state, seat)


def view(state: GameState, seat: Seat) -> SeatView:
    """What ``seat`` knows: its own cards and the public state.

    Raises:
        ValueError: ``seat`` is not a seat of this game.
    """
    if type(seat) is not int or seat < 0:
        seat = check_seat(seat, "seat", len(state.hands))
    try:
        if state.hidden is None:  # the four-seat game: nothing private but the hand
            return SeatView(seat, state.hands[seat], state.public)
        return SeatView(seat, state.hands[seat], state.public, private_of(state, seat))
    except IndexError:  # (the common case costs no test)
        raise ValueError(f"seat must be a seat 0..{len(state.hands) - 1}; got {shown(seat)}") from None


def is_over(state: GameState) -> bool:
    """True when the episode is over (the hand, or the match in ``episode="match"``)."""
    return state.public.status == GAME_OVER
