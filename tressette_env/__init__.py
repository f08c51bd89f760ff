"""tressette-env: Tressette and its family of Italian trick-taking games as reinforcement-learning environments.

| game | PettingZoo module | Gymnasium id (one learner) |
| --- | --- | --- |
| Tressette, four seats in two partnerships | ``tressette_v0`` | ``tressette_env/Tressette-v0`` |
| Tressette in due, two players | ``tressette_in_due_v0`` | ``tressette_env/TressetteInDue-v0`` |
| Tressette col morto, two or three players with dummies | ``tressette_col_morto_v0`` | ``tressette_env/TressetteColMorto-v0`` |
| Tressette a perdere (Traversone), 3 to 8 players each for himself | ``tressette_a_perdere_v0`` | ``tressette_env/TressetteAPerdere-v0`` |
| Calabresella, three players (or four): an auction, a called card, one against two | ``calabresella_v0`` | ``tressette_env/Calabresella-v0`` |
| Tressette a chiamare, five players: a called card's holder is a secret partner | ``tressette_a_chiamare_v0`` | ``tressette_env/TressetteAChiamare-v0`` |

Importing the package registers the Gymnasium ids (see ``tressette_env.wrappers``) and,
with PettingZoo's registry (pettingzoo 1.27 and later), ``pettingzoo.make("aec",
"tressette_env/tressette-v0")``, ``pettingzoo.make("parallel", "tressette_env/tressette-v0")``
and the other games' ids; with an older pettingzoo, which has no registry, call the game's
module (``tressette_v0.env()``, ``tressette_v0.parallel_env()``). The rules (``tressette_env.engine``, ``tressette_env.games``) need
neither library.

Example:
    >>> from tressette_env import tressette_v0
    >>> env = tressette_v0.env()
"""

__version__ = "0.1.0"

GYMNASIUM_ID = "tressette_env/Tressette-v0"
PETTINGZOO_ID = "tressette_env/tressette-v0"

# game name -> (Gymnasium id, PettingZoo id, PettingZoo entry point)
GAMES = {
    "tressette": (GYMNASIUM_ID, PETTINGZOO_ID, "tressette_env.tressette_v0:env"),
    "tressette_in_due": (
        "tressette_env/TressetteInDue-v0",
        "tressette_env/tressette_in_due-v0",
        "tressette_env.tressette_in_due_v0:env",
    ),
    "tressette_col_morto": (
        "tressette_env/TressetteColMorto-v0",
        "tressette_env/tressette_col_morto-v0",
        "tressette_env.tressette_col_morto_v0:env",
    ),
    "tressette_a_perdere": (
        "tressette_env/TressetteAPerdere-v0",
        "tressette_env/tressette_a_perdere-v0",
        "tressette_env.tressette_a_perdere_v0:env",
    ),
    "calabresella": (
        "tressette_env/Calabresella-v0",
        "tressette_env/calabresella-v0",
        "tressette_env.calabresella_v0:env",
    ),
    "tressette_a_chiamare": (
        "tressette_env/TressetteAChiamare-v0",
        "tressette_env/tressette_a_chiamare-v0",
        "tressette_env.tressette_a_chiamare_v0:env",
    ),
}


def _register() -> None:
    try:
        import gymnasium
    except ImportError:  # the engine works without it
        return
    for game, (gym_id, _, _) in GAMES.items():
        if gym_id in gymnasium.registry:
            continue
        if game == "tressette":  # the batched engine is the fast path of gym.make_vec
            gymnasium.register(
                gym_id,
                entry_point="tressette_env.wrappers.single_seat:SingleSeatEnv",
                vector_entry_point="tressette_env.vector.env:make_vector_env",
            )
        else:
            gymnasium.register(
                gym_id, entry_point="tressette_env.wrappers.single_agent:SingleAgentEnv", kwargs={"game": game}
            )
    try:
        import pettingzoo
    except ImportError:
        return
    if hasattr(pettingzoo, "register"):  # pettingzoo 1.27 and later; before, import the game's module
        for _, pz_id, entry in GAMES.values():
            if pz_id not in getattr(pettingzoo, "aec_registry", {}):
                pettingzoo.register("aec", pz_id, entry_point=entry)
            if pz_id not in getattr(pettingzoo, "parallel_registry", {}):
                pettingzoo.register("parallel", pz_id, entry_point=entry.replace(":env", ":parallel_env"))


_register()
