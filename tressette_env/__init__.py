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

from . import catalog  # noqa: E402  (registers every game's Gymnasium and PettingZoo ids)


def __getattr__(name: str):
    """``GAMES``: game name -> (Gymnasium id, PettingZoo id, PettingZoo entry point), read from the catalog."""
    if name == "GAMES":
        return {
            e.name: (e.gym_id, e.pettingzoo_id, f"{e.env_module}:env" if e.env_module else None)
            for e in catalog.entries()
        }
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
