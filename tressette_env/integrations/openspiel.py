"""OpenSpiel: every game of the catalog as an OpenSpiel game, ``python_<name>``, for its algorithms and tools.

Importing this module registers one Python game with ``pyspiel`` for each game of the catalog
(the package's six and any registered before the import)::

    import pyspiel
    import tressette_env.integrations.openspiel  # registers python_tressette, python_calabresella, ...

    game = pyspiel.load_game("python_calabresella", {"players": 4})
    state = game.new_initial_state()

| OpenSpiel | here |
| --- | --- |
| game | one hand (``episode="hand"``: a match is refused), every rule switch a game parameter |
| players | the game's agents (``player_0`` is OpenSpiel's player 0); an agent plays its dummies' seats too |
| chance nodes | the deal, explicit: the dealer's draw, then each shuffle card by card, each outcome equally likely |
| actions | the package's action ids (``game.num_actions`` of them: a card 0..159 with its signal, a call, a bid...); legal ones from ``engine.game.legal_actions`` |
| returns | the game's ``Game.returns`` at the hand's end; zero-sum where the game's ``Game.zero_sum`` says so |
| information state string | the seat's whole view as compact JSON (seat, hand, private cards, the public record with its history: ``protocol.state.encode_public``) and its trail: its hand and private cards each time they changed (what the player saw of its own cards, in order: an in due's own draws unshown, a soloist's takes) |
| information state tensor | the same information, fixed-size (``TressetteObserver``'s table): the environments' history observation, the player, seat and turn, the public actions in order, and the places in its trail where each of its cards came and went |
| observation tensor, string | the environments' observation (``encoders``), and the view as the terminal shows it |

Game parameters are the game's rule switches (``RuleSwitches``), checked by its rules record
(a bad one raises the record's ``ValueError``). A bool, int or word switch is a parameter of
that type; the others are written so that a game's name (``str(game)``) loads it back:

| switch allows | parameter | example |
| --- | --- | --- |
| a number or None (``zero_point_charge``) | an int, -1 for None | ``{"zero_point_charge": 1}`` |
| some of a list, or None (``contracts``) | a string: the words joined by ``+``, or ``"default"`` | ``{"contracts": "chiamo+solo"}`` |
| numbers for some keys, or None (``multipliers``) | a string: ``key:number`` joined by ``+``, or ``"default"`` | ``{"multipliers": "chiamo:2+solo:3"}`` |

``parameters_of(name, switches)`` writes them from the rule switches (``game_parameters(rules)``
from a rules record). ``episode`` is no parameter: a game here is one hand, and a match's own
switches (``target_score``, ``calling_out``, ``match_end``, ``rounds``, ``hands``) are none either.

The deal replays the game's own dealing (``Game.new_game``) with a random source that reads the
chance outcomes played so far, so a deal here is dealt by the same code as everywhere else and
``engine.game.new_game(rules, seed)`` and this game cannot disagree on what a deal means: the
dealer's draw ``randrange(n)`` is one chance node of ``n`` outcomes, and ``shuffle`` of ``m``
cards is ``m - 1`` chance nodes, each the next card of the shuffled list among those not yet
drawn (the outcome is the card's id).

``state.resample_from_infostate(player, sampler)`` draws a state the player cannot tell from
this one (``agents.sampling.DealSampler``, the search player's sampler), so OpenSpiel's Python
``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``) plays every game.

OpenSpiel's Python ISMCTS and MCTS bots play ``tressette eval`` as the players ``ismcts`` and ``mcts``
(``integrations.openspiel_players``: each builds, from its seat's view only, a state drawn consistent
with it, and asks the bot).

Not here: matches. OpenSpiel's C++ bots (``pyspiel.MCTSBot``, ``pyspiel.ISMCTSBot``) crash on Python
games in open_spiel 2.0.2, OpenSpiel's own ``python_team_dominoes`` too: use the Python ones.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Any

import numpy as np
import pyspiel

from .. import catalog
from ..agents.sampling import DealSampler, InconsistentViewError
from ..encoders.family import observation_of
from ..engine.actions import CALL, GIVE
from ..engine.cards import NUM_CARDS, card_code, cards_of
from ..engine.game import apply, current_agent, is_over, legal_actions, private_of, view
from ..engine.state import SeatView
from ..engine.switches import allowed_kind
from ..protocol.state import encode_public

__all__ = ["ScriptedRandom", "game_name", "game_parameters", "parameters_of", "register_all", "rules_of"]

PREFIX = "python_"


def game_name(entry_name: str) -> str:
    """The OpenSpiel name of the catalog's game ``entry_name`` (``"python_calabresella"``)."""
    return PREFIX + entry_name


class _NeedChance(Exception):
    """Raised by ``ScriptedRandom`` when the deal needs an outcome not drawn yet: ``outcomes`` are its choices."""

    def __init__(self, kind: str, outcomes: list[int], after: int = 0):
        super().__init__(kind)
        self.kind = kind
        self.outcomes = outcomes
        self.after = after
        """The chance nodes of the same shuffle that follow this one (their outcomes: these, less the ones drawn)."""


class ScriptedRandom(random.Random):
    """A ``random.Random`` whose draws are the outcomes in ``script``, in order (the deal's chance nodes).

    ``randrange(n)`` takes the next outcome (one of ``0..n-1``); ``shuffle(cards)`` takes one
    outcome per place but the last, each the card (a distinct id ``0..39``) put there among those
    not placed yet. When the script runs out the draw raises ``_NeedChance`` with its choices.
    Any other draw raises: a game's deal that draws otherwise needs this class taught it.
    """

    def __new__(cls, script: list[int]):  # (Python 3.10's Random.__new__ takes the seed only)
        return super().__new__(cls)

    def __init__(self, script: list[int]):
        super().__init__(0)
        self.script = script
        self.at = 0
        self.shuffled = 0
        """The cards shuffled so far (a mask): those the chance outcomes name, and the last of each shuffle."""

    def _next(self, kind: str, outcomes: list[int], after: int = 0) -> int:
        if self.at == len(self.script):
            raise _NeedChance(kind, outcomes, after)
        outcome = self.script[self.at]
        if outcome not in outcomes:
            raise ValueError(f"chance outcome {outcome!r} is not one of {outcomes}")
        self.at += 1
        return outcome

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        return self._next("draw", list(range(start, stop, step)))

    def shuffle(self, x: list) -> None:
        left = sorted(x)
        if len(set(left)) != len(left) or any(type(c) is not int or not 0 <= c < NUM_CARDS for c in left):
            raise TypeError(f"ScriptedRandom shuffles distinct card ids 0..{NUM_CARDS - 1}; got {x!r}")
        for card in left:
            self.shuffled |= 1 << card
        last = len(x) - 2
        for i in range(len(x) - 1):
            card = self._next("card", left, last - i)
            left.remove(card)
            x[i] = card
        if x:
            x[-1] = left[0]

    def random(self) -> float:
        raise TypeError("a deal drawn with random() cannot be replayed from chance outcomes (use randrange or shuffle)")

    def getrandbits(self, k: int) -> int:
        raise TypeError("a deal drawn with getrandbits() cannot be replayed from chance outcomes")


def _kind(field: dataclasses.Field) -> str:
    """How a switch is an OpenSpiel parameter: ``"plain"`` (bool, int, str), ``"int|None"``, ``"subset|None"``, ``"mapping|None"``."""
    if type(field.default) in (bool, int, str):
        return "plain"
    allowed = field.metadata["switch"].allowed
    if allowed_kind(allowed) in ("int|None", "subset|None", "mapping|None"):
        return allowed_kind(allowed)
    raise TypeError(f"rule switch {field.name} has no OpenSpiel parameter form (allowed: {allowed!r})")


def _to_parameter(field: dataclasses.Field, value: Any) -> Any:
    kind = _kind(field)
    if kind == "plain":
        return value
    if kind == "int|None":
        return -1 if value is None else value
    if value is None:
        return "default"
    if kind == "subset|None":
        return "+".join(value)
    pairs = value.items() if isinstance(value, dict) else value
    return "+".join(f"{key}:{number}" for key, number in pairs)


def _from_parameter(field: dataclasses.Field, value: Any) -> Any:
    kind = _kind(field)
    if kind == "plain":
        return value
    if kind == "int|None":
        return None if value == -1 else value
    if not isinstance(value, str):
        raise ValueError(f"game parameter {field.name} is a string ('default', or words joined by '+'); got {value!r}")
    if value == "default":
        return None
    if kind == "subset|None":
        return tuple(value.split("+")) if value else ()
    pairs: dict[str, int] = {}
    for part in value.split("+") if value else ():  # ("": no pairs, as parameters_of writes an empty mapping)
        key, _, number = part.partition(":")
        if not re.fullmatch("-?[0-9]{1,9}", number):
            raise ValueError(
                f"game parameter {field.name} is 'default' or key:number pairs joined by '+'; got {value!r}"
            )
        if key in pairs:
            raise ValueError(f"game parameter {field.name}: {key!r} is given twice in {value!r}")
        pairs[key] = int(number)  # (the rules name the keys and the numbers they allow)
    return pairs


def _parameters(entry: catalog.Entry) -> dict[str, Any]:
    """The game's parameters with their defaults: every rule switch of one hand (not ``episode``, nor a match's own)."""
    defaults = entry.make_rules()
    return {
        f.name: _to_parameter(f, f.default)
        for f in dataclasses.fields(entry.rules_type())
        if f.name != "episode" and not _match_only(f, defaults)
    }


def _match_only(field: dataclasses.Field, defaults: Any) -> bool:
    """Whether every value of ``field`` but its default needs ``episode="match"`` (``target_score``, ``rounds``...)."""
    needs = field.metadata["switch"].needs
    return any(need.test is None and need.values is None and "episode" in need.failing(defaults) for need in needs)


def parameters_of(entry_name: str, switches: dict[str, Any]) -> dict[str, Any]:
    """OpenSpiel parameters for rule switches of the catalog's game ``entry_name``.

    >>> parameters_of("calabresella", {"players": 4, "contracts": ("chiamo", "solo"), "multipliers": {"solo": 3}})
    {'players': 4, 'contracts': 'chiamo+solo', 'multipliers': 'solo:3'}
    >>> parameters_of("tressette_a_perdere", {"zero_point_charge": None})
    {'zero_point_charge': -1}
    """
    entry = catalog.entry(entry_name)
    fields = {f.name: f for f in dataclasses.fields(entry.rules_type())}
    return {k: _to_parameter(fields[k], v) if k in fields else v for k, v in switches.items()}


def game_parameters(rules: Any) -> dict[str, Any]:
    """The OpenSpiel parameters of a rules record of one hand (its values of the game's parameters)."""
    name = rules.game.name
    return parameters_of(name, {key: getattr(rules, key) for key in _parameters(catalog.entry(name))})


def rules_of(entry_name: str, params: dict[str, Any]) -> Any:
    """The rules record of the catalog's game ``entry_name`` for OpenSpiel parameters ``params`` (checked by the record)."""
    entry = catalog.entry(entry_name)
    fields = {f.name: f for f in dataclasses.fields(entry.rules_type())}
    if params.get("episode", "hand") != "hand":
        raise ValueError("an OpenSpiel game here is one hand: the episode parameter is 'hand' only")
    switches = {}
    for name, value in params.items():
        if name == "episode":
            continue
        if name not in fields:
            raise ValueError(f"{name!r} is not a parameter of {game_name(entry_name)}; parameters are {sorted(fields)}")
        switches[name] = _from_parameter(fields[name], value)
    return entry.make_rules(**switches)


def _player_range(entry: catalog.Entry) -> tuple[int, int]:
    counts = {entry.game().agents(entry.make_rules())}
    if any(f.name == "players" for f in dataclasses.fields(entry.rules_type())):
        for players in range(2, 9):
            try:
                counts.add(entry.game().agents(entry.make_rules(players=players)))
            except ValueError:
                pass
    return min(counts), max(counts)


_GAMES: dict[str, type] = {}


def _game_type(entry: catalog.Entry, rules: Any) -> pyspiel.GameType:
    """The game's OpenSpiel type under ``rules`` (registered with the default rules; each loaded game has its own)."""
    least, most = _player_range(entry)
    zero_sum = entry.game().zero_sum(rules)
    return pyspiel.GameType(
        short_name=game_name(entry.name),
        long_name=f"{entry.title} (tressette-env)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=most,
        min_num_players=least,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(entry),
    )


class TressetteGame(pyspiel.Game):
    """One catalog game as an OpenSpiel game (subclassed per entry by ``register_all``: ``entry`` names it)."""

    entry: catalog.Entry

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        self.rules = rules_of(self.entry.name, params)
        self.engine_game = self.entry.game()
        game = self.engine_game
        agents = game.agents(self.rules)
        bound = float(game.return_bound(self.rules))
        self.deal_options = game.check_deal_options(self.rules, {})
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=game.deal_outcomes(self.rules),
            num_players=agents,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0 if game.zero_sum(self.rules) else None,
            max_game_length=max_decisions(game.num_actions, agents),
        )
        super().__init__(_game_type(self.entry, self.rules), info, {**_parameters(self.entry), **params})

    def __deepcopy__(self, memo: dict) -> TressetteGame:
        return self  # immutable: a cloned state shares its game

    def new_initial_state(self) -> TressetteState:
        return TressetteState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TressetteObserver:
        return TressetteObserver(self, iig_obs_type, params)


def max_decisions(num_actions: int, agents: int) -> int:
    """A loose bound on a hand's decisions: 40 cards, plus the distinct actions, plus 8 per agent.

    The phases before the card play (auctions, a redeal's second auction, calls, exchanges) take far
    fewer decisions than the slack; the tests check it on every rule set's random hands. OpenSpiel
    also reads it as the bound on chance nodes (a deal has at most some 80).
    """
    return NUM_CARDS + num_actions + 8 * agents


class TressetteState(pyspiel.State):
    """A hand in OpenSpiel: chance nodes while it is dealt, then the engine's ``GameState`` (``self.game_state``)."""

    def __init__(self, game: TressetteGame):
        super().__init__(game)
        self._tgame = game
        self.script: list[int] = []
        self.kinds: list[str] = []
        self.game_state = None
        self.shuffled = 0
        """The cards the deal shuffled (a mask; cards set aside unshuffled, as a perdere's, are not)."""
        self.trail: tuple[tuple[tuple[int, int], ...], ...] = ()
        """Each seat's ``(hand, private)`` each time they changed since the deal: what it saw of its own cards."""
        self._chance: tuple[str, list[int], int] | None = None  # the chance node's kind, outcomes, nodes after it
        self._deal()

    @classmethod
    def at(cls, game: TressetteGame, game_state: Any) -> TressetteState:
        """A state of ``game`` at ``game_state``, dealt already (a determinization's: no chance node before it).

        Its trails start with the cards held now; every card counts as shuffled.
        """
        state = game.new_initial_state()
        state.game_state = game_state
        state._chance = None
        state.shuffled = (1 << NUM_CARDS) - 1
        state.trail = tuple(((hand, private_of(game_state, seat)),) for seat, hand in enumerate(game_state.hands))
        return state

    def _deal(self) -> None:
        game = self._tgame
        rng = ScriptedRandom(self.script)
        try:
            self.game_state = gs = game.engine_game.new_game(game.rules, rng, game.deal_options)
            self.shuffled = rng.shuffled
            self.trail = tuple(((hand, private_of(gs, seat)),) for seat, hand in enumerate(gs.hands))
        except _NeedChance as need:
            self._chance = (need.kind, need.outcomes, need.after)
        else:
            self._chance = None

    def current_player(self) -> int:
        if self._chance is not None:
            return pyspiel.PlayerId.CHANCE
        if is_over(self.game_state):
            return pyspiel.PlayerId.TERMINAL
        return current_agent(self.game_state)

    def _legal_actions(self, player: int) -> list[int]:
        if self._chance is not None or is_over(self.game_state) or player != current_agent(self.game_state):
            return []
        return sorted(legal_actions(self.game_state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self._chance[1]
        return [(o, 1.0 / len(outcomes)) for o in outcomes]

    def _apply_action(self, action: int) -> None:
        if self._chance is not None:
            kind, outcomes, after = self._chance
            if action not in outcomes:
                raise ValueError(f"chance outcome {action!r} is not one of this node's: {outcomes}")
            self.kinds.append(kind)
            self.script.append(action)
            if after:  # the shuffle goes on: its next node is known without dealing again
                self._chance = (kind, [o for o in outcomes if o != action], after - 1)
            else:
                self._deal()
        else:
            self.game_state = gs = apply(self.game_state, action)
            trail = list(self.trail)
            for seat, hand in enumerate(gs.hands):
                now = (hand, private_of(gs, seat))
                if trail[seat][-1] != now:
                    trail[seat] += (now,)
            self.trail = tuple(trail)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._chance is None:  # a past chance node's outcome: its kind is no longer at hand
                return f"chance outcome {action}"
            return f"draw {action}" if self._chance[0] == "draw" else f"deal {card_code(action)}"
        if self.game_state is None:
            return f"action {action}"
        return self._tgame.engine_game.action_label(self.game_state.public, action)

    def is_terminal(self) -> bool:
        return self._chance is None and is_over(self.game_state)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._tgame.num_players()
        return [float(r) for r in self._tgame.engine_game.returns(self.game_state.public)]

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> TressetteState:
        """A state ``player`` cannot tell from this one: the other hands (and the face-down cards) drawn anew.

        ``agents.sampling.DealSampler`` draws the unseen cards' places consistent with the view (the
        signals, the declarations, the suits a seat showed out of; where its counts do not fit, before
        the card play, the unseen cards are renamed at random among those its constraints cannot tell
        apart, and where it cannot read the record, a Tressette in due's stock, at random). The deal's
        chance outcomes and the cards of the face-down actions (discards, cards taken from a monte
        unseen: those the public record leaves out) are renamed card for card (a permutation of the
        unseen cards, each holder's actual cards to its drawn ones) and the hand replayed. The replay is checked: its
        information state for ``player`` is this one's, or another draw is made (``RESAMPLE_TRIES``).
        A card the information state names (one the player held or saw face down) is never renamed:
        where it has moved unseen (a scegliete's swapped monte, a redeal's first hand, and before an
        all-pass redeal the second deal drawn with the first) it stays where it went, which the player
        does not know.
        ``probability_sampler()`` (a float in [0, 1)) seeds the draws.
        """
        info = self.information_state_string(player)
        if self._chance is not None:
            return self.clone()  # while dealing, the player has seen nothing
        gs = self.game_state
        seat = gs.public.table.seat_of[player]
        if seat < 0:
            raise ValueError(f"player {player} has no seat this hand: no information state to resample from")
        seen = view(gs, seat)
        # The cards its information state names stay as they are: those it held or knew face down at any time
        # (in scegliete the monte it saw, in a redeal its first hand: they stay where they went).
        known = 0
        for hand, private in self.trail[seat]:
            known |= hand | private
        unseen = seen.unseen & self.shuffled & ~known
        others = 0
        for other, hand in enumerate(gs.hands):
            if other != seat:
                others |= hand
        unshuffled = others & seen.unseen & ~self.shuffled
        if unshuffled:
            raise ValueError(
                f"{self._tgame}: cards in other hands were dealt by no shuffle (the deal is one draw among all "
                f"deals, as Tressette mini's small decks are), so they cannot be renamed: resampling is not "
                f"offered here (solve such a game exactly: tressette_env.integrations.efg)"
            )
        rng = random.Random(int(probability_sampler() * 2**53))
        sampler = None
        if self._tgame.engine_game.sampler_reads_deal:
            try:
                sampler = DealSampler(seen)
            except InconsistentViewError:
                sampler = None
        groups = [cards_of(unseen)]
        if sampler is not None:  # with the face-up cards that may have gone face down
            unseen = sampler.unseen & self.shuffled & ~known
            groups = _alike(sampler, unseen)
        for _ in range(RESAMPLE_TRIES):
            rename = None
            if sampler is not None:
                rename = _renaming(gs.hands, sampler.sample_with_pile(rng)[0], seat, unseen, rng)
                if rename is None:  # its counts are the card play's (an auction, an exchange): not this phase's
                    sampler = None
            if rename is None:  # the unseen cards renamed at random among those alike: the replay's check does the rest
                rename = {}
                for cards in groups:
                    rename.update(zip(cards, rng.sample(cards, len(cards)), strict=True))
            other = self._replayed(rename)
            if other is not None and other.information_state_string(player) == info:
                return other
        raise RuntimeError(
            f"no deal consistent with player {player}'s information state replayed to it in {RESAMPLE_TRIES} draws"
        )

    def _replayed(self, rename: dict[int, int]) -> TressetteState | None:
        """This hand with ``rename`` applied to its dealt cards and its face-down actions' cards (None: illegal).

        An action the public record shows (``PublicState.history``: bids, calls, card plays) is replayed as it
        is; one it does not (a discard, a card taken from a monte unseen) names a hidden card, renamed.
        """
        other = self._tgame.new_initial_state()
        history = self.history()
        chance = len(self.script)
        public = self.game_state.public.history
        at = 0
        try:
            for i, action in enumerate(history):
                if i < chance:
                    other.apply_action(rename.get(action, action) if self.kinds[i] == "card" else action)
                    continue
                try:
                    at = public.index(action, at) + 1
                except ValueError:  # not in the public record: a face-down action
                    if CALL <= action < GIVE + NUM_CARDS:
                        base = CALL if action < GIVE else GIVE
                        action = base + rename.get(action - base, action - base)
                other.apply_action(action)
        except (ValueError, RuntimeError):  # (pyspiel.SpielError is a RuntimeError)
            return None
        return other

    def __str__(self) -> str:
        if self._chance is not None:
            return f"dealing: {len(self.script)} chance outcomes drawn"
        return str(self.game_state)


RESAMPLE_TRIES = 200
"""Draws ``resample_from_infostate`` makes before it gives up (each replayed and checked)."""


def _alike(sampler: DealSampler, unseen: int) -> list[list[int]]:
    """The ``unseen`` cards in groups that the sampler's constraints cannot tell apart (the same seats may hold them).

    Where its counts do not fit the phase (an auction, an exchange), its places still hold: a card
    shown from the monte stays with the soloist or face down, a seat's void suit out of its hand.
    """
    groups: dict[tuple, list[int]] = {}
    for card in cards_of(unseen):
        key = tuple((c.allowed >> card & 1, c.forced >> card & 1) for c in sampler.seats)
        groups.setdefault(key, []).append(card)
    return list(groups.values())


def _renaming(actual: tuple[int, ...], drawn: tuple[int, ...], seat: int, unseen: int, rng: random.Random):
    """A permutation of the ``unseen`` cards taking each other holder's actual ones to its drawn ones (None if sizes differ).

    The holders are the seats but ``seat``, and the cards out of every hand (a stock, a monte, discards).
    """
    pairs: dict[int, int] = {}
    rest_actual, rest_drawn = unseen, unseen
    holders = []
    for s, (a, d) in enumerate(zip(actual, drawn, strict=True)):
        if s != seat:
            holders.append((a & unseen, d & unseen))
            rest_actual &= ~a
            rest_drawn &= ~d
    holders.append((rest_actual, rest_drawn))
    for a, d in holders:
        if a.bit_count() != d.bit_count():
            return None
        common = a & d
        sources, targets = cards_of(a & ~common), cards_of(d & ~common)
        rng.shuffle(targets)
        pairs.update(zip(sources, targets, strict=True))
    return pairs


MAX_SEATS = 8
"""The most seats at a table of the family (``Table.seats``: 2 to 8): the information state tensor's ``seat`` piece."""

OWN_CARD_CHANGES = 6
"""Changes of one card in one seat's trail that the information state tensor's ``own_cards`` piece holds.

A card comes into a seat's hand (or its private cards) and goes out of it: at most four changes
were seen on random hands of every rule set (a scegliete's monte, shown then swapped), and the
tensor refuses a trail with more (``RuntimeError``) rather than drop one.
"""


class TressetteObserver:
    """OpenSpiel's observer: the information state (a string and a tensor) or the observation (a tensor and a string) of one player.

    Only a single player's private view with the public record is offered (``IIGObservationType``'s
    default private and public information); anything else is refused.

    The information state tensor (``perfect_recall=True``) holds what its string holds, in these
    pieces (``L`` is the game's ``max_game_length()``, a bound on a hand's actions and chance nodes;
    a number ``i`` is written ``(i + 1) / (L + 2)``, 0 for none, so that every entry lies in [0, 1]):

    | piece | shape | meaning |
    | --- | --- | --- |
    | `observation` | (history observation size,) | the environments' history observation of the view (``observation_of(rules, history=True)``: 0s and 1s) |
    | `player` | (players,) | one-hot: the player |
    | `seat` | (8,) | one-hot: the player's seat (absolute; all 0 while dealing, or with no seat this hand) |
    | `turn` | (8,) | one-hot: the seat to act (absolute; all 0 when none is), which a face-down action (a discard) passes on unrecorded |
    | `dealing` | (1,) | while the deal's chance nodes are played, the chance outcomes drawn so far, as a number |
    | `actions` | (L,) | the public record's actions in order (``PublicState.history``): entry ``t`` is ``(a + 1) / num_actions`` for the ``t``-th action ``a``, 0 past the last |
    | `own_cards` | (40, 2, 6) | card x (hand, private cards) x change: the places in the seat's trail where the card came in or went out of its hand (private cards), as numbers (the first place is 0: the deal) |

    The observation gives a network the view in the environments' form; the last three pieces make the
    tensor identify the information state: the public record is the game's replay of the public
    actions with what they showed (declarations, a dummy, shown draws, the monte: the observation's
    pieces), and the trail is the places at which each card changed (each place in a trail changes
    at least one card, so the changes give the trail back). ``tests/integrations/test_openspiel.py``
    checks on random hands of every rule set that equal strings give equal tensors and different
    strings different tensors.
    """

    def __init__(self, game: TressetteGame, iig_obs_type: Any, params: Any):
        if params:
            raise ValueError(f"the observer takes no parameters; got {params!r}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError(
                "the observer offers one player's own view with the public record only "
                "(private_info=SINGLE_PLAYER, public_info=True)"
            )
        self.perfect_recall = iig_obs_type.perfect_recall
        self._observation = observation_of(game.rules, history=self.perfect_recall)
        if self.perfect_recall:
            self._length = game.max_game_length()
            self._num_actions = game.num_distinct_actions()
            shapes = information_state_pieces(self._observation.size, game.num_players(), self._length)
            self.tensor = np.zeros(sum(int(np.prod(shape)) for shape in shapes.values()), np.float32)
            self.dict, at = {}, 0
            for name, shape in shapes.items():
                size = int(np.prod(shape))
                self.dict[name] = self.tensor[at : at + size].reshape(shape)
                at += size
        else:
            self.tensor = np.zeros(self._observation.size, np.float32)
            self.dict = {"observation": self.tensor}

    def _view(self, state: TressetteState, player: int):
        gs = state.game_state
        if state._chance is not None or gs is None:
            return None
        seat = gs.public.table.seat_of[player]
        return None if seat < 0 else view(gs, seat)

    def set_from(self, state: TressetteState, player: int) -> None:
        seen = self._view(state, player)
        if not self.perfect_recall:
            if seen is None:
                self.tensor.fill(0)
            else:
                self.tensor[:] = self._observation.encode(seen)
            return
        self.tensor.fill(0)
        self.dict["player"][player] = 1
        if state._chance is not None:
            self.dict["dealing"][0] = self._number(len(state.script))
            return
        public = state.game_state.public
        if seen is None:  # no seat this hand: the public record only, seen from seat 0 with no cards
            self.dict["observation"][:] = self._observation.encode(SeatView(0, 0, public))
        else:
            self.dict["observation"][:] = self._observation.encode(seen)
            self.dict["seat"][seen.seat] = 1
            self._own_cards(state.trail[seen.seat])
        if public.turn >= 0:
            self.dict["turn"][public.turn] = 1
        history = public.history
        if len(history) > self._length:
            raise RuntimeError(f"the public record holds {len(history)} actions, more than the bound {self._length}")
        self.dict["actions"][: len(history)] = (np.asarray(history, np.float32) + 1) / self._num_actions

    def _number(self, i: int) -> float:
        return (i + 1) / (self._length + 2)

    def _own_cards(self, trail: tuple[tuple[int, int], ...]) -> None:
        own = self.dict["own_cards"]
        changes = np.zeros((NUM_CARDS, 2), np.int64)
        before = (0, 0)
        for place, now in enumerate(trail):
            for kind in (0, 1):
                changed = before[kind] ^ now[kind]
                for card in cards_of(changed):
                    k = changes[card, kind]
                    if k == OWN_CARD_CHANGES:
                        raise RuntimeError(
                            f"card {card_code(card)} changed more than {OWN_CARD_CHANGES} times in a seat's trail: "
                            "the information state tensor has no room for it"
                        )
                    own[card, kind, k] = self._number(place)
                    changes[card, kind] = k + 1
            before = now

    def string_from(self, state: TressetteState, player: int) -> str:
        seen = self._view(state, player)
        if seen is None:
            if state._chance is not None:
                return f"player {player}: dealing ({len(state.script)} chance outcomes drawn)"
            return f"player {player}: no seat this hand\n{_public_json(state.game_state.public)}"
        if self.perfect_recall:
            record = {"player": player, "seat": seen.seat, "hand": seen.hand, "private": seen.private}
            record["trail"] = state.trail[seen.seat]
            record["public"] = encode_public(seen.public)
            return json.dumps(record, separators=(",", ":"))
        return f"player {player}\n{seen}"


def information_state_pieces(observation_size: int, players: int, length: int) -> dict[str, tuple[int, ...]]:
    """The information state tensor's pieces and their shapes (``TressetteObserver``'s table), in order.

    >>> information_state_pieces(1460, 4, 233)
    {'observation': (1460,), 'player': (4,), 'seat': (8,), 'turn': (8,), 'dealing': (1,), 'actions': (233,), 'own_cards': (40, 2, 6)}
    """
    return {
        "observation": (observation_size,),
        "player": (players,),
        "seat": (MAX_SEATS,),
        "turn": (MAX_SEATS,),
        "dealing": (1,),
        "actions": (length,),
        "own_cards": (NUM_CARDS, 2, OWN_CARD_CHANGES),
    }


def _public_json(public: Any) -> str:
    return json.dumps(encode_public(public), separators=(",", ":"))


def register_all() -> list[str]:
    """Register every catalog game not registered yet with ``pyspiel``; the OpenSpiel names registered now."""
    done = set(pyspiel.registered_names())
    out = []
    for entry in catalog.entries():
        name = game_name(entry.name)
        if name in done or name in _GAMES:
            continue
        class_name = f"{entry.name.title().replace('_', '')}OpenSpielGame"
        cls = type(class_name, (TressetteGame,), {"entry": entry, "__module__": __name__})
        globals()[class_name] = cls  # (found by name: pickle's clones and serialization)
        pyspiel.register_game(_game_type(entry, entry.make_rules()), cls)
        _GAMES[name] = cls
        out.append(name)
    return out


register_all()
