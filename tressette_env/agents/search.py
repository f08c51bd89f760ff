"""A search player: perfect-information Monte Carlo (PIMC) over the double-dummy solver.

At each decision ``SearchPlayer`` deals the cards it has not seen to the other seats at
random, consistently with everything public (``sampling.DealSampler``: counts, cards
played, voids, signals, declarations), solves each deal with every hand open
(``solver.solve_moves``: the thirds its team ends the hand with after each legal card),
and plays the card with the best average over the deals; equal averages go to the
lowest card id.

Cost and knobs (defaults: ``samples=8``, ``time_budget=None``, ``exact_tricks=8``,
``horizon=3``, ``early="ppo"``, ``inference="heuristic"``, ``candidates=3``, ``prior=6``,
``signal_policy="club"``: measured the strongest of those tried, within 0.1 s per decision
on average with the compiled solver; see docs/search.md):

- ``samples``: deals searched per decision (at most; 1 to ``MAX_SAMPLES``, 4,096).
- ``time_budget``: seconds per decision; sampling stops once it is spent, and a search
  that passes it is cut short (its deal dropped; the first deal is then searched again
  two tricks deep, so a decision may overrun the budget by a few tens of milliseconds). With a
  budget the number of deals, and so the play, depends on the machine's speed; without
  one (``None``) play is a function of the view and the ``rng`` alone.
- ``exact_tricks`` and ``horizon``: with at most ``exact_tricks`` tricks left (this one
  included) every deal is solved to the end, exactly. Earlier the search looks
  ``horizon`` tricks ahead and a static estimate (sure cashing tricks, then the rest
  shared by high cards) stands for the remainder. ``horizon=None`` always solves to the end.
- ``early``: a player (or a name) that takes the decisions before the last ``exact_tricks``
  tricks instead of the horizon search: there PIMC's estimate is rough, while the endgame
  is solved exactly. Default ``"ppo"``, the shipped model (a NumPy policy) in the four-seat
  game and the heuristic in the others (the model plays only the game it was trained on);
  None: search throughout.
- ``inference`` and ``candidates``: a player (or a name) used as a model of how the others
  play. ``samples * candidates`` deals are drawn, and each is weighted by how many of the
  other seats' plays this hand that player would have made with that deal's cards
  (``MISMATCH`` per play it would not have made); ``samples`` of them are kept by weighted
  sampling without replacement. A seat that kept its asso where the model would have
  played it on a trick it could take, say, is less likely to hold it. Four-seat game
  only; None (or ``candidates=1``): every consistent deal is as likely.
- ``prior``: in the four-seat game's early tricks, with an ``early`` player that ranks its
  cards (the shipped model, by its policy's logits), the search decides among the early
  player's ``prior`` favourite cards: on each deal each of them is played, the early player
  plays every seat on to ``ROLLOUT_TO`` tricks left, and the solver settles the rest; the
  best average is played. 0: the early player decides alone.

``search_v1()`` is the player with the settings it had before the compiled solver
(``exact_tricks=6``, ``early="heuristic"``, no inference): the yardstick of the strength
figures.

What it searches in a game is the game's ``Game.search_mode`` (``engine.variant``):

| mode | games | play |
| --- | --- | --- |
| ``"tricks"`` | the four-seat game, Tressette col morto | as above; a seat that plays another's face-up cards (col morto's dummy, in the dummy's turn) searches from that seat, the face-up cards known to the sampler |
| ``"endgame"`` | Tressette in due | its early tricks draw from a stock: the endgame is solved exactly once every card is known (the game's heuristic's ``endgame``), ``early`` decides before (which makes it the in-due heuristic's equal) |
| ``"sides"`` | Calabresella, Tressette a chiamare | the game's heuristic bids, calls, exchanges and plays the early tricks; the last ``Game.search_tricks`` are PIMC over the open-hands solver, valuing each card by the stake of the contract rather than the thirds (``side_search``) |
| None | Tressette a perdere, a game of one's own by default | not searched: ``check_game`` and ``act`` raise ``ValueError`` |

Signals and calling out: the player picks a card. ``signal_policy(view, card, legal)``
may turn it into an action with a signal (it must return one of ``legal`` that plays
``card``); the default ``"club"`` gives the heuristic's signals, None none. It never
calls out (action 160); an ``early`` player acts with its own signals.

The player reads only its ``SeatView`` (its hand and the public state) and keeps no
state between calls.

Example:
    >>> import random
    >>> from tressette_env.engine import apply, legal_actions, new_game, view
    >>> state = new_game(seed=4)
    >>> for _ in range(30):
    ...     state = apply(state, legal_actions(state)[0])
    >>> player = SearchPlayer(samples=4)
    >>> seat = state.public.turn
    >>> action = player.act(view(state, seat), legal_actions(state), random.Random(0))
    >>> action in legal_actions(state)
    True
"""

from __future__ import annotations

import dataclasses
import inspect
import random
import time
from collections.abc import Callable
from typing import Any

from ..engine import apply, legal_actions, new_game
from ..engine import view as seat_view
from ..engine.actions import CALL_OUT
from ..engine.cards import cards_of
from ..engine.classic import TRESSETTE
from ..engine.state import PLAY, SeatView
from ..messages import shown
from .base import Player
from .sampling import DealSampler, InconsistentViewError
from .side_search import side_card_values
from .solver import SolveTimeout, solve, solve_moves

__all__ = ["MISMATCH", "SearchPlayer", "SignalPolicy", "no_signal", "search_v1", "searched_games"]


def searched_games() -> tuple[str, ...]:
    """The names of the catalog's games the search player plays (a ``Game.search_mode``), sorted.

    Two sides (fixed, or in a chiamare fixed by each deal), points taken in the trick play.

    Example:
        >>> from tressette_env.engine import Rules
        >>> Rules.game.name in searched_games()
        True
    """
    from ..catalog import entries

    return tuple(sorted(e.name for e in entries() if e.game().search_mode))


MAX_SAMPLES = 4096
"""The most deals a decision may search (``samples``): about 500 times the default's work, minutes a decision."""

MAX_CANDIDATES = 64
"""The most deals drawn per deal searched (``candidates``): ``samples * candidates`` deals are held at once."""

MISMATCH = 0.3
"""A sampled deal's weight for each play of the others that the ``inference`` player would not have made there."""
ROLLOUT_TO = 7
"""Tricks left at which a rollout of the early tricks (``prior``) stops and the solver takes over.

One trick short of the default ``exact_tricks``: a rollout's end is solved ``prior * samples``
times a decision. Chosen when a deal with seven tricks left solved in 5.6 ms on average and
with eight in 28 ms; today's solver takes 1.2 ms and 5.8 ms (compiled, one core,
``benchmarks/bench_solver.py endings``, docs/search.md)."""

SignalPolicy = Callable[[SeatView, int, list[int]], int]
"""``(view, card, legal) -> action``: the action (one of ``legal``) that plays ``card``."""


def no_signal(view: SeatView, card: int, legal: list[int]) -> int:
    """The default signal policy: play the card without a signal."""
    return card


def _player_option(option: str, spec: str) -> Player:
    """The player a search option names (``early``, ``inference``), or an error naming the option."""
    from .registry import make_player

    try:
        return make_player(spec)
    except ValueError as error:
        none = "; or none (no player)" if str(error).startswith("unknown player") else ""
        raise ValueError(f"{option}={spec}: {error}{none}") from None


class SearchPlayer:
    """PIMC: sample consistent deals, solve each double-dummy, play the best card on average.

    Args:
        samples: deals per decision (at most; at least 1).
        time_budget: seconds per decision, or None for no limit. Sampling (and weighing
            the candidates of ``inference``) stops when the budget is spent, after at least
            one deal, whose work can exceed the budget: play then depends on machine speed.
        exact_tricks: with at most this many tricks left (the current one included) the
            deals are solved exactly to the end of the hand (an int from 0 to 20).
        horizon: before that, tricks searched ahead of a static estimate (an int >= 1; None:
            always solve to the end, which can take seconds per deal early in the hand).
        signal_policy: ``(view, card, legal) -> action`` choosing the signal to go with the
            card, ``"club"`` (default) for the heuristic's convention, None for no signal.
        early: a player or player name for the decisions before the last ``exact_tricks``
            tricks (default ``"ppo"``, the shipped model, which plays the four-seat game: in
            the other games the heuristic takes its place); None: search those too.
        inference: a player or player name, the model of the others' play that weights
            the deals (default ``"heuristic"``); None: no weighting.
        candidates: deals drawn per deal searched when ``inference`` weights them (at least 1).
        prior: in the four-seat game's early tricks, the ``early`` player's favourite cards
            searched by rollouts (default 6; 0: the ``early`` player decides alone).

    In Calabresella and Tressette a chiamare (``search_mode="sides"``) the searched tricks are
    the last ``Game.search_tricks`` (``exact_tricks`` and ``horizon`` do not apply), the
    cards are played without a signal (``signal_policy`` does not apply), and the decisions
    before them are the ``early`` player's (the game's heuristic when ``early`` is ``"ppo"``
    or None).

    Example:
        >>> SearchPlayer(samples=8, time_budget=0.1).name
        'search'
    """

    name = "search"

    def __init__(
        self,
        samples: int = 8,
        time_budget: float | None = None,
        *,
        exact_tricks: int = 8,
        horizon: int | None = 3,
        signal_policy: SignalPolicy | str | None = "club",
        early: Player | str | None = "ppo",
        inference: Player | str | None = "heuristic",
        candidates: int = 3,
        prior: int = 6,
    ) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= MAX_SAMPLES:
            raise ValueError(f"samples must be an int from 1 to {MAX_SAMPLES:,}; got {shown(samples)}")
        if time_budget is not None and not time_budget > 0:
            raise ValueError(f"time_budget must be None or seconds > 0; got {time_budget!r}")
        if horizon is not None and (isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 1):
            raise ValueError(f"horizon must be None or an int >= 1 (tricks); got {horizon!r}")
        if isinstance(exact_tricks, bool) or not isinstance(exact_tricks, int) or not 0 <= exact_tricks <= 20:
            raise ValueError(
                f"exact_tricks must be an int from 0 to 20 (the tricks left when the search solves exactly; "
                f"a hand has at most 20); got {exact_tricks!r}"
            )
        if isinstance(candidates, bool) or not isinstance(candidates, int) or not 1 <= candidates <= MAX_CANDIDATES:
            raise ValueError(
                f"candidates must be an int from 1 to {MAX_CANDIDATES} (deals drawn per deal searched); "
                f"got {shown(candidates)}"
            )
        self.candidates = candidates
        if isinstance(prior, bool) or not isinstance(prior, int) or prior < 0:
            raise ValueError(f"prior must be an int >= 0 (the early player's cards searched; 0: none); got {prior!r}")
        self.prior = prior
        if isinstance(inference, str):
            inference = _player_option("inference", inference)
        self.inference = inference
        self.samples = samples
        self.time_budget = time_budget
        self.exact_tricks = exact_tricks
        self.horizon = horizon
        if signal_policy == "club":
            from .heuristic import club_signal

            signal_policy = club_signal
        elif isinstance(signal_policy, str):
            raise ValueError(f"signal_policy {signal_policy!r}: a callable, 'club', or None")
        self.signal_policy = signal_policy or no_signal
        # The early "ppo" is the four-seat game's model: elsewhere the heuristic stands in for it (the
        # other games' shipped models are not wired into the search player).
        self._family_early: Player | None = None
        if isinstance(early, str):
            from .registry import make_player

            if early == "ppo":
                self._family_early = make_player("heuristic")
            early = _player_option("early", early)
        self.early = early

    def __repr__(self) -> str:
        return (
            f"SearchPlayer(samples={self.samples}, time_budget={self.time_budget}, "
            f"exact_tricks={self.exact_tricks}, horizon={self.horizon}, early={self.early!r}, "
            f"inference={self.inference!r}, candidates={self.candidates}, prior={self.prior})"
        )

    def card_values(self, view: SeatView, rng: random.Random) -> tuple[dict[int, float], int]:
        """Average final thirds of the seat's team after each legal card, and the deals used.

        Every legal card is valued on the same deals. With a ``time_budget``, a deal whose
        search passes the budget is dropped, unless it is the first: that one is then
        searched again with a horizon of two tricks (fast), so that there is always a value.
        """
        start = time.perf_counter()
        deadline = None if self.time_budget is None else start + self.time_budget
        p = view.public
        tricks_left = view.hand.bit_count()
        horizon = None if self.horizon is None or tricks_left <= self.exact_tricks else self.horizon
        sampler = DealSampler(view)
        totals: dict[int, int] = {}
        deals = 0
        chosen = self._inferred(view, sampler, rng, deadline) if self._infers(view) else None
        while deals < self.samples:
            hands = sampler.sample(rng) if chosen is None else chosen[deals]
            try:
                values = solve_moves(hands, p.leader, p.trick, p.thirds, horizon=horizon, deadline=deadline)
            except SolveTimeout:
                if deals:
                    break
                fallback = 2 if horizon is None else min(horizon, 2)
                values = solve_moves(hands, p.leader, p.trick, p.thirds, horizon=fallback)
            for card, value in values.items():
                totals[card] = totals.get(card, 0) + value
            deals += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return {card: total / deals for card, total in sorted(totals.items())}, deals

    def _infers(self, view: SeatView) -> bool:
        """Whether the deals are weighted by the plays they explain (the four-seat game, with an ``inference`` player)."""
        return self.inference is not None and self.candidates > 1 and view.public.rules.game is TRESSETTE

    def _inferred(
        self, view: SeatView, sampler: DealSampler, rng: random.Random, deadline: float | None = None
    ) -> list[tuple[int, ...]]:
        """``samples`` deals drawn from ``samples * candidates``, each kept with a chance that grows with its weight.

        A deal's weight is ``MISMATCH`` to the power of the other seats' plays this hand that
        the ``inference`` player would not have made in that seat with that deal's cards: the
        deals that explain what the others played are searched first. The draw is weighted
        sampling without replacement (each deal's key ``u ** (1 / weight)``, the largest kept).
        Past ``deadline`` (a ``time.perf_counter()`` time) no more candidates are weighed,
        once there are ``samples`` of them (or all drawn, if fewer).
        """
        pool = [sampler.sample(rng) for _ in range(self.samples * self.candidates)]
        keyed = []
        for hands in pool:
            if deadline is not None and len(keyed) >= self.samples and time.perf_counter() >= deadline:
                break
            weight = MISMATCH ** self._mismatches(view, hands)
            keyed.append((rng.random() ** (1.0 / weight), hands))
        keyed.sort(key=lambda item: -item[0])
        return [hands for _, hands in keyed[: self.samples]]

    def _mismatches(self, view: SeatView, hands: tuple[int, ...]) -> int:
        """The other seats' plays this hand that ``inference`` would have made otherwise, were ``hands`` the deal."""
        p = view.public
        state = _dealt(view, hands)
        if state is None:
            return 0  # a deal whose first lead no replay can redo (_dealt)
        rng = random.Random(0)
        misses = 0
        for action in p.plays:
            seat = state.public.turn
            if seat != view.seat:
                legal = legal_actions(state)
                if len({a % 40 for a in legal if a != CALL_OUT}) > 1:
                    guess = self.inference.act(seat_view(state, seat), legal, rng)
                    misses += guess % 40 != action % 40
            state = apply(state, action)
        return misses

    def _early_search(self, view: SeatView, legal: list[int], rng: random.Random, early: Any) -> int:
        """An early trick: the ``early`` player's ``prior`` favourite cards, each valued by rollouts.

        On each of ``samples`` deals (weighted by ``inference`` as later in the hand), each
        candidate card is played and the ``early`` player then plays every seat on to
        ``ROLLOUT_TO`` tricks left, which are solved exactly: the card with the best average
        for the seat's team is played, with the signal the ``early`` player gives it (equal
        averages: the ``early`` player's order). The early player calling out is followed.
        With a ``time_budget``, no deal is begun once it is spent (the first always is).
        """
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        ranked = early.ranked(view, legal)
        if ranked[0] == CALL_OUT:
            return CALL_OUT
        actions: dict[int, int] = {}  # card -> the early player's favourite action playing it
        for a in ranked:
            if a != CALL_OUT and a % 40 not in actions:
                actions[a % 40] = a
        chosen = list(actions.values())[: self.prior]
        if len(chosen) == 1:
            return chosen[0]
        if self._infers(view):
            deals = self._inferred(view, DealSampler(view), rng, deadline)
        else:
            sampler = DealSampler(view)
            deals = [sampler.sample(rng) for _ in range(self.samples)]
        totals = dict.fromkeys(chosen, 0)
        team = view.seat % 2
        for hands in deals:
            state = _dealt(view, hands)
            if state is None:
                return ranked[0]  # a deal whose first lead no replay can redo (_dealt)
            for action in view.public.plays:
                state = apply(state, action)
            for action in chosen:
                totals[action] += self._rollout(apply(state, action), early)[team]
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return max(chosen, key=lambda a: totals[a])  # max keeps the first of equals: the early player's order

    def _rollout(self, state: Any, early: Any) -> tuple[int, int]:
        """Each team's thirds at the end of the hand: ``early`` plays every seat to ``ROLLOUT_TO`` tricks left, then exact play."""
        rng = random.Random(0)
        p = state.public
        while p.trick or state.hands[p.turn].bit_count() > ROLLOUT_TO:
            legal = [a for a in legal_actions(state) if a != CALL_OUT]
            state = apply(state, early.act(seat_view(state, p.turn), legal, rng))
            p = state.public
        return solve(state.hands, p.leader, (), p.thirds).thirds

    def check_game(self, rules: Any) -> None:
        """Raise ``ValueError`` for a game this player cannot search (no ``Game.search_mode``; ``searched_games``)."""
        game = rules.game
        if not game.search_mode:
            why = (
                f"{game.name} with {game.sides(rules)} players each for himself"
                if game.sides(rules) > 2
                else f"{game.name} (its phases or its scoring are not those of a fixed two-sided trick play)"
            )
            raise ValueError(
                f"the search player values the cards of a deal's play for one side against the other "
                f"(a two-sided solver of the trick play); {why} is not searched: play heuristic or random there "
                f"(searched: {', '.join(searched_games())})"
            )

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        """The action for ``view``: the card with the best average value, with the signal policy's signal."""
        game = view.public.rules.game
        mode = game.search_mode
        if not mode:
            self.check_game(view.public.rules)
        if mode == "endgame":
            return self._endgame(view, legal, rng)
        if mode == "sides":
            return self._side_game(view, legal, rng)
        if mode != "tricks":
            raise ValueError(f'{game.name}: unknown search_mode {mode!r} ("tricks", "endgame", "sides" or None)')
        p = view.public
        if p.turn != view.seat and p.table.controllers[p.turn] == p.table.controllers[view.seat]:
            # The seat plays another seat's cards (col morto's dummy, in its turn): search from that seat,
            # whose cards lie face up.
            view = SeatView(p.turn, p.exposed_by(p.turn) or sum(1 << (a % 40) for a in legal if a < CALL_OUT), p)
        if self.early is not None and view.hand.bit_count() > self.exact_tricks:
            early = self._family_early if self._family_early is not None and game is not TRESSETTE else self.early
            if self.prior and game is TRESSETTE and hasattr(early, "ranked"):
                return self._early_search(view, legal, rng, early)
            return early.act(view, legal, rng)
        cards = {a % 40 for a in legal if a != CALL_OUT}
        if not cards:
            raise ValueError(f"no card to play among the legal actions {legal!r}")
        values = dict.fromkeys(cards, 0.0) if len(cards) == 1 else self.card_values(view, rng)[0]
        return self.action_for(view, legal, values)

    def action_for(self, view: SeatView, legal: list[int], values: dict[int, float]) -> int:
        """The action ``act`` plays given each legal card's value: the best card (equal values: the lowest id), with its signal."""
        # The legal cards are those solve_moves values.
        card = max(values, key=lambda c: (values[c], -c))
        action = self.signal_policy(view, card, legal)
        if action not in legal or action == CALL_OUT or action % 40 != card:
            raise ValueError(f"signal_policy returned {action!r} for card {card}: not a legal action playing it")
        return action

    def _side_game(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        """``search_mode="sides"`` (Calabresella, Tressette a chiamare): PIMC over the open-hands solver for the last tricks.

        The bidding, the call, the exchange and the tricks before the last
        ``Game.search_tricks`` are the ``early`` player's (the game's heuristic when ``early`` is
        ``"ppo"`` or None); then each legal card is valued by its average stake over
        ``samples`` deals (``side_search``) and played without a signal.
        """
        p = view.public
        early = self._family_early or self.early or self._side_early()
        if p.table.phase != PLAY or view.hand.bit_count() > p.rules.game.search_tricks:
            return early.act(view, legal, rng)
        cards = sorted({a % 40 for a in legal})
        card = cards[0]
        if len(cards) > 1:
            deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
            try:
                values = side_card_values(view, self.samples, rng, deadline)
            except InconsistentViewError:  # no deal fits the view (a record the sampler does not read): no search
                return early.act(view, legal, rng)
            card = max(cards, key=lambda c: (values[c], -c))
        return card if card in legal else next(a for a in legal if a % 40 == card)

    def _side_early(self) -> Player:
        """The game's heuristic, for the decisions before the searched tricks when ``early`` is None."""
        from .heuristic import HeuristicPlayer

        return HeuristicPlayer()

    def _endgame(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        """``search_mode="endgame"`` (Tressette in due): the exact endgame once every card is known, ``early`` before.

        Every card is known in the phase ``PLAY`` (in due: once the stock, or the packets, is
        gone): the game's heuristic (the catalog's) solves the endgame on the one deal there is
        (its ``endgame(view, cards)``). Before, the ``early`` player plays (the game's heuristic
        when ``early`` is None).
        """
        from ..catalog import entry_of

        heuristic = entry_of(view.public.rules).heuristic_player()
        if view.public.table.phase == PLAY and len(legal) > 1:
            cards = [a for a in legal if a != CALL_OUT]
            if CALL_OUT not in legal:
                return heuristic.endgame(view, cards)
        early = self._family_early if self._family_early is not None else self.early
        return (early or heuristic).act(view, legal, rng)


def _dealt(view: SeatView, hands: tuple[int, ...]) -> Any:
    """The hand as dealt, were ``hands`` the cards held now (None when a replay cannot redo its first lead).

    The replay is a first hand: a later hand of a match under ``first_lead="four_of_denari"``
    (led by the seat after the dealer, as every hand but the first) is replayed under
    ``"dealer_right"``. A deal whose first lead still differs from the one played (the 4 di
    denari elsewhere in a first hand) has no replay.
    """
    p = view.public
    rules = p.rules
    if p.hand_number > 0 and rules.first_lead == "four_of_denari":
        rules = dataclasses.replace(rules, first_lead="dealer_right")
    dealt = [cards_of(hands[s] | p.played_by(s)) for s in range(4)]
    state = new_game(rules, hands=dealt, dealer=p.dealer)
    return None if state.public.first_leader != p.first_leader else state


_V1_SETTINGS: dict[str, Any] = {"exact_tricks": 6, "early": "heuristic", "inference": None, "prior": 0}
"""``search_v1``'s settings: the search player's before the compiled solver."""


def search_v1(**options: Any) -> SearchPlayer:
    """The search player with its settings before the compiled solver (``options`` override them).

    The heuristic plays the first four tricks, the last six are solved exactly, no inference, no rollouts.

    Example:
        >>> search_v1().exact_tricks, search_v1().inference
        (6, None)
    """
    return SearchPlayer(**(_V1_SETTINGS | options))


# ``make_player`` reads a player's options from its signature: search_v1's are SearchPlayer's,
# with its own defaults, so an unknown option is named beside the list of those it takes.
search_v1.__signature__ = inspect.signature(SearchPlayer).replace(  # type: ignore[attr-defined]
    parameters=[
        p.replace(kind=inspect.Parameter.KEYWORD_ONLY, default=_V1_SETTINGS.get(p.name, p.default))
        for p in inspect.signature(SearchPlayer).parameters.values()
    ],
    return_annotation=SearchPlayer,
)
