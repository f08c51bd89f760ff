"""Tressette mini: the family's card play on a shrunken deck, small enough for exact game solving.

A research game, not one of the six the package plays: its deck is the ``ranks`` strongest
ranks of the first ``suits`` suits, dealt out evenly to two players or to four in two teams
(partners opposite, as in the four-seat game), but ``out`` cards left out of play face down.
The cards out of the deck are known to lie nowhere. With two players and ``out=0`` each knows
the other's hand from the deal on: a perfect-information game after the deal, which ``out``
cards unseen make one of hidden cards. The card play is the core's: follow suit, the 3 the highest card
of a suit, the thirds (asso 3, the 2, 3 and the figures 1), the last trick 3 thirds more, each
side's thirds rounded down to points. No signals, no declarations, no stock.

It exists so that exact methods run on the family's rules: OpenSpiel's CFR and NashConv
(``docs/exploitability.md``, ``benchmarks/nashconv.py``). With ``players=4, suits=4,
ranks=10`` it is the four-seat game without signals and declarations, and the tests hold it to
that game hand for hand.

Importing this module registers it in the catalog (``tressette_mini``; the Gymnasium id
``tressette_env/TressetteMini-v0``, the PettingZoo id ``tressette_env/tressette_mini-v0``), after
which the environments, the players, ``tressette eval --game tressette_mini`` in the same
process and the OpenSpiel integration (``register_all()``) know it.

| switch | default | allowed | meaning |
| --- | --- | --- | --- |
| `players` | `2` | `2`, `4` | two players, or four in two teams, partners opposite |
| `suits` | `2` | int 1..4 | the deck's suits: denari, coppe, spade, bastoni, the first ``suits`` of them |
| `ranks` | `4` | int 1..10 | each suit's ranks, the strongest first: 3, 2, asso, re, cavallo, fante, 7, 6, 5, 4 |
| `out` | `0` | int 0..10000 | cards of the deck left out of play face down, seen by no one |
| `target_score` | `5` | int 1..10000 | match target (only with `episode="match"`) |
| `episode` | `"hand"` | `"hand"`, `"match"` | one deal per episode, or a match to `target_score` |
| `illegal_action` | `"renuncio"` | `"renuncio"`, `"raise"` | an illegal action loses the hand 11-0, or raises ValueError |

``suits * ranks - out`` must divide evenly among the players: each holds ``(suits * ranks -
out) / players`` cards and the hand has that many tricks.

Decisions (the seeds are silent on a shrunken deck):

- The first hand's dealer is the last seat, so seat 0 leads; in a match the deal passes to the
  left as in the four-seat game. No chance node draws the dealer (``dealer=`` picks another).
- The deal is one draw among every deal of the deck (``randrange`` of their number, unranked in
  card order) when there are at most ``ONE_DRAW_DEALS`` of them, so that an OpenSpiel game has a
  single chance node; a larger deck is shuffled as the other games' decks are.
- A renuncio loses the hand 11-0, as everywhere in the family.

Example:
    >>> from tressette_env.engine import apply, legal_actions, new_game
    >>> state = new_game(MiniRules(players=4), seed=0)  # two suits of four ranks: 3, 2, asso, re
    >>> state.public.table.seats, state.public.table.tricks, deals(MiniRules(players=4)), deals(MiniRules())
    (4, 2, 2520, 70)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from math import comb
from typing import Any, ClassVar

from .. import catalog
from ..engine.actions import FAMILY_NUM_ACTIONS
from ..engine.cards import FULL_DECK, NUM_CARDS, NUM_SUITS, CardMask
from ..engine.draws import shuffle
from ..engine.game import check_cards, check_seat
from ..engine.scoring import RENUNCIO_POINTS, no_declarations
from ..engine.state import PLAYING, GameState, PublicState, SeatView, Table
from ..engine.switches import RuleSwitches, switch, when
from ..engine.variant import PILE, Game

RANK_ORDER = (2, 1, 0, 9, 8, 7, 6, 5, 4, 3)
"""Rank indexes (card id % 10) from the strongest down: 3, 2, asso, re, cavallo, fante, 7, 6, 5, 4."""
ONE_DRAW_DEALS = 1_000_000
"""Up to this many deals, a deal is one draw among them (one OpenSpiel chance node); above, a shuffle."""


@dataclass(frozen=True)
class MiniRules(RuleSwitches):
    """Tressette mini's rule switches (see the module docstring's table)."""

    game: ClassVar[Any] = None

    players: int = switch(2, (2, 4), "two players, or four in two teams, partners opposite")
    suits: int = switch(2, ("int", 1, NUM_SUITS), "the deck's suits: denari, coppe, spade, bastoni, the first of them")
    ranks: int = switch(
        4,
        ("int", 1, len(RANK_ORDER)),
        "each suit's ranks, the strongest first: 3, 2, asso, re, cavallo, fante, 7, 6, 5, 4",
    )
    out: int = switch(
        0, ("int", 0), "cards of the deck left out of play face down, seen by no one (hidden cards for two players)"
    )
    target_score: int = switch(5, ("int", 1), "match target", needs=when(episode="match"))
    episode: str = switch("hand", ("hand", "match"), "one deal per episode, or a match to `target_score`")
    illegal_action: str = switch(
        "renuncio", ("renuncio", "raise"), "an illegal action loses the hand 11-0, or raises ValueError"
    )

    def check_combinations(self) -> None:
        dealt = self.suits * self.ranks - self.out
        if dealt < self.players or dealt % self.players:
            raise ValueError(
                f"rule switches suits={self.suits}, ranks={self.ranks}, out={self.out}: {dealt} cards to deal do not "
                f"deal evenly to {self.players} players (suits * ranks - out must be a positive multiple of players)"
            )

    @property
    def hand_size(self) -> int:
        """Cards in each hand, and tricks in a hand."""
        return (self.suits * self.ranks - self.out) // self.players


make_rules = MiniRules.make
"""``MiniRules`` from keyword switches (an unknown one is a TypeError naming the switches)."""


def deck(rules: MiniRules) -> tuple[int, ...]:
    """The deck's card ids, in card order."""
    return tuple(sorted(10 * suit + rank for suit in range(rules.suits) for rank in RANK_ORDER[: rules.ranks]))


def deck_mask(rules: MiniRules) -> CardMask:
    """The deck as a card mask."""
    return sum(1 << card for card in deck(rules))


def _multinomial(counts: tuple[int, ...] | list[int]) -> int:
    out, total = 1, 0
    for count in counts:
        total += count
        out *= comb(total, count)
    return out


def deals(rules: MiniRules) -> int:
    """How many deals the deck has (each seat's hand a set of cards)."""
    return _multinomial([rules.hand_size] * rules.players + [rules.out])


def unrank(rules: MiniRules, index: int) -> tuple[CardMask, ...]:
    """Deal number ``index`` (``0 <= index < deals(rules)``): each seat's hand.

    The deck's cards in card order go each to a seat with room, or out of play (the last place,
    ``out`` cards); the deals are ordered by the place of the first card, then the second's...

    Raises:
        ValueError: ``index`` out of range.
    """
    count = deals(rules)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
        raise ValueError(f"deal number {index!r}: the deals of this deck are numbered 0 to {count - 1}")
    left = [rules.hand_size] * rules.players + [rules.out]
    hands = [0] * (rules.players + 1)
    for card in deck(rules):
        for seat in range(rules.players + 1):
            if not left[seat]:
                continue
            left[seat] -= 1
            here = _multinomial(left)
            if index < here:
                hands[seat] |= 1 << card
                break
            index -= here
            left[seat] += 1
    return tuple(hands[: rules.players])


@cache
def _table(players: int, tricks: int) -> Table:
    sides = (0, 1) if players == 2 else (0, 1, 0, 1)
    seats = tuple(range(players))
    return Table(seats=players, tricks=tricks, sides=sides, controllers=seats, seat_of=seats, signal_seats=0)


class TressetteMini(Game):
    """Tressette mini (see the module docstring)."""

    name = "tressette_mini"
    rules_type = MiniRules
    num_actions = FAMILY_NUM_ACTIONS
    side_word = "side"
    renuncio_text = "its side loses the hand 11-0"

    def agents(self, rules: MiniRules) -> int:
        return rules.players

    def zero_sum(self, rules: MiniRules) -> bool:
        return True

    def return_bound(self, rules: MiniRules) -> float:
        return float(RENUNCIO_POINTS)  # no hand is worth more than the whole deck's 11 points

    def deal_outcomes(self, rules: MiniRules) -> int:
        count = deals(rules)
        return max(NUM_CARDS, count) if count <= ONE_DRAW_DEALS else NUM_CARDS

    def card_places(self, view: SeatView, seats: tuple[int, ...], known_down: CardMask):
        """The cards out of the deck are in no hand (every card of the deck is dealt: they lie nowhere)."""
        outside = FULL_DECK & ~deck_mask(view.public.rules)
        return [(seat, 0, outside) for seat in seats if seat != PILE]

    def checked_deal(self, rules: MiniRules, options: dict, first: bool) -> dict:
        out: dict = {}
        if "hands" in options:
            hands = options["hands"]
            masks = check_cards(hands, (rules.hand_size,) * rules.players)
            outside = sum(masks) & ~deck_mask(rules)
            if outside:
                card = (outside & -outside).bit_length() - 1
                raise ValueError(
                    f"card {card} is not in this deck; the deck ({rules.suits} suits of {rules.ranks} ranks) is "
                    f"{list(deck(rules))}"
                )
            out["hands"] = tuple(masks)
        if "dealer" in options:
            if not first:
                raise TypeError("the next hand's dealer follows from the last hand: give the cards only")
            out["dealer"] = check_seat(options["dealer"], "dealer", rules.players)
        return out

    def _hands(self, rules: MiniRules, rng: random.Random, options: dict) -> tuple[CardMask, ...]:
        if "hands" in options:
            return options["hands"]
        count = deals(rules)
        if count <= ONE_DRAW_DEALS:
            return unrank(rules, rng.randrange(count))
        cards = list(deck(rules))
        shuffle(rng, cards)
        size = rules.hand_size
        return tuple(sum(1 << c for c in cards[s * size : (s + 1) * size]) for s in range(rules.players))

    def new_game(self, rules: MiniRules, rng: random.Random, options: dict) -> GameState:
        dealer = options.get("dealer", rules.players - 1)
        return self._deal(rules, dealer, self._hands(rules, rng, options), (0, 0), 0)

    def next_hand(self, state: GameState, rng: random.Random, options: dict) -> GameState:
        p = state.public
        rules = p.rules
        dealer = (p.dealer + 1) % rules.players
        return self._deal(rules, dealer, self._hands(rules, rng, options), p.match_score, p.hand_number + 1)

    def _deal(self, rules: MiniRules, dealer: int, hands: tuple, score: tuple, number: int) -> GameState:
        first = (dealer + 1) % rules.players
        public = PublicState(
            rules=rules, status=PLAYING, dealer=dealer, first_leader=first, accusi=no_declarations(rules.players, 2),
            match_score=score, hand_number=number, result=None, winner=None,
            table=_table(rules.players, rules.hand_size), leader=first, tricks_done=0, thirds=(0, 0), turn=first,
            trick=(), played=0, signals=0, voids=0, history=(),
        )  # fmt: skip
        return GameState(public, tuple(hands), tuple(hands))

    def returns(self, p: PublicState) -> tuple[float, ...]:
        """The hand's points difference by side (partners alike), or +1/-1 for the match."""
        if p.rules.episode == "match":
            side = (1.0, -1.0) if p.winner == 0 else (-1.0, 1.0)
        else:
            diff = float(p.result.points[0] - p.result.points[1])
            side = (diff, -diff)
        return tuple(side[s % 2] for s in range(p.rules.players))


TRESSETTE_MINI = TressetteMini()
MiniRules.game = TRESSETTE_MINI


ENTRY = catalog.register(
    catalog.Entry(
        name="tressette_mini",
        title="Tressette mini",
        summary="two or four players, a shrunken deck (for exact solving)",
        rules="tressette_env.games.mini:MiniRules",
        encoders="tressette_env.encoders.mini",
        gym_id="tressette_env/TressetteMini-v0",
        pettingzoo_id="tressette_env/tressette_mini-v0",
        docs="docs/exploitability.md",
        forms=(("two players", {}), ("two players, two cards out", {"out": 2}), ("four players", {"players": 4})),
    )
)
"""The catalog's entry: no heuristic of its own (the generic one plays), the generic environments."""
