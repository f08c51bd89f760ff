"""RLlib: every game of the family as an RLlib ``MultiAgentEnv``, with the package's players inside it.

``TressetteMultiAgentEnv(config)`` is a turn-based multi-agent environment in the form RLlib's
new API stack expects (its ``tic_tac_toe`` example's): each step returns an observation for
the agent that acts next only, and at the end every agent's last observation and reward.
The agents RLlib trains (``"learners"``) see

| key | space | what |
| --- | --- | --- |
| ``"observations"`` | ``Box(0, 1, (size,), float32)`` | the game's observation (the AEC environment's ``"observation"``, as floats) |
| ``"action_mask"`` | ``Box(0, 1, (actions,), float32)`` | 1 for each legal action: what RLlib's ``ActionMaskingTorchRLModule`` reads |

and every other agent is played inside the environment by a package player (``"heuristic"``,
``"random"``, ``"search"``, ``"ppo"``, a saved model's path, a frozen policy: any ``Player``).
So one shared policy (all learners on one module), one per team or one per seat is a choice
of ``policy_mapping_fn`` (``policy_mapping``); opponents or partners that do not learn are
the environment's ``"others"``.

``config`` (RLlib's ``env_config``) is checked whole before anything is built (``check_env_config``):
a key not in this table, a value of the wrong type (a bool is a real ``True``/``False``, not
``"yes"`` or 1) or out of range raises an error that names it and what is allowed, and changes nothing.

| key | default | allowed | meaning |
| --- | --- | --- | --- |
| ``"game"`` | ``"tressette"`` | a game's name (``catalog.names()``) | the game (``tressette``, ``tressette_in_due``, ``calabresella``...) |
| ``"rules"`` | ``{}`` | None or a dict of the game's rule switches, checked by the game's rules record | the game's rule switches (e.g. ``{"episode": "match"}``) |
| ``"learners"`` | None: every agent | None, or a non-empty list of distinct agent names of the game (``[]`` is refused: omit the key for every agent) | the agents RLlib acts for (``["player_0", "player_2"]``: one team) |
| ``"others"`` | ``"heuristic"`` | one player spec (``agents.registry``) or ``Player``, or a dict with one for each agent not among the learners; checked even when every agent learns | who plays the other agents |
| ``"dense_reward"`` | False | a bool; True needs ``episode="hand"`` | pay each learner, at each of its turns, the thirds its side took minus the other side's since its last turn, as points (``Game.lead``), the last reward settling the difference with the hand's result |
| ``"max_cycles"`` | None | None or an int >= 1 | truncate the episode after this many turns per agent (as the AEC environment) |
| ``"record"`` | None | None or a file's path in an existing folder | a file to append each episode's game record to |
| ``"history"`` | False | a bool | the history observation (``encoders.history``: the order of play too) |

``step``'s action dict holds exactly one action: the agent on turn's (``agent_on_turn``, the only
agent whose observation the last step returned without ending its episode). RLlib sends actions
only for those agents (``MultiAgentEpisode.get_agents_to_act``), so an action for any other agent
is a caller's mistake: a ValueError naming it and the agent on turn, and nothing is played.
``reset``'s seed is None or a non-negative Python or NumPy integer (``envs.playing.check_seed``).

Rewards are the AEC environment's: a hand's points (its side's minus the other's) or a
match's result, paid to each learner with its last observation. An illegal action is a
renuncio, as in every environment (RLlib's environment check sends unmasked random actions).

**The batched engine for RLlib's runners.** ``batched_env(config)`` is a game's batched engine as
the vector environment of RLlib's single-agent runners: one learning seat in each of
``num_envs_per_env_runner`` deals, the other seats played by the batched engine's players
(``"random"`` or ``"heuristic"``), with the same observation dict
(``vector.next_step.NextStepVectorEnv``: Gymnasium's next-step autoreset, which RLlib reads)::

    register_batched_env()  # RLlib's registry name for batched_env: BATCHED_ENV, "tressette_batched"
    PPOConfig()
    .environment(BATCHED_ENV, env_config={"opponents": "heuristic", "dense_reward": True})
    .env_runners(num_envs_per_env_runner=256, gym_env_vectorize_mode="vector_entry_point")
    .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule))

Its ``env_config`` keys are ``"game"`` (default ``"tressette"``) and the game's ``gym.make_vec``
keywords (the four-seat game's: ``seat``, ``partner``, ``opponents``, ``dense_reward``,
``seed``, the rule switches; ``gym.make``'s defaults: a random seat, the heuristic as partner and
opponents; another game's: ``agent``, ``others``, ``dense_reward``, ``seed``, its switches,
``gym.make``'s defaults a random learner and the heuristic for the others); a bad one raises
that environment's error. A game plugs in through its catalog entry's
``gym_vector_entry_point``: every game of the package (``FamilyVectorEnv`` for all but the
four-seat one); a game without one is refused with a message that names those that have one.

Example:
    >>> env = TressetteMultiAgentEnv({"learners": ["player_0", "player_2"], "others": "random"})
    >>> obs, infos = env.reset(seed=0)
    >>> list(obs) == [env.agent_on_turn] and sorted(obs[env.agent_on_turn]) == ["action_mask", "observations"]
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from ..agents.base import Player
from ..agents.registry import as_player
from ..catalog import entry
from ..catalog import names as game_names
from ..encoders.family import observation_of
from ..engine.game import new_game
from ..envs.playing import check_flag, check_seed
from ..envs.recording import check_record_path
from ..envs.spec import game_spec
from ..messages import listed, shown

BATCHED_ENV = "tressette_batched"
"""The name ``register_batched_env`` gives ``batched_env`` in RLlib's registry (``config.environment(BATCHED_ENV)``)."""


def batched_env(config: Mapping[str, Any] | None = None) -> Any:
    """A game's batched engine as an RLlib vector environment (the module docstring; ``vector_entry_point``)."""
    from ..vector.next_step import make

    return make(config)


def register_batched_env() -> str:
    """Register ``batched_env`` with RLlib as ``BATCHED_ENV`` (RLlib takes a creator by its registered name); return it."""
    from ray.tune.registry import register_env

    register_env(BATCHED_ENV, batched_env)
    return BATCHED_ENV


MAPPINGS = ("shared", "team", "seat")
"""``policy_mapping``'s kinds: one module for every learner, one per team, one per seat."""

CONFIG_KEYS = ("game", "rules", "learners", "others", "dense_reward", "max_cycles", "record", "history")
"""The ``env_config`` keys (the module docstring's table)."""


def _bool(config: Mapping[str, Any], key: str) -> bool:
    return check_flag(f"env_config[{key!r}]", config.get(key, False))


def _others(others: Any, agents: list[str], learners: list[str]) -> dict[str, Player]:
    """``others`` as agent -> ``Player``: every spec made (so checked), whether or not an agent uses it."""
    allowed = "one player spec (a name, e.g. 'heuristic', or a model's path) or Player"
    if isinstance(others, Player):  # one player for all
        return dict.fromkeys(agents, _unattended(others))
    if isinstance(others, str):  # one spec for all: a player each
        if not agents:  # every agent learns: made all the same, so that a bad spec is named now
            _unattended(as_player(others))
        return {agent: _unattended(as_player(others)) for agent in agents}
    if not isinstance(others, Mapping):
        raise TypeError(f"env_config['others'] is {allowed}, or a dict agent -> spec; got {shown(others)}")
    if sorted(others, key=str) != sorted(agents):
        raise ValueError(
            f"env_config['others'] as a dict has one player spec for each agent RLlib does not act for, "
            f"{agents} (the learners are {learners}); got one for each of {sorted(others, key=str)}"
        )
    for agent, spec in others.items():
        if not isinstance(spec, (str, Player)):
            raise TypeError(f"env_config['others'][{shown(agent)}] is {allowed}; got {shown(spec)}")
    return {agent: _unattended(as_player(others[agent]), f"[{agent!r}]") for agent in agents}


def _unattended(player: Player, where: str = "") -> Player:
    """``player``, unless it reads a terminal: an RLlib runner has none (``human`` waited for input that never came)."""
    from ..agents.human import HumanPlayer

    if isinstance(player, HumanPlayer):
        raise ValueError(
            f"env_config['others']{where}: 'human' plays at a terminal, which an RLlib env runner does not have"
        )
    return player


def check_env_config(config: Mapping[str, Any] | None) -> dict[str, Any]:
    """RLlib's ``env_config`` checked whole (the module docstring's table), with the defaults filled in.

    Returns a dict with every key of ``CONFIG_KEYS``: ``"rules"`` the rule switches as given (the
    game's rules record has checked them), ``"learners"`` a list of agents, ``"others"`` agent ->
    ``Player`` for every agent that is not a learner, ``"record"`` a ``Path`` or None.

    Raises:
        TypeError: a value of the wrong type (``"yes"`` for a bool, a string for the list of
            learners, a number for a player spec...).
        ValueError: an unknown key, an unknown game, rule switch value or player, a learner that is
            not an agent of the game (or ``learners=[]``), ``others`` that do not match the agents
            RLlib does not act for, ``max_cycles`` that is not an int >= 1, ``dense_reward`` in a
            match, a record's folder that does not exist.
    """
    if config is None:
        config = {}
    if not isinstance(config, Mapping):
        raise TypeError(f"env_config is None or a dict with keys among {list(CONFIG_KEYS)}; got {shown(config)}")
    unknown = [key for key in config if key not in CONFIG_KEYS]
    if unknown:
        raise ValueError(f"unknown env_config key(s) {unknown}; the keys are {list(CONFIG_KEYS)}")
    name = config.get("game", "tressette")
    if not isinstance(name, str):
        raise TypeError(f"env_config['game'] is a game's name, one of {list(game_names())}; got {shown(name)}")
    spec = game_spec(name)
    rules = config.get("rules")
    if rules is None:
        rules = {}
    if not isinstance(rules, Mapping) or not all(isinstance(key, str) for key in rules):
        raise TypeError(
            f"env_config['rules'] is None or a dict of the game's rule switches (name -> value); got {shown(rules)}"
        )
    rules = dict(rules)
    made = spec.make_rules(**rules)  # the rules record checks every switch and its value
    every = list(spec.agent_names(made))
    learners = config.get("learners")
    if learners is None:
        learners = every
    elif not isinstance(learners, (list, tuple)):
        raise TypeError(
            f"env_config['learners'] is None (every agent) or a list of agents among {every}; got {shown(learners)}"
        )
    elif not learners:
        raise ValueError(
            f"env_config['learners'] is empty: list at least one agent among {every}, "
            "or omit the key (or give None) for every agent"
        )
    learners = list(learners)
    strangers = [a for a in learners if not isinstance(a, str) or a not in every]
    if strangers or len(set(learners)) != len(learners):
        raise ValueError(
            f"env_config['learners']: learners must be distinct agents among {every}; got {shown(learners)}"
        )
    dense_reward = _bool(config, "dense_reward")
    if dense_reward and made.episode != "hand":
        raise ValueError('dense_reward needs episode="hand": a match pays only its result')
    max_cycles = config.get("max_cycles")
    if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
        error = TypeError if type(max_cycles) is not int else ValueError
        raise error(f"env_config['max_cycles'] is None (no limit) or an int >= 1; got {shown(max_cycles)}")
    checked = {
        "game": name,
        "rules": rules,
        "learners": learners,
        "dense_reward": dense_reward,
        "max_cycles": max_cycles,
        "record": check_record_path(config.get("record")),
        "history": _bool(config, "history"),
    }
    # Last, since making a player may load a model: checked whether or not an agent needs it.
    checked["others"] = _others(config.get("others", "heuristic"), [a for a in every if a not in learners], learners)
    return checked


class TressetteMultiAgentEnv(MultiAgentEnv):
    """One game of the family for RLlib (see the module docstring for ``config``)."""

    def __init__(self, config: Mapping[str, Any] | None = None):
        config = check_env_config(config)  # a bad env_config changes nothing
        super().__init__()
        self.game_name = config["game"]
        module = entry(self.game_name).env_functions()
        self.aec = module.raw_env(
            max_cycles=config["max_cycles"], record=config["record"], history=config["history"], **config["rules"]
        )
        """The AEC environment underneath (its ``game`` is the engine state)."""
        self.rules = self.aec.rules
        self.dense_reward = config["dense_reward"]
        learners = self.learners = config["learners"]
        self.others = config["others"]
        """Agent -> the ``Player`` that plays it inside the environment."""
        self.possible_agents = list(learners)
        self.agents = list(learners)
        size, actions = self.aec._encoder.size, self.aec._num_actions
        space = spaces.Dict(
            {
                "observations": spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0.0, 1.0, shape=(actions,), dtype=np.float32),
            }
        )
        self.observation_spaces = dict.fromkeys(learners, space)
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in learners}
        self._rng: random.Random | None = None
        self._seen: set[str] = set()
        self._paid: dict[str, float] = {}
        self._reported: set[str] = set()
        self.agent_on_turn: str | None = None
        """The learner whose action the next ``step`` plays (None once the episode is over)."""

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        seed = check_seed(seed)  # a bad seed changes nothing
        aec = self.aec
        aec.reset(seed=seed, options=options)
        if seed is not None or self._rng is None:
            self._rng = random.Random(int(aec.np_random.integers(2**63)))
        self.agents = list(self.learners)
        self._seen, self._reported = set(), set()
        self._paid = dict.fromkeys(self.learners, 0.0)  # dense rewards paid so far this episode
        obs, _, _, _, infos = self._advance()
        return obs, infos

    def step(self, action_dict: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        turn = self.agent_on_turn
        if turn is None:
            raise RuntimeError("step() after the episode ended: call reset()")
        if not isinstance(action_dict, Mapping):
            raise TypeError(
                f"action_dict is a dict {{agent: action}} with {turn}'s action only; got {shown(action_dict)}"
            )
        strangers = sorted(shown(agent, 30) for agent in action_dict if agent != turn)
        if strangers:  # RLlib sends actions only for the agents it observed to act (get_agents_to_act)
            raise ValueError(
                f"action_dict holds actions for {listed(strangers)}, not on turn: only {turn} is on turn "
                f"(the agent whose observation the last step returned), so action_dict is {{{turn!r}: action}}"
            )
        if turn not in action_dict:
            raise ValueError(f"{turn} is on turn: action_dict must hold its action; got {shown(action_dict)}")
        self.aec.step(action_dict[turn])
        return self._advance()

    def _observation(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.aec.observe(agent)
        return {
            "observations": obs["observation"].astype(np.float32),
            "action_mask": obs["action_mask"].astype(np.float32),
        }

    def _advance(self) -> tuple[dict, dict, dict, dict, dict]:
        """Play the other agents until a learner is to act or the episode ends; what RLlib is told."""
        aec, rng = self.aec, self._rng
        obs: dict[str, Any] = {}
        rewards: dict[str, float] = {}
        terminateds: dict[str, bool] = {}
        truncateds: dict[str, bool] = {}
        infos: dict[str, Any] = {}
        self.agent_on_turn = None
        # An agent stays in ``agents`` through the step that reports its end (RLlib checks the
        # returned observations against ``agents``) and leaves at the next one.
        self.agents = [a for a in self.agents if a not in self._reported]
        while aec.agents:
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                if agent in self.learners and agent in self._seen:  # its last observation and its reward
                    obs[agent] = self._observation(agent)
                    rewards[agent] = float(aec._cumulative_rewards[agent]) - self._paid[agent]  # what last() pays it
                    terminateds[agent] = bool(aec.terminations[agent])
                    truncateds[agent] = bool(aec.truncations[agent])
                    infos[agent] = dict(aec.infos[agent])
                    self._reported.add(agent)
                aec.step(None)
                continue
            if agent in self.learners:
                self.agent_on_turn = agent
                self._seen.add(agent)
                obs[agent] = self._observation(agent)
                rewards[agent] = 0.0
                if self.dense_reward:
                    p = aec.game.public
                    lead = p.rules.game.lead(p, p.turn)
                    rewards[agent], self._paid[agent] = lead - self._paid[agent], lead
                break
            legal = aec.observe(agent)["action_mask"].nonzero()[0].tolist()
            aec.step(self.others[agent].act(aec.view(agent), legal, rng))
        over = not aec.agents
        truncated = over and any(truncateds.values())
        terminateds["__all__"] = over and not truncated
        truncateds["__all__"] = truncated
        return obs, rewards, terminateds, truncateds, infos


def teams_of(game: str = "tressette", rules: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Agent -> ``team_<side>``, in a game whose sides stay the same from hand to hand.

    Raises:
        ValueError: the sides change with the deal (col morto for three, Calabresella, a
            chiamare: the dealer's or the soloist's side) or every player is alone (a perdere).
    """
    spec = game_spec(game)
    made = spec.make_rules(**dict(rules or {}))
    agents = spec.agent_names(made)
    found = set()
    for dealer in range(len(agents)):
        table = new_game(made, 0, dealer=dealer).public.table
        found.add(tuple(table.sides[table.seat_of[a]] if table.seat_of[a] >= 0 else -1 for a in range(len(agents))))
    sides = found.pop()
    if found or -1 in sides or len(set(sides)) == len(agents) > 2:
        raise ValueError(f"{game} has no fixed teams under these rules: map to one 'shared' module or one per 'seat'")
    return {agent: f"team_{side}" for agent, side in zip(agents, sides, strict=True)}


def policy_mapping(kind: str = "shared", game: str = "tressette", rules: Mapping[str, Any] | None = None) -> Callable:
    """A ``policy_mapping_fn`` for RLlib's ``multi_agent``: ``"shared"``, ``"team"`` or ``"seat"`` (``MAPPINGS``).

    ``"shared"`` maps every agent to the module ``"shared"``; ``"team"`` to ``team_0`` /
    ``team_1`` (``teams_of``); ``"seat"`` to the agent's own name.
    """
    if kind == "shared":
        return lambda agent_id, episode=None, **kwargs: "shared"
    if kind == "team":
        teams = teams_of(game, rules)

        def team_of(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
            try:
                return teams[agent_id]
            except (KeyError, TypeError):  # (TypeError: an unhashable id)
                raise ValueError(f"{game}'s agents are {list(teams)}; got {shown(agent_id)}") from None

        return team_of
    if kind == "seat":
        return lambda agent_id, episode=None, **kwargs: agent_id
    raise ValueError(f"policy mapping {kind!r}: one of {', '.join(MAPPINGS)}")


class RLModulePlayer:
    """A ``Player`` that plays an RLlib module trained on these environments: its most likely legal action.

    ``module`` is an RLlib ``RLModule`` whose input is ``TressetteMultiAgentEnv``'s observation
    dict (``ActionMaskingTorchRLModule``): ``algo.get_module("shared")``. It plays in the
    package's duplicate evaluation (``evaluation.duplicate``; one worker process) and in the
    environments as any player does. ``history=True`` for a module trained with the
    ``"history"`` env_config key.
    """

    def __init__(self, module: Any, name: str = "rllib", history: bool = False):
        import torch

        self.module, self.name, self._torch = module, name, torch
        self.history = history

    def act(self, view: Any, legal: list[int], rng: random.Random) -> int:
        if len(legal) == 1:
            return legal[0]
        torch = self._torch
        rules = view.public.rules
        obs = observation_of(rules, self.history).encode(view)
        self._check_fits(rules, obs.size, max(legal))
        mask = np.zeros(self.module.action_space.n, dtype=np.float32)
        mask[legal] = 1.0
        batch = {"obs": {"observations": torch.from_numpy(obs[None].astype(np.float32)),
                         "action_mask": torch.from_numpy(mask[None])}}  # fmt: skip
        with torch.no_grad():
            logits = self.module.forward_inference(batch)["action_dist_inputs"][0].numpy()
        return legal[int(np.argmax(logits[legal]))]

    def _check_fits(self, rules: Any, size: int, top_action: int) -> None:
        """A ValueError naming what differs when the module was trained on another game or observation."""
        space = getattr(self.module, "observation_space", None)
        shape = space.spaces.get("observations") if isinstance(space, spaces.Dict) else None
        expected = int(np.prod(shape.shape)) if shape is not None else size
        game = rules.game.name
        if expected != size:
            other = observation_of(rules, not self.history).size
            hint = f" (history={not self.history} reads {other}: the module's)" if other == expected else ""
            raise ValueError(
                f"{self.name}: the module reads {expected} observation entries; {game}'s "
                f"{'history ' if self.history else ''}observation here has {size}{hint}: "
                "a module plays the game and observation it was trained on"
            )
        actions = self.module.action_space.n
        if top_action >= actions:
            raise ValueError(
                f"{self.name}: the module has {actions} actions; {game} plays action {top_action}: "
                "a module plays the game it was trained on"
            )
