"""tressette-env: Tressette, the Italian partnership trick-taking game, as a reinforcement-learning environment.

Example:
    >>> from tressette_env import tressette_v0
    >>> env = tressette_v0.env()
"""

__version__ = "0.1.0"
