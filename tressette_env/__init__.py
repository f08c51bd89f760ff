"""tressette-env: Tressette, the Italian partnership trick-taking game, as a reinforcement-learning environment.

Importing the package registers its environments: ``gymnasium.make("tressette_env/Tressette-v0")``
(one learning seat, see ``tressette_env.wrappers.SingleSeatEnv``) and, with PettingZoo's registry,
``pettingzoo.make("aec", "tressette_env/tressette-v0")``. The rules engine (``tressette_env.engine``)
needs neither library.

Example:
    >>> from tressette_env import tressette_v0
    >>> env = tressette_v0.env()
"""

__version__ = "0.1.0"

GYMNASIUM_ID = "tressette_env/Tressette-v0"
PETTINGZOO_ID = "tressette_env/tressette-v0"


def _register() -> None:
    try:
        import gymnasium
    except ImportError:  # the engine works without it
        return
    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(GYMNASIUM_ID, entry_point="tressette_env.wrappers.single_seat:SingleSeatEnv")
    try:
        import pettingzoo
    except ImportError:
        return
    if hasattr(pettingzoo, "register") and PETTINGZOO_ID not in getattr(pettingzoo, "aec_registry", {}):
        pettingzoo.register("aec", PETTINGZOO_ID, entry_point="tressette_env.tressette_v0:env")


_register()
