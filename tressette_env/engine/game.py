"""The rules of play as pure functions over ``GameState``.

| function | what it does |
| --- | --- |
| ``new_game(rules, seed, dealer=, hands=)`` | deal the first hand (a chosen deal, or shuffled) |
| ``legal_actions_mask(state)`` / ``legal_actions(state)`` | the actions the seat on turn may take |
| ``apply(state, action)`` | a new state after a legal action; raises ``IllegalActionError`` otherwise |
| ``renuncio(state)`` | the penalty for an illegal play by the seat on turn: its team loses the hand 11-0 |
| ``next_hand(state, seed, hands=)`` | deal the next hand of a match (dealer moves one seat) |
| ``view(state, seat)`` | what ``seat`` may see (``SeatView``) |

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
from collections.abc import Sequence

from .actions import CALL_OUT, NUM_ACTIONS, STRISCIO, VOLO, ActionMask, action_to_string, actions_of
from .cards import FOUR_OF_DENARI, HONOURS, NUM_CARDS, SUIT_MASK, THIRDS, CardMask
from .rules import Rules
from .scoring import LAST_TRICK_THIRDS, NO_DECLARATIONS, HandScore, declare, renuncio_score, score_hand, trick_winner
from .state import GAME_OVER, HAND_OVER, PLAYING, GameState, PublicState, Seat, SeatView

Seed = int | random.Random | None
_new = tuple.__new__


class IllegalActionError(ValueError):
    """An action that the rules do not allow in this state. The state is unchanged."""


class GameOverError(RuntimeError):
    """An action sent to a game in which no card is being played."""


def _rng(seed: Seed) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def check_deal(hands: object) -> tuple[CardMask, CardMask, CardMask, CardMask]:
    """Validate a chosen deal (four lists of ten distinct card ids) and return it as masks.

    Raises:
        ValueError: naming what is wrong: the shape, a count, a card id, a repeated card.
    """
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__") or len(hands) != 4:
        raise ValueError(f"a deal is 4 lists of 10 card ids (0..39), one per seat; got {hands!r}")
    masks = []
    holder: dict[int, int] = {}
    for seat, hand in enumerate(hands):
        if isinstance(hand, (str, bytes)) or not hasattr(hand, "__len__") or len(hand) != 10:
            count = len(hand) if hasattr(hand, "__len__") else "no"
            raise ValueError(f"hand {seat} of the deal has {count} cards; every hand needs exactly 10 card ids")
        mask = 0
        for card in hand:
            if isinstance(card, bool) or not hasattr(card, "__index__"):
                raise ValueError(f"hand {seat} of the deal holds {card!r}; card ids are ints 0..39")
            card = card.__index__()
            if not 0 <= card < NUM_CARDS:
                raise ValueError(f"hand {seat} of the deal holds card id {card}; card ids are 0..39")
            if card in holder:
                where = f"twice in hand {seat}" if holder[card] == seat else f"in hands {holder[card]} and {seat}"
                raise ValueError(f"card {card} is dealt {where}; every card is dealt exactly once")
            holder[card] = seat
            mask |= 1 << card
        masks.append(mask)
    return masks[0], masks[1], masks[2], masks[3]


def check_seat(seat: object, what: str = "dealer") -> Seat:
    """Validate a seat number (0..3)."""
    if isinstance(seat, bool) or not hasattr(seat, "__index__") or not 0 <= seat.__index__() < 4:
        raise ValueError(f"{what} must be a seat 0..3; got {seat!r}")
    return seat.__index__()


_BIT = tuple(1 << card for card in range(NUM_CARDS))


def _shuffled_deal(rng: random.Random) -> tuple[CardMask, CardMask, CardMask, CardMask]:
    deck = list(range(NUM_CARDS))
    rng.shuffle(deck)
    bit = _BIT.__getitem__
    return sum(map(bit, deck[:10])), sum(map(bit, deck[10:20])), sum(map(bit, deck[20:30])), sum(map(bit, deck[30:]))


def _deal(
    rules: Rules,
    dealer: Seat,
    hands: tuple[CardMask, CardMask, CardMask, CardMask],
    match_score: tuple[int, int],
    hand_number: int,
) -> GameState:
    if rules.first_lead == "four_of_denari" and hand_number == 0:
        # Seed 000: the 4 di denari leads the first hand only; later hands the seat after the dealer.
        first = next(s for s in range(4) if hands[s] >> FOUR_OF_DENARI & 1)
    else:
        first = (dealer + 1) % 4
    public = PublicState(
        rules=rules,
        status=PLAYING,
        turn=first,
        leader=first,
        trick=(),
        tricks_done=0,
        played=0,
        signals=0,
        voids=0,
        thirds=(0, 0),
        history=(),
        dealer=dealer,
        first_leader=first,
        accusi=declare(hands) if rules.accusi else NO_DECLARATIONS,
        match_score=match_score,
        hand_number=hand_number,
        result=None,
        winner=None,
    )
    return GameState(public, hands, hands)


def new_game(
    rules: Rules | None = None,
    seed: Seed = None,
    *,
    dealer: Seat | None = None,
    hands: Sequence[Sequence[int]] | None = None,
) -> GameState:
    """Deal the first hand of an episode.

    Args:
        rules: the rule set (default ``Rules()``).
        seed: an int, None or a ``random.Random``; draws the dealer (unless given)
            and then the shuffle (unless ``hands`` is given).
        dealer: the seat that deals; the seat after it leads under ``first_lead="dealer_right"``.
        hands: a chosen deal, four lists of ten card ids, ``hands[i]`` for seat i.
    """
    if rules is None:
        rules = Rules()
    elif not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules record (e.g. Rules(accusi=False)); got {rules!r}")
    if seed is not None and not isinstance(seed, random.Random) and (isinstance(seed, bool) or not hasattr(seed, "__index__")):
        raise TypeError(f"seed must be an int, None or a random.Random; got {seed!r}")
    masks = check_deal(hands) if hands is not None else None
    dealer = check_seat(dealer) if dealer is not None else None
    rng = _rng(seed)
    if dealer is None:
        dealer = rng.randrange(4)
    if masks is None:
        masks = _shuffled_deal(rng)
    return _deal(rules, dealer, masks, (0, 0), 0)


def next_hand(state: GameState, seed: Seed = None, *, hands: Sequence[Sequence[int]] | None = None) -> GameState:
    """Deal the next hand of a match (status HAND_OVER); the dealer moves to the next seat."""
    p = state.public
    if p.status != HAND_OVER:
        raise GameOverError("next_hand needs a finished hand of an unfinished match (status HAND_OVER)")
    masks = check_deal(hands) if hands is not None else _shuffled_deal(_rng(seed))
    return _deal(p.rules, (p.dealer + 1) % 4, masks, p.match_score, p.hand_number + 1)


def current_seat(state: GameState) -> Seat | None:
    """The seat to act, or None when no card is being played."""
    turn = state.public.turn
    return turn if turn >= 0 else None


def legal_mask_for(hand: CardMask, public: PublicState) -> ActionMask:
    """Legal actions of the seat on turn holding ``hand`` (usable from a ``SeatView`` too).

    Follow the led suit when you can; only the leader may signal, and only truthfully:
    busso and striscio when it keeps another card of the suit, volo when it does not.
    """
    trick = public.trick
    if trick:
        follow = hand & SUIT_MASK[trick[0] // 10]
        return follow or hand
    mask = hand
    rules = public.rules
    if rules.signals:
        narrow = rules.striscio == "no_honours"
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
    if rules.calling_out:
        mask |= 1 << CALL_OUT
    return mask


def legal_actions_mask(state: GameState) -> ActionMask:
    """Legal actions of the seat on turn, as a bit mask over action ids (0 when none)."""
    p = state.public
    if p.status != PLAYING:
        return 0
    return legal_mask_for(state.hands[p.turn], p)


def legal_actions(state: GameState) -> list[int]:
    """Legal action ids of the seat on turn, lowest first."""
    return actions_of(legal_actions_mask(state))


def _illegal(state: GameState, action: int, why: str) -> IllegalActionError:
    p = state.public
    legal = " ".join(action_to_string(a) for a in legal_actions(state))
    shown = action_to_string(action) if 0 <= action < NUM_ACTIONS else str(action)
    return IllegalActionError(f"seat {p.turn} may not play {action} ({shown}): {why}; legal: {legal}")


def apply(state: GameState, action: int) -> GameState:
    """The state after the seat on turn takes ``action``; ``state`` is not changed.

    Raises:
        IllegalActionError: the action is not legal here (the message names the legal ones).
        GameOverError: no card is being played.
    """
    p = state.public
    if p.status != PLAYING:
        raise GameOverError(
            "no card is being played: the hand is over" + (" (call next_hand)" if p.status == HAND_OVER else "")
        )
    seat = p.turn
    hands = state.hands
    hand = hands[seat]
    trick = p.trick
    if type(action) is not int:  # NumPy ints and the like become a plain int (kept in the history)
        try:
            if isinstance(action, bool) or getattr(action, "dtype", None) == bool:
                raise TypeError
            action = operator.index(action)
        except TypeError:
            raise TypeError(f"an action is an integer id 0..{NUM_ACTIONS - 1}; got {action!r}") from None
    if not 0 <= action < CALL_OUT:
        if action == CALL_OUT:
            return _call_out(state)
        raise _illegal(state, action, f"action ids are 0..{NUM_ACTIONS - 1}")
    card = action % 40
    signal = action // 40
    if not hand >> card & 1:
        raise _illegal(state, action, "the card is not in its hand")
    suit = card // 10
    voids = p.voids
    signals = p.signals
    if trick:
        led = trick[0] // 10
        if signal:
            raise _illegal(state, action, "only the leader of a trick may signal")
        if suit != led:
            if hand & SUIT_MASK[led]:
                raise _illegal(state, action, "it must follow the led suit")
            voids |= 1 << (4 * seat + led)
    elif signal:
        if not p.rules.signals:
            raise _illegal(state, action, "signals are off in these rules")
        keeps = hand & SUIT_MASK[suit] & ~(1 << card)
        if (signal == VOLO) == bool(keeps):
            raise _illegal(
                state, action, "a signal must be true (busso/striscio: keeps the suit; volo: last card of it)"
            )
        if signal == STRISCIO and keeps & HONOURS[suit] and p.rules.striscio == "no_honours":
            raise _illegal(state, action, "a striscio must be true: with striscio=\"no_honours\" no 3, 2 or asso is kept")
        signals |= 1 << (12 * seat + 3 * suit + signal - 1)

    held = hand ^ (1 << card)
    if seat == 0:
        hands = (held, hands[1], hands[2], hands[3])
    elif seat == 1:
        hands = (hands[0], held, hands[2], hands[3])
    elif seat == 2:
        hands = (hands[0], hands[1], held, hands[3])
    else:
        hands = (hands[0], hands[1], hands[2], held)
    played = p.played | 1 << (40 * seat + card)
    history = p.history + (action,)
    trick = trick + (card,)
    # The records are built with tuple.__new__ and positional fields (in PublicState's
    # order): this is the hot path, and NamedTuple's keyword constructor costs twice as much.
    if len(trick) < 4:
        public = _new(PublicState, (
            p.rules, PLAYING, (seat + 1) % 4, p.leader, trick, p.tricks_done, played, signals, voids,
            p.thirds, history, p.dealer, p.first_leader, p.accusi, p.match_score, p.hand_number, None, None,
        ))  # fmt: skip
        return _new(GameState, (public, hands, state.dealt))

    winner = trick_winner(p.leader, trick)
    tricks_done = p.tricks_done + 1
    taken = THIRDS[trick[0]] + THIRDS[trick[1]] + THIRDS[trick[2]] + THIRDS[trick[3]]
    if tricks_done == 10:
        taken += LAST_TRICK_THIRDS
    thirds = (p.thirds[0] + taken, p.thirds[1]) if winner % 2 == 0 else (p.thirds[0], p.thirds[1] + taken)
    public = _new(PublicState, (
        p.rules, PLAYING, winner, winner, (), tricks_done, played, signals, voids,
        thirds, history, p.dealer, p.first_leader, p.accusi, p.match_score, p.hand_number, None, None,
    ))  # fmt: skip
    if tricks_done == 10:
        public = _end_hand(public, score_hand(thirds, p.accusi.points, p.rules.cappotto_bonus))
    return _new(GameState, (public, hands, state.dealt))


def _end_hand(p: PublicState, result: HandScore, winner: int | None = None) -> PublicState:
    """Close a hand with ``result``: add it to the match and decide whether the episode ends.

    ``winner`` ends the match for that team at once (a claim); otherwise, in a match,
    the first team at the target wins, both there: the higher, an exact tie plays on.
    """
    score = (p.match_score[0] + result.points[0], p.match_score[1] + result.points[1])
    status = GAME_OVER
    if winner is None and p.rules.is_match:
        if max(score) >= p.rules.target_score and score[0] != score[1]:
            winner = 0 if score[0] > score[1] else 1
        else:
            status = HAND_OVER
    return p._replace(status=status, turn=-1, match_score=score, result=result, winner=winner)


def _call_out(state: GameState) -> GameState:
    """Chiamarsi fuori: the seat on lead claims its team has reached the target.

    The claim counts the match score plus this hand's points so far (card points,
    and declarations once the team has a card point). True: the team wins the
    match; false: it loses it. Either way the episode ends there.
    """
    p = state.public
    if not p.rules.calling_out:
        raise _illegal(state, CALL_OUT, "calling out is off in these rules")
    if p.trick:
        raise _illegal(state, CALL_OUT, "only the seat on lead may call out")
    team = p.turn % 2
    result = score_hand(p.thirds, p.accusi.points, complete=False)._replace(called_out=p.turn)
    claim_true = p.match_score[team] + result.points[team] >= p.rules.target_score
    return GameState(_end_hand(p, result, team if claim_true else 1 - team), state.hands, state.dealt)


def renuncio(state: GameState) -> GameState:
    """The penalty for an illegal play by the seat on turn: its team loses the hand, the opponents score 11."""
    p = state.public
    if p.status != PLAYING:
        raise GameOverError("no card is being played: the hand is over")
    return GameState(_end_hand(p, renuncio_score(p.turn, p.thirds)), state.hands, state.dealt)


def view(state: GameState, seat: Seat) -> SeatView:
    """What ``seat`` knows: its own cards and the public state.

    Raises:
        ValueError: ``seat`` is not a seat 0..3.
    """
    if type(seat) is not int or not 0 <= seat < 4:  # the common case costs one test
        seat = check_seat(seat, "seat")
    return SeatView(seat, state.hands[seat], state.public)


def is_over(state: GameState) -> bool:
    """True when the episode is over (the hand, or the match in ``episode="match"``)."""
    return state.public.status == GAME_OVER
