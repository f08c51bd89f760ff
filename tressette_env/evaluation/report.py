"""Tables and pictures of evaluation results: Markdown to print, PNG through matplotlib."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .duplicate import DuplicateResult


def results_table(results: Sequence[DuplicateResult]) -> str:
    """A Markdown table: one row per pair of players.

    Against a field of individual players (a perdere) it also gives A's and the field's mean
    charge per hand, each with its 95% CI; the difference is the field's charge minus A's.
    Where points are charges (a perdere for two teams, in due with ``objective="avoid"``) the
    difference is B's charge minus A's: positive favours A in every table.
    """
    if any(r.against == "field" for r in results):
        return _field_table(results)
    match = any(r.match_win_rate is not None for r in results)
    diff = "B - A charge per hand" if results and results[0].points_sign < 0 else "A - B points per hand"
    head = f"| player A | player B | boards | {diff} | 95% CI |"
    rule = "| --- | --- | ---: | ---: | --- |"
    if match:
        head += " A's match wins | 95% CI |"
        rule += " ---: | --- |"
    rows = [head, rule]
    for r in results:
        row = (
            f"| {r.players[0]} | {r.players[1]} | {r.boards} | {r.mean_points_diff:+.2f} | "
            f"[{r.ci95[0]:+.2f}, {r.ci95[1]:+.2f}] |"
        )
        if match and r.match_win_rate is not None:
            row += f" {r.match_win_rate:.1%} | [{r.match_win_ci95[0]:.1%}, {r.match_win_ci95[1]:.1%}] |"
        rows.append(row)
    return "\n".join(rows)


def _field_table(results: Sequence[DuplicateResult]) -> str:
    """The table of evaluations against a field of individual players."""
    charges = results[0].points_sign < 0
    word = "charge" if charges else "points"
    diff = "field - A" if charges else "A - field"
    head = f"| player A | player B | boards | A's {word} per hand | 95% CI | B's {word} per hand | 95% CI | {diff} | 95% CI |"
    rule = "| --- | --- | ---: | ---: | --- | ---: | --- | ---: | --- |"
    match = any(r.match_win_rate is not None for r in results)
    if match:
        head += " A's match wins | 95% CI |"
        rule += " ---: | --- |"
    rows = [head, rule]
    for r in results:
        (a_low, a_high), (b_low, b_high) = r.points_ci95
        row = (
            f"| {r.players[0]} | {r.players[1]} | {r.boards} | {r.points[0]:.2f} | [{a_low:.2f}, {a_high:.2f}] | "
            f"{r.points[1]:.2f} | [{b_low:.2f}, {b_high:.2f}] | {r.mean_points_diff:+.2f} | "
            f"[{r.ci95[0]:+.2f}, {r.ci95[1]:+.2f}] |"
        )
        if match and r.match_win_rate is not None:
            row += f" {r.match_win_rate:.1%} | [{r.match_win_ci95[0]:.1%}, {r.match_win_ci95[1]:.1%}] |"
        rows.append(row)
    return "\n".join(rows)


def plot_results(results: Sequence[DuplicateResult], path: str | Path, title: str = "Duplicate evaluation") -> Path:
    """Draw each pair's mean points difference with its 95% CI as a horizontal bar chart (PNG)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise ImportError(
            'drawing needs matplotlib: pip install -e ".[eval]" (from a clone) or pip install "tressette-env[eval]"'
        ) from error
    labels = [f"{r.players[0]} vs {r.players[1]}" for r in results]
    means = [r.mean_points_diff for r in results]
    errors = [[r.mean_points_diff - r.ci95[0] for r in results], [r.ci95[1] - r.mean_points_diff for r in results]]
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(results) + 1.5))
    ax.barh(labels, means, xerr=errors, color=["tab:green" if m > 0 else "tab:red" for m in means], capsize=4)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.invert_yaxis()
    ax.set_xlabel("player A minus player B, points per hand (95% CI)")
    ax.set_title(title)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
