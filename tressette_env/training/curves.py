"""The learning curve: the learner's duplicate result against each baseline over training (PNG)."""

from __future__ import annotations

from pathlib import Path


def plot_curve(history: list[dict], path: str | Path, baselines: list[str]) -> Path | None:
    """Draw mean points per hand (95% CI band) against timesteps, one line per baseline.

    Returns None (and draws nothing) when matplotlib is not installed.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, ax = plt.subplots(figsize=(7, 4))
    for name in baselines:
        points = [(p["timesteps"], p["results"][name]) for p in history if name in p["results"]]
        if not points:
            continue
        steps = [s for s, _ in points]
        ax.plot(steps, [r["mean_points_diff"] for _, r in points], marker="o", label=f"vs {name}")
        ax.fill_between(steps, [r["ci95"][0] for _, r in points], [r["ci95"][1] for _, r in points], alpha=0.2)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("learner minus baseline, points per hand")
    ax.set_title("Duplicate evaluation during training (95% CI)")
    ax.legend()
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
