"""The family's games beyond the four-seat one (``tressette_env.engine``), each a ``Game`` on the engine's core.

Standard library only, as the engine. Import a game's rules record and play it with the
engine's functions::

    from tressette_env.engine import new_game, apply, legal_actions
    from tressette_env.games.in_due import InDueRules

| module | game | rules record |
| --- | --- | --- |
| ``in_due`` | Tressette in due (two players, a stock or packets) | ``InDueRules`` |
| ``col_morto`` | Tressette col morto (two or three players, dummies face up) | ``ColMortoRules`` |
"""
