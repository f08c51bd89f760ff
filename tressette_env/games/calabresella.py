"""Calabresella (Terziglio): three players, an auction, a called card, a four-card monte, one against two.

FAMILY.md section 4. Twelve cards each and four face down: the **monte**. From the forehand
(the seat after the dealer) each player speaks once: pass, or a contract above the standing
one: **chiamo** < **solo** < **solissimo** (and, with ``contracts``, solissimo **dividete** <
**scegliete**). The winner (the *soloist*) plays alone against the other two, who pool their
tricks. No declarations; the seed's signs only: busso and liscio (striscio), from the second
trick. The soloist wins with at least 6 of the 11 points (18 of the 35 thirds); the losing side
left without a whole point is a cappotto.

| contract | what the soloist does before the play | multiplier |
| --- | --- | --- |
| chiamo | names a card he lacks; its holder hands it over face up (nothing if it lies in the monte); takes the monte (shown to all with ``show_monte_on_call``); returns a card face up to the giver; discards 4 face down | 1 |
| solo | takes the monte unseen by the others and discards 4 face down | 2 |
| solissimo | nothing: the monte stays face down | 3 |
| solissimo dividete | nothing; the monte is split, two cards to each opponent, who each discard two face down | 6 |
| solissimo scegliete | nothing; each opponent in turn looks at the monte and swaps any of its cards for his own | 12 |

The discards (or the untouched monte) go to the side that takes the last trick. Each
opponent pays the soloist ``m * c`` (``c = 2`` on cappotto), or receives it when he loses:
the soloist wins or loses ``(players - 1) * m * c``.

Worked examples (three players): chiamo, the soloist's side takes 18 thirds (6 points): soloist
+2, opponents -1 each. Solo, the coalition takes 33 thirds and the soloist 2 (no point): a
cappotto against the soloist: soloist -8, opponents +4 each. With ``scoring="difference"``:
solo with 23 thirds, ``2 * 23 - 35 = 11`` from each opponent (doubled when one side takes all 35).

Four players (``players=4``): ``four_player="all_play"`` deals ten each and no monte; chiamo
calls a card, receives it and returns one face up, solo plays alone without a call, against
three (+3 / -1, doubled on cappotto, doubled for solo). ``"dealer_sits_out"``: the three-player
game among the others; the dealer takes no cards and is scored as one more opponent.

Phases and their actions (the family's action table, ``engine.actions``):

| phase | who acts | legal actions |
| --- | --- | --- |
| ``AUCTION`` | each seat once, from the forehand | ``PASS``; a contract (``CHIAMO`` ... ``SCEGLIETE``) above the standing bid |
| ``CALL`` | the soloist (chiamo) | ``CALL + c`` for a card ``c`` he lacks (``call_rule``) |
| ``RETURN`` | the soloist, when an opponent gave the called card | ``GIVE + x`` for a card of his but the called one |
| ``TAKE`` | the soloist, ``exchange="partial"`` | ``CALL + y`` takes card ``y`` of the monte; ``PASS`` stops |
| ``DISCARD`` | the soloist | ``GIVE + x``, once per card to discard (4, or as many as he took) |
| ``SPLIT`` | each opponent in turn (dividete) | ``GIVE + x``, twice |
| ``CHOOSE`` | each opponent in turn (scegliete) | ``CALL + y`` takes ``y`` from the monte, then ``GIVE + x`` puts one of his in; ``PASS`` ends his turn |
| ``PLAY`` | the seat on turn | a card, with busso or striscio from the second trick when leading |

Switches (``CalabresellaRules``):

| switch | default | allowed | meaning |
| --- | --- | --- | --- |
| `players` | `3` | `3`, `4` | players at the table |
| `four_player` | `"all_play"` | `"all_play"`, `"dealer_sits_out"` | with four players: ten cards each and no monte, or the dealer sits out (scored as one more opponent) (only with `players=4`) |
| `auction` | `"ascending"` | `"ascending"`, `"first_taker"` | one speaking turn each, every bid above the standing one; or the first player who bids takes the contract |
| `contracts` | `None` | None or some of `"chiamo"`, `"solo"`, `"solissimo"`, `"dividete"`, `"scegliete"`, in that order | the contracts allowed (None: chiamo, solo, solissimo; chiamo and solo with four_player="all_play") |
| `call_rule` | `"any"` | `"any"`, `"highest_missing"` | the caller names any card he lacks, or one of the highest rank of which he lacks a card (a 3, else a 2, else an asso...) (only with chiamo among the `contracts`) |
| `show_monte_on_call` | `True` | bool | the monte is turned up for all when the caller of chiamo takes it (only with a monte (`players=3`, or `four_player="dealer_sits_out"`) and chiamo among the `contracts`) |
| `exchange` | `"full"` | `"full"`, `"partial"` | the soloist takes the whole monte and discards 4, or takes up to 4 of its cards and discards as many (only with a monte (`players=3`, or `four_player="dealer_sits_out"`) and chiamo or solo among the `contracts`) |
| `solissimo_peek` | `False` | bool | the solissimo player may look at the monte (not use it) (only with solissimo among the `contracts`) |
| `first_lead` | `"seed"` | `"seed"`, `"forehand"`, `"soloist"` | the forehand after chiamo and the soloist after the other contracts; or always the forehand; or always the soloist (`"soloist"` only with chiamo among the `contracts`; `"forehand"` only with solo or a higher contract among the `contracts`) |
| `multipliers` | `None` | None or a dict from `"chiamo"`, `"solo"`, `"solissimo"`, `"dividete"`, `"scegliete"` to ints 1..10000 | what each opponent pays per contract before a cappotto doubles it (None: 1, 2, 3, 6, 12; those given replace the defaults) (only with `scoring="stake"` and every contract it names among those that may be bid (`contracts`)) |
| `scoring` | `"stake"` | `"stake"`, `"difference"` | the stake table, or the difference of the sides' thirds (doubled when one side takes all 35) |
| `cappotto_rule` | `"zero_points"` | `"zero_points"`, `"zero_thirds"`, `"all_tricks"` | the losing side has no whole point, or no third, or no trick: the stake doubles |
| `all_pass` | `"void"` | `"void"`, `"solo_only_redeal"` | when every player passes: the hand is void; or the hands are dealt again around the monte and only solo or higher may be bid (only with solo or a higher contract among the `contracts`) |
| `signals` | `"seed"` | `"seed"`, `"full"`, `"none"` | busso and liscio from the second trick; or the four-seat game's three signs from the first; or none |
| `episode` | `"hand"` | `"hand"`, `"match"` | one deal per episode, or a match |
| `match_end` | `"rounds"` | `"rounds"`, `"target"` | a match is `rounds` deals by every player, or ends when a player reaches `target_score` (only with `episode="match"`) |
| `rounds` | `1` | int 1..10000 | deals by each player in a match of rounds (only with `episode="match"` and `match_end="rounds"`) |
| `target_score` | `21` | int 1..10000 | the match target (only with `episode="match"` and `match_end="target"`) |
| `illegal_action` | `"renuncio"` | `"renuncio"`, `"raise"` | an illegal action is a renuncio: the offender's side loses the contract as on cappotto (in the auction, before any contract, the offender pays each other player 2); or it raises ValueError |

Decisions where FAMILY.md leaves a point open (``docs/games/calabresella.md`` says more):

- The called card may not be returned, and may be discarded (FAMILY.md 7.4). With the full
  exchange the caller takes the monte before he returns a card (he may return a monte card);
  with ``exchange="partial"`` he returns, then takes, then discards as many as he took.
- ``all_pass="solo_only_redeal"``: the new hands are dealt from the same shuffle (drawn with
  the first deal), the monte stays; if every player passes again the hand is void.
- Dividete: the first opponent after the soloist in play order gets the monte's first two
  cards (the monte's order as dealt), the other the last two. Scegliete: each opponent may
  not take back a card he put into the monte; he sees the monte as it is when he looks.
- A renuncio during the call, the exchange or the play: the offender's side loses the
  contract as on cappotto (``scoring="difference"``: 70 thirds); in the auction, before any
  contract, the offender pays each other player 2 (a lost chiamo on cappotto).
- Rewards: the stakes of the hand per agent (zero-sum); a match's reward is each agent's
  total; the match's winner (the highest total, None on a tie) is reported.
- With ``four_player="dealer_sits_out"`` the table has three seats (the forehand first); the
  dealer is no seat (``table.seat_of[dealer] == -1``), sees nothing of the hand and pays or
  receives as one more opponent.

Example:
    >>> from tressette_env.engine import apply, legal_actions, new_game
    >>> state = new_game(CalabresellaRules(), seed=0)
    >>> [h.bit_count() for h in state.hands], state.public.phase == AUCTION
    ([12, 12, 12], True)
    >>> while state.public.status == 0:
    ...     state = apply(state, legal_actions(state)[-1])  # the highest bid, then the highest card
    >>> sum(state.public.table.extra.stakes)
    0
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, NamedTuple

from ..engine.actions import CALL, CHIAMO, DIVIDETE, FAMILY_NUM_ACTIONS, GIVE, PASS, SCEGLIETE, SOLISSIMO, SOLO
from ..engine.cards import NUM_CARDS, THIRDS, CardMask, mask_of, undealt
from ..engine.draws import shuffle
from ..engine.game import check_cards, check_seat, illegal
from ..engine.scoring import HandScore, no_declarations
from ..engine.state import PLAY, PLAYING, GameState, PublicState, SeatView, Table
from ..engine.switches import Needs, RuleSwitches, switch, when
from ..engine.variant import PILE, with_extra, with_public
from . import auction

AUCTION, CALL_PHASE, RETURN, TAKE, DISCARD, SPLIT, CHOOSE = 1, 2, 3, 4, 5, 6, 7
"""The game's own phases (``PublicState.phase``); ``PLAY`` (0) is the card play."""
PHASE_NAMES = {
    AUCTION: "the auction",
    CALL_PHASE: "the call",
    RETURN: "the soloist returns a card",
    TAKE: "the soloist takes from the monte",
    DISCARD: "the discards",
    SPLIT: "the opponents discard (dividete)",
    CHOOSE: "the opponents exchange with the monte (scegliete)",
}
MONTE = 4
IN_MONTE = -2
"""``called_from`` when the called card lay in the monte."""
DEFAULT_MULTIPLIERS = {"chiamo": 1, "solo": 2, "solissimo": 3, "dividete": 6, "scegliete": 12}
ALL_CONTRACTS = tuple(auction.CONTRACTS)


def _deciding(rules: Any) -> tuple[str, ...]:
    """The switches that decide which contracts may be bid: ``contracts``, and when None with four all dealt in, the form."""
    return ("contracts", "players", "four_player") if rules.contracts is None and rules.all_play else ("contracts",)


def _bid(text: str, *names: str) -> Needs:
    """A need: one of the contracts ``names`` may be bid (``text`` says which, for the table and the refusal)."""
    return Needs(
        test=lambda r: any(name in r.enabled_names for name in names),
        text=f"{text} among the `contracts`",
        reads=_deciding,
    )


_CHIAMO = _bid("chiamo", "chiamo")
_ABOVE_CHIAMO = _bid("solo or a higher contract", *ALL_CONTRACTS[1:])
_MONTE = Needs(
    test=lambda r: not r.all_play,
    text='a monte (`players=3`, or `four_player="dealer_sits_out"`)',
    reads=("players", "four_player"),
)


@dataclass(frozen=True)
class CalabresellaRules(RuleSwitches):
    """Calabresella's rule switches (see the module docstring's table)."""

    game: ClassVar[Any] = None

    players: int = switch(3, (3, 4), "players at the table")
    four_player: str = switch(
        "all_play",
        ("all_play", "dealer_sits_out"),
        "with four players: ten cards each and no monte, or the dealer sits out (scored as one more opponent)",
        needs=when(players=4),
    )
    auction: str = switch(
        "ascending",
        ("ascending", "first_taker"),
        "one speaking turn each, every bid above the standing one; or the first player who bids takes the contract",
    )
    contracts: tuple[str, ...] | None = switch(
        None,
        ("subset|None", ALL_CONTRACTS),
        'the contracts allowed (None: chiamo, solo, solissimo; chiamo and solo with four_player="all_play")',
    )
    call_rule: str = switch(
        "any",
        ("any", "highest_missing"),
        "the caller names any card he lacks, or one of the highest rank of which he lacks a card "
        "(a 3, else a 2, else an asso...)",
        needs=_CHIAMO,
    )
    show_monte_on_call: bool = switch(
        True, bool, "the monte is turned up for all when the caller of chiamo takes it", needs=(_MONTE, _CHIAMO)
    )
    exchange: str = switch(
        "full",
        ("full", "partial"),
        "the soloist takes the whole monte and discards 4, or takes up to 4 of its cards and discards as many",
        needs=(_MONTE, _bid("chiamo or solo", "chiamo", "solo")),
    )
    solissimo_peek: bool = switch(
        False, bool, "the solissimo player may look at the monte (not use it)", needs=_bid("solissimo", "solissimo")
    )
    first_lead: str = switch(
        "seed",
        ("seed", "forehand", "soloist"),
        "the forehand after chiamo and the soloist after the other contracts; or always the forehand; "
        "or always the soloist",
        # "seed" is "forehand" when chiamo is the only contract, "soloist" when chiamo is not one.
        needs=(_CHIAMO._replace(values=("soloist",)), _ABOVE_CHIAMO._replace(values=("forehand",))),
    )
    multipliers: tuple | None = switch(
        None,
        ("mapping|None", ALL_CONTRACTS),
        "what each opponent pays per contract before a cappotto doubles it (None: 1, 2, 3, 6, 12; "
        "those given replace the defaults)",
        needs=(
            when(scoring="stake"),
            Needs(
                test=lambda r: all(name in r.enabled_names for name, _ in r.multipliers),
                text="every contract it names among those that may be bid (`contracts`)",
                reads=_deciding,
            ),
        ),
    )
    scoring: str = switch(
        "stake",
        ("stake", "difference"),
        "the stake table, or the difference of the sides' thirds (doubled when one side takes all 35)",
    )
    cappotto_rule: str = switch(
        "zero_points",
        ("zero_points", "zero_thirds", "all_tricks"),
        "the losing side has no whole point, or no third, or no trick: the stake doubles",
        # Not inert with scoring="difference": the stake is the same, but the hand's result names the cappotto.
    )
    all_pass: str = switch(
        "void",
        ("void", "solo_only_redeal"),
        "when every player passes: the hand is void; or the hands are dealt again around the monte and only "
        "solo or higher may be bid",
        needs=_ABOVE_CHIAMO,
    )
    signals: str = switch(
        "seed",
        ("seed", "full", "none"),
        "busso and liscio from the second trick; or the four-seat game's three signs from the first; or none",
    )
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
        "an illegal action is a renuncio: the offender's side loses the contract as on cappotto (in the auction, before any contract, the offender pays each other player 2); "
        "or it raises ValueError",
    )

    def check_combinations(self) -> None:
        if self.all_play and self.contracts is not None:
            needs_monte = [c for c in self.contracts if c not in ("chiamo", "solo")]
            if needs_monte:
                raise ValueError(
                    f'rule switch contracts={self.contracts!r}: four_player="all_play" has no monte, so its '
                    f"contracts are chiamo and solo ({', '.join(needs_monte)} need one)"
                )

    @property
    def all_play(self) -> bool:
        """Four players, ten cards each and no monte."""
        return self.players == 4 and self.four_player == "all_play"

    @property
    def table_shape(self) -> tuple[int, int, int]:
        """Seats at the table, cards (and tricks) per seat, the monte's size: (4, 10, 0) when four play, else (3, 12, 4)."""
        return (4, 10, 0) if self.all_play else (3, 12, MONTE)

    @property
    def enabled_names(self) -> tuple[str, ...]:
        """The contracts that may be bid, in rank order."""
        if self.contracts is not None:
            return self.contracts
        return ("chiamo", "solo") if self.all_play else ("chiamo", "solo", "solissimo")

    @cached_property
    def enabled(self) -> tuple[int, ...]:
        """The contracts that may be bid, as bid action ids (worked out once a record: every bid reads it twice)."""
        return tuple(auction.CONTRACTS[name] for name in self.enabled_names)

    def multiplier(self, contract: int) -> int:
        """What each opponent pays for ``contract`` (a bid action id) before a cappotto."""
        name = auction.CONTRACT_NAMES[contract]
        return dict(self.multipliers or ()).get(name, DEFAULT_MULTIPLIERS[name])


make_rules = CalabresellaRules.make
"""``CalabresellaRules`` from keyword switches (an unknown one is a TypeError naming the switches)."""


rules_table = CalabresellaRules.table
"""The Markdown table of the switches."""


class CalabresellaPublic(NamedTuple):
    """Calabresella's public record (``Table.extra``)."""

    bids: tuple[int, ...]
    """Each seat's bid (``PASS`` or a contract's action id; 0: not spoken yet)."""
    contract: int = 0
    """The contract won (a bid action id), 0 before the auction ends or when every player passed."""
    soloist: int = -1
    """The soloist's seat (-1: none yet)."""
    called: int = -1
    """The called card (chiamo), -1 before the call."""
    called_from: int = -1
    """The seat that handed the called card over; ``IN_MONTE`` when it lay in the monte."""
    monte_shown: CardMask = 0
    """The monte's cards as turned up for all (chiamo with ``show_monte_on_call``)."""
    returned: int = -1
    """The card the soloist returned face up to the giver (-1: none)."""
    face_down: int = MONTE
    """Cards lying face down for the side that takes the last trick (the monte, then the discards)."""
    held: tuple[int, ...] = ()
    """The cards each seat holds (public counts, through the exchange)."""
    owed: int = 0
    """Cards the seat on turn still has to put down in this phase (discards; a card into the monte)."""
    taken: int = 0
    """Cards the soloist has taken from the monte (``exchange="partial"``)."""
    solo_only: bool = False
    """The hands were dealt again after every player passed: only solo or higher may be bid."""
    sitting_out: int = -1
    """The agent that sits out this hand (``four_player="dealer_sits_out"``: the dealer), -1: none."""
    stakes: tuple[int, ...] = ()
    """Each agent's stake of the finished hand (zero-sum); () while it is played."""


class CalabresellaHidden(NamedTuple):
    """Calabresella's hidden record: the face-down cards and who knows them."""

    face_down: tuple[int, ...]
    """The cards face down now: the monte (in its dealt order), or the discards and what is left of it."""
    known: tuple[CardMask, ...]
    """Per seat, the face-down cards it knows (its discards, a monte it saw)."""
    redeal: tuple[CardMask, ...] = ()
    """The hands of the second deal (``all_pass="solo_only_redeal"``), drawn with the first."""
    given: CardMask = 0
    """Cards the opponent exchanging now has put into the monte (scegliete): he may not take them back."""


def opponents_of(p: PublicState) -> tuple[int, ...]:
    """The soloist's opponents' seats, in play order after him (scegliete's first and second)."""
    n = p.table.seats
    soloist = p.table.extra.soloist
    return tuple((soloist + k) % n for k in range(1, n))


class Calabresella(auction.StakeGame):
    """Calabresella (see the module docstring)."""

    name = "calabresella"
    rules_type = CalabresellaRules
    num_actions = FAMILY_NUM_ACTIONS
    deal_options = ("hands", "monte", "dealer")
    side_word = "side"
    renuncio_text = "its side loses the contract as on cappotto"
    no_seat_keys = ("soloist",)  # all passed
    search_mode = "sides"

    def renuncio_words(self, p: PublicState) -> str:
        if p.table.extra.soloist < 0:
            return "in the auction, before any contract, the offender pays each other player 2"
        return self.renuncio_text

    def contract_played(self, p: PublicState) -> bool:
        return p.table.extra.soloist >= 0

    search_tricks = 6
    """A deal with six tricks left takes the open-hands solver 4.5 ms on average (``benchmarks/bench_solver.py endings``)."""

    def agents(self, rules: CalabresellaRules) -> int:
        return rules.players

    def competitors(self, rules: CalabresellaRules) -> int:
        return rules.players

    def competitor_of(self, table: Table, agent: int) -> int:
        return agent

    def lineup(self, rules: CalabresellaRules) -> str:
        return "field"

    # ------------------------------------------------------------------ dealing

    def checked_deal(self, rules: CalabresellaRules, options: dict, first: bool) -> dict:
        out: dict = {}
        if "dealer" in options:
            if not first:
                raise TypeError("the next hand's dealer follows from the last hand: give the cards only")
            out["dealer"] = check_seat(options["dealer"], "dealer", rules.players)
        seats, size, monte = rules.table_shape
        pool: dict = {}
        if "hands" in options:
            out["hands"] = tuple(check_cards(options["hands"], (size,) * seats, "hand", pool))
        if "monte" in options:
            if not monte:
                raise ValueError('four_player="all_play" deals every card: there is no monte to choose')
            check_cards([options["monte"]], (monte,), "monte", pool)
            out["monte"] = tuple(int(c) for c in options["monte"])
        return out

    def new_game(self, rules: CalabresellaRules, rng: random.Random, options: dict) -> GameState:
        dealer = options.get("dealer")
        if dealer is None:
            dealer = rng.randrange(rules.players)
        return self._deal(rules, rng, options, dealer, (0,) * rules.players, 0)

    def next_hand(self, state: GameState, rng: random.Random, options: dict) -> GameState:
        p = state.public
        rules = p.rules
        dealer = (self.dealer_agent(p) + 1) % rules.players
        return self._deal(rules, rng, options, dealer, p.match_score, p.hand_number + 1)

    def dealer_agent(self, p: PublicState) -> int:
        """The agent that dealt this hand (with ``dealer_sits_out`` he has no seat)."""
        sitting = p.table.extra.sitting_out
        return sitting if sitting >= 0 else p.table.controllers[p.dealer]

    def _deal(self, rules, rng, options, dealer_agent, score, number) -> GameState:
        seats, size, monte_size = rules.table_shape
        if rules.players == 4 and not rules.all_play:  # the dealer sits out: the others, forehand first
            controllers = tuple((dealer_agent + 1 + k) % 4 for k in range(3))
            dealer_seat, sitting = 2, dealer_agent
        else:
            controllers = tuple(range(seats))
            dealer_seat, sitting = dealer_agent, -1
        seat_of = tuple(controllers.index(a) if a in controllers else -1 for a in range(rules.players))
        hands, monte = options.get("hands"), options.get("monte")
        rest = undealt(mask_of(monte or ()), *(hands or ()))
        shuffle(rng, rest)
        if hands is None:
            hands = tuple(mask_of(rest[size * s : size * (s + 1)]) for s in range(seats))
            rest = rest[size * seats :]
        if monte is None:
            monte = tuple(rest[:monte_size])
        redeal: tuple[CardMask, ...] = ()
        if rules.all_pass == "solo_only_redeal":  # the second deal, drawn now: the same cards but the monte
            cards = [c for c in range(NUM_CARDS) if c not in monte]
            shuffle(rng, cards)
            redeal = tuple(mask_of(cards[size * s : size * (s + 1)]) for s in range(seats))
        forehand = (dealer_seat + 1) % seats
        table = Table(
            seats=seats, tricks=size, sides=tuple(0 if s == forehand else 1 for s in range(seats)),
            controllers=controllers, seat_of=seat_of, phase=AUCTION,
            extra=CalabresellaPublic((0,) * seats, face_down=monte_size, held=(size,) * seats, sitting_out=sitting),
        )  # fmt: skip
        public = PublicState(
            rules=rules, status=PLAYING, dealer=dealer_seat, first_leader=forehand, accusi=no_declarations(seats, 2),
            match_score=score, hand_number=number, result=None, winner=None, table=table, leader=forehand,
            tricks_done=0, thirds=(0, 0), turn=forehand, trick=(), played=0, signals=0, voids=0, history=(),
        )  # fmt: skip
        hidden = CalabresellaHidden(tuple(monte), (0,) * seats, redeal)
        return GameState(public, tuple(hands), tuple(hands), hidden)

    # ------------------------------------------------------------------ who knows what

    def private_of(self, state: GameState, seat: int) -> int:
        """The face-down cards ``seat`` knows: its discards, the monte as it saw it (but the cards it took).

        In scegliete the other opponent may since have swapped some of the monte's cards it saw:
        a seat knows what it saw, not what was done after.
        """
        return state.hidden.known[seat] & ~state.hands[seat] & ~state.public.all_played

    def face_down_known(self, view: SeatView) -> CardMask:
        """The face-down cards the viewer knows lie there still: its ``private`` cards, with one exception.

        In solissimo scegliete the first opponent saw the monte, and the second then swapped
        cards with it unseen: from the second opponent's turn on, each card the first saw there
        is in the monte or in the second opponent's hand, and the first knows none of them to be
        face down.
        """
        p = view.public
        if p.table.extra.contract != SCEGLIETE or not view.private:
            return view.private
        first = opponents_of(p)[0]
        second_began = p.table.phase == PLAY or (p.table.phase == CHOOSE and p.turn != first)
        return 0 if view.seat == first and second_began else view.private

    def card_places(
        self, view: SeatView, seats: tuple[int, ...], known_down: CardMask
    ) -> list[tuple[int, CardMask, CardMask]]:
        """Where the monte's cards are: with the soloist, or among his face-down discards.

        A monte turned up for all (``monte_shown``), the called card found in it, or the called
        card handed to him (``exposed_face_down``), is in no other seat's hand (but a card he
        returned face up to that seat). In scegliete, the monte
        as the first opponent saw it (his ``private`` cards he no longer knows to be face down:
        ``face_down_known``) is in the monte or the second opponent's hand: not the soloist's.
        """
        p = view.public
        x = p.table.extra
        with_soloist = x.monte_shown | self.exposed_face_down(p)
        if x.called >= 0 and x.called_from == IN_MONTE:
            with_soloist |= 1 << x.called
        places = [(s, 0, with_soloist & ~p.exposed_by(s)) for s in seats if s not in (x.soloist, PILE)]
        moved = view.private & ~known_down  # scegliete: the monte the first opponent saw
        if moved and x.soloist in seats:
            places.append((x.soloist, 0, moved))
        return places

    def determinize_refusal(self, rules: CalabresellaRules) -> str | None:
        """Refused: no state is drawn from a view with the monte and the discards as the auction and exchange left them."""
        return (
            "its hidden record (the monte and the discards, through the auction and the exchange) has no "
            "determinization from a seat's view here"
        )

    def exposed_face_down(self, p: PublicState) -> CardMask:
        """The called card handed to the soloist face up, once the card play begins: he may have discarded it (FAMILY.md 7.4)."""
        x = p.table.extra
        if x.called < 0 or x.called_from == IN_MONTE or p.table.phase != PLAY or p.rules.all_play:
            return 0
        return 1 << x.called

    def deal_sides(self, view: SeatView, hands: tuple[CardMask, ...]) -> tuple[int, ...]:
        """The soloist (0) against the others (1): public."""
        soloist = view.public.table.extra.soloist
        return tuple(0 if s == soloist else 1 for s in range(view.public.table.seats))

    def search_value(
        self, rules: CalabresellaRules, mine: int, theirs: int, declarer: bool, tricks: list[int], before: list[int]
    ) -> float:
        """The stake (``StakeGame.search_value``); with ``scoring="difference"``, the thirds its side takes."""
        if rules.scoring == "difference":
            return float(mine)
        return super().search_value(rules, mine, theirs, declarer, tricks, before)

    # ------------------------------------------------------------------ the phases

    def phase_name(self, p: PublicState) -> str:
        return PHASE_NAMES.get(p.phase, f"phase {p.phase}")

    def legal_phase(self, state: GameState) -> int:
        p = state.public
        phase = p.table.phase
        x = p.table.extra
        hand = state.hands[p.turn]
        if phase == AUCTION:
            enabled = p.rules.enabled
            if x.solo_only:
                enabled = tuple(c for c in enabled if c >= SOLO)
            return auction.legal_bids(x.bids, enabled)
        if phase == CALL_PHASE:
            return auction.call_actions(auction.callable_cards(hand, p.rules.call_rule))
        if phase == RETURN:
            return (hand & ~(1 << x.called)) << GIVE
        if phase == TAKE:
            return mask_of(state.hidden.face_down) << CALL | 1 << PASS
        if phase in (DISCARD, SPLIT):
            return hand << GIVE
        if phase == CHOOSE:
            if x.owed:
                return hand << GIVE
            return (mask_of(state.hidden.face_down) & ~state.hidden.given) << CALL | 1 << PASS
        raise NotImplementedError(f"calabresella has no phase {phase}")

    def apply_phase(self, state: GameState, action: int) -> GameState:
        if not self.legal_phase(state) >> action & 1:
            raise illegal(state, action, f"in {self.phase_name(state.public)} the legal actions are those of the mask")
        p = state.public
        phase = p.table.phase
        if phase == AUCTION:  # (a bid joins the history in ``_bid``)
            return self._bid(state, action)
        # The public actions join the history; the face-down ones (discards, swaps) stay out of it.
        if phase in (CALL_PHASE, RETURN) or (phase == TAKE and p.table.extra.monte_shown):
            state = with_public(state, p._replace(history=p.history + (action,)))
        if phase == CALL_PHASE:
            return self._call(state, action - CALL)
        if phase == RETURN:
            return self._return(state, action - GIVE)
        if phase == TAKE:
            return self._take(state, action)
        if phase == DISCARD:
            return self._discard(state, action - GIVE)
        if phase == SPLIT:
            return self._split(state, action - GIVE)
        return self._choose(state, action)

    def _bid(self, state: GameState, bid: int) -> GameState:
        p = state.public
        x = p.table.extra
        seat = p.turn
        bids = x.bids[:seat] + (bid,) + x.bids[seat + 1 :]
        if not auction.auction_over(bids, p.rules.auction == "first_taker"):
            return auction.with_bid(state, bid, bids, (seat + 1) % p.table.seats)
        state = with_extra(with_public(state, p._replace(history=p.history + (bid,))), bids=bids)
        soloist = auction.declarer(bids)
        if soloist < 0:
            return self._all_passed(state)
        contract = bids[soloist]
        state = with_extra(state, contract=contract, soloist=soloist)
        t = state.public.table
        table = t._replace(sides=tuple(0 if s == soloist else 1 for s in range(t.seats)))
        state = with_public(state, state.public._replace(table=table, turn=soloist))
        if contract == CHIAMO:
            return self._phase(state, CALL_PHASE, soloist)
        if contract == SOLO:  # (four players, all dealt in: no monte to take)
            return self._start_play(state) if p.rules.all_play else self._exchange(state)
        if contract == SOLISSIMO:
            if p.rules.solissimo_peek:
                state = self._learn(state, soloist, mask_of(state.hidden.face_down))
            return self._start_play(state)
        opponents = opponents_of(state.public)
        if contract == DIVIDETE:  # the monte's first two cards to the first opponent, the last two to the other
            monte = state.hidden.face_down
            hands = list(state.hands)
            held = list(x.held)
            for k, opponent in enumerate(opponents):
                hands[opponent] |= mask_of(monte[2 * k : 2 * k + 2])
                held[opponent] += 2
            state = GameState(state.public, tuple(hands), state.dealt, state.hidden._replace(face_down=()))
            state = with_extra(state, held=tuple(held), face_down=0, owed=2)
            return self._phase(state, SPLIT, opponents[0])
        state = self._learn(state, opponents[0], mask_of(state.hidden.face_down))
        return self._phase(with_extra(state, owed=0), CHOOSE, opponents[0])

    def _all_passed(self, state: GameState) -> GameState:
        p = state.public
        x = p.table.extra
        if p.rules.all_pass == "solo_only_redeal" and not x.solo_only:
            hands = state.hidden.redeal
            forehand = (p.dealer + 1) % p.table.seats
            table = p.table._replace(extra=x._replace(bids=(0,) * p.table.seats, solo_only=True))
            public = p._replace(table=table, turn=forehand)
            return GameState(public, hands, hands, state.hidden._replace(redeal=()))
        stakes = (0,) * p.rules.players
        result = HandScore((0, 0), (0, 0), (0, 0))
        return with_public(state, self.close_hand(self.with_stakes(p, stakes), result))

    def _phase(self, state: GameState, phase: int, turn: int) -> GameState:
        p = state.public
        return with_public(state, p._replace(table=p.table._replace(phase=phase), turn=turn))

    def _learn(self, state: GameState, seat: int, cards: CardMask) -> GameState:
        known = tuple(k | cards if s == seat else k for s, k in enumerate(state.hidden.known))
        return GameState(state.public, state.hands, state.dealt, state.hidden._replace(known=known))

    def _move(self, state: GameState, card: int, source: int, target: int) -> GameState:
        """Card ``card`` passes from seat ``source``'s hand to seat ``target``'s."""
        hands = list(state.hands)
        hands[source] ^= 1 << card
        hands[target] |= 1 << card
        held = list(state.public.table.extra.held)
        held[source] -= 1
        held[target] += 1
        state = GameState(state.public, tuple(hands), state.dealt, state.hidden)
        return with_extra(state, held=tuple(held))

    def _call(self, state: GameState, card: int) -> GameState:
        p = state.public
        soloist = p.turn
        holder = next((s for s, h in enumerate(state.hands) if h >> card & 1), IN_MONTE)
        state = with_extra(state, called=card, called_from=holder)
        if holder != IN_MONTE:  # handed over face up: everyone knows where it is
            state = self._move(state, card, holder, soloist)
            t = state.public.table
            exposed = t.exposed | 1 << (40 * soloist + card)
            state = with_public(state, state.public._replace(table=t._replace(exposed=exposed)))
        if p.rules.all_play:  # no monte: return a card, then play
            return self._phase(state, RETURN, soloist)
        if p.rules.exchange == "partial":
            if p.rules.show_monte_on_call:
                state = with_extra(state, monte_shown=mask_of(state.hidden.face_down))
            state = self._learn(state, soloist, mask_of(state.hidden.face_down))
            return self._phase(state, RETURN if holder != IN_MONTE else TAKE, soloist)
        state = self._exchange(state, shown=p.rules.show_monte_on_call)
        return self._phase(state, RETURN, soloist) if holder != IN_MONTE else state

    def _exchange(self, state: GameState, shown: bool = False) -> GameState:
        """The soloist takes the monte (``exchange="full"``) and discards four; or takes what he chooses."""
        p = state.public
        soloist = p.table.extra.soloist
        monte = mask_of(state.hidden.face_down)
        if p.rules.exchange == "partial":
            return self._phase(self._learn(state, soloist, monte), TAKE, soloist)
        hands = tuple(h | monte if s == soloist else h for s, h in enumerate(state.hands))
        held = tuple(k + MONTE if s == soloist else k for s, k in enumerate(p.table.extra.held))
        state = GameState(p, hands, state.dealt, state.hidden._replace(face_down=()))
        state = with_extra(state, held=held, face_down=0, owed=MONTE, monte_shown=monte if shown else 0)
        return self._phase(state, DISCARD, soloist)

    def _return(self, state: GameState, card: int) -> GameState:
        p = state.public
        x = p.table.extra
        state = self._move(state, card, x.soloist, x.called_from)
        t = state.public.table
        exposed = t.exposed | 1 << (40 * x.called_from + card)
        state = with_public(state, state.public._replace(table=t._replace(exposed=exposed)))
        state = with_extra(state, returned=card)
        if p.rules.all_play:
            return self._start_play(state)
        if p.rules.exchange == "partial":
            return self._phase(state, TAKE, x.soloist)
        return self._phase(state, DISCARD, x.soloist)

    def _take(self, state: GameState, action: int) -> GameState:
        p = state.public
        x = p.table.extra
        soloist = x.soloist
        if action == PASS:
            if not x.taken:
                return self._start_play(state)
            return self._phase(with_extra(state, owed=x.taken), DISCARD, soloist)
        card = action - CALL
        face_down = tuple(c for c in state.hidden.face_down if c != card)
        hands = tuple(h | 1 << card if s == soloist else h for s, h in enumerate(state.hands))
        held = tuple(k + 1 if s == soloist else k for s, k in enumerate(x.held))
        state = GameState(p, hands, state.dealt, state.hidden._replace(face_down=face_down))
        state = with_extra(state, held=held, taken=x.taken + 1, face_down=x.face_down - 1)
        if x.taken + 1 == MONTE:
            return self._phase(with_extra(state, owed=MONTE), DISCARD, soloist)
        return state

    def _put_down(self, state: GameState, card: int) -> GameState:
        """The seat on turn puts ``card`` face down (a discard, or a card into the monte); it knows where it is."""
        p = state.public
        seat = p.turn
        x = p.table.extra
        hands = tuple(h & ~(1 << card) if s == seat else h for s, h in enumerate(state.hands))
        held = tuple(k - 1 if s == seat else k for s, k in enumerate(x.held))
        hidden = state.hidden._replace(face_down=state.hidden.face_down + (card,))
        state = self._learn(GameState(p, hands, state.dealt, hidden), seat, 1 << card)
        return with_extra(state, held=held, face_down=x.face_down + 1, owed=x.owed - 1)

    def _discard(self, state: GameState, card: int) -> GameState:
        state = self._put_down(state, card)
        if state.public.table.extra.owed:
            return state
        return self._start_play(state)

    def _split(self, state: GameState, card: int) -> GameState:
        state = self._put_down(state, card)
        p = state.public
        if p.table.extra.owed:
            return state
        opponents = opponents_of(p)
        if p.turn == opponents[0]:
            return self._phase(with_extra(state, owed=2), SPLIT, opponents[1])
        return self._start_play(state)

    def _choose(self, state: GameState, action: int) -> GameState:
        p = state.public
        x = p.table.extra
        seat = p.turn
        if action == PASS:
            opponents = opponents_of(p)
            hidden = state.hidden._replace(given=0)
            state = GameState(p, state.hands, state.dealt, hidden)
            if seat == opponents[0]:
                state = self._learn(state, opponents[1], mask_of(hidden.face_down))
                return self._phase(state, CHOOSE, opponents[1])
            return self._start_play(state)
        if action >= GIVE:  # the card he owes the monte: he knows it, and may not take it back
            card = action - GIVE
            state = self._put_down(state, card)
            hidden = state.hidden._replace(given=state.hidden.given | 1 << card)
            return GameState(state.public, state.hands, state.dealt, hidden)
        card = action - CALL
        face_down = tuple(c for c in state.hidden.face_down if c != card)
        hands = tuple(h | 1 << card if s == seat else h for s, h in enumerate(state.hands))
        held = tuple(k + 1 if s == seat else k for s, k in enumerate(x.held))
        state = GameState(p, hands, state.dealt, state.hidden._replace(face_down=face_down))
        return with_extra(state, held=held, face_down=x.face_down - 1, owed=1)

    def _start_play(self, state: GameState) -> GameState:
        p = state.public
        rules = p.rules
        x = p.table.extra
        n = p.table.seats
        forehand = (p.dealer + 1) % n
        if rules.first_lead == "forehand" or (rules.first_lead == "seed" and x.contract == CHIAMO):
            first = forehand
        else:
            first = x.soloist
        signal_seats, signals_from, kinds = auction.signs(rules.signals, n)
        table = p.table._replace(
            phase=PLAY, signal_seats=signal_seats, signals_from=signals_from, signal_kinds=kinds,
            extra=x._replace(owed=0),
        )  # fmt: skip
        public = p._replace(table=table, first_leader=first, leader=first, turn=first)
        return with_public(state, public)

    # ------------------------------------------------------------------ the score

    def end_hand(self, state: GameState) -> GameState:
        p = state.public
        rules = p.rules
        x = p.table.extra
        last = p.table.sides[p.leader]  # the side that took the last trick leads next
        thirds = list(p.thirds)
        thirds[last] += sum(THIRDS[c] for c in state.hidden.face_down)  # the discards or the monte
        solo, other = thirds
        won = auction.side_wins(solo)
        loser = 1 if won else 0
        tricks = [0, 0]  # each side's tricks (left at 0 but for the rule that reads them)
        if rules.cappotto_rule == "all_tricks":  # (the only cappotto rule that counts tricks: the others read thirds)
            sides = p.table.sides
            for winner in p.trick_winners():
                tricks[sides[winner]] += 1
        cappotto = auction.is_cappotto(thirds[loser], tricks[loser], rules.cappotto_rule)
        if rules.scoring == "difference":
            unit = (solo - other) * (2 if max(thirds) == auction.HAND_THIRDS else 1)
        else:
            unit = auction.unit(rules.multiplier(x.contract), won, cappotto)
        result = HandScore((solo // 3, other // 3), tuple(thirds), (0, 0), (1 - loser) if cappotto else None)
        return with_public(state, self.close_hand(self.with_stakes(p, self._stakes(p, unit)), result))

    def _stakes(self, p: PublicState, unit: int) -> tuple[int, ...]:
        """Each agent's stake when each opponent pays the soloist ``unit`` (+0 for -0)."""
        soloist = p.table.controllers[p.table.extra.soloist]
        opponents = p.rules.players - 1
        return tuple(opponents * unit if a == soloist else -unit for a in range(p.rules.players))

    def renuncio(self, state: GameState) -> GameState:
        p = state.public
        rules = p.rules
        x = p.table.extra
        offender = p.turn
        if x.soloist < 0:  # no contract yet: the offender pays each other player a lost chiamo on cappotto
            agent = p.table.controllers[offender]
            others = rules.players - 1
            stakes = tuple(-2 * others if a == agent else 2 for a in range(rules.players))
        else:
            lost = offender == x.soloist
            if rules.scoring == "difference":
                unit = -2 * auction.HAND_THIRDS if lost else 2 * auction.HAND_THIRDS
            else:
                unit = auction.unit(rules.multiplier(x.contract), not lost, True)
            stakes = self._stakes(p, unit)
        result = HandScore((0, 0), p.thirds, (0, 0), renuncio=offender)
        return with_public(state, self.close_hand(self.with_stakes(p, stakes), result))

    def lead(self, p: PublicState, seat: int) -> float:
        """The thirds lead of ``seat``'s side over the other, in points (0 before the play)."""
        if p.table.phase:
            return 0.0
        return super().lead(p, seat)

    def hand_info(self, p: PublicState) -> dict[str, Any]:
        info = super().hand_info(p)
        x = p.table.extra
        info["stakes"] = list(x.stakes)
        info["contract"] = auction.CONTRACT_NAMES.get(x.contract, "all passed")
        # -1 when all passed: one type in every hand's info (Gymnasium's vector infos stack each key in one array)
        info["soloist"] = p.table.controllers[x.soloist] if x.soloist >= 0 else -1
        return info

    # ------------------------------------------------------------------ text

    def hand_size(self, p: PublicState, seat: int) -> int:
        if p.table.phase:
            return p.table.extra.held[seat]
        return super().hand_size(p, seat)

    def seat_label(self, p: PublicState, seat: int, names: Any) -> str:
        x = p.table.extra
        role = "soloist" if seat == x.soloist else "" if x.soloist < 0 else "opponent"
        return f"{names[seat]}" + (f" ({role})" if role else "")

    def action_role(self, p: PublicState, action: int) -> str | None:
        """Taking from the monte and the pass that stops it; a card given back; cards into the monte (scegliete)."""
        if p.phase in (TAKE, CHOOSE) and (CALL <= action < GIVE or action == PASS):
            return "take" if action != PASS else "stop"
        if GIVE <= action < PASS and p.phase in (RETURN, CHOOSE):
            return "return" if p.phase == RETURN else "into_monte"
        return None

    def side_role(self, p: PublicState, side: int) -> str | None:
        """Once there is a soloist: side 0 is the soloist, side 1 his opponents."""
        if p.table.extra.soloist < 0:
            return None
        return "soloist" if side == 0 else "opponents"

    def render_lines(self, p: PublicState, names: Any) -> list[str]:
        from ..engine.cards import card_code
        from ..engine.render import count_text, suits_text

        x = p.table.extra
        lines = ["bids: " + ", ".join(f"{names[s]} {auction.bid_name(b)}" for s, b in enumerate(x.bids))]
        if x.contract:
            lines.append(f"contract: {auction.CONTRACT_NAMES[x.contract]} by {names[x.soloist]}")
        if x.called >= 0:
            where = "the monte" if x.called_from == IN_MONTE else names[x.called_from]
            lines.append(f"called: {card_code(x.called)} (from {where})")
        if x.monte_shown:
            lines.append(f"monte shown: {suits_text(x.monte_shown)}")
        if x.returned >= 0:
            lines.append(f"returned: {card_code(x.returned)}")
        lines.append(f"face down for the last trick: {count_text(x.face_down)}")
        return lines

    def render_hidden(self, state: GameState) -> list[str]:
        from ..engine.render import suits_text

        return [f"face down: {suits_text(mask_of(state.hidden.face_down))}"]


if CalabresellaPublic._fields[0] != "bids":  # pragma: no cover - a guard for whoever reorders the record
    raise ImportError(
        "games.calabresella: CalabresellaPublic's first field must be bids (games.auction.with_bid writes it there)"
    )
CALABRESELLA = Calabresella()
CalabresellaRules.game = CALABRESELLA

__all__ = [
    "AUCTION",
    "CALABRESELLA",
    "CALL_PHASE",
    "CHOOSE",
    "DISCARD",
    "IN_MONTE",
    "RETURN",
    "SPLIT",
    "TAKE",
    "Calabresella",
    "CalabresellaHidden",
    "CalabresellaPublic",
    "CalabresellaRules",
    "make_rules",
    "opponents_of",
    "rules_table",
]
