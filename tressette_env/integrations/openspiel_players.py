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

Games: every game of the catalog, played one hand at a time. A determinization is the game's
own (``engine.variant.Game`` hooks; this module names no game): ``Game.drawn_state(view, rng,
sample, strict)`` builds the whole state from the view, ``sample()`` drawing the hidden hands
(and the face-down pile) from the deal sampler, and ``determinize`` checks that the state gives
the seat its view back. By default the state is the sampler's hands, each seat dealt its hand
and the cards it has played; a game with a hidden record of its own draws it there (a stock, a
monte, the cards set aside). Refused with a ``ValueError`` (``check_game``, which ``tressette
eval`` calls before it starts; ``refusal``): a game or rule set whose
``Game.determinize_refusal(rules)`` gives a reason (Calabresella's monte and discards through
the auction and the exchange, Tressette in due's packet form), and ``episode="match"`` (an
OpenSpiel game here is one hand).

The built state starts at the view: its history holds no chance outcomes and no earlier actions,
and each seat's trail (``TressetteState.trail``) starts with the cards it holds now. So the
bots' information-state strings recall the hand from this decision on only, and the public
record (which keeps the whole hand) holds the rest.

Needs the ``openspiel`` extra (``pip install -e ".[openspiel]"``); without it, importing this
module raises ``ModuleNotFoundError`` (an ``ImportError``) saying so.
"""

from __future__ import annotations

import random
from typing import Any

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError as error:  # pragma: no cover (the extra is installed where the tests run)
    raise ModuleNotFoundError(
        f"the ismcts and mcts players need OpenSpiel: install the openspiel extra "
        f'(pip install -e ".[openspiel]"); {error}',
        name="pyspiel",
    ) from error

from ..agents.sampling import DealSampler, InconsistentViewError
from ..engine.game import view as view_of
from ..engine.state import GameState, SeatView
from . import openspiel

__all__ = ["ISMCTSPlayer", "MCTSPlayer", "determinize", "openspiel_game", "refusal", "state_from_view"]

DETERMINIZE_TRIES = 50
"""Draws ``determinize`` makes before it gives up (each checked to give the seat its view back)."""
STRICT_TRIES = DETERMINIZE_TRIES // 2
"""The first draws are strict (``Game.drawn_state``'s ``strict``: every inference the game makes); the rest looser."""

_GAMES: dict[Any, Any] = {}


def refusal(rules: Any) -> str | None:
    """Why the players cannot play ``rules`` (the module docstring's refusals), or None: they can."""
    name = rules.game.name
    why = rules.game.determinize_refusal(rules)
    if why is not None:
        return f"the OpenSpiel players do not play {name} with these rules: {why}; play heuristic or search there"
    if getattr(rules, "episode", "hand") != "hand":
        return (
            'the OpenSpiel players play one hand at a time: an OpenSpiel game here is a hand (episode="hand"); '
            f"got episode={rules.episode!r}"
        )
    return None


def check_rules(rules: Any) -> None:
    """Raise ``ValueError`` for a game the players cannot play (``refusal``)."""
    why = refusal(rules)
    if why is not None:
        raise ValueError(why)


def openspiel_game(rules: Any) -> Any:
    """The OpenSpiel game (``python_<name>``) of ``rules`` (loaded once per rules record)."""
    game = _GAMES.get(rules)
    if game is None:
        check_rules(rules)
        openspiel.register_all()  # a game registered after the integration's import (Tressette mini)
        game = pyspiel.load_game(openspiel.game_name(rules.game.name), openspiel.game_parameters(rules))
        _GAMES[rules] = game
    return game


def determinize(seen: SeatView, rng: random.Random) -> GameState:
    """A whole state the seat of ``seen`` cannot tell from its view: the hidden cards drawn with ``rng``.

    The game draws it (``Game.drawn_state``, given the deal sampler's draws). Its view of the
    result is ``seen`` (checked; another draw where not). It reads ``seen`` only.

    Raises:
        ValueError: a game the players refuse (``check_rules``), or no draw in ``DETERMINIZE_TRIES``
            gave the view back (``agents.sampling.InconsistentViewError``).
    """
    rules = seen.public.rules
    check_rules(rules)
    sampler: list[DealSampler] = []

    def sample() -> tuple[tuple[int, ...], int]:
        if not sampler:
            sampler.append(DealSampler(seen))  # built once, at the first draw that needs it
        return sampler[0].sample_with_pile(rng)

    why = "no draw"
    for tries in range(DETERMINIZE_TRIES):
        try:
            state = rules.game.drawn_state(seen, rng, sample, tries < STRICT_TRIES)
        except ValueError as error:  # the sampler's InconsistentViewError, or the game's own
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
    return openspiel.TressetteState.at(openspiel_game(seen.public.rules), determinize(seen, rng))


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
        if not (type(max_world_samples) is int and (max_world_samples == -1 or 1 <= max_world_samples <= 100_000)):
            raise ValueError(
                f"{self.name}: max_world_samples is -1 (a fresh draw at each simulation) or an integer from 1 "
                f"to 100000; got {max_world_samples!r}"
            )
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
