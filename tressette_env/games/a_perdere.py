"""Tressette a perdere (Traversone, Ciapanò): every player for himself, three to eight players, the fewest points win.

FAMILY.md section 3. The same cards and tricks as the four-seat game, no declarations and
no signals; each player plays for himself and is *charged* the points he takes. The cards are
shared out evenly (13, 10, 8, 6, 5 or 5 each for 3 to 8 players); the cards left over are
removed and announced (``reduce="remove"``: the 4 di bastoni with three players, the four 4s
with six, the four 4s and the 5 di bastoni with seven), or dealt to the dealer who discards
them face down, or left face down as a monte; discards and monte go to the winner of the last
trick.

Charges (``last_trick="remainder"``, the default): let ``t_i`` be player i's thirds (the last
trick's 3 to its winner L) and ``H`` the hand's total in whole points (11; ``10 + v`` when the
asso di bastoni is worth ``v``). Every player but L is charged ``t_i // 3``; L is charged
``H`` minus the others' charges, so the charges always add up to ``H``. With
``last_trick="plus_one"`` each is rounded down separately. A player who leaves every other
with 0 points makes **cappotto**: he is charged 0 and every other player ``H``
(``cappotto="others_charged"``).

Worked examples (four players): thirds 10, 7, 2, 16, player 3 taking the last trick: charges
3, 2, 0 and 11 - 5 = 6. Thirds 0, 2, 1, 32, the last trick to player 3: cappotto, player 3 is
charged 0 and players 0, 1, 2 are charged 11 each.

| switch | default | allowed | meaning |
| --- | --- | --- | --- |
| `players` | `4` | int 3..8 | players |
| `reduce` | `"remove"` | `"remove"`, `"dealer_discard"`, `"monte"` | the cards that do not divide evenly: removed and announced, or dealt to the dealer who discards as many face down, or left face down as a monte (discards and monte go to the last trick's winner) (only with cards left over: `players=3`, `6` or `7`, or a match with `match_end="elimination"`) |
| `last_trick` | `"remainder"` | `"remainder"`, `"plus_one"` | the last trick's winner is charged the hand's total minus the others' charges, or each is rounded down separately |
| `cappotto` | `"others_charged"` | `"others_charged"`, `"wins_match"`, `"none"` | a player who leaves every other with 0 points: charged 0 and the others the hand's total; or he also wins the match at once; or no special rule (`"none"` only with `objective="avoid"`) |
| `asso_bastoni_value` | `1` | `1`, `11`, `18` | points of the asso di bastoni (11: "Girellone"); the hand's total is 10 + this |
| `zero_point_charge` | `None` | int 0..10000 or None | (seed 000's ambiguous rule, literal reading) a player with 0 points is charged this many (only with `objective="avoid"`) |
| `match_end` | `"target"` | `"target"`, `"elimination"`, `"hands"` | a match ends when someone reaches the target (the lowest total wins), or players reaching it drop out (the last one left wins), or after `hands` hands (only with `episode="match"`) |
| `target_score` | `21` | int 1..10000 | the match target (only with `episode="match"` and `match_end="target"` or `"elimination"`) |
| `hands` | `5` | int 1..10000 | hands of a match (only with `episode="match"` and `match_end="hands"`) |
| `teams` | `False` | bool | 2 v 2 a perdere (four players; partners opposite, signals allowed; the first team to the target loses) |
| `objective` | `"avoid"` | `"avoid"`, `"take"` | avoid points (this game), or take them (a cutthroat tressette) |
| `first_lead` | `"dealer_right"` | `"dealer_right"`, `"four_of_denari"` | the seat after the dealer, or (the first hand of a match only) the holder of the 4 di denari |
| `episode` | `"hand"` | `"hand"`, `"match"` | one deal per episode, or a match |
| `illegal_action` | `"renuncio"` | `"renuncio"`, `"raise"` | an illegal action charges the offender the hand's total (the others 0), or raises ValueError |

Decisions where FAMILY.md leaves a point open (docs/games/a_perdere.md says why):

- A cappotto needs every other player at 0 whole points; with the remainder rule only the
  last trick's winner can make it. With the special asso the cappotto charge is ``H``.
- ``cappotto="wins_match"`` charges as ``"others_charged"`` and, in a match, ends it at once
  for the cappotto maker.
- ``zero_point_charge`` applies to hands without a cappotto, to each player charged 0.
- ``objective="take"``: the charges are the points won (good); no cappotto inversion and no
  zero-point charge; a renuncio gives the offender 0 and every other player the hand's total.
- ``reduce`` with a number of players that shares the deck evenly (4, 5, 8) would change nothing
  and is refused, but in an elimination match (players drop out, leaving cards over).
  ``dealer_discard`` deals the leftover cards to the dealer, who discards that many face
  down (one ``GIVE + c`` action each) before the first lead; the discards stay out of the
  public history (they are face down); the dealer alone knows them (``SeatView.private``,
  the ``face_down_known`` piece of his observation).
- With ``first_lead="four_of_denari"`` and the 4 di denari removed or in the monte, the seat
  after the dealer leads; the holder of the 4 di denari is the one it was dealt to (a dealer
  who discards it still leads).
- A chosen deal that leaves out cards with points keeps the hand's total ``H``: the remainder
  rule charges the points no one took to the last trick's winner.
- ``match_end="elimination"`` needs ``objective="avoid"`` (reaching the target puts a player
  out, a loss only when points are charges).
- Elimination (``match_end="elimination"``): the players still in are dealt the whole deck
  among themselves (down to two players, 20 cards each); the last one left wins; if every
  player still in reaches the target in the same hand, the lowest total wins (a tie plays on).
- Rewards: a hand, each player's own result (minus his charge; plus his points with
  ``"take"``); a match, the standing: ``1 - 2 * rank / (players - 1)`` (the winner +1, the last
  -1, ties sharing their ranks), the eliminated ranked by when they dropped out
  (those of one hand by their totals, equal totals sharing their rank).

Example:
    >>> from tressette_env.engine import apply, legal_actions, new_game
    >>> state = new_game(APerdereRules(players=5), seed=0)
    >>> [h.bit_count() for h in state.hands]
    [8, 8, 8, 8, 8]
    >>> while state.public.status == 0:
    ...     state = apply(state, legal_actions(state)[0])
    >>> sum(state.public.result.points)
    11
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ..engine.actions import FAMILY_NUM_ACTIONS, GIVE
from ..engine.cards import FOUR_OF_DENARI, FULL_DECK, NUM_CARDS, THIRDS, CardMask, cards_of, mask_of
from ..engine.draws import shuffle
from ..engine.game import check_cards, check_seat, illegal
from ..engine.scoring import HandScore, no_declarations
from ..engine.state import GAME_OVER, HAND_OVER, PLAY, PLAYING, GameState, PublicState, SeatView, Table
from ..engine.switches import Needs, RuleSwitches, switch, when
from ..engine.tricks import trick_winner
from ..engine.variant import PILE, Game, with_public
from ..messages import shown

DISCARD = 1
"""The game's own phase: the dealer discards the leftover cards (``reduce="dealer_discard"``)."""
ASSO_DI_BASTONI = 30
REMOVED = {3: (33,), 6: (3, 13, 23, 33), 7: (3, 13, 23, 33, 34)}
"""The cards removed (and announced) with ``reduce="remove"``: the 4 di bastoni; the four 4s; and the 5 di bastoni."""


def hand_size(players: int) -> int:
    """Cards each player is dealt: 13, 10, 8, 6, 5 or 5 for 3 to 8 players (20 for two, in an elimination)."""
    return NUM_CARDS // players


@dataclass(frozen=True)
class APerdereRules(RuleSwitches):
    """Tressette a perdere's rule switches (see the module docstring's table)."""

    game: ClassVar[Any] = None

    players: int = switch(4, ("int", 3, 8), "players")
    reduce: str = switch(
        "remove",
        ("remove", "dealer_discard", "monte"),
        "the cards that do not divide evenly: removed and announced, or dealt to the dealer who discards as many "
        "face down, or left face down as a monte (discards and monte go to the last trick's winner)",
        needs=Needs(
            test=lambda r: NUM_CARDS % r.players or (r.episode == "match" and r.match_end == "elimination"),
            text='cards left over: `players=3`, `6` or `7`, or a match with `match_end="elimination"`',
            reads=("players", "episode", "match_end"),
        ),
    )
    last_trick: str = switch(
        "remainder",
        ("remainder", "plus_one"),
        "the last trick's winner is charged the hand's total minus the others' charges, or each is rounded down separately",
    )
    cappotto: str = switch(
        "others_charged",
        ("others_charged", "wins_match", "none"),
        "a player who leaves every other with 0 points: charged 0 and the others the hand's total; or he also wins "
        "the match at once; or no special rule",
        # With "take" no cappotto is charged. In a single hand "wins_match" charges as "others_charged",
        # but is not inert: with "take" the hand's result still names the cappotto.
        needs=when(objective="avoid", values=("none",)),
    )
    asso_bastoni_value: int = switch(
        1, (1, 11, 18), 'points of the asso di bastoni (11: "Girellone"); the hand\'s total is 10 + this'
    )
    zero_point_charge: int | None = switch(
        None,
        ("int|None", 0),
        "(seed 000's ambiguous rule, literal reading) a player with 0 points is charged this many",
        needs=when(objective="avoid"),
    )
    match_end: str = switch(
        "target",
        ("target", "elimination", "hands"),
        "a match ends when someone reaches the target (the lowest total wins), or players reaching it drop out "
        "(the last one left wins), or after `hands` hands",
        needs=when(episode="match"),
    )
    target_score: int = switch(
        21, ("int", 1), "the match target", needs=when(episode="match", match_end=("target", "elimination"))
    )
    hands: int = switch(5, ("int", 1), "hands of a match", needs=when(episode="match", match_end="hands"))
    teams: bool = switch(
        False,
        bool,
        "2 v 2 a perdere (four players; partners opposite, signals allowed; the first team to the target loses)",
    )
    objective: str = switch(
        "avoid", ("avoid", "take"), "avoid points (this game), or take them (a cutthroat tressette)"
    )
    first_lead: str = switch(
        "dealer_right",
        ("dealer_right", "four_of_denari"),
        "the seat after the dealer, or (the first hand of a match only) the holder of the 4 di denari",
    )
    episode: str = switch("hand", ("hand", "match"), "one deal per episode, or a match")
    illegal_action: str = switch(
        "renuncio",
        ("renuncio", "raise"),
        "an illegal action charges the offender the hand's total (the others 0), or raises ValueError",
    )

    def check_combinations(self) -> None:
        if self.teams and self.players != 4:
            raise ValueError(
                f"rule switch teams=True needs players=4 (two partnerships); got players={shown(self.players)}"
            )
        if self.objective == "take" and self.match_end == "elimination":
            raise ValueError(
                'rule switch match_end="elimination" needs objective="avoid": reaching the target puts a player out, '
                'which is a loss only when points are charges (use match_end="target" or "hands" with "take")'
            )
        if self.teams and self.match_end == "elimination":
            raise ValueError(
                'rule switch teams=True: a partnership match ends at the target (match_end="target" or "hands")'
            )

    @property
    def total(self) -> int:
        """The hand's total in whole points: 10 + the asso di bastoni's value."""
        return 10 + self.asso_bastoni_value


make_rules = APerdereRules.make
"""``APerdereRules`` from keyword switches (an unknown one is a TypeError naming the switches)."""


rules_table = APerdereRules.table
"""The Markdown table of the switches."""


class APerderePublic(NamedTuple):
    """A perdere's public record (``Table.extra``)."""

    removed: CardMask
    """The cards removed and announced this hand."""
    set_aside: int
    """Cards face down for the last trick's winner: the monte, or the dealer's discards."""
    live: tuple[int, ...]
    """The players dealt in this hand (every player, but those an elimination put out)."""
    out: tuple[int, ...]
    """The players eliminated so far, in the order they went out (those of one hand: the worst total first)."""
    teams: bool = False
    """Two partnerships (``teams=True``): the match scores are the teams'."""
    out_at: tuple[int, ...] = ()
    """The hand (``hand_number``) in which each player of ``out`` went out."""


class APerdereHidden(NamedTuple):
    """A perdere's hidden record: the monte or the dealer's discards (their owner sees the discards)."""

    set_aside: tuple[int, ...]


def _standing(
    scores: tuple[int, ...], out: tuple[int, ...], out_at: tuple[int, ...], winner: int | None, low_wins: bool
) -> list[float]:
    """Ranks (0 best; ties share the mean rank) from a match's final totals and eliminations.

    The winner first; then the players still in, by total; then the eliminated, the last out
    first, those put out in one hand by total (equal totals share their rank).
    """
    n = len(scores)
    order: list[list[int]] = []
    if winner is not None:
        order.append([winner])
    alive = [a for a in range(n) if a not in out and a != winner]
    for total in sorted({scores[a] for a in alive}, reverse=not low_wins):
        order.append([a for a in alive if scores[a] == total])
    gone = [a for a in out if a != winner]
    when = dict(zip(out, out_at, strict=True))
    for hand in sorted({when[a] for a in gone}, reverse=True):  # the last out ranks best among the eliminated
        together = [a for a in gone if when[a] == hand]
        for total in sorted({scores[a] for a in together}, reverse=not low_wins):
            order.append([a for a in together if scores[a] == total])
    ranks = [0.0] * n
    k = 0
    for group in order:
        mean = k + (len(group) - 1) / 2
        for a in group:
            ranks[a] = mean
        k += len(group)
    return ranks


class TressetteAPerdere(Game):
    """Tressette a perdere (see the module docstring)."""

    name = "tressette_a_perdere"
    rules_type = APerdereRules
    num_actions = FAMILY_NUM_ACTIONS
    deal_options = ("hands", "monte", "dealer")
    side_word = "player"
    renuncio_text = "the offender is charged the hand's total"

    def agents(self, rules: APerdereRules) -> int:
        return rules.players

    def sides(self, rules: APerdereRules) -> int:
        return 2 if rules.teams else rules.players

    def competitors(self, rules: APerdereRules) -> int:
        return 2 if rules.teams else rules.players

    def out_of_match(self, table: Table, agent: int) -> bool:
        return agent in table.extra.out

    def return_bound(self, rules: APerdereRules) -> float:
        """A charge is at most the hand's total (a cappotto charges it to each of the others) or the zero-point charge."""
        return float(max(rules.total, rules.zero_point_charge or 0))

    def points_sign(self, rules: APerdereRules) -> int:
        return -1 if rules.objective == "avoid" else 1

    def competitor_of(self, table: Table, agent: int) -> int:
        return table.sides[table.seat_of[agent]] if table.extra.teams else agent

    # ------------------------------------------------------------------ dealing

    def _shape(self, rules: APerdereRules, live: int) -> tuple[int, int]:
        """Cards each player is dealt and cards left over, for ``live`` players."""
        h = hand_size(live)
        return h, NUM_CARDS - live * h

    def checked_deal(self, rules: APerdereRules, options: dict, first: bool) -> dict:
        out: dict = {}
        if "dealer" in options:
            if not first:
                raise TypeError("the next hand's dealer follows from the last hand: give the cards only")
            out["dealer"] = check_seat(options["dealer"], "dealer", rules.players)
        if not first:  # the players still in and the dealer follow from the last hand: next_hand checks the cards
            return {**out, **{key: options[key] for key in ("hands", "monte") if key in options}}
        return self._checked_cards(rules, options, rules.players, out.get("dealer"), out)

    def _checked_cards(self, rules: APerdereRules, options: dict, live: int, dealer: int | None, out: dict) -> dict:
        """Check a chosen deal's hands (one per player dealt in, by seat) and monte; ``dealer`` is a seat."""
        h, k = self._shape(rules, live)
        pool: dict = {}
        if "hands" in options:
            sizes = [h] * live
            if rules.reduce == "dealer_discard" and k:
                if dealer is None:
                    raise ValueError(
                        'with reduce="dealer_discard" a chosen deal names its dealer (he holds the extra cards)'
                    )
                sizes[dealer] = h + k
            out["hands"] = tuple(check_cards(options["hands"], tuple(sizes), "hand", pool))
        if "monte" in options:
            if rules.reduce != "monte" or not k:
                raise ValueError(
                    f'a monte is for reduce="monte" with a number of players that leaves cards over; here {k} are left'
                )
            check_cards([options["monte"]], (k,), "monte", pool)
            out["monte"] = tuple(int(c) for c in options["monte"])
        return out

    def new_game(self, rules: APerdereRules, rng: random.Random, options: dict) -> GameState:
        dealer = options.get("dealer")
        if dealer is None:
            dealer = rng.randrange(rules.players)
        live = tuple(range(rules.players))
        return self._deal(rules, rng, options, live, ((), ()), live[dealer], (0,) * self.competitors(rules), 0)

    def next_hand(self, state: GameState, rng: random.Random, options: dict) -> GameState:
        p = state.public
        rules = p.rules
        extra = p.table.extra
        previous = p.table.controllers[p.dealer]
        live = tuple(a for a in extra.live if a not in extra.out)
        # The deal passes to the next player still in after the last dealer.
        ring = sorted(set(live) | {previous})
        dealer = ring[(ring.index(previous) + 1) % len(ring)]
        while dealer not in live:
            dealer = ring[(ring.index(dealer) + 1) % len(ring)]
        options = self._checked_cards(rules, options, len(live), live.index(dealer), {})
        out = (extra.out, extra.out_at)
        return self._deal(rules, rng, options, live, out, dealer, p.match_score, p.hand_number + 1)

    def _deal(self, rules, rng, options, live, out, dealer_agent, score, number) -> GameState:
        """Deal hand ``number`` to the players ``live``; ``out`` is (the players out, the hands they went out in)."""
        n = len(live)
        h, k = self._shape(rules, n)
        d = live.index(dealer_agent)
        hands = options.get("hands")
        monte: tuple[int, ...] = options.get("monte", ())
        removed = 0
        if hands is None:
            deck = [c for c in range(NUM_CARDS) if c not in monte]  # a chosen monte stays out of the shuffle
            kept = deck
            if k and rules.reduce == "remove":
                cut = REMOVED.get(n, ())
                removed = mask_of(cut)
                kept = [c for c in deck if c not in cut]
            shuffle(rng, kept)
            masks = [mask_of(kept[h * s : h * (s + 1)]) for s in range(n)]
            rest = kept[h * n :]
            if k and rules.reduce == "dealer_discard":
                masks[d] |= mask_of(rest)
            elif k and rules.reduce == "monte" and not monte:
                monte = tuple(rest)
            hands = tuple(masks)
        else:
            dealt = 0
            for m in hands:
                dealt |= m
            rest_mask = ((1 << NUM_CARDS) - 1) & ~dealt & ~mask_of(monte)
            if rules.reduce == "monte" and k and not monte:
                monte = tuple(cards_of(rest_mask))
            elif rules.reduce == "remove" or not k:
                removed = rest_mask  # the removed cards follow from the hands
        first = (d + 1) % n
        if rules.first_lead == "four_of_denari" and number == 0:
            first = next((s for s in range(n) if hands[s] >> FOUR_OF_DENARI & 1), first)
        seat_of = tuple(live.index(a) if a in live else -1 for a in range(rules.players))
        sides = (0, 1, 0, 1) if rules.teams else tuple(range(n))
        discarding = rules.reduce == "dealer_discard" and k > 0
        table = Table(
            seats=n, tricks=h, sides=sides, controllers=live, seat_of=seat_of,
            signal_seats=0b1111 if rules.teams else 0, phase=DISCARD if discarding else PLAY,
            extra=APerderePublic(removed, k if (discarding or monte) else 0, live, out[0], rules.teams, out[1]),
        )  # fmt: skip
        turn = d if discarding else first
        public = PublicState(
            rules=rules, status=PLAYING, dealer=d, first_leader=first, accusi=no_declarations(n, max(sides) + 1),
            match_score=score, hand_number=number, result=None, winner=None, table=table, leader=turn,
            tricks_done=0, thirds=(0,) * (max(sides) + 1), turn=turn, trick=(), played=0, signals=0, voids=0,
            history=(),
        )  # fmt: skip
        return GameState(public, tuple(hands), tuple(hands), APerdereHidden(tuple(monte)))

    # ------------------------------------------------------------------ the dealer's discards

    def legal_phase(self, state: GameState) -> int:
        return state.hands[state.public.turn] << GIVE

    def apply_phase(self, state: GameState, action: int) -> GameState:
        p = state.public
        seat = p.turn
        card = action - GIVE
        if not GIVE <= action < GIVE + 40 or not state.hands[seat] >> card & 1:
            raise illegal(state, action, "the dealer discards a card of his hand (GIVE + card)")
        hands = list(state.hands)
        hands[seat] ^= 1 << card
        hidden = APerdereHidden(state.hidden.set_aside + (card,))
        table = p.table
        history = p.history  # face down: the discards stay out of the public record
        if len(hidden.set_aside) == table.extra.set_aside:  # done: the seat after the dealer leads
            dealt = tuple(hands)
            table = table._replace(phase=PLAY)
            first = p.first_leader
            public = p._replace(table=table, history=history, turn=first, leader=first)
            return GameState(public, dealt, dealt, hidden)
        return GameState(p._replace(history=history), tuple(hands), state.dealt, hidden)

    def phase_name(self, p: PublicState) -> str:
        return "the dealer discards"

    def private_of(self, state: GameState, seat: int) -> int:
        """The dealer's own discards (``reduce="dealer_discard"``): face down, known to him alone."""
        p = state.public
        if p.rules.reduce == "dealer_discard" and seat == p.dealer:
            return mask_of(state.hidden.set_aside)
        return 0

    def card_places(
        self, view: SeatView, seats: tuple[int, ...], known_down: CardMask
    ) -> list[tuple[int, CardMask, CardMask]]:
        """The cards removed and announced (``reduce="remove"``) are in no hand: the deal sampler lays them face down."""
        removed = view.public.table.extra.removed
        return [(seat, 0, removed) for seat in seats if seat != PILE] if removed else []

    def drawn_state(
        self,
        view: SeatView,
        rng: random.Random,
        sample: Callable[[], tuple[tuple[CardMask, ...], CardMask]],
        strict: bool = True,
    ) -> GameState:
        """The sampler's hands (``Game.drawn_state``); set aside face down, every card in no hand, not played, not removed.

        That is the monte, or the dealer's discards (those made so far while he discards).
        """
        state = super().drawn_state(view, rng, sample, strict)
        held = 0
        for h in state.hands:
            held |= h
        p = view.public
        out = FULL_DECK & ~held & ~p.all_played & ~p.table.extra.removed
        return state._replace(hidden=APerdereHidden(tuple(cards_of(out))))

    # ------------------------------------------------------------------ charges

    def end_hand(self, state: GameState) -> GameState:
        return with_public(state, self.close_hand(state.public, self.charges(state)))

    def charges(self, state: GameState) -> HandScore:
        """The charges of a finished hand (``HandScore.points``, by side), from the thirds each side took."""
        p = state.public
        rules = p.rules
        t = p.table
        thirds = list(p.thirds)
        last = t.sides[p.leader]  # the winner of the last trick leads next: its side
        # The monte or the discards go to the last trick's winner; the special asso is worth more.
        thirds[last] += sum(THIRDS[c] for c in state.hidden.set_aside)
        v = rules.asso_bastoni_value
        if v != 1:
            holder = last if ASSO_DI_BASTONI in state.hidden.set_aside else self._taker(p, ASSO_DI_BASTONI)
            if holder is not None:
                thirds[holder] += 3 * (v - 1)
        total = rules.total
        points = [x // 3 for x in thirds]
        if rules.last_trick == "remainder":
            points[last] = total - sum(x for i, x in enumerate(points) if i != last)
        cappotto = None
        if rules.objective == "avoid":
            if rules.cappotto != "none" and all(points[i] == 0 for i in range(len(points)) if i != last):
                cappotto = last
                points = [0 if i == last else total for i in range(len(points))]
            elif rules.zero_point_charge is not None:
                points = [rules.zero_point_charge if x == 0 else x for x in points]
        elif rules.cappotto == "wins_match" and all(points[i] == 0 for i in range(len(points)) if i != last):
            cappotto = last
        return HandScore(tuple(points), tuple(thirds), (0,) * len(points), cappotto)

    @staticmethod
    def _taker(p: PublicState, card: int) -> int | None:
        """The side that took ``card`` this hand (None when it was not played: removed)."""
        n = p.table.seats
        for leader, cards, _ in p.tricks():
            if card in cards and len(cards) == n:
                return p.table.sides[trick_winner(leader, cards, n)]
        return None

    def competitor_points(self, p: PublicState, result: HandScore) -> tuple[int, ...]:
        if p.rules.teams:
            return result.points
        score = [0] * p.rules.players
        for seat, agent in enumerate(p.table.controllers):
            score[agent] = result.points[p.table.sides[seat]]
        return tuple(score)

    def close_hand(self, p: PublicState, result: HandScore, winner: int | None = None) -> PublicState:
        rules = p.rules
        gained = self.competitor_points(p, result)
        score = tuple(a + b for a, b in zip(p.match_score, gained, strict=True))
        extra = p.table.extra
        out, out_at = extra.out, extra.out_at
        status = GAME_OVER
        low = rules.objective == "avoid"
        if (
            winner is None
            and result.cappotto is not None
            and rules.cappotto == "wins_match"
            and rules.episode == "match"
        ):
            # the cappotto maker (a side: a team, or a seat of the players dealt in)
            winner = result.cappotto if rules.teams else p.table.controllers[result.cappotto]
        if winner is None and rules.episode == "match":
            if rules.match_end == "elimination":
                still = [a for a in extra.live]
                over = [a for a in still if score[a] >= rules.target_score]
                staying = [a for a in still if a not in over]
                if len(staying) >= 2:
                    out = out + tuple(sorted(over, key=lambda a: score[a], reverse=low))
                    out_at = out_at + (p.hand_number,) * len(over)
                    status = HAND_OVER
                elif len(staying) == 1:
                    winner = staying[0]
                    out = out + tuple(sorted(over, key=lambda a: score[a], reverse=low))
                    out_at = out_at + (p.hand_number,) * len(over)
                else:  # everyone still in reached the target: the best total wins, a tie plays on
                    winner = self._best(score, still, low)
                    if winner is None:
                        status = HAND_OVER
            else:
                ended = (
                    p.hand_number + 1 >= rules.hands if rules.match_end == "hands" else max(score) >= rules.target_score
                )
                winner = self._best(score, range(len(score)), low) if ended else None
                if winner is None:
                    status = HAND_OVER
        table = p.table._replace(extra=extra._replace(out=out, out_at=out_at))
        return p._replace(status=status, turn=-1, match_score=score, result=result, winner=winner, table=table)

    @staticmethod
    def _best(score: tuple[int, ...], among: Any, low: bool) -> int | None:
        """The competitor with the best total (the lowest with ``avoid``), or None on a tie."""
        among = list(among)
        best = (min if low else max)(score[a] for a in among)
        tied = [a for a in among if score[a] == best]
        return tied[0] if len(tied) == 1 else None

    def renuncio(self, state: GameState) -> GameState:
        p = state.public
        rules = p.rules
        sides = len(p.thirds)
        side = p.table.sides[p.turn]
        total = rules.total
        if rules.objective == "avoid":
            points = tuple(total if s == side else 0 for s in range(sides))
        else:
            points = tuple(0 if s == side else total for s in range(sides))
        result = HandScore(points, p.thirds, (0,) * sides, renuncio=p.turn)
        return with_public(state, self.close_hand(p, result))

    def returns(self, p: PublicState) -> tuple[float, ...]:
        """A hand: minus each player's charge (plus his points with ``take``). A match: the standing."""
        rules = p.rules
        n = rules.players
        sign = -1.0 if rules.objective == "avoid" else 1.0
        if rules.episode == "hand":
            if rules.teams:
                return tuple(sign * p.result.points[a % 2] + 0.0 for a in range(n))
            points = [0.0] * n
            for seat, agent in enumerate(p.table.controllers):
                points[agent] = sign * p.result.points[p.table.sides[seat]] + 0.0
            return tuple(points)
        if rules.teams:
            return tuple(1.0 if a % 2 == p.winner else -1.0 for a in range(n))
        extra = p.table.extra
        ranks = _standing(p.match_score, extra.out, extra.out_at, p.winner, rules.objective == "avoid")
        return tuple(1.0 - 2.0 * r / (n - 1) for r in ranks)

    def lead(self, p: PublicState, seat: int) -> float:
        """Minus the thirds ``seat``'s side has taken, in points (with ``teams``: minus its lead over the other team).

        The other way round with ``objective="take"``.
        """
        sign = self.points_sign(p.rules)
        thirds = p.thirds
        side = p.table.sides[seat]
        if p.rules.teams:
            return sign * (thirds[side] - thirds[1 - side]) / 3
        return sign * thirds[side] / 3 + 0.0

    def hand_info(self, p: PublicState) -> dict[str, Any]:
        info = super().hand_info(p)
        if not p.rules.teams:
            by_agent = [0] * p.rules.players
            for seat, agent in enumerate(p.table.controllers):
                by_agent[agent] = p.result.points[p.table.sides[seat]]
            info["charges"] = by_agent
        info["removed"] = cards_of(p.table.extra.removed)
        if p.rules.episode == "match" and p.rules.match_end == "elimination":
            info["out"] = [f"player_{a}" for a in p.table.extra.out]
        return info

    # ------------------------------------------------------------------ text

    def hand_size(self, p: PublicState, seat: int) -> int:
        extra = 0
        if p.table.phase == DISCARD and seat == p.dealer:
            extra = p.table.extra.set_aside
        return p.table.tricks + extra - p.played_by(seat).bit_count()

    def render_lines(self, p: PublicState, names: Any) -> list[str]:
        from ..engine.render import count_text, suits_text

        extra = p.table.extra
        lines = []
        if extra.removed:
            lines.append(f"removed: {suits_text(extra.removed)}")
        if extra.set_aside:
            lines.append(f"face down for the last trick: {count_text(extra.set_aside)}")
        if extra.out:
            lines.append("out: " + ", ".join(f"player_{a}" for a in extra.out))
        return lines

    def competitor_name(self, p: PublicState, competitor: int) -> str:
        return f"team {competitor}" if p.rules.teams else f"player_{competitor}"


A_PERDERE = TressetteAPerdere()
APerdereRules.game = A_PERDERE
