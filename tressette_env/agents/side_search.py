"""The search player's card play in the games of one side against another: Calabresella, Tressette a chiamare.

``side_card_values(view, samples, rng)`` values each legal card of the seat on turn by
perfect-information Monte Carlo, as the search player does in the four-seat game: it deals
the cards the seat has not seen (``sampling.DealSampler``: card counts, voids, signals, the
face-down pile, the monte shown, the called card), fixes the sides of each deal (the game's
``Game.deal_sides``: in Tressette a chiamare the holder of the called card is the caller's
partner in that deal), solves the rest of the hand with every hand open
(``open_solver.open_moves``, with the thirds of the face-down cards added to the last trick),
and averages the **stake** of each card over the deals, not the thirds (the game's
``Game.search_value``; these games' own, ``games.auction.StakeGame.search_value``):

| scoring | the value of a deal's outcome for the seat's side |
| --- | --- |
| ``"stake"`` (default) | +1 when its side wins the contract, -1 when it loses, doubled on cappotto, plus a hundredth of a third for each third its side takes (ties go to the card that takes more) |
| ``"difference"`` (Calabresella) | the thirds its side takes |

The stake of a deal is a non-decreasing function of the side's thirds, so solving the thirds
exactly solves the stake exactly; what changes is the average over deals: a card that wins
the contract on more deals beats one that takes more thirds on average. The contract's
multiplier and a seat's share of the stake are the same for every card and are left out.
Under ``cappotto_rule="all_tricks"`` (no trick taken), which the thirds do not show, a side
that takes no third from here and has taken no trick yet counts as taking none.

Example:
    >>> import random
    >>> from tressette_env.engine import apply, legal_actions, new_game, view
    >>> from tressette_env.engine.state import PLAY
    >>> from tressette_env.games.calabresella import CalabresellaRules
    >>> state = new_game(CalabresellaRules(), seed=0)
    >>> while state.public.phase != PLAY:
    ...     state = apply(state, legal_actions(state)[-1])
    >>> for _ in range(30):
    ...     state = apply(state, legal_actions(state)[0])
    >>> values = side_card_values(view(state, state.public.turn), 4, random.Random(0))
    >>> sorted(values) == sorted({a % 40 for a in legal_actions(state)})
    True
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..engine.cards import THIRDS, cards_of
from ..engine.scoring import LAST_TRICK_THIRDS
from ..engine.state import SeatView
from ..engine.tricks import trick_winner
from .open_solver import open_moves
from .sampling import DealSampler

__all__ = ["deal_sides", "side_card_values"]

HAND_THIRDS = sum(THIRDS) + LAST_TRICK_THIRDS
"""The thirds of a hand: 32 in the cards and 3 for the last trick."""


def deal_sides(view: SeatView, hands: tuple[int, ...]) -> tuple[int, ...]:
    """Each seat's side in a deal of the hidden cards: 0 the declarer's (the soloist, the caller and partner), 1 the others.

    The game's ``Game.deal_sides``: Calabresella's sides are public; in Tressette a chiamare
    the caller's partner is the seat that holds (or played) the called card in this deal;
    after a sola, or a call of the caller's own card, the declarer is alone.
    """
    return view.public.rules.game.deal_sides(view, hands)


def _taken(view: SeatView, sides: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Thirds and tricks each side (0, 1) of ``sides`` has taken so far this hand."""
    p = view.public
    thirds = [0, 0]
    public_side = p.table.sides  # the public sides are these or finer (a chiamare: one a seat until the end)
    for ps in set(public_side):
        seat = public_side.index(ps)
        thirds[sides[seat]] += p.thirds[ps]
    tricks = [0, 0]
    n = p.table.seats
    for leader, cards, _ in p.tricks():
        if len(cards) == n:
            tricks[sides[trick_winner(leader, cards, n)]] += 1
    return thirds, tricks


def _utility(rules: Any, mine: int, theirs: int, declarer: bool, tricks: list[int], before: list[int]) -> float:
    """The value for the seat's side of ending the hand with ``mine`` thirds against ``theirs`` (module docstring).

    The game's ``Game.search_value``. ``tricks`` and ``before``: the tricks and thirds each side
    (0 the declarer's) has taken so far.
    """
    return rules.game.search_value(rules, mine, theirs, declarer, tricks, before)


def side_card_values(
    view: SeatView, samples: int, rng: random.Random, deadline: float | None = None
) -> dict[int, float]:
    """The average value (module docstring) of each legal card of the seat on turn over ``samples`` deals.

    ``deadline`` (a ``time.perf_counter()`` time): no deal is begun once it has passed (the
    first always is).
    """
    p = view.public
    rules = p.rules
    sampler = DealSampler(view)
    totals: dict[int, float] = {}
    deals = 0
    while deals < samples and (deadline is None or not deals or time.perf_counter() < deadline):
        deals += 1
        hands, pile = sampler.sample_with_pile(rng)
        sides = deal_sides(view, hands)
        mine = sides[view.seat]
        taken, tricks = _taken(view, sides)
        last = LAST_TRICK_THIRDS + sum(THIRDS[c] for c in cards_of(pile))  # the pile goes to the last trick
        values = open_moves(hands, p.leader, p.trick, taken, sides=sides, last_trick=last)
        for card, ours in values.items():
            value = _utility(rules, ours, HAND_THIRDS - ours, mine == 0, tricks, taken)
            totals[card] = totals.get(card, 0.0) + value
    return {card: total / deals for card, total in sorted(totals.items())}
