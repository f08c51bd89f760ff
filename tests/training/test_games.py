"""``tressette train --game``: the other games train end to end; every rule set of the four-seat game trains."""

import json

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("torch")

from tressette_env.agents.registry import make_player  # noqa: E402
from tressette_env.cli import main  # noqa: E402
from tressette_env.encoders.family import observation_of  # noqa: E402
from tressette_env.envs.spec import game_spec  # noqa: E402
from tressette_env.evaluation import duplicate  # noqa: E402
from tressette_env.learned import MLPPlayer  # noqa: E402
from tressette_env.training import TrainConfig, train  # noqa: E402
from tressette_env.training import checkpoint as checkpoints  # noqa: E402

TINY_FLAGS = [
    "--total-timesteps", "128", "--n-envs", "2", "--n-steps", "32", "--batch-size", "64", "--net-arch", "16",
    "--imitation-decisions", "100", "--imitation-epochs", "1", "--eval-every", "64", "--eval-boards", "2",
    "--final-boards", "2", "--eval-against", "random", "--opponents", "self", "random", "--snapshot-every", "64",
    "--no-progress-bar",
]  # fmt: skip


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("tressette_in_due", []),
        ("tressette_col_morto", []),
        ("tressette_col_morto", ["--rule", "players=2"]),
        ("tressette_a_perdere", []),
        ("tressette_a_perdere", ["--rule", "players=5"]),
        ("calabresella", []),
        ("calabresella", ["--rule", "players=4"]),
        ("tressette_a_chiamare", []),
    ],
    ids=[
        "in_due",
        "col_morto_3",
        "col_morto_2",
        "a_perdere_4",
        "a_perdere_5",
        "calabresella_3",
        "calabresella_4",
        "a_chiamare",
    ],
)
def test_cli_trains_another_game_end_to_end(game, rules, tmp_path, capsys):
    argv = ["train", "--game", game, *rules, *TINY_FLAGS, "--run-dir", str(tmp_path), "--run-name", "run"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "| learner | random | 2 |" in out and "imitation of heuristic" in out
    run = tmp_path / "run"
    config = json.loads((run / "config.json").read_text())
    assert config["game"] == game and config["rules"] == ({"players": int(rules[1][-1])} if rules else {})
    game_rules = game_spec(game).make_rules(**config["rules"])
    agents = game_rules.game.agents(game_rules)
    # The other agents: snapshots of the learner (opponents self) in environment 0, random players in environment 1.
    state = checkpoints.read_state(run / "model.zip")
    pool = {p.pool_key: p for p in state["pool"]}
    envs = [checkpoints._PoolPickler.loads(blob, pool).unwrapped for blob in state["envs"]]
    assert [type(env).__name__ for env in envs] == ["SingleAgentEnv"] * 2
    assert len(envs[0].others) == agents - 1 and all(p.pool_key in pool for p in envs[0].others)
    assert [p.name for p in envs[1].others] == ["random"] * (agents - 1)
    # The saved model and its NumPy policy play that game.
    size = observation_of(game_rules).size
    for name in ("model.zip", "policy.npz"):
        player = make_player(str(run / name))
        assert isinstance(player, MLPPlayer) and player.policy.layers[0][0].shape[1] == size
        result = duplicate(player, make_player("random"), boards=2, seed=0, rules=game_rules, workers=1, progress=False)
        assert result.boards == 2


def test_col_morto_matches_are_evaluated_on_single_hands(tmp_path, capsys):
    config = TrainConfig(
        game="tressette_col_morto", rules={"episode": "match", "target_score": 5}, total_timesteps=64, n_envs=2,
        n_steps=32, batch_size=64, net_arch=(8,), imitate="none", eval_every=0, eval_boards=2, final_boards=2,
        eval_against=("random",),
        progress_bar=False, run_dir=str(tmp_path), run_name="match",
    )  # fmt: skip
    result = train(config)
    out = capsys.readouterr().out
    assert "the duplicate evaluations play single hands" in out
    assert "dense_reward: a match pays each agent at its end only" in out  # (dense_reward=True is the default)
    # a single hand has no target: the switch goes back to its default (a hand refuses target_score=5)
    assert (
        result.final["random"]["rules"]["episode"] == "hand" and result.final["random"]["rules"]["target_score"] == 21
    )


# One tiny run per rule switch of the four-seat game (issue 11): every switch trains, the match ones included.
SWITCH_SETS = {
    "match_calling_out": {"episode": "match", "calling_out": True, "target_score": 11},
    "no_signals": {"signals": False},
    "no_accusi": {"accusi": False},
    "four_of_denari": {"first_lead": "four_of_denari"},
    "striscio_no_honours": {"striscio": "no_honours"},
    "cappotto_bonus": {"cappotto_bonus": 3},
    "illegal_action_raise": {"illegal_action": "raise"},
}


@pytest.mark.parametrize("switches", list(SWITCH_SETS.values()), ids=list(SWITCH_SETS))
def test_a_short_run_trains_under_each_rule_switch(switches, tmp_path):
    config = TrainConfig(
        rules=switches, total_timesteps=128, n_envs=2, n_steps=32, batch_size=64, net_arch=(8,),
        imitation_decisions=100, imitation_epochs=1, eval_every=64, eval_boards=2, final_boards=2,
        eval_against=("random",), opponents=("self", "heuristic"), snapshot_every=64, progress_bar=False,
        run_dir=str(tmp_path), run_name="r",
    )  # fmt: skip
    result = train(config)
    assert result.history[-1]["timesteps"] == 128 and switches.items() <= result.final["random"]["rules"].items()
    assert json.loads((tmp_path / "r" / "config.json").read_text())["rules"] == switches


def test_a_player_that_cannot_play_the_game_is_refused_before_any_work(tmp_path):
    config = TrainConfig(game="tressette_a_perdere", eval_against=("search",), run_dir=str(tmp_path))
    with pytest.raises(
        ValueError, match="eval_against: the search player values the cards of a deal.s play for one side"
    ):
        config.check()
