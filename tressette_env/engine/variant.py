"""What makes one game of the family: ``Game``, the part of the rules that is a game's own.

The core (``game``) plays the cards the same way in every game: follow suit, signals,
tricks, thirds. A ``Game`` supplies the rest, as data and small functions:

| member | what it is |
| --- | --- |
| ``name``, ``rules_type`` | the game's name (``"tressette_in_due"``) and its rule-switch record |
| ``agents(rules)`` | how many agents play (a dummy's seat is played by a live agent) |
| ``competitors(rules)`` | who keeps a match score: teams in the four-seat game, players elsewhere |
| ``deal_options``, ``check_deal_options`` | the keys of a chosen deal (``hands``, ``dealer``, ``stock``...) and their check |
| ``new_game``, ``next_hand`` | the deal of a hand: the cards, the dealer, the table (``state.Table``), the first phase |
| ``deal_outcomes(rules)`` | the most outcomes one random draw of a deal has (default 40: a card of the shuffled deck) |
| ``legal_phase``, ``apply_phase`` | the phases before (or instead of) the plain card play, with their actions |
| ``end_hand`` | the score of a finished hand (``HandScore``) and the match |
| ``renuncio``, ``call_out`` | the penalty for an illegal action; a claim of the match |
| ``returns(public)`` | each agent's reward when the episode ends |
| ``zero_sum(rules)``, ``return_bound(rules)`` | whether a hand's returns always sum to 0, and a bound on their size (OpenSpiel's utility and its range) |
| ``face_down_known(view)`` | the face-down cards a seat knows lie there still (default: its ``SeatView.private``) |
| ``exposed_face_down(public)`` | cards shown face up in a hand that may since have gone face down (default: none) |
| ``card_places(view, seats, known_down)`` | what the game's own record says about who holds which hidden card: ``(seat, must hold, cannot hold)``, ``PILE`` for the face-down cards (default: nothing) |
| ``determinize_refusal(rules)`` | why no whole state can be drawn from a seat's view under ``rules`` (a determinizer refuses the game with it), or None: it can (default) |
| ``drawn_state(view, rng, sample, strict)`` | a whole state consistent with ``view``, its hidden part drawn (``sample()``: a deal of the sampler; default: those hands, dealt = hand and played cards) |
| ``sampler_reads_deal`` | whether the deal sampler models where the hidden cards lie (False: Tressette in due's stock) |
| ``search_mode``, ``search_tricks`` | what the search player solves: ``"tricks"``, ``"endgame"``, ``"sides"`` (the last ``search_tricks`` tricks), or None: not searched (default) |
| ``deal_sides(view, hands)`` | each seat's side in a deal of the hidden cards, 0 the declarer's (default: the public ``Table.sides``) |
| ``search_value(rules, mine, theirs, declarer, tricks, before)`` | what ending the hand with ``mine`` thirds is worth to a side, for search (default: ``mine``) |

The defaults below are those of a game of two sides whose competitors are its sides (the
four-seat game, Tressette in due, col morto for two); a game overrides what differs.

Example:
    >>> from tressette_env.engine import Rules
    >>> game = type(Rules()).game
    >>> game.name, game.agents(Rules()), game.competitors(Rules())
    ('tressette', 4, 2)
    >>> game.search_mode, Game.search_mode
    ('tricks', None)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from .actions import NUM_ACTIONS, action_to_string
from .cards import NUM_CARDS, CardMask
from .scoring import RENUNCIO_POINTS, HandScore, score_hand
from .state import GAME_OVER, HAND_OVER, GameState, PublicState, SeatView, Table

PILE = 99
"""The "seat" of the face-down cards out of every hand (Calabresella's monte or discards).

In ``Game.card_places`` and the deal sampler's constraints (``agents.sampling``)."""


def with_public(state: GameState, public: PublicState) -> GameState:
    """``state`` with another public record (faster than ``_replace``)."""
    return tuple.__new__(GameState, (public, state.hands, state.dealt, state.hidden))


_TABLE = PublicState._fields.index("table")


def with_table(public: PublicState, table: Any) -> PublicState:
    """``public`` with another ``Table`` (``public._replace(table=table)``, a third of its cost)."""
    return tuple.__new__(PublicState, public[:_TABLE] + (table,) + public[_TABLE + 1 :])


_EXTRA = Table._fields.index("extra")


def with_extra(state: GameState, **changes: Any) -> GameState:
    """``state`` with fields of the game's public record (``Table.extra``) changed.

    The table and the public record are rebuilt as ``with_table`` does, without ``_replace``
    (an auction's bid makes one or two of these).
    """
    p = state.public
    t = p.table
    table = tuple.__new__(Table, t[:_EXTRA] + (t.extra._replace(**changes),) + t[_EXTRA + 1 :])
    public = tuple.__new__(PublicState, p[:_TABLE] + (table,) + p[_TABLE + 1 :])
    return tuple.__new__(GameState, (public, state.hands, state.dealt, state.hidden))


class Game:
    """One game of the family (see the module docstring); subclass it and override what differs."""

    name = "game"
    rules_type: type = object
    num_actions = NUM_ACTIONS
    """The size of the game's action space (the family's action table, ``actions``, up to what it uses)."""
    deal_options: tuple[str, ...] = ("hands", "dealer")
    renuncio_text = "its side loses the hand 11-0"
    """What a renuncio costs, for the environments' warning (``renuncio_words``)."""
    no_seat_keys: tuple[str, ...] = ()
    """``hand_info`` keys naming a seat that may be none: -1, written null in records before 2026-12-07."""

    def renuncio_words(self, p: Any) -> str:
        """What a renuncio in the public state ``p`` costs: ``renuncio_text``, or a phase's own cost."""
        return self.renuncio_text

    def contract_played(self, p: Any) -> bool:
        """Whether the hand of ``p`` was played with its sides set: False where all passed, or a renuncio came first.

        (Calabresella and a chiamare: before a contract, or a chiamare's called card, the hand has
        no sides, and the end-of-hand text names none.)
        """
        return True

    def __repr__(self) -> str:
        return f"<game {self.name}>"

    # ------------------------------------------------------------------ who plays

    def agents(self, rules: Any) -> int:
        """How many agents play."""
        raise NotImplementedError

    def sides(self, rules: Any) -> int:
        """How many sides a hand has (for a game whose sides change from hand to hand, the usual number)."""
        return 2

    def competitors(self, rules: Any) -> int:
        """How many scores a match keeps (``PublicState.match_score``)."""
        return 2

    def out_of_match(self, table: Any, agent: int) -> bool:
        """True when ``agent`` has left the match for good (a perdere's elimination), not just sat out a hand."""
        return False

    def points_sign(self, rules: Any) -> int:
        """+1 when a side plays to take points, -1 when it plays to avoid them (a perdere's charges)."""
        return 1

    def lineup(self, rules: Any) -> str:
        """How a duplicate board seats two players: ``"teams"`` or ``"field"``.

        ``"teams"`` swaps two fixed sides; ``"field"`` plays once per seat, player A there and
        player B everywhere else (individual players, or sides that change with every hand).
        """
        return "field" if self.sides(rules) > 2 else "teams"

    def hand_points(self, p: PublicState) -> tuple[float | None, ...]:
        """What a duplicate evaluation compares after a hand, per agent (None: not dealt in).

        Default: the points of each agent's side (``HandScore.points``).
        """
        table = p.table
        points = p.result.points
        return tuple(None if s < 0 else points[table.sides[s]] for s in table.seat_of)

    def zero_sum(self, rules: Any) -> bool:
        """True when every hand's ``returns`` sum to 0 under ``rules`` (OpenSpiel's ``utility``). Default: False."""
        return False

    def return_bound(self, rules: Any) -> float:
        """A bound on the size of any agent's ``returns`` for a hand (OpenSpiel's ``min_utility``, ``max_utility``).

        Default: a side's points of a hand, 11 for the cards and at most 24 for declarations
        (four napoletane and three quattro), plus a cappotto bonus; a game whose declarations
        may score more overrides it (Tressette in due's drawn quattro).
        """
        return 11.0 + 24.0 + getattr(rules, "cappotto_bonus", 0)

    def competitor_of(self, table: Any, agent: int) -> int:
        """Whose match score ``agent`` plays for (default: its own seat's side)."""
        return table.sides[table.seat_of[agent]]

    # ------------------------------------------------------------------ dealing

    def check_deal_options(self, rules: Any, options: dict, first: bool = True) -> dict:
        """Check a chosen deal before anything is drawn: unknown keys, then the game's own checks."""
        unknown = [key for key in options if key not in self.deal_options]
        if unknown:
            raise TypeError(
                f"unknown deal option(s) {unknown} for {self.name}; the options are {list(self.deal_options)}"
            )
        return self.checked_deal(rules, {k: v for k, v in options.items() if v is not None}, first)

    def checked_deal(self, rules: Any, options: dict, first: bool) -> dict:
        """The game's checks of a chosen deal (``options`` has no None values); returns what ``deal`` reads."""
        return options

    def deal_outcomes(self, rules: Any) -> int:
        """The most outcomes one random draw of a deal has (OpenSpiel's ``max_chance_outcomes``).

        Default: 40, a card of a shuffled deck (a dealer's draw has fewer). A game that deals by
        one draw among many deals says how many (Tressette mini).
        """
        return NUM_CARDS

    def new_game(self, rules: Any, rng: random.Random, options: dict) -> GameState:
        """The first hand of an episode (match score 0, hand 0)."""
        raise NotImplementedError

    def next_hand(self, state: GameState, rng: random.Random, options: dict) -> GameState:
        """The next hand of a match."""
        raise NotImplementedError

    # ------------------------------------------------------------------ phases

    def legal_phase(self, state: GameState) -> int:
        """Legal actions in the game's own phase ``state.public.phase`` (nonzero)."""
        raise NotImplementedError(f"{self.name} has no phase {state.public.phase}")

    def apply_phase(self, state: GameState, action: int) -> GameState:
        """``action`` in the game's own phase ``state.public.phase`` (nonzero)."""
        raise NotImplementedError(f"{self.name} has no phase {state.public.phase}")

    def private_of(self, state: GameState, seat: int) -> int:
        """Cards out of every hand whose place ``seat`` alone knows (its face-down discards, a monte it saw).

        Read from ``state.hidden``; it reaches the seat's ``SeatView.private`` and its observation.
        """
        return 0

    # ------------------------------------------------------------------ the end of a hand

    def end_hand(self, state: GameState) -> GameState:
        """The hand's last trick is taken: score it and close it."""
        return with_public(state, self.close_hand(state.public, self.score(state)))

    def score(self, state: GameState) -> HandScore:
        """The score of a finished hand: each side's thirds rounded down, declarations, cappotto."""
        p = state.public
        return score_hand(p.thirds, p.accusi.points, getattr(p.rules, "cappotto_bonus", 0))

    def competitor_points(self, p: PublicState, result: HandScore) -> tuple[int, ...]:
        """What each competitor adds to its match score for the hand (default: its side's points)."""
        return result.points

    def close_hand(self, p: PublicState, result: HandScore, winner: int | None = None) -> PublicState:
        """Close a hand with ``result``: add it to the match and decide whether the episode ends.

        ``winner`` ends the match for that competitor at once (a claim); otherwise, in a
        match, the first competitor at the target wins; several there: the highest, and an
        exact tie for the highest plays on (``match_winner``).
        """
        gained = self.competitor_points(p, result)
        score = tuple(a + b for a, b in zip(p.match_score, gained, strict=True))
        status = GAME_OVER
        if winner is None and p.rules.episode == "match":
            winner = self.match_winner(p.rules, score)
            if winner is None:
                status = HAND_OVER
        return p._replace(status=status, turn=-1, match_score=score, result=result, winner=winner)

    def match_winner(self, rules: Any, score: tuple[int, ...]) -> int | None:
        """The competitor that wins the match at this score, or None to play on."""
        top = max(score)
        if top >= rules.target_score and score.count(top) == 1:
            return score.index(top)
        return None

    def renuncio(self, state: GameState) -> GameState:
        """An illegal action by the seat on turn: its side loses the hand, the other side scores 11."""
        p = state.public
        side = p.table.sides[p.turn]
        points = (0, RENUNCIO_POINTS) if side == 0 else (RENUNCIO_POINTS, 0)
        result = HandScore(points, p.thirds, (0, 0), renuncio=p.turn)
        return with_public(state, self.close_hand(p, result))

    def call_out(self, state: GameState) -> GameState:
        """Chiamarsi fuori: the seat on lead claims that its side has reached the target.

        The claim counts the match score plus this hand's points so far (card points, and
        declarations once the side has a card point). True: the side wins the match; false:
        it loses it. Either way the episode ends there.
        """
        p = state.public
        side = p.table.sides[p.turn]
        result = score_hand(p.thirds, p.accusi.points, complete=False)._replace(called_out=p.turn)
        claim_true = p.match_score[side] + result.points[side] >= p.rules.target_score
        return with_public(state, self.close_hand(p, result, side if claim_true else 1 - side))

    def returns(self, p: PublicState) -> tuple[float, ...]:
        """Each agent's reward when the episode ends (by agent index)."""
        raise NotImplementedError

    def lead(self, p: PublicState, seat: int) -> float:
        """How far ``seat``'s side is ahead in the thirds taken so far, in points (two sides).

        What a dense reward pays as the hand goes, in the direction of ``returns``.
        """
        thirds = p.thirds
        side = p.table.sides[seat]
        return (thirds[side] - thirds[1 - side]) / 3

    # ------------------------------------------------------------------ what a player may infer, and search

    sampler_reads_deal = True
    """False where the deal sampler (``agents.sampling``) cannot model where a deal's hidden cards lie
    (Tressette in due's stock, whose order it does not draw): OpenSpiel's resampler then renames
    the unseen cards at random, the replay checking each draw."""

    search_mode: str | None = None
    """What the search player (``agents.search``) solves in this game.

    | mode | the game | what is searched |
    | --- | --- | --- |
    | ``"tricks"`` | two fixed sides taking points (the four-seat game, col morto) | PIMC over the two-sided solver of the trick play; a seat that plays another seat's face-up cards (a dummy) searches from that seat |
    | ``"endgame"`` | two seats, every card known once the phase is ``PLAY`` (Tressette in due) | that endgame exactly, by the game's heuristic's ``endgame(view, cards)`` (the catalog's ``heuristic``); the early player before |
    | ``"sides"`` | one side against the other, fixed by each deal (Calabresella, a chiamare) | the last ``search_tricks`` tricks: PIMC over the open-hands solver, each deal's outcome valued by ``search_value`` (``agents.side_search``) |
    | None (default) | anything else (a perdere) | nothing: the search player refuses the game |
    """
    search_tricks = 0
    """``search_mode="sides"``: the tricks left (this one included) from which the search player solves the deals."""

    def face_down_known(self, view: SeatView) -> CardMask:
        """The face-down cards ``view``'s seat knows lie there still (default: its ``private`` cards).

        The deal sampler (``agents.sampling``) puts them in every deal's face-down pile.
        """
        return view.private

    def exposed_face_down(self, p: PublicState) -> CardMask:
        """Cards the record shows face up in a hand (``PublicState.exposed_by``) that may since have gone face down.

        The deal sampler deals them to their seat or the face-down pile instead of forcing them into
        the seat's hand. Default: none (Calabresella: the called card handed to the soloist, from the
        card play on, his discards being made).
        """
        return 0

    def card_places(
        self, view: SeatView, seats: tuple[int, ...], known_down: CardMask
    ) -> Iterable[tuple[int, CardMask, CardMask]]:
        """What the game's own public record says about where the hidden cards are.

        ``(seat, must, cannot)`` triples: ``seat`` (one of ``seats``) holds every card of
        ``must`` and none of ``cannot``. ``seats``: those whose cards the deal sampler deals (the
        seats but ``view.seat``, and ``PILE`` for the face-down cards when some are unknown);
        ``known_down``: ``face_down_known(view)``. A seat may come more than once. Default:
        nothing (the sampler reads the core's record itself: counts, voids, signals,
        declarations, face-up cards).
        """
        return ()

    def determinize_refusal(self, rules: Any) -> str | None:
        """Why no whole state can be drawn from a seat's view under ``rules``, or None: ``drawn_state`` draws one.

        A determinizer (``integrations.openspiel_players``) refuses the game with this reason: say
        what is refused and why, and what may be played instead. Default: None.
        """
        return None

    def drawn_state(
        self,
        view: SeatView,
        rng: random.Random,
        sample: Callable[[], tuple[tuple[CardMask, ...], CardMask]],
        strict: bool = True,
    ) -> GameState:
        """A whole state, its hidden part drawn with ``rng``, that ``view``'s seat may be in (a determinization).

        ``sample()`` draws a deal consistent with the view from the deal sampler (``agents.sampling``):
        the hands by seat (the viewer's own included) and the face-down pile's cards. ``strict``:
        draw with every inference the game makes; False, a looser draw, for when strict draws keep
        failing. The caller checks that the result gives the seat ``view`` back and draws again
        otherwise; called only where ``determinize_refusal`` is None. Default: the sampler's
        hands, each seat dealt its hand and the cards it has played, no hidden record.

        Raises:
            ValueError: this draw fits no state (the caller draws again).
        """
        hands, _ = sample()
        p = view.public
        dealt = tuple(h | p.played_by(s) for s, h in enumerate(hands))
        return GameState(p, tuple(hands), dealt)

    def deal_sides(self, view: SeatView, hands: tuple[CardMask, ...]) -> tuple[int, ...]:
        """Each seat's side in ``hands``, a deal of the hidden cards (``sample`` of the deal sampler).

        0 the declarer's side, 1 the others', in a game whose sides a deal decides. Default:
        the public sides (``Table.sides``), for a game whose sides do not hang on the deal.
        """
        return view.public.table.sides

    def search_value(
        self, rules: Any, mine: int, theirs: int, declarer: bool, tricks: list[int], before: list[int]
    ) -> float:
        """What ending the hand with ``mine`` thirds against ``theirs`` is worth to a side, for search.

        ``declarer``: the side is the declarer's (side 0 of ``deal_sides``); ``tricks`` and
        ``before``: the tricks and thirds each side (0 the declarer's) has taken so far. A
        non-decreasing function of ``mine``. Default: ``mine``, the thirds.
        """
        return float(mine)

    # ------------------------------------------------------------------ words for the text pictures

    side_word = "side"
    """What a side is called in the text pictures (``"team"`` in the four-seat game)."""

    def side_name(self, p: PublicState, side: int) -> str:
        """A side's name: ``side 0``."""
        return f"{self.side_word} {side}"

    def result_side_name(self, p: PublicState, side: int) -> str:
        """The name of entry ``side`` of a finished hand's points (``HandScore.points``): a side, by default."""
        return self.side_name(p, side)

    # ------------------------------------------------------------------ words for the play screen

    def action_role(self, p: PublicState, action: int) -> str | None:
        """What a card-bearing action or a pass does in this phase, where it is not what its id says.

        ``"take"`` (a card of the monte), ``"return"`` (a card given back face up), ``"into_monte"``
        (a card put into the monte face down), ``"turn_up"`` (in due: turn up the packet of that bottom
        card), ``"stop"`` (a pass that ends taking); None: as named
        (``chiama``, a discard face down, ``passo``). None in every phase by default.
        """
        return None

    def action_label(self, p: PublicState, action: int) -> str:
        """An action's name on the play screen, where the game calls it otherwise (a chiamare's ``sola``)."""
        return action_to_string(action)

    def side_role(self, p: PublicState, side: int) -> str | None:
        """A side's role this hand (``"soloist"``, ``"opponents"``), or None where sides have none."""
        return None

    def card_play_begun(self, p: PublicState) -> bool:
        """Whether the hand is in its card play (tricks), rather than an auction, a deal or an exchange."""
        return not p.phase or bool(p.plays)

    def result_groups(self, p: PublicState) -> list[tuple[str, list[int]]] | None:
        """The sides a finished hand's points count, as (role, seats), where they are not the table's sides."""
        return None

    def competitor_name(self, p: PublicState, competitor: int) -> str:
        """A competitor's name (the one that won the match)."""
        return f"{self.side_word} {competitor}"

    def seat_names(self, table: Any, agents: Any) -> tuple[str, ...]:
        """Each seat's name in the text pictures, from the agents' names (default: the agent that plays it)."""
        return tuple(agents[c] for c in table.controllers)

    def seat_label(self, p: PublicState, seat: int, names: Any) -> str:
        """A seat as the text pictures show it: ``player_1 (side 1)``."""
        return f"{names[seat]} ({self.side_word} {p.table.sides[seat]})"

    def hand_size(self, p: PublicState, seat: int) -> int:
        """How many cards ``seat`` holds now (public)."""
        return p.table.tricks - p.played_by(seat).bit_count()

    def phase_name(self, p: PublicState) -> str:
        """The name of the game's own phase ``p.phase``."""
        return f"phase {p.phase}"

    def render_lines(self, p: PublicState, names: Any) -> list[str]:
        """Public lines of the game's own (the stock, the packets...)."""
        return []

    def render_hidden(self, state: GameState) -> list[str]:
        """Lines of the game's hidden record for the whole-table picture (the stock's order...)."""
        return []

    def hand_info(self, p: PublicState) -> dict[str, Any]:
        """What every agent's info holds when a hand ends (beyond how it ended)."""
        result = p.result
        info: dict[str, Any] = {
            "hand": p.hand_number,
            "hand_score": list(result.points),
            "card_thirds": list(result.card_thirds),
            "accusi": list(result.accusi),
        }
        if p.rules.episode == "match":
            info["match_score"] = list(p.match_score)
        return info
