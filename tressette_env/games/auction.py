"""What Calabresella and Tressette a chiamare share: the auction, the call of a card, the signs, the stake.

One home for each of these rules (FAMILY.md sections 4 and 5):

| rule | function |
| --- | --- |
| the bids a seat may make (one speaking turn each; ascending, or the first bid takes it) | ``legal_bids``, ``auction_over`` |
| a bid that leaves the auction open: the bids, the history, the next seat to speak | ``with_bid`` |
| the cards a caller may name (any card he lacks, or the highest rank he lacks first) | ``callable_cards`` |
| the signs of the seed: busso and liscio (striscio), from the second trick | ``signs`` |
| a win (at least 6 of the 11 points: 18 thirds of 35) and a cappotto | ``side_wins``, ``is_cappotto`` |
| the stake: each opponent pays ``m * c`` (``c = 2`` on cappotto), the declarer's side receives it | ``unit`` |
| the stakes as each agent's points, rewards and match score; a match of rounds or to a target | ``StakeGame`` |
| a hand's outcome for the search player: the stake's sign, doubled on cappotto, and a hundredth of a third | ``StakeGame.search_value``, ``TIE_BREAK`` |

Bids are action ids (``engine.actions``): ``PASS``, ``CHIAMO`` < ``SOLO`` < ``SOLISSIMO`` <
``DIVIDETE`` < ``SCEGLIETE``; a seat that has not spoken yet holds 0.
"""

from __future__ import annotations

from typing import Any

from ..engine.actions import CALL, CHIAMO, DIVIDETE, PASS, SCEGLIETE, SOLISSIMO, SOLO
from ..engine.cards import NUM_CARDS, STRENGTH, CardMask
from ..engine.scoring import HandScore
from ..engine.state import GAME_OVER, HAND_OVER, GameState, PublicState, Table
from ..engine.variant import Game

CONTRACTS = {"chiamo": CHIAMO, "solo": SOLO, "solissimo": SOLISSIMO, "dividete": DIVIDETE, "scegliete": SCEGLIETE}
"""Contract names (the switches' words) and their bid action ids, in rank order."""
CONTRACT_NAMES = {action: name for name, action in CONTRACTS.items()}
WIN_THIRDS = 18
"""A side wins the hand with at least 6 whole points: 18 of the 35 thirds."""
HAND_THIRDS = 35
"""The thirds of a hand: 32 in the cards and 3 for the last trick."""
TIE_BREAK = 0.01
"""The value of one third beside a contract won or lost, for search (``StakeGame.search_value``)."""


def legal_bids(bids: tuple[int, ...], enabled: tuple[int, ...]) -> int:
    """The action mask of the seat to bid: pass, or an enabled contract above every bid so far."""
    standing = max(bids)
    mask = 1 << PASS
    for contract in enabled:
        if contract > standing:
            mask |= 1 << contract
    return mask


def auction_over(bids: tuple[int, ...], first_taker: bool) -> bool:
    """True when the auction is over: every seat has spoken once, or (``first_taker``) someone bid."""
    if first_taker and any(b > PASS for b in bids):
        return True
    return all(bids)


def with_bid(state: GameState, bid: int, bids: tuple[int, ...], turn: int) -> GameState:
    """``state`` after ``bid``, a bid that leaves the auction open, with the bids ``bids`` and ``turn`` to speak next.

    ``bids`` become the game's ``Table.extra.bids`` and ``bid`` joins the history. The three
    records are built from slices (``bids`` is the first field of both games' ``Table.extra``,
    ``extra`` the last of ``Table``, ``history`` the last of ``PublicState``): 1.5 µs, where
    the ``_replace`` calls it stands for took 5.3 µs, and most of an auction's steps are such bids.
    """
    p = state.public
    t = p.table
    x = t.extra
    table = _new(Table, t[:-1] + (_new(type(x), (bids,) + x[1:]),))
    public = _new(
        PublicState, p[:_TABLE] + (table,) + p[_TABLE + 1 : _TURN] + (turn,) + p[_TURN + 1 : -1] + (p.history + (bid,),)
    )
    return _new(GameState, (public, state.hands, state.dealt, state.hidden))


_new = tuple.__new__
_TABLE = PublicState._fields.index("table")
_TURN = PublicState._fields.index("turn")
if PublicState._fields[-1] != "history" or Table._fields[-1] != "extra" or not _TABLE < _TURN:  # pragma: no cover
    raise ImportError("games.auction.with_bid builds PublicState and Table from slices: history and extra come last")


def declarer(bids: tuple[int, ...]) -> int:
    """The seat that won the auction (the highest bid), or -1 when every seat passed."""
    best = max(bids)
    return bids.index(best) if best > PASS else -1


def callable_cards(hand: CardMask, rule: str) -> CardMask:
    """The cards a caller holding ``hand`` may name.

    Any card he lacks (``"any"``), or the cards he lacks of the highest rank of which he lacks
    one (``"highest_missing"``: a 3, else a 2, else an asso...).
    """
    lacking = ((1 << NUM_CARDS) - 1) & ~hand
    if rule == "any":
        return lacking
    for strength in range(9, -1, -1):
        rank = sum(1 << c for c in range(NUM_CARDS) if STRENGTH[c] == strength)
        if lacking & rank:
            return lacking & rank
    return 0


def call_actions(cards: CardMask) -> int:
    """The action mask that calls any of ``cards`` (``CALL + card``)."""
    return cards << CALL


def signs(switch: str, seats: int) -> tuple[int, int, int]:
    """``(signal_seats, signals_from, signal_kinds)`` of the table for the ``signals`` switch.

    ``"seed"``: busso and liscio (striscio) only, from the second trick, for every seat (seed 000:
    "Non sono ammessi segni se non il liscio e il busso dopo la prima mano"); ``"full"``: the
    four-seat game's three signs from the first trick; ``"none"``.
    """
    everyone = (1 << seats) - 1
    if switch == "seed":
        return everyone, 1, 0b011
    if switch == "full":
        return everyone, 0, 0b111
    return 0, 0, 0b111


def side_wins(thirds: int) -> bool:
    """A side with ``thirds`` thirds of the hand wins it (at least 6 whole points)."""
    return thirds >= WIN_THIRDS


def is_cappotto(loser_thirds: int, loser_tricks: int, rule: str) -> bool:
    """The losing side was left with nothing (``cappotto_rule``).

    No whole point (``"zero_points"``), no third at all (``"zero_thirds"``), or no trick (``"all_tricks"``):
    ``loser_tricks`` is read under ``"all_tricks"`` only (the games count the tricks for that rule only).
    """
    if rule == "zero_points":
        return loser_thirds < 3
    if rule == "zero_thirds":
        return loser_thirds == 0
    return loser_tricks == 0


def unit(multiplier: int, won: bool, cappotto: bool) -> int:
    """What each opponent pays the declarer's side (negative: receives): ``m``, doubled on cappotto."""
    value = multiplier * (2 if cappotto else 1)
    return value if won else -value


def bid_name(bid: int) -> str:
    """A bid as a word: ``"pass"``, ``"chiamo"``..., or ``"-"`` for a seat that has not spoken."""
    if bid == 0:
        return "-"
    return "pass" if bid == PASS else CONTRACT_NAMES[bid]


__all__ = [
    "CONTRACTS",
    "CONTRACT_NAMES",
    "HAND_THIRDS",
    "TIE_BREAK",
    "WIN_THIRDS",
    "auction_over",
    "bid_name",
    "call_actions",
    "callable_cards",
    "declarer",
    "is_cappotto",
    "legal_bids",
    "side_wins",
    "signs",
    "unit",
]


class StakeGame(Game):
    """A game scored in stakes per agent (``Table.extra.stakes``, zero-sum): Calabresella and a chiamare.

    The stakes of a finished hand are each agent's points (``competitor_points``, ``hand_points``),
    its reward (``returns``: the stakes, or a match's totals) and its match score. A match
    (``episode="match"``) is ``rounds`` deals by every player (``match_end="rounds"``) or ends
    when one player alone is highest with at least ``target_score`` (``"target"``); its winner
    is the highest total, None on a tie.
    """

    @staticmethod
    def with_stakes(p: PublicState, stakes: tuple[int, ...]) -> PublicState:
        """``p`` with the finished hand's stakes recorded."""
        return p._replace(table=p.table._replace(extra=p.table.extra._replace(stakes=stakes)))

    def competitor_points(self, p: PublicState, result: HandScore) -> tuple[int, ...]:
        return p.table.extra.stakes

    def close_hand(self, p: PublicState, result: HandScore, winner: int | None = None) -> PublicState:
        rules = p.rules
        score = tuple(a + b for a, b in zip(p.match_score, p.table.extra.stakes, strict=True))
        status = GAME_OVER
        if rules.episode == "match":
            if rules.match_end == "rounds":
                over = p.hand_number + 1 >= rules.rounds * self.agents(rules)
            else:
                over = max(score) >= rules.target_score and score.count(max(score)) == 1
            if over:
                best = max(score)
                winner = score.index(best) if score.count(best) == 1 else None
            else:
                status = HAND_OVER
        return p._replace(status=status, turn=-1, match_score=score, result=result, winner=winner)

    def zero_sum(self, rules: Any) -> bool:
        return True

    def return_bound(self, rules: Any) -> float:
        """A loose bound: each of the others pays the declarer at most the largest multiplier, doubled by a cappotto.

        The largest is 12 among the defaults; with ``scoring="difference"`` it is 35 thirds.
        """
        if getattr(rules, "scoring", "stake") == "difference":
            per = 35
        else:
            per = max(max((number for _, number in rules.multipliers or ()), default=0), 12)
        return 2.0 * (self.agents(rules) - 1) * per

    def returns(self, p: PublicState) -> tuple[float, ...]:
        """The hand's stakes per agent (a match: each agent's total), zero-sum."""
        if p.rules.episode == "hand":
            return self.hand_points(p)
        return tuple(float(s) for s in p.match_score)

    def hand_points(self, p: PublicState) -> tuple[float, ...]:
        """What the evaluation compares per hand: each agent's stake."""
        return tuple(float(s) for s in p.table.extra.stakes)

    def competitor_name(self, p: PublicState, competitor: int) -> str:
        return f"player_{competitor}"

    def search_value(
        self, rules: Any, mine: int, theirs: int, declarer: bool, tricks: list[int], before: list[int]
    ) -> float:
        """The stake for the side: +1 when it wins the contract, -1 when it loses, doubled on cappotto, plus ``TIE_BREAK`` a third.

        The contract's multiplier and a seat's share of the stake are the same for every card
        and are left out. ``tricks`` and ``before``: the tricks and thirds each side (0 the
        declarer's) has taken so far; under ``cappotto_rule="all_tricks"`` a side that takes
        thirds from here takes a trick, one that takes none takes no trick.
        """
        solo, other = (mine, theirs) if declarer else (theirs, mine)
        won = side_wins(solo)
        loser = 1 if won else 0
        loser_thirds = (solo, other)[loser]
        loser_tricks = tricks[loser] + (loser_thirds > before[loser])  # a side that took thirds took a trick
        cappotto = is_cappotto(loser_thirds, loser_tricks, rules.cappotto_rule)
        stake = (2 if cappotto else 1) * (1 if won == declarer else -1)
        return stake + TIE_BREAK * mine
