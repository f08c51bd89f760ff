"""Tressette a chiamare: five players, an auction, a called card whose holder is the caller's secret partner.

FAMILY.md section 5 (seed 000, "Giocata a cinque"). Eight cards each, no monte. From the
forehand each player speaks once: pass, **chiamo** or **sola** (sola outranks chiamo). After a
chiamo the caller names a card he does not hold; its holder becomes his partner **without
saying so**: two against three, and nobody but the partner knows who he is until the called
card is played ("a volte, il compagno si può scoprire solo all'ultima mano"). A sola plays
alone against the other four. No declarations; the seed's signs (busso and liscio from the
second trick). The calling side (or the soloist) wins with at least 6 of the 11 points (18
of the 35 thirds); the losing side left without a whole point is a cappotto, which doubles.

Stakes (seed 000's table): each opponent pays ``m * c`` (``m`` 1 for chiamo, 2 for sola; ``c
= 2`` on cappotto), or receives it when the declarer's side loses. After a chiamo the three
opponents' units go 2 to the caller and 1 to the partner: caller +2, partner +1, opponents -1
each for a won call; sola: +8 and -2 each.

Worked example: the calling side takes 17 thirds (5 points), the opponents 18 (6): the call
fails: caller -2, partner -1, opponents +1 each.

The play is public trick by trick, so the hand's thirds are kept by seat (``table.sides`` is
every seat its own); the calling side's thirds are added up when the hand ends, with the
partner read from the deal.

| phase | who acts | legal actions |
| --- | --- | --- |
| ``AUCTION`` | each seat once, from the forehand | ``PASS``; ``CHIAMO`` if nobody has bid; ``SOLO`` (sola) if nobody has bid sola |
| ``CALL_PHASE`` | the caller | ``CALL + c`` for a card ``c`` he does not hold (``call_rule``; his own with ``allow_self_call``) |
| ``PLAY`` | the seat on turn | a card, with busso or striscio from the second trick when leading |

Switches (``AChiamareRules``):

| switch | default | allowed | meaning |
| --- | --- | --- | --- |
| `players` | `5` | `5` | players (the four-player calling forms are Calabresella's `players=4`) |
| `auction` | `"ascending"` | `"ascending"`, `"first_taker"` | one speaking turn each, every bid above the standing one; or the first player who bids takes the contract |
| `call_rule` | `"any"` | `"any"`, `"highest_missing"` | the caller names any card he lacks, or one of the highest rank of which he lacks a card (a 3, else a 2...) |
| `allow_self_call` | `False` | bool | the caller may name a card of his own: he then plays alone, scored as a sola, and nobody knows it |
| `reveal_partner` | `False` | bool | the partner is announced when the card is called (Quadriglio's open partner), instead of secret |
| `first_lead` | `"seed"` | `"seed"`, `"forehand"`, `"declarer"` | the forehand after chiamo and the soloist after sola; or always the forehand; or always the declarer |
| `multipliers` | `None` | None or a dict from `"chiamo"`, `"sola"` to ints 1..10000 | what each opponent pays per contract before a cappotto doubles it (None: chiamo 1, sola 2) |
| `cappotto_rule` | `"zero_points"` | `"zero_points"`, `"zero_thirds"`, `"all_tricks"` | the losing side has no whole point, or no third, or no trick: the stake doubles |
| `signals` | `"seed"` | `"seed"`, `"full"`, `"none"` | busso and liscio from the second trick; or the four-seat game's three signs from the first; or none |
| `all_pass` | `"void"` | `"void"` | when every player passes the hand is void |
| `episode` | `"hand"` | `"hand"`, `"match"` | one deal per episode, or a match |
| `match_end` | `"rounds"` | `"rounds"`, `"target"` | a match is `rounds` deals by every player, or ends when a player reaches `target_score` (only with `episode="match"`) |
| `rounds` | `1` | int 1..10000 | deals by each player in a match of rounds (only with `episode="match"` and `match_end="rounds"`) |
| `target_score` | `21` | int 1..10000 | the match target (only with `episode="match"` and `match_end="target"`) |
| `illegal_action` | `"renuncio"` | `"renuncio"`, `"raise"` | an illegal action is a renuncio: the offender's side loses the contract as on cappotto (before a card is called, the offender pays each other player 2); or it raises ValueError |

Decisions where FAMILY.md leaves a point open (``docs/games/a_chiamare.md``):

- Who knows what: the caller knows only that the partner is not himself; each other seat
  knows whether it is the partner (it holds the called card); everyone learns the partner
  when the called card is played (``reveal_partner=True``: at the call). The observation
  holds exactly this (``role`` and ``partner``).
- With ``allow_self_call`` a caller who names his own card plays alone: scored as a sola
  (the sola multiplier, the four others paying), though the table believes it a chiamo; the
  first lead is the forehand's, as after any call.
- A renuncio during the play: the offender's side loses as on cappotto (an opponent's
  renuncio: the declarer's side wins as on cappotto). In the auction or the call, before a
  card is called, the offender pays each other player 2.
- Rewards: the stakes per agent (zero-sum); a match's reward is each agent's total.
- ``hand_score`` and ``card_thirds`` of a finished hand are (the declarer's side, the others).

Example:
    >>> from tressette_env.engine import apply, legal_actions, new_game
    >>> state = new_game(AChiamareRules(), seed=0)
    >>> [h.bit_count() for h in state.hands]
    [8, 8, 8, 8, 8]
    >>> while state.public.status == 0:
    ...     state = apply(state, legal_actions(state)[0])
    >>> sum(state.public.table.extra.stakes)
    0
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ..engine.actions import CALL, CHIAMO, FAMILY_NUM_ACTIONS, SOLO
from ..engine.cards import NUM_CARDS, CardMask, mask_of
from ..engine.draws import shuffle
from ..engine.game import check_cards, check_seat, illegal
from ..engine.scoring import HandScore, no_declarations
from ..engine.state import PLAY, PLAYING, GameState, PublicState, SeatView, Table
from ..engine.switches import RuleSwitches, switch, when
from ..engine.variant import with_extra, with_public
from . import auction

AUCTION, CALL_PHASE = 1, 2
"""The game's own phases (``PublicState.phase``); ``PLAY`` (0) is the card play."""
PHASE_NAMES = {AUCTION: "the auction", CALL_PHASE: "the call"}
PLAYERS = 5
HAND = 8
DEFAULT_MULTIPLIERS = {"chiamo": 1, "sola": 2}
CONTRACTS = {"chiamo": CHIAMO, "sola": SOLO}
"""The contracts and their bid action ids (sola is the family's ``SOLO`` id)."""


@dataclass(frozen=True)
class AChiamareRules(RuleSwitches):
    """Tressette a chiamare's rule switches (see the module docstring's table)."""

    game: ClassVar[Any] = None

    players: int = switch(5, (5,), "players (the four-player calling forms are Calabresella's `players=4`)")
    auction: str = switch(
        "ascending",
        ("ascending", "first_taker"),
        "one speaking turn each, every bid above the standing one; or the first player who bids takes the contract",
    )
    call_rule: str = switch(
        "any",
        ("any", "highest_missing"),
        "the caller names any card he lacks, or one of the highest rank of which he lacks a card (a 3, else a 2...)",
    )
    allow_self_call: bool = switch(
        False,
        bool,
        "the caller may name a card of his own: he then plays alone, scored as a sola, and nobody knows it",
    )
    reveal_partner: bool = switch(
        False,
        bool,
        "the partner is announced when the card is called (Quadriglio's open partner), instead of secret",
    )
    first_lead: str = switch(
        "seed",
        ("seed", "forehand", "declarer"),
        "the forehand after chiamo and the soloist after sola; or always the forehand; or always the declarer",
    )
    multipliers: tuple | None = switch(
        None,
        ("mapping|None", tuple(DEFAULT_MULTIPLIERS)),
        "what each opponent pays per contract before a cappotto doubles it (None: chiamo 1, sola 2)",
    )
    cappotto_rule: str = switch(
        "zero_points",
        ("zero_points", "zero_thirds", "all_tricks"),
        "the losing side has no whole point, or no third, or no trick: the stake doubles",
    )
    signals: str = switch(
        "seed",
        ("seed", "full", "none"),
        "busso and liscio from the second trick; or the four-seat game's three signs from the first; or none",
    )
    all_pass: str = switch("void", ("void",), "when every player passes the hand is void")
    episode: str = switch("hand", ("hand", "match"), "one deal per episode, or a match")
    match_end: str = switch(
        "rounds",
        ("rounds", "target"),
        "a match is `rounds` deals by every player, or ends when a player reaches `target_score`",
        needs=when(episode="match"),
    )
    rounds: int = switch(
        1, ("int", 1), "deals by each player in a match of rounds", needs=when(episode="match", match_end="rounds")
    )
    target_score: int = switch(21, ("int", 1), "the match target", needs=when(episode="match", match_end="target"))
    illegal_action: str = switch(
        "renuncio",
        ("renuncio", "raise"),
        "an illegal action is a renuncio: the offender's side loses the contract as on cappotto (before a card is called, the offender pays each other player 2); "
        "or it raises ValueError",
    )

    def multiplier(self, name: str) -> int:
        """What each opponent pays for the contract ``name`` (``"chiamo"``, ``"sola"``) before a cappotto."""
        return dict(self.multipliers or ()).get(name, DEFAULT_MULTIPLIERS[name])


make_rules = AChiamareRules.make
"""``AChiamareRules`` from keyword switches (an unknown one is a TypeError naming the switches)."""


rules_table = AChiamareRules.table
"""The Markdown table of the switches."""


class AChiamarePublic(NamedTuple):
    """Tressette a chiamare's public record (``Table.extra``)."""

    bids: tuple[int, ...]
    """Each seat's bid (``PASS``, ``CHIAMO`` or ``SOLO`` for sola; 0: not spoken yet)."""
    contract: int = 0
    """``CHIAMO`` or ``SOLO`` (sola) once the auction is won, 0 before or when every player passed."""
    declarer: int = -1
    """The caller's or the soloist's seat (-1: none yet)."""
    called: int = -1
    """The called card (-1 before the call)."""
    announced: int = -1
    """The partner's seat when ``reveal_partner`` announced it at the call (-1: secret)."""
    stakes: tuple[int, ...] = ()
    """Each agent's stake of the finished hand (zero-sum); () while it is played."""


def partner_of(state: GameState) -> int:
    """The partner's seat: the holder of the called card at the deal (the caller himself after a self-call).

    -1 after a sola or before the call. Hidden from the other seats until the card is played.
    """
    x = state.public.table.extra
    if x.contract != CHIAMO or x.called < 0:
        return -1
    return next(s for s, h in enumerate(state.dealt) if h >> x.called & 1)


def revealed_partner(p: PublicState) -> int:
    """The partner's seat if the table knows it (the called card has been played, or was announced), else -1."""
    x = p.table.extra
    if x.announced >= 0:
        return x.announced
    if x.called < 0:
        return -1
    played = p.played
    for seat in range(p.table.seats):
        if played >> (40 * seat + x.called) & 1:
            return seat
    return -1


class TressetteAChiamare(auction.StakeGame):
    """Tressette a chiamare (see the module docstring)."""

    name = "tressette_a_chiamare"
    rules_type = AChiamareRules
    num_actions = FAMILY_NUM_ACTIONS
    deal_options = ("hands", "dealer")
    side_word = "player"
    renuncio_text = "its side loses the contract as on cappotto"
    no_seat_keys = ("declarer",)  # all passed

    def renuncio_words(self, p: PublicState) -> str:
        if self._before_call(p):
            return "in the auction or the call, before a card is called, the offender pays each other player 2"
        return self.renuncio_text

    def contract_played(self, p: PublicState) -> bool:
        return not self._before_call(p)

    @staticmethod
    def _before_call(p: PublicState) -> bool:
        """No card called yet and no sola declared: a renuncio costs 2 to each other player."""
        x = p.table.extra
        return x.called < 0 and x.contract != SOLO

    search_mode = "sides"
    search_tricks = 5
    """A deal with five tricks left takes the open-hands solver 35 ms on average (``benchmarks/bench_solver.py endings``)."""

    def agents(self, rules: AChiamareRules) -> int:
        return PLAYERS

    def sides(self, rules: AChiamareRules) -> int:
        return 2

    def competitors(self, rules: AChiamareRules) -> int:
        return PLAYERS

    def competitor_of(self, table: Table, agent: int) -> int:
        return agent

    def lineup(self, rules: AChiamareRules) -> str:
        return "field"

    # ------------------------------------------------------------------ dealing

    def checked_deal(self, rules: AChiamareRules, options: dict, first: bool) -> dict:
        out: dict = {}
        if "dealer" in options:
            if not first:
                raise TypeError("the next hand's dealer follows from the last hand: give the cards only")
            out["dealer"] = check_seat(options["dealer"], "dealer", PLAYERS)
        if "hands" in options:
            out["hands"] = tuple(check_cards(options["hands"], (HAND,) * PLAYERS, "hand"))
        return out

    def new_game(self, rules: AChiamareRules, rng: random.Random, options: dict) -> GameState:
        dealer = options.get("dealer")
        if dealer is None:
            dealer = rng.randrange(PLAYERS)
        return self._deal(rules, rng, options, dealer, (0,) * PLAYERS, 0)

    def next_hand(self, state: GameState, rng: random.Random, options: dict) -> GameState:
        p = state.public
        return self._deal(p.rules, rng, options, (p.dealer + 1) % PLAYERS, p.match_score, p.hand_number + 1)

    def _deal(self, rules, rng, options, dealer, score, number) -> GameState:
        hands = options.get("hands")
        if hands is None:
            deck = list(range(NUM_CARDS))
            shuffle(rng, deck)
            hands = tuple(mask_of(deck[HAND * s : HAND * (s + 1)]) for s in range(PLAYERS))
        forehand = (dealer + 1) % PLAYERS
        seats = tuple(range(PLAYERS))
        table = Table(
            seats=PLAYERS, tricks=HAND, sides=seats, controllers=seats, seat_of=seats, phase=AUCTION,
            extra=AChiamarePublic((0,) * PLAYERS),
        )  # fmt: skip
        public = PublicState(
            rules=rules, status=PLAYING, dealer=dealer, first_leader=forehand, accusi=no_declarations(PLAYERS, PLAYERS),
            match_score=score, hand_number=number, result=None, winner=None, table=table, leader=forehand,
            tricks_done=0, thirds=(0,) * PLAYERS, turn=forehand, trick=(), played=0, signals=0, voids=0, history=(),
        )  # fmt: skip
        return GameState(public, tuple(hands), tuple(hands), None)

    # ------------------------------------------------------------------ the auction and the call

    def phase_name(self, p: PublicState) -> str:
        return PHASE_NAMES.get(p.phase, f"phase {p.phase}")

    def legal_phase(self, state: GameState) -> int:
        p = state.public
        if p.table.phase == AUCTION:
            return auction.legal_bids(p.table.extra.bids, (CHIAMO, SOLO))
        hand = state.hands[p.turn]
        cards = auction.callable_cards(hand, p.rules.call_rule)
        if p.rules.allow_self_call:
            cards |= hand
        return auction.call_actions(cards)

    def apply_phase(self, state: GameState, action: int) -> GameState:
        if not self.legal_phase(state) >> action & 1:
            raise illegal(state, action, f"in {self.phase_name(state.public)} the legal actions are those of the mask")
        p = state.public
        if p.table.phase == AUCTION:  # (a bid joins the history in ``_bid``)
            return self._bid(state, action)
        state = with_public(state, p._replace(history=p.history + (action,)))  # the call is public (as the bids are)
        card = action - CALL
        state = with_extra(state, called=card)
        if p.rules.reveal_partner:
            state = with_extra(state, announced=partner_of(state))
        return self._start_play(state)

    def _bid(self, state: GameState, bid: int) -> GameState:
        p = state.public
        seat = p.turn
        bids = p.table.extra.bids[:seat] + (bid,) + p.table.extra.bids[seat + 1 :]
        if not auction.auction_over(bids, p.rules.auction == "first_taker"):
            return auction.with_bid(state, bid, bids, (seat + 1) % PLAYERS)
        state = with_extra(with_public(state, p._replace(history=p.history + (bid,))), bids=bids)
        declarer = auction.declarer(bids)
        if declarer < 0:  # every player passed: a void hand
            result = HandScore((0, 0), (0, 0), (0, 0))
            return with_public(state, self.close_hand(self.with_stakes(state.public, (0,) * PLAYERS), result))
        contract = bids[declarer]
        state = with_extra(state, contract=contract, declarer=declarer)
        if contract == CHIAMO:
            q = state.public
            return with_public(state, q._replace(table=q.table._replace(phase=CALL_PHASE), turn=declarer))
        return self._start_play(state)

    def _start_play(self, state: GameState) -> GameState:
        p = state.public
        rules = p.rules
        x = p.table.extra
        forehand = (p.dealer + 1) % PLAYERS
        if rules.first_lead == "forehand" or (rules.first_lead == "seed" and x.contract == CHIAMO):
            first = forehand
        else:
            first = x.declarer
        signal_seats, signals_from, kinds = auction.signs(rules.signals, PLAYERS)
        table = p.table._replace(phase=PLAY, signal_seats=signal_seats, signals_from=signals_from, signal_kinds=kinds)
        return with_public(state, p._replace(table=table, first_leader=first, leader=first, turn=first))

    # ------------------------------------------------------------------ who knows what

    def card_places(
        self, view: SeatView, seats: tuple[int, ...], known_down: CardMask
    ) -> list[tuple[int, CardMask, CardMask]]:
        """Where the called card is: not in the caller's hand (unless ``allow_self_call``).

        With ``reveal_partner`` it is in the announced partner's hand until he plays it, and in
        nobody else's.
        """
        p = view.public
        x = p.table.extra
        if x.called < 0:
            return []
        called = 1 << x.called
        places = []
        for s in seats:
            if s == x.announced and not p.played_by(s) & called:
                places.append((s, called, 0))
            elif (s == x.declarer and not p.rules.allow_self_call) or 0 <= x.announced != s:
                places.append((s, 0, called))
        return places

    def deal_sides(self, view: SeatView, hands: tuple[CardMask, ...]) -> tuple[int, ...]:
        """The caller and the holder (or player) of the called card in ``hands`` (0) against the others (1).

        After a sola, or a call of the caller's own card, the declarer is alone.
        """
        p = view.public
        x = p.table.extra
        n = p.table.seats
        team = {x.declarer}
        if x.called >= 0:
            bit = 1 << x.called
            team |= {s for s in range(n) if (hands[s] | p.played_by(s)) & bit}
        return tuple(0 if s in team else 1 for s in range(n))

    # ------------------------------------------------------------------ the score

    def _team(self, state: GameState) -> frozenset[int]:
        """The declarer's side: the caller and his partner, or the soloist alone."""
        x = state.public.table.extra
        partner = partner_of(state)
        return frozenset({x.declarer, partner} - {-1})

    def end_hand(self, state: GameState) -> GameState:
        p = state.public
        rules = p.rules
        team = self._team(state)
        ours = sum(t for s, t in enumerate(p.thirds) if s in team)
        theirs = auction.HAND_THIRDS - ours
        won = auction.side_wins(ours)
        tricks = [0, 0]  # the declarer's side's tricks, the others' (left at 0 but for the rule that reads them)
        if rules.cappotto_rule == "all_tricks":  # (the only cappotto rule that counts tricks: the others read thirds)
            for winner in p.trick_winners():
                tricks[0 if winner in team else 1] += 1
        loser = 1 if won else 0
        cappotto = auction.is_cappotto((ours, theirs)[loser], tricks[loser], rules.cappotto_rule)
        stakes = self._stakes(state, won, cappotto)
        result = HandScore((ours // 3, theirs // 3), (ours, theirs), (0, 0), (1 - loser) if cappotto else None)
        return with_public(state, self.close_hand(self.with_stakes(p, stakes), result))

    def _stakes(self, state: GameState, won: bool, cappotto: bool) -> tuple[int, ...]:
        """Each agent's stake: each opponent pays ``m * c``; a caller takes 2 of every 3 units, his partner 1."""
        p = state.public
        x = p.table.extra
        team = self._team(state)
        alone = len(team) == 1  # a sola, or a call of one's own card (scored as a sola)
        unit = auction.unit(p.rules.multiplier("sola" if alone else "chiamo"), won, cappotto)
        opponents = PLAYERS - len(team)
        stakes = []
        for seat in range(PLAYERS):
            if seat not in team:
                stakes.append(-unit)
            elif alone:
                stakes.append(opponents * unit)
            else:
                stakes.append((2 if seat == x.declarer else 1) * opponents * unit // 3)
        return tuple(stakes)

    def renuncio(self, state: GameState) -> GameState:
        p = state.public
        offender = p.turn
        if self._before_call(p):  # before any card is called: the offender pays each other 2
            stakes = tuple(-2 * (PLAYERS - 1) if s == offender else 2 for s in range(PLAYERS))
        else:
            stakes = self._stakes(state, offender not in self._team(state), True)
        result = HandScore((0, 0), (0, 0), (0, 0), renuncio=offender)
        return with_public(state, self.close_hand(self.with_stakes(p, stakes), result))

    def lead(self, p: PublicState, seat: int) -> float:
        """The thirds ``seat`` has taken, in points: the only lead it can be sure of while the partner is secret."""
        return p.thirds[seat] / 3

    def hand_info(self, p: PublicState) -> dict[str, Any]:
        info = super().hand_info(p)
        x = p.table.extra
        info["stakes"] = list(x.stakes)
        info["contract"] = {CHIAMO: "chiamo", SOLO: "sola"}.get(x.contract, "all passed")
        info["declarer"] = x.declarer  # -1 when all passed: one type in every hand's info (Gymnasium's vector infos)
        return info

    # ------------------------------------------------------------------ text

    def hand_size(self, p: PublicState, seat: int) -> int:
        return HAND - p.played_by(seat).bit_count()

    def seat_label(self, p: PublicState, seat: int, names: Any) -> str:
        x = p.table.extra
        if seat == x.declarer:
            return f"{names[seat]} ({'caller' if x.contract == CHIAMO else 'soloist'})"
        if seat == revealed_partner(p):
            return f"{names[seat]} (partner)"
        return names[seat]

    def result_side_name(self, p: PublicState, side: int) -> str:
        """A finished hand's points are (the declarer's side, the others), not seats."""
        return ("the declarer's side", "the others")[side]

    def action_label(self, p: PublicState, action: int) -> str:
        """A chiamare's solo is the sola."""
        return _bid_name(action) if action == SOLO else super().action_label(p, action)

    def result_groups(self, p: PublicState) -> list[tuple[str, list[int]]]:
        """The declarer's side (with the partner once revealed) and the opponents.

        A hand a renuncio ended before the called card was played names the partner by the
        stakes, which are public once the hand is over: the one beside the caller with a stake
        of the caller's sign (none after a call of one's own card).
        """
        x = p.table.extra
        partner = revealed_partner(p)
        if partner < 0 and x.called >= 0 and p.result is not None and x.stakes and x.stakes[x.declarer]:
            sign = x.stakes[x.declarer] > 0
            partner = next((s for s, v in enumerate(x.stakes) if s != x.declarer and v and (v > 0) == sign), -1)
        side = [x.declarer] + ([partner] if partner not in (-1, x.declarer) else [])
        rest = [s for s in range(p.table.seats) if s not in side]
        return [("caller's side" if len(side) > 1 else "soloist", side), ("opponents", rest)]

    def render_lines(self, p: PublicState, names: Any) -> list[str]:
        from ..engine.cards import card_code

        x = p.table.extra
        lines = ["bids: " + ", ".join(f"{names[s]} {_bid_name(b)}" for s, b in enumerate(x.bids))]
        if x.contract:
            lines.append(f"contract: {'chiamo' if x.contract == CHIAMO else 'sola'} by {names[x.declarer]}")
        if x.called >= 0:
            partner = revealed_partner(p)
            known = names[partner] if partner >= 0 else "secret"
            lines.append(f"called: {card_code(x.called)} (partner: {known})")
        return lines


def _bid_name(bid: int) -> str:
    return "sola" if bid == SOLO else auction.bid_name(bid)


if AChiamarePublic._fields[0] != "bids":  # pragma: no cover - a guard for whoever reorders the record
    raise ImportError(
        "games.a_chiamare: AChiamarePublic's first field must be bids (games.auction.with_bid writes it there)"
    )
A_CHIAMARE = TressetteAChiamare()
AChiamareRules.game = A_CHIAMARE

__all__ = [
    "AUCTION",
    "A_CHIAMARE",
    "CALL_PHASE",
    "AChiamarePublic",
    "AChiamareRules",
    "TressetteAChiamare",
    "make_rules",
    "partner_of",
    "revealed_partner",
    "rules_table",
]
