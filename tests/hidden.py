"""Other deals a seat cannot tell from the real one, and the game rebuilt on them.

A seat knows its own cards, the public actions of the hand (``public.history``) and, with
declarations, every seat's declarations. Any other deal that agrees with all of that could
be the real one as far as that seat knows. The no-leak tests build such a deal, rebuild the
whole game on it from scratch by replaying the public actions only (``replay``), and require
that the seat sees exactly the same thing and that every player decides the same.

Two independent ways to build the other deal:

- ``sampler_deal``: the engine's own ``DealSampler(view).sample(rng)``. A replay of its deal
  that raises is a bug of the sampler (it drew a deal the record rules out).
- ``rejection_deal``: a plain rejection method written here, trusting nothing but ``apply``
  and reading nothing of the public record but the history: deal the cards the seat has not
  seen at random, keep the deal when every seat has the same declarations as in the real deal,
  the same seat is on turn, and the replay accepts every action (``apply`` checks follow-suit,
  so a shown void, and every signal's truth, so busso, striscio and volo).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import NamedTuple

from tressette_env.agents.sampling import DealSampler
from tressette_env.engine import (
    CALL_OUT,
    HAND_OVER,
    PLAYING,
    SWITCHES,
    GameState,
    IllegalActionError,
    Rules,
    apply,
    cards_of,
    legal_actions,
    new_game,
    next_hand,
    view,
)

RULE_SETS = [
    Rules(),
    Rules(signals=False, accusi=False),
    Rules(episode="match", calling_out=True, target_score=11),
    Rules(first_lead="four_of_denari", cappotto_bonus=11),
]
if "striscio" in SWITCHES:  # the narrow striscio (no 3, 2 or asso left in the suit)
    RULE_SETS.append(Rules(striscio="no_honours"))


class Position(NamedTuple):
    """A position of random play, with what it takes to rebuild it."""

    state: GameState
    before: GameState | None
    """The previous hand of the match, finished (None in the first hand). It hides nothing:
    every card of a finished hand has been played."""


def random_positions(count: int, seed: int = 0, rule_sets=RULE_SETS) -> Iterator[Position]:
    """Positions (cards being played) of random legal play, signals included, under varied rules."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        state = new_game(rng.choice(rule_sets), rng)
        before = None
        while made < count:
            status = state.public.status
            if status == HAND_OVER:  # the match goes on
                before, state = state, next_hand(state, rng)
                continue
            if status != PLAYING:
                break
            yield Position(state, before)
            made += 1
            state = apply(state, rng.choice([a for a in legal_actions(state) if a != CALL_OUT]))


def replay(position: Position, dealt) -> GameState:
    """The game rebuilt from scratch on the deal ``dealt`` (four card masks): deal it, replay the public actions.

    Raises:
        IllegalActionError: the deal could not have produced this history.
    """
    state, before = position
    p = state.public
    deal = [cards_of(h) for h in dealt]
    if before is None:
        other = new_game(p.rules, hands=deal, dealer=p.dealer)
    else:
        assert not any(before.hands), "a finished hand has every card played"
        other = next_hand(before, hands=deal)
    for action in p.history:
        other = apply(other, action)
    return other


def sampler_deal(position: Position, seat: int, rng: random.Random) -> tuple[int, ...]:
    """A deal that fits ``seat``'s view, from the engine's ``DealSampler``: the cards held now plus those played."""
    p = position.state.public
    hands = DealSampler(view(position.state, seat)).sample(rng)
    return tuple(h | p.played_by(s) for s, h in enumerate(hands))


def combinations(dealt: int) -> set:
    """The declarations a dealt hand makes, written out plainly (not the engine's code).

    ("napoletana", suit) for the asso, 2 and 3 of a suit; (rank, suits) for three or four
    cards of rank asso (0), 2 (1) or 3 (2).
    """
    found = set()
    for suit in range(4):
        if all(dealt >> (10 * suit + rank) & 1 for rank in (0, 1, 2)):
            found.add(("napoletana", suit))
    for rank in (0, 1, 2):
        suits = frozenset(s for s in range(4) if dealt >> (10 * s + rank) & 1)
        if len(suits) >= 3:
            found.add((rank, suits))
    return found


def seen_by_all(state: GameState) -> tuple[list[int], list[set[int]], list[int]]:
    """What every seat has seen, read from the real game and its history, not from the public record.

    Returns each seat's played cards (a mask), the suits each seat failed to follow, and the
    cards of each seat's declarations (0 without declarations).
    """
    holder = {c: s for s in range(4) for c in cards_of(state.dealt[s])}
    history = state.public.history
    played = [0, 0, 0, 0]
    voids = [set(), set(), set(), set()]
    for start in range(0, len(history), 4):
        cards = [a % 40 for a in history[start : start + 4]]
        for card in cards:
            played[holder[card]] |= 1 << card
            if card // 10 != cards[0] // 10:
                voids[holder[card]].add(cards[0] // 10)
    declared = [0, 0, 0, 0]
    if state.public.rules.accusi:
        for s in range(4):
            for combination in combinations(state.dealt[s]):
                if combination[0] == "napoletana":
                    declared[s] |= 0b111 << (10 * combination[1])
                else:
                    declared[s] |= sum(1 << (10 * suit + combination[0]) for suit in combination[1])
    return played, voids, declared


def rejection_deal(position: Position, seat: int, rng: random.Random, tries: int = 3000) -> tuple[int, ...] | None:
    """A deal that fits ``seat``'s knowledge, by rejection; None when ``tries`` draws all failed.

    It reads no field of the public record but the history: who played which card, who failed
    to follow, and the declared cards come from the real game (``seen_by_all``), so that a hidden
    fact leaking into the record cannot shape the other deal. The draw: ``seat``'s own cards and
    every card played stay where they are, and so do declared cards; the rest of the cards
    ``seat`` has not seen are dealt at random to the other seats, never in a suit the seat failed
    to follow (both only to make acceptance likely: the replay checks them anyway).
    """
    state = position.state
    played, voids, declared = seen_by_all(state)
    mine = state.dealt[seat]
    others = [s for s in range(4) if s != seat]
    fixed = {s: played[s] | declared[s] for s in others}
    pool = [c for c in range(40) if not (mine | sum(fixed.values())) >> c & 1]
    truth = [combinations(h) for h in state.dealt] if state.public.rules.accusi else None
    for _ in range(tries):
        hands = dict(fixed)
        rng.shuffle(pool)
        for card in pool:
            room = [s for s in others if hands[s].bit_count() < 10 and card // 10 not in voids[s]]
            if not room:
                break
            hands[rng.choice(room)] |= 1 << card
        else:
            dealt = tuple(mine if s == seat else hands[s] for s in range(4))
            if truth is not None and [combinations(h) for h in dealt] != truth:
                continue
            try:
                other = replay(position, dealt)
            except IllegalActionError:
                continue
            # Everyone sees whose turn it is (under first_lead="four_of_denari", before the first card,
            # that says who holds the 4 di denari).
            if other.public.turn == state.public.turn:
                return dealt
    return None
