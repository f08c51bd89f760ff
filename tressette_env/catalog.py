"""The games of the package, one entry each: the one place that names them.

Every part of the package that needs "the games" reads this catalog: the environments'
``GameSpec`` (``envs.spec``), the observations (``encoders.family``), the heuristic player,
the Gymnasium and PettingZoo registries (filled when ``tressette_env`` is imported), the
command line's ``--game``, the records, the training config, the shapes of learned policies
(``learned.mlp.family_shapes``) and the generated docs tables (``scripts/sync_tables.py``).
What a player must know of a game's rules (who may hold which card, the sides, what search
may solve) it asks the game's ``engine.variant.Game`` hooks, never the game's name.

| field | what it is | Tressette in due's |
| --- | --- | --- |
| ``name`` | the game's name, as ``--game`` and the records take it | ``"tressette_in_due"`` |
| ``title``, ``summary`` | the game's name in prose, and who plays | ``"Tressette in due"``, ``"two players"`` |
| ``rules`` | ``"module:Class"`` of its rule-switch record (``engine.switches.RuleSwitches``), whose ``game`` is its ``Game`` | ``"tressette_env.games.in_due:InDueRules"`` |
| ``encoders`` | the module with ``observation(rules)`` and ``state_encoder(rules)`` | ``"tressette_env.encoders.in_due"`` |
| ``heuristic`` | ``"module:Class"`` of its heuristic player, or None (the generic one plays) | ``"tressette_env.agents.in_due_heuristic:InDueHeuristic"`` |
| ``env_module`` | the module with ``env``, ``parallel_env``, ``raw_env``, or None (made from the entry: ``envs.generic``) | ``"tressette_env.tressette_in_due_v0"`` |
| ``gym_id``, ``pettingzoo_id`` | the registered ids | ``"tressette_env/TressetteInDue-v0"``, ``"tressette_env/tressette_in_due-v0"`` |
| ``docs`` | its page in the docs site, or None | ``"docs/games/in_due.md"`` |
| ``batch`` | ``"module:Class"`` of its batched engine (``vector``), or None: ``FamilyVectorEnv`` and ``gym.make_vec`` play it | None (col morto's: ``"tressette_env.vector.col_morto:ColMortoBatch"``) |
| ``gym_vector_entry_point`` | its ``gym.make_vec(..., vectorization_mode="vector_entry_point")``, or None | None (col morto's: ``"tressette_env.vector.family_env:make_vector_env"``) |
| ``model`` | the file in ``tressette_env/models`` that the player ``ppo`` plays in this game, or None | None (the four-seat game's: ``"ppo_v0.npz"``) |
| ``mirror`` | ``"module:function"`` of the game's own mirror of a card-play phase of its own (``envs.mirror.MirroredGame``), or None | ``"tressette_env.envs.in_due_mirror:phase_mirror"`` (its stock's tricks and draws, its packets) |
| ``forms`` | named rule sets whose observation sizes differ: the docs tables, the learned-policy shapes | ``(("stock", {}), ("packets", {"deal": "packets"}))`` |

A new game is its own files (a ``Game`` with its rules record, an observation, optionally a
heuristic and a docs page) and one ``register(Entry(...))``: the six games of the package
register below, a game of your own before its first use (``tests/games/toy.py`` is one, two
seats and five tricks, registered from the test tree).

Tressette mini (``tressette_env.games.mini``: the card play on a shrunken deck, for exact
solving with OpenSpiel, ``docs/exploitability.md``) is a research game of the package that
registers the same way, when its module is imported; the command line does not list it.

A game in a package of its own reaches every process, the ``tressette`` command and
``tressette bot`` included, through an entry point in the group ``tressette_env.games``
naming the module that registers it (``load_plugins``, run the first time the games are
listed or an unknown name is looked up):

    [project.entry-points."tressette_env.games"]
    my_game = "my_package.my_game"

Example:
    >>> from tressette_env import catalog
    >>> catalog.names()[:6]  # the package's six (PACKAGE_GAMES), then any game registered later
    ('tressette', 'tressette_in_due', 'tressette_col_morto', 'tressette_a_perdere', 'calabresella', 'tressette_a_chiamare')
    >>> entry = catalog.entry("calabresella")
    >>> entry.gym_id, entry.make_rules(players=4).players
    ('tressette_env/Calabresella-v0', 4)
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from .messages import cut, shown

__all__ = ["PACKAGE_GAMES", "Entry", "entries", "entry", "entry_of", "names", "register"]


def _imported(path: str) -> Any:
    """The object a ``"module:attribute"`` path names (the module when there is no attribute)."""
    module, _, attribute = path.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


@dataclass(frozen=True)
class Entry:
    """One game of the catalog (see the module docstring for each field)."""

    name: str
    title: str
    summary: str
    rules: str
    encoders: str
    gym_id: str
    pettingzoo_id: str
    heuristic: str | None = None
    env_module: str | None = None
    docs: str | None = None
    forms: tuple[tuple[str, dict], ...] = (("", {}),)
    gym_entry_point: str = "tressette_env.wrappers.single_agent:SingleAgentEnv"
    """The single-learner Gymnasium environment (called with ``game=name`` unless it is the four-seat one's own)."""
    gym_vector_entry_point: str | None = None
    """A batched ``gymnasium.make_vec`` entry point, where the game has one."""
    model: str | None = None
    """The file, in ``tressette_env/models``, of the model the player ``ppo`` plays in this game, or None."""
    batch: str | None = None
    """``"module:Class"`` of the game's batched engine (``vector``), where it has one; ``FamilyVectorEnv`` plays it."""
    mirror: str | None = None
    """``"module:function"`` of the game's own mirror of a phase of its card play (``envs.mirror.MirroredGame``), or None."""
    _cache: dict = field(default_factory=dict, repr=False, compare=False, hash=False)

    @property
    def env_name(self) -> str:
        """The PettingZoo environment's name (``"tressette_in_due_v0"``)."""
        return f"{self.name}_v0"

    def rules_type(self) -> type:
        """The game's rule-switch record."""
        if "rules" not in self._cache:
            self._cache["rules"] = _imported(self.rules)
        return self._cache["rules"]

    def make_rules(self, **switches: Any) -> Any:
        """The game's rules with these switches (``RuleSwitches.make``: every bad switch refused)."""
        return self.rules_type().make(**switches)

    def game(self) -> Any:
        """The game's ``engine.variant.Game``."""
        return self.rules_type().game

    def observation(self, rules: Any) -> Any:
        """The observation of a seat under ``rules`` (``encoders.observation.Observation``)."""
        return _imported(self.encoders).observation(rules)

    def state_encoder(self, rules: Any) -> Any:
        """``env.state()``'s vector under ``rules`` (``encoders.global_state.StateEncoder``)."""
        return _imported(self.encoders).state_encoder(rules)

    def batch_type(self) -> type:
        """The game's batched engine (``batch``); ValueError where it has none."""
        if self.batch is None:
            raise ValueError(f"{self.name} has no batched engine")
        return _imported(self.batch)

    def phase_mirror(self) -> Any:
        """The game's own mirror of a card-play phase of its own (``mirror``), or None where it has none.

        Called as ``mirror(game, watched, encoder, layout)``, it returns a mirror of ``game``'s
        hand (a ``envs.mirror.CardPlayMirror``) where one fits, else None.
        """
        return None if self.mirror is None else _imported(self.mirror)

    def heuristic_player(self) -> Any:
        """The game's heuristic player, made once; the generic one (``agents.generic``) where it has none."""
        if "heuristic" not in self._cache:
            if self.heuristic is None:
                from .agents.generic import GenericHeuristic

                self._cache["heuristic"] = GenericHeuristic()
            else:
                self._cache["heuristic"] = _imported(self.heuristic)()
        return self._cache["heuristic"]

    def env_functions(self) -> Any:
        """The module (or namespace) with the game's ``env``, ``parallel_env`` and ``raw_env``."""
        if "env" not in self._cache:
            if self.env_module is None:
                from .envs.generic import environments

                self._cache["env"] = environments(self)
            else:
                self._cache["env"] = _imported(self.env_module)
        return self._cache["env"]

    def form_rules(self) -> list[tuple[str, Any]]:
        """Each of ``forms`` as ``(label, rules)``."""
        return [(label, self.make_rules(**switches)) for label, switches in self.forms]


_ENTRIES: dict[str, Entry] = {}


PLUGIN_GROUP = "tressette_env.games"
"""The entry-point group of other packages' games: each entry point names a module that registers one."""

_plugins_loaded = False


def load_plugins() -> tuple[str, ...]:
    """Import the module of every installed entry point in ``PLUGIN_GROUP`` (once per process): they register.

    A module that cannot be imported, or whose game cannot register, is skipped with a warning
    naming it. Returns the names of the games it added.
    """
    global _plugins_loaded
    if _plugins_loaded:
        return ()
    _plugins_loaded = True
    import warnings
    from importlib.metadata import entry_points

    before = set(_ENTRIES)
    for point in entry_points(group=PLUGIN_GROUP):
        try:
            point.load()
        except Exception as error:  # noqa: BLE001 - another package's module: whatever it raises, the rest work on
            warnings.warn(
                f"the game plugin {shown(point.name)} ({cut(point.value)}) was not loaded: "
                f"{type(error).__name__}: {cut(str(error))}",
                stacklevel=2,
            )
    return tuple(name for name in _ENTRIES if name not in before)


def names() -> tuple[str, ...]:
    """The games' names, in the order they registered (the package's six first, then the plugins')."""
    load_plugins()
    return tuple(_ENTRIES)


def entries() -> tuple[Entry, ...]:
    """Every entry, in the order they registered."""
    load_plugins()
    return tuple(_ENTRIES.values())


def entry(name: str) -> Entry:
    """The entry of the game named ``name``.

    Raises:
        ValueError: no game has that name (the message lists the games).
    """
    found = _ENTRIES.get(name) if isinstance(name, str) else None
    if found is None and load_plugins():
        found = _ENTRIES.get(name)
    if found is None:
        raise ValueError(f"unknown game {shown(name)}; the games are: {', '.join(_ENTRIES)}")
    return found


def entry_of(rules: Any) -> Entry:
    """The entry of the game a rules record belongs to (``rules.game.name``)."""
    return entry(rules.game.name)


def register(new: Entry) -> Entry:
    """Add a game to the catalog and register its Gymnasium and PettingZoo ids (where those libraries are).

    Registering the same entry again does nothing.

    Raises:
        ValueError: another game has that name or one of those ids.
    """
    if not isinstance(new, Entry):
        raise TypeError(f"register takes a catalog.Entry, not {type(new).__name__}")
    old = _ENTRIES.get(new.name)
    if old is not None:
        if old == new:
            return old
        raise ValueError(f"a game named {shown(new.name)} is in the catalog already")
    for other in _ENTRIES.values():
        clash = {other.gym_id, other.pettingzoo_id} & {new.gym_id, new.pettingzoo_id}
        if clash:
            raise ValueError(f"{shown(new.name)}: the id {shown(sorted(clash)[0])} is {other.name}'s already")
    _ENTRIES[new.name] = new
    _register_ids(new)
    return new


def _register_ids(new: Entry) -> None:
    """The game's ids in Gymnasium's registry and (pettingzoo 1.27 and later) PettingZoo's."""
    try:
        import gymnasium
    except ImportError:  # the engine works without it
        return
    if new.gym_id not in gymnasium.registry:
        kwargs = {} if new.gym_entry_point == _FOUR_SEAT_GYM else {"game": new.name}
        gymnasium.register(
            new.gym_id,
            entry_point=new.gym_entry_point,
            vector_entry_point=new.gym_vector_entry_point,
            kwargs=kwargs,
        )
    try:
        import pettingzoo
    except ImportError:
        return
    if not hasattr(pettingzoo, "register"):  # before 1.27 there is no registry: call the game's module
        return
    if new.env_module is None:
        from .envs.generic import entry_points

        aec, parallel = entry_points(new.name)
    else:
        aec, parallel = f"{new.env_module}:env", f"{new.env_module}:parallel_env"
    if new.pettingzoo_id not in getattr(pettingzoo, "aec_registry", {}):
        pettingzoo.register("aec", new.pettingzoo_id, entry_point=aec)
    if new.pettingzoo_id not in getattr(pettingzoo, "parallel_registry", {}):
        pettingzoo.register("parallel", new.pettingzoo_id, entry_point=parallel)


# ---------------------------------------------------------------------- the package's games

_FOUR_SEAT_GYM = "tressette_env.wrappers.single_seat:SingleSeatEnv"
"""The four-seat game's own single-learner environment, the one entry point not called with ``game=name``."""

_PACKAGE = (
    Entry(
        name="tressette",
        title="Tressette",
        summary="four seats in two partnerships",
        rules="tressette_env.engine.rules:Rules",
        encoders="tressette_env.encoders.tressette",
        heuristic="tressette_env.agents.heuristic:HeuristicPlayer",
        env_module="tressette_env.tressette_v0",
        gym_id="tressette_env/Tressette-v0",
        pettingzoo_id="tressette_env/tressette-v0",
        docs="docs/RULES.md",
        forms=(("", {}), ("`signals=False`", {"signals": False})),
        gym_entry_point=_FOUR_SEAT_GYM,
        model="ppo_v0.npz",
        gym_vector_entry_point="tressette_env.vector.env:make_vector_env",
    ),
    Entry(
        name="tressette_in_due",
        title="Tressette in due",
        summary="two players",
        rules="tressette_env.games.in_due:InDueRules",
        encoders="tressette_env.encoders.in_due",
        batch="tressette_env.vector.in_due:InDueBatch",
        mirror="tressette_env.envs.in_due_mirror:phase_mirror",
        model="ppo_in_due_v0.npz",
        gym_vector_entry_point="tressette_env.vector.family_env:make_vector_env",
        heuristic="tressette_env.agents.in_due_heuristic:InDueHeuristic",
        env_module="tressette_env.tressette_in_due_v0",
        gym_id="tressette_env/TressetteInDue-v0",
        pettingzoo_id="tressette_env/tressette_in_due-v0",
        docs="docs/games/in_due.md",
        forms=(("stock", {}), ("packets", {"deal": "packets"})),
    ),
    Entry(
        name="tressette_col_morto",
        title="Tressette col morto",
        summary="two or three players with dummies",
        rules="tressette_env.games.col_morto:ColMortoRules",
        encoders="tressette_env.encoders.col_morto",
        batch="tressette_env.vector.col_morto:ColMortoBatch",
        model="ppo_col_morto_v0.npz",
        gym_vector_entry_point="tressette_env.vector.family_env:make_vector_env",
        heuristic="tressette_env.agents.col_morto_heuristic:ColMortoHeuristic",
        env_module="tressette_env.tressette_col_morto_v0",
        gym_id="tressette_env/TressetteColMorto-v0",
        pettingzoo_id="tressette_env/tressette_col_morto-v0",
        docs="docs/games/col_morto.md",
        forms=(
            ("three players", {}),
            ("two players", {"players": 2}),
            ("a fixed holder's match", {"dummy_holder": "fixed", "episode": "match"}),
        ),
    ),
    Entry(
        name="tressette_a_perdere",
        title="Tressette a perdere",
        summary="3 to 8 players each for himself",
        rules="tressette_env.games.a_perdere:APerdereRules",
        encoders="tressette_env.encoders.a_perdere",
        batch="tressette_env.vector.a_perdere:APerdereBatch",
        model="ppo_a_perdere_v0.npz",
        gym_vector_entry_point="tressette_env.vector.family_env:make_vector_env",
        heuristic="tressette_env.agents.a_perdere_heuristic:APerdereHeuristic",
        env_module="tressette_env.tressette_a_perdere_v0",
        gym_id="tressette_env/TressetteAPerdere-v0",
        pettingzoo_id="tressette_env/tressette_a_perdere-v0",
        docs="docs/games/a_perdere.md",
        forms=(
            *((f"{n} players", {"players": n}) for n in range(3, 9)),
            ("teams", {"teams": True}),
            ("4 players, elimination", {"match_end": "elimination", "episode": "match"}),
            ("5 players, elimination", {"players": 5, "match_end": "elimination", "episode": "match"}),
        ),
    ),
    Entry(
        name="calabresella",
        title="Calabresella",
        summary="three players (or four): an auction, a called card, one against two",
        rules="tressette_env.games.calabresella:CalabresellaRules",
        encoders="tressette_env.encoders.calabresella",
        batch="tressette_env.vector.calabresella:CalabresellaBatch",
        model="ppo_calabresella_v0.npz",
        gym_vector_entry_point="tressette_env.vector.family_env:make_vector_env",
        heuristic="tressette_env.agents.calabresella_heuristic:CalabresellaHeuristic",
        env_module="tressette_env.calabresella_v0",
        gym_id="tressette_env/Calabresella-v0",
        pettingzoo_id="tressette_env/calabresella-v0",
        docs="docs/games/calabresella.md",
        forms=(
            ("three players", {}),
            ("four players", {"players": 4}),
            ("four players, the dealer sits out", {"players": 4, "four_player": "dealer_sits_out"}),
        ),
    ),
    Entry(
        name="tressette_a_chiamare",
        title="Tressette a chiamare",
        summary="five players: a called card's holder is a secret partner",
        rules="tressette_env.games.a_chiamare:AChiamareRules",
        encoders="tressette_env.encoders.a_chiamare",
        batch="tressette_env.vector.a_chiamare:AChiamareBatch",
        model="ppo_a_chiamare_v0.npz",
        gym_vector_entry_point="tressette_env.vector.family_env:make_vector_env",
        heuristic="tressette_env.agents.a_chiamare_heuristic:AChiamareHeuristic",
        env_module="tressette_env.tressette_a_chiamare_v0",
        gym_id="tressette_env/TressetteAChiamare-v0",
        pettingzoo_id="tressette_env/tressette_a_chiamare-v0",
        docs="docs/games/a_chiamare.md",
        forms=(("five players", {}),),
    ),
)
PACKAGE_GAMES: tuple[str, ...] = tuple(e.name for e in _PACKAGE)
"""The games of the package (what its docs tables show), without any registered later."""
for _entry in _PACKAGE:
    _ENTRIES[_entry.name] = _entry
    _register_ids(_entry)
