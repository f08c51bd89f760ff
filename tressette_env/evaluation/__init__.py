"""Who is stronger: duplicate-deal evaluation with confidence intervals, tables and pictures."""

from .baselines import against_baselines
from .duplicate import BoardRecord, DuplicateResult, duplicate, play_board, play_episode, play_hand
from .report import plot_results, results_table
from .stats import mean_ci95

__all__ = [
    "against_baselines",
    "BoardRecord",
    "DuplicateResult",
    "duplicate",
    "mean_ci95",
    "play_board",
    "play_episode",
    "play_hand",
    "plot_results",
    "results_table",
]
