"""Tressette col morto: the four-seat game with two or three players, the missing seats' hands face up.

FAMILY.md section 2. Four seats, ten cards each, partners opposite, the usual card play
(RULES.md); a seat without a player is a *dummy* (il morto): its hand lies face up and its
partner plays it in its turn, with the usual follow-suit rule.

- **Three players** (``players=3``, the default): the dealer plays his own hand and the
  dummy opposite him against the other two, who play in partnership. The dummy sits
  opposite the dealer, so partnerships change every hand (``dummy_holder="dealer"``); with
  ``dummy_holder="fixed"`` one player, drawn at the start, holds the dummy all match.
  Match scores are individual: after each hand every player adds his side's points. With a
  fixed holder the sides never change, so his match is kept by side, the holder's against
  the pair's, and the pair wins or loses it together.
- **Two players** (``players=2``): each has a dummy opposite him (seats 0 and 2 against 1
  and 3): with the dummies face up at the deal each sees thirty cards and knows the other
  ten, a perfect-information game.

Seats: with three players the dealer (player k) sits at seat ``d = k``, the next player at
``d + 1``, the dummy at ``d + 2`` and the third player at ``d + 3``; with two, player 0 sits
at seat 0 and player 1 at seat 1, their dummies opposite (seats 2 and 3), and the dealer's
seat is his own. Turn order is seat by seat, as in the four-seat game;
``Table.controllers`` says which player plays each seat, ``Table.seat_of`` where each sits.

| switch | default | allowed | meaning |
| --- | --- | --- | --- |
| `players` | `3` | `3`, `2` | live players (one or two dummies) |
| `dummy_exposed` | `"deal"` | `"deal"`, `"after_first_card"` | when the dummy's hand becomes public |
| `dummy_holder` | `"dealer"` | `"dealer"`, `"fixed"` | who plays with the dummy when three play (only with `players=3`) |
| `signals` | `True` | bool | a leader whose partner is a live player may signal busso / striscio / volo (truthfully) (only with `players=3`) |
| `striscio` | `"keeps_suit"` | `"keeps_suit"`, `"no_honours"` | when striscio is true (as RULES.md) (only with `players=3` and `signals=True`) |
| `accusi` | `True` | bool | declarations score and are public; a dummy's count for its side |
| `first_lead` | `"dealer_right"` | `"dealer_right"`, `"four_of_denari"` | the seat after the dealer, or (the first hand of a match only) the holder of the 4 di denari |
| `target_score` | `21` | int 1..10000 | match target (only with `episode="match"`) |
| `episode` | `"hand"` | `"hand"`, `"match"` | one deal per episode, or a match to `target_score` |
| `cappotto_bonus` | `0` | int 0..10000 | extra points to the side that makes every point of a hand |
| `illegal_action` | `"renuncio"` | `"renuncio"`, `"raise"` | an illegal action loses the hand 11-0, or raises ValueError |

Decisions where FAMILY.md leaves a point open (docs/games/col_morto.md says why):

- With two players the dealer alternates between them, and the seat after the dealer leads
  (so when the second player deals, the first player's dummy leads).
- With ``dummy_holder="fixed"`` the holder sits at seat 0, his dummy at seat 2, and the deal
  passes from player to player (the dummy never deals).
- With ``dummy_exposed="after_first_card"``, a dummy that makes the opening lead itself (two
  players, when the second deals; or the holder of the 4 di denari under ``first_lead``) is
  shown at the deal: its player cannot play a card he has not seen, and asking him to would
  hand him the dummy's cards as his legal actions before the others see them.
- With ``dummy_holder="fixed"`` a match is kept by side (``competitors`` is 2:
  side 0 the holder's, side 1 the pair's), as in the four-seat game: individual scores would
  keep the two partners always level, and a tie for the highest never parts them.
- Rewards: each player gets his side's points minus the other side's (a hand), or, for a
  match, +1 to the winner and -1/(players - 1) to each other player; with a fixed holder,
  +1 shared by the side that wins the match and -1 by the other (the holder +1 or -1, each
  of the pair +0.5 or -0.5): a match stays zero-sum.

Example:
    >>> from tressette_env.engine import new_game
    >>> state = new_game(ColMortoRules(), seed=0, dealer=1)
    >>> state.public.table.controllers  # seat 3 is the dummy of player 1, the dealer
    (0, 1, 2, 1)
    >>> state.public.exposed_by(3) == state.hands[3]
    True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ..engine.actions import FAMILY_NUM_ACTIONS
from ..engine.cards import FOUR_OF_DENARI
from ..engine.game import apply, check_deal, check_seat, legal_mask_for, shuffled
from ..engine.scoring import NO_DECLARATIONS, HandScore, declare
from ..engine.state import PLAY, PLAYING, GameState, PublicState, Table
from ..engine.switches import RuleSwitches, switch, when
from ..engine.variant import Game, with_public


class ColMortoPublic(NamedTuple):
    """Col morto's public record (``Table.extra``)."""

    dummies: tuple[int, ...]
    """The dummy seats of this hand."""
    by_side = False
    """(Not a field.) True in a fixed holder's match (``BySidePublic``)."""


class BySidePublic(ColMortoPublic):
    """The public record of a fixed holder's match: the same field, and a match kept by side (side 0 the holder's).

    A class of its own rather than a field, so that the record of every other rule set is the
    same on the wire (``protocol.state``) as before the rule (2026-12-05).
    """

    __slots__ = ()
    by_side = True


FIRST_CARD = 1
"""The game's own phase: the opening lead, before the dummy is shown (``dummy_exposed="after_first_card"``)."""
_M40 = (1 << 40) - 1


@dataclass(frozen=True)
class ColMortoRules(RuleSwitches):
    """Tressette col morto's rule switches (see the module docstring's table)."""

    game: ClassVar[Any] = None

    players: int = switch(3, (3, 2), "live players (one or two dummies)")
    dummy_exposed: str = switch("deal", ("deal", "after_first_card"), "when the dummy's hand becomes public")
    dummy_holder: str = switch(
        "dealer",
        ("dealer", "fixed"),
        "who plays with the dummy when three play",
        needs=when(players=3),  # with two, each player has a dummy
    )
    signals: bool = switch(
        True,
        bool,
        "a leader whose partner is a live player may signal busso / striscio / volo (truthfully)",
        needs=when(players=3),  # with two, every partner is a dummy: no seat may signal
    )
    striscio: str = switch(
        "keeps_suit",
        ("keeps_suit", "no_honours"),
        "when striscio is true (as RULES.md)",
        needs=when(players=3, signals=True),
    )
    accusi: bool = switch(True, bool, "declarations score and are public; a dummy's count for its side")
    first_lead: str = switch(
        "dealer_right",
        ("dealer_right", "four_of_denari"),
        "the seat after the dealer, or (the first hand of a match only) the holder of the 4 di denari",
    )
    target_score: int = switch(21, ("int", 1), "match target", needs=when(episode="match"))
    episode: str = switch("hand", ("hand", "match"), "one deal per episode, or a match to `target_score`")
    cappotto_bonus: int = switch(0, ("int", 0), "extra points to the side that makes every point of a hand")
    illegal_action: str = switch(
        "renuncio", ("renuncio", "raise"), "an illegal action loses the hand 11-0, or raises ValueError"
    )


make_rules = ColMortoRules.make
"""``ColMortoRules`` from keyword switches (an unknown one is a TypeError naming the switches)."""


rules_table = ColMortoRules.table
"""The Markdown table of the switches."""


class TressetteColMorto(Game):
    """Tressette col morto (see the module docstring)."""

    name = "tressette_col_morto"
    rules_type = ColMortoRules
    num_actions = FAMILY_NUM_ACTIONS
    deal_options = ("hands", "dealer")
    renuncio_text = "its side loses the hand 11-0"
    search_mode = "tricks"
    """The search player plays a dummy's face-up cards from the dummy's seat."""

    def zero_sum(self, rules: ColMortoRules) -> bool:
        return rules.players == 2  # three players: two share a side, and both score its difference

    def agents(self, rules: ColMortoRules) -> int:
        return rules.players

    def competitors(self, rules: ColMortoRules) -> int:
        return 2 if by_sides(rules) else rules.players

    def competitor_of(self, table: Table, agent: int) -> int:
        """Every player keeps his own match score; in a fixed holder's match, each side (the holder's is 0)."""
        if table.extra.by_side:
            return table.sides[table.seat_of[agent]]
        return agent

    # ------------------------------------------------------------------ seating

    def seating(self, rules: ColMortoRules, dealer_player: int, holder: int) -> tuple[int, tuple, tuple]:
        """The dealer's seat, each seat's player (``controllers``) and each player's own seat, for a hand."""
        if rules.players == 2:  # each player at his own seat, his dummy opposite
            return dealer_player, (0, 1, 0, 1), (0, 1)
        if rules.dummy_holder == "fixed":
            # The holder at seat 0, his dummy at seat 2, the others at seats 1 and 3.
            by_seat = (holder, (holder + 1) % 3, holder, (holder + 2) % 3)
            seat_of = [0, 0, 0]
            for seat in (0, 1, 3):
                seat_of[by_seat[seat]] = seat
            return seat_of[dealer_player], by_seat, tuple(seat_of)
        d = dealer_player
        by_seat = [0] * 4
        for k, who in (
            (0, dealer_player),
            (1, (dealer_player + 1) % 3),
            (2, dealer_player),
            (3, (dealer_player + 2) % 3),
        ):
            by_seat[(d + k) % 4] = who
        seat_of = [0, 0, 0]
        for k in (0, 1, 3):
            seat_of[by_seat[(d + k) % 4]] = (d + k) % 4
        return d, tuple(by_seat), tuple(seat_of)

    def dummies(self, controllers: tuple, seat_of: tuple) -> tuple[int, ...]:
        """The dummy seats: those no player sits in."""
        return tuple(s for s in range(4) if s not in seat_of)

    def _table(self, rules: ColMortoRules, controllers: tuple, seat_of: tuple, exposed: int, phase: int) -> Table:
        dummies = self.dummies(controllers, seat_of)
        # Only a leader whose partner is a live player may signal: signals to oneself carry no information.
        signal_seats = 0
        if rules.signals:
            for s in range(4):
                if (s + 2) % 4 not in dummies and s not in dummies:
                    signal_seats |= 1 << s
        return Table(
            seats=4, tricks=10, sides=(0, 1, 0, 1), controllers=controllers, seat_of=seat_of,
            signal_seats=signal_seats, narrow_striscio=rules.striscio == "no_honours", phase=phase, exposed=exposed,
            extra=(BySidePublic if by_sides(rules) else ColMortoPublic)(dummies),
        )  # fmt: skip

    # ------------------------------------------------------------------ dealing

    def checked_deal(self, rules: ColMortoRules, options: dict, first: bool) -> dict:
        out = {}
        if "hands" in options:
            out["hands"] = check_deal(options["hands"])
        if "dealer" in options:
            if not first:
                raise TypeError("the next hand's dealer follows from the last hand: give the hands only")
            out["dealer"] = check_seat(options["dealer"], "dealer (a player)", rules.players)
        return out

    def new_game(self, rules: ColMortoRules, rng: random.Random, options: dict) -> GameState:
        dealer = options.get("dealer")
        if dealer is None:
            dealer = rng.randrange(rules.players)
        holder = rng.randrange(3) if rules.players == 3 and rules.dummy_holder == "fixed" else 0
        hands = options.get("hands") or tuple(shuffled(rng, (10, 10, 10, 10)))
        return self._deal(rules, dealer, holder, hands, (0,) * self.competitors(rules), 0)

    def next_hand(self, state: GameState, rng: random.Random, options: dict) -> GameState:
        p = state.public
        rules = p.rules
        dealer_player = p.table.controllers[p.dealer]
        holder = p.table.controllers[0] if rules.dummy_holder == "fixed" else 0
        hands = options.get("hands") or tuple(shuffled(rng, (10, 10, 10, 10)))
        return self._deal(rules, (dealer_player + 1) % rules.players, holder, hands, p.match_score, p.hand_number + 1)

    def _deal(self, rules: ColMortoRules, dealer_player: int, holder: int, hands: tuple, score: tuple, number: int):
        d, controllers, seat_of = self.seating(rules, dealer_player, holder)
        dummies = self.dummies(controllers, seat_of)
        if rules.first_lead == "four_of_denari" and number == 0:
            first = next(s for s in range(4) if hands[s] >> FOUR_OF_DENARI & 1)
        else:
            first = (d + 1) % 4
        shown = sum(hands[s] << (40 * s) for s in dummies)
        if rules.dummy_exposed == "deal" or first in dummies:  # a dummy on lead is shown to be played
            table = self._table(rules, controllers, seat_of, shown, PLAY)
        else:
            table = self._table(rules, controllers, seat_of, 0, FIRST_CARD)
        public = PublicState(
            rules=rules, status=PLAYING, dealer=d, first_leader=first,
            accusi=declare(hands) if rules.accusi else NO_DECLARATIONS, match_score=score, hand_number=number,
            result=None, winner=None, table=table, leader=first, tricks_done=0, thirds=(0, 0), turn=first, trick=(),
            played=0, signals=0, voids=0, history=(),
        )  # fmt: skip
        return GameState(public, hands, hands)

    # ------------------------------------------------------------------ the opening lead in the dark

    def phase_name(self, p: PublicState) -> str:
        return "the opening lead, the dummy face down" if p.phase == FIRST_CARD else f"phase {p.phase}"

    def legal_phase(self, state: GameState) -> int:
        return legal_mask_for(state.hands[state.public.turn], state.public)

    def apply_phase(self, state: GameState, action: int) -> GameState:
        """``dummy_exposed="after_first_card"``: the opening lead, then the dummy is shown."""
        p = state.public
        after = apply(with_public(state, p._replace(table=p.table._replace(phase=PLAY))), action)
        q = after.public
        dummies = p.table.extra.dummies
        shown = sum(after.dealt[s] << (40 * s) for s in dummies)
        return with_public(after, q._replace(table=q.table._replace(exposed=shown)))

    # ------------------------------------------------------------------ scores

    def competitor_points(self, p: PublicState, result: HandScore) -> tuple[int, ...]:
        """Each player adds the points of the side he played on (the dealer his side's, once); a fixed holder: by side."""
        if p.table.extra.by_side:
            return result.points
        seat_of = p.table.seat_of
        return tuple(result.points[p.table.sides[seat_of[player]]] for player in range(len(seat_of)))

    def call_out(self, state: GameState) -> GameState:  # pragma: no cover - col morto has no calling_out switch
        raise ValueError("col morto has no calling out")

    def returns(self, p: PublicState) -> tuple[float, ...]:
        """A hand: each player's side's points minus the other side's. A match: +1 to the winner, the rest share -1.

        With a fixed holder the match is won by a side: +1 shared by its players, -1 by the other side's.
        """
        n = len(p.table.seat_of)
        if p.rules.episode == "match":
            if p.table.extra.by_side:  # the holder alone, the pair two
                side = [self.competitor_of(p.table, player) for player in range(n)]
                return tuple((1.0 if s == p.winner else -1.0) / side.count(s) for s in side)
            return tuple(1.0 if player == p.winner else -1.0 / (n - 1) for player in range(n))
        points = p.result.points
        sides = p.table.sides
        out = []
        for player in range(n):
            side = sides[p.table.seat_of[player]]
            out.append(float(points[side] - points[1 - side]))
        return tuple(out)

    # ------------------------------------------------------------------ text

    def seat_names(self, table: Table, agents: Any) -> tuple[str, ...]:
        dummies = table.extra.dummies
        return tuple(f"dummy of {agents[c]}" if s in dummies else agents[c] for s, c in enumerate(table.controllers))

    def competitor_name(self, p: PublicState, competitor: int) -> str:
        if not p.table.extra.by_side:
            return f"player_{competitor}"
        players = [a for a in range(len(p.table.seat_of)) if self.competitor_of(p.table, a) == competitor]
        return " and ".join(f"player_{a}" for a in players)

    def hand_info(self, p: PublicState) -> dict[str, Any]:
        info = super().hand_info(p)
        seat_of = p.table.seat_of
        info["sides"] = [
            [f"player_{a}" for a in range(len(seat_of)) if p.table.sides[seat_of[a]] == side] for side in (0, 1)
        ]
        return info


def by_sides(rules: ColMortoRules) -> bool:
    """True when the match is kept by side: a match of three players with a fixed holder (the sides never change).

    (Single hands keep a score by player, and the layout of the three-player observation, as before.)
    """
    return rules.players == 3 and rules.dummy_holder == "fixed" and rules.episode == "match"


COL_MORTO = TressetteColMorto()
ColMortoRules.game = COL_MORTO
