"""OpenSpiel's Python ISMCTS and MCTS bots as players (``make_player("ismcts")``, ``tressette eval ismcts heuristic``).

A player sees only its seat's view (``agents.base``). To ask one of OpenSpiel's bots for an
action it builds, from that view alone, an OpenSpiel state of the game
(``integrations.openspiel``, ``python_<name>``) consistent with it: the public record and its
own cards as they are, the other seats' hidden cards (and the game's hidden record: a stock, a
monte) drawn by ``determinize`` with the search player's sampler (``agents.sampling.DealSampler``:
counts, voids, signals, declarations, face-up cards). The true hidden cards never reach the
player, so they cannot reach the bot.

| spec | bot | what it searches |
| --- | --- | --- |
| `ismcts[:simulations=100,uct_c=2.0,rollouts=1,max_world_samples=-1]` | ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` | one tree over the seat's information sets; each simulation starts from a fresh ``determinize`` of the view (the bot's resampler) |
| `mcts[:simulations=100,uct_c=2.0,rollouts=1]` | ``open_spiel.python.algorithms.mcts.MCTSBot`` | one perfect-information tree over one ``determinize`` of the view, drawn anew at each decision (a single determinization: it plays as if that deal were the true one) |

Options: ``simulations`` (1 to 100,000) the bot's simulations per decision; ``uct_c`` (> 0) its
exploration constant; ``rollouts`` (1 to 100) random rollouts per leaf
(``mcts.RandomRolloutEvaluator``); ``max_world_samples`` (ISMCTS; -1 for a fresh draw at each
simulation, else 1 to 100,000 draws reused) . Both bots use OpenSpiel's defaults otherwise (UCT
child selection, the most visited action; MCTS solves the terminal nodes it reaches).

Each decision seeds the bot's ``numpy`` random state and the draws from the ``rng`` the
evaluation gives the player (``act(view, legal, rng)``), so play is reproducible and the player
holds no state between calls.

Games: every game of the catalog with a determinization here: the four-seat game, col morto, a
perdere, a chiamare, and Tressette in due with a stock (``deal="stock"``). Refused with a
``ValueError`` (``check_game``, which ``tressette eval`` calls before it starts): Calabresella
(its hidden record, the monte and the discards through the auction and the exchange, has no
determinization from a view here), Tressette in due's packet form, and ``episode="match"`` (an
OpenSpiel game here is one hand).

The built state starts at the view: its history holds no chance outcomes and no earlier actions,
and each seat's trail (``TressetteState.trail``) starts with the cards it holds now. So the
bots' information-state strings recall the hand from this decision on only, and the public
record (which keeps the whole hand) holds the rest.

Needs the ``openspiel`` extra (``pip install -e ".[openspiel]"``); without it, importing this
module raises ``ImportError`` saying so.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError as error:  # pragma: no cover (the extra is installed where the tests run)
    raise ImportError(
        f"the ismcts and mcts players need OpenSpiel: install the openspiel extra "
        f'(pip install -e ".[openspiel]"); {error}'
    ) from error

from ..agents.sampling import DealSampler, InconsistentViewError
from ..engine.cards import NUM_CARDS, SUIT_MASK, cards_of
from ..engine.game import private_of
from ..engine.game import view as view_of
from ..engine.state import GameState, SeatView
from . import openspiel

__all__ = ["ISMCTSPlayer", "MCTSPlayer", "determinize", "openspiel_game", "state_from_view"]

REFUSED = {
    "calabresella": (
        "its hidden record (the monte and the discards, through the auction and the exchange) has no "
        "determinization from a seat's view here"
    ),
}
"""Games the players refuse, and why."""

DETERMINIZE_TRIES = 50
"""Draws ``determinize`` makes before it gives up (each checked to give the seat its view back)."""

_FULL = (1 << NUM_CARDS) - 1
_GAMES: dict[Any, Any] = {}


def check_rules(rules: Any) -> None:
    """Raise ``ValueError`` for a game the players cannot play (the module docstring's refusals)."""
    name = rules.game.name
    if name in REFUSED:
        raise ValueError(f"the OpenSpiel players do not play {name}: {REFUSED[name]}; play heuristic or search there")
    if getattr(rules, "episode", "hand") != "hand":
        raise ValueError(
            'the OpenSpiel players play one hand at a time: an OpenSpiel game here is a hand (episode="hand"); '
            f"got episode={rules.episode!r}"
        )
    if name == "tressette_in_due" and rules.deal != "stock":
        raise ValueError(
            f'the OpenSpiel players play Tressette in due with a stock (deal="stock"); got deal={rules.deal!r}'
        )


def openspiel_game(rules: Any) -> Any:
    """The OpenSpiel game (``python_<name>``) of ``rules`` (loaded once per rules record)."""
    game = _GAMES.get(rules)
    if game is None:
        check_rules(rules)
        name = rules.game.name
        switches = {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules) if f.name != "episode"}
        game = pyspiel.load_game(openspiel.game_name(name), openspiel.parameters_of(name, switches))
        _GAMES[rules] = game
    return game


def _in_due_hands(seen: SeatView, rng: random.Random, keep_voids: bool) -> tuple[tuple[int, int], tuple[int, ...]]:
    """Tressette in due with a stock: the opponent's hand and the stock drawn from ``seen``."""
    p = seen.public
    me, other = seen.seat, 1 - seen.seat
    stock_size = p.extra.stock
    known = (p.exposed_by(other) | p.revealed_by(other)) & ~p.all_played
    free = seen.unseen & ~known
    count = NUM_CARDS - seen.hand.bit_count() - p.all_played.bit_count() - stock_size - known.bit_count()
    pool = cards_of(free)
    if keep_voids:
        voids = sum(SUIT_MASK[s] for s in range(4) if p.is_void(other, s))
        pool = [c for c in pool if not voids >> c & 1]
    if not 0 <= count <= len(pool):
        raise InconsistentViewError(f"no hand of {count} cards for the opponent among {len(pool)}")
    chosen = rng.sample(pool, count)
    hand = known | sum(1 << c for c in chosen)
    stock = [c for c in cards_of(free) if not hand >> c & 1]
    rng.shuffle(stock)
    hands = [0, 0]
    hands[me], hands[other] = seen.hand, hand
    return (hands[0], hands[1]), tuple(stock)


def _drawn_state(seen: SeatView, rng: random.Random, tries: int) -> GameState:
    p = seen.public
    game = p.rules.game
    if game.name == "tressette_in_due":
        from ..games.in_due import InDueHidden

        hands, stock = _in_due_hands(seen, rng, keep_voids=tries < DETERMINIZE_TRIES // 2)
        return GameState(p, hands, hands, InDueHidden(stock, ((), ()), ()))
    hands, pile = DealSampler(seen).sample_with_pile(rng)
    dealt = tuple(h | p.played_by(s) for s, h in enumerate(hands))
    if game.name == "tressette_a_perdere":
        from ..games.a_perdere import APerdereHidden

        held = 0
        for h in hands:
            held |= h
        out = _FULL & ~held & ~p.all_played
        return GameState(p, tuple(hands), dealt, APerdereHidden(tuple(cards_of(out))))
    return GameState(p, tuple(hands), dealt)


def determinize(seen: SeatView, rng: random.Random) -> GameState:
    """A whole state the seat of ``seen`` cannot tell from its view: the hidden cards drawn with ``rng``.

    Its view of the result is ``seen`` (checked; another draw where not). It reads ``seen`` only.

    Raises:
        ValueError: a game the players refuse (``check_rules``), or no draw in ``DETERMINIZE_TRIES``
            gave the view back (``InconsistentViewError``).
    """
    check_rules(seen.public.rules)
    why = "no draw"
    for tries in range(DETERMINIZE_TRIES):
        try:
            state = _drawn_state(seen, rng, tries)
        except InconsistentViewError as error:
            why = str(error)
            continue
        if view_of(state, seen.seat) == seen:
            return state
        why = "the drawn state's view differs from the seat's"
    raise InconsistentViewError(
        f"no state consistent with seat {seen.seat}'s view in {DETERMINIZE_TRIES} draws ({why[:300]})"
    )


def state_from_view(seen: SeatView, rng: random.Random) -> Any:
    """An OpenSpiel state (``openspiel.TressetteState``) of ``determinize(seen, rng)``, at the view's decision."""
    gs = determinize(seen, rng)
    state = openspiel_game(seen.public.rules).new_initial_state()
    state.game_state = gs
    state._chance = None
    state.shuffled = _FULL
    state.trail = tuple(((hand, private_of(gs, seat)),) for seat, hand in enumerate(gs.hands))
    return state


def _int(options: str, name: str, value: Any, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{options}: {name} is an integer from {low} to {high}; got {value!r}")
    return value


def _positive(options: str, name: str, value: Any) -> float:
    if type(value) not in (int, float) or not 0 < value < float("inf"):
        raise ValueError(f"{options}: {name} is a number > 0; got {value!r}")
    return float(value)


class _BotPlayer:
    """What both players share: the options, the game check, and one decision."""

    name = "openspiel"

    def __init__(self, simulations: int = 100, uct_c: float = 2.0, rollouts: int = 1):
        self.simulations = _int(self.name, "simulations", simulations, 1, 100_000)
        self.uct_c = _positive(self.name, "uct_c", uct_c)
        self.rollouts = _int(self.name, "rollouts", rollouts, 1, 100)

    def check_game(self, rules: Any) -> None:
        """Raise ``ValueError`` for a game this player cannot play (``check_rules``)."""
        check_rules(rules)

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        """The bot's action for ``view``: it searches a state built from the view (``state_from_view``)."""
        if len(legal) == 1:
            return legal[0]
        draws = random.Random(rng.getrandbits(64))
        state = state_from_view(view, draws)
        if state.legal_actions() != sorted(legal):
            raise RuntimeError(f"the built state's legal actions {state.legal_actions()} are not the seat's {legal}")
        numbers = np.random.RandomState(rng.getrandbits(32))
        action = int(self._bot(state.get_game(), view, draws, numbers).step(state))
        if action not in legal:
            raise RuntimeError(f"the {self.name} bot chose {action}, not one of the legal actions {legal}")
        return action

    def _evaluator(self, numbers: Any) -> Any:
        return mcts.RandomRolloutEvaluator(self.rollouts, numbers)


class ISMCTSPlayer(_BotPlayer):
    """OpenSpiel's Python ISMCTS: each simulation searches a fresh determinization of the view (module docstring)."""

    name = "ismcts"

    def __init__(self, simulations: int = 100, uct_c: float = 2.0, rollouts: int = 1, max_world_samples: int = -1):
        super().__init__(simulations, uct_c, rollouts)
        if max_world_samples != -1:
            _int(self.name, "max_world_samples", max_world_samples, 1, 100_000)
        self.max_world_samples = max_world_samples

    def __repr__(self) -> str:
        return (
            f"ISMCTSPlayer(simulations={self.simulations}, uct_c={self.uct_c}, rollouts={self.rollouts}, "
            f"max_world_samples={self.max_world_samples})"
        )

    def _bot(self, game: Any, seen: SeatView, draws: random.Random, numbers: Any) -> Any:
        bot = ismcts.ISMCTSBot(
            game,
            self._evaluator(numbers),
            self.uct_c,
            self.simulations,
            max_world_samples=self.max_world_samples,
            random_state=numbers,
        )
        bot.set_resampler(lambda state, player: state_from_view(seen, draws))
        return bot


class MCTSPlayer(_BotPlayer):
    """OpenSpiel's Python MCTS over one determinization of the view, drawn anew at each decision (module docstring)."""

    name = "mcts"

    def __repr__(self) -> str:
        return f"MCTSPlayer(simulations={self.simulations}, uct_c={self.uct_c}, rollouts={self.rollouts})"

    def _bot(self, game: Any, seen: SeatView, draws: random.Random, numbers: Any) -> Any:
        return mcts.MCTSBot(game, self.uct_c, self.simulations, self._evaluator(numbers), random_state=numbers)
