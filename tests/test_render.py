"""``render_mode="rgb_array"``: a picture of the table for every game, that changes as cards are played; the GIF example."""

import re
import runpy
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

from tests.games.family import MODULES
from tressette_env.envs.picture import HEIGHT, WIDTH, table_picture
from tressette_env.envs.spec import game_spec

pytest.importorskip("PIL")


@pytest.mark.parametrize("game", list(MODULES))
def test_every_game_draws_its_table_and_the_picture_follows_the_play(game):
    env = MODULES[game].env(render_mode="rgb_array")
    env.reset(seed=3)
    pictures = [env.render()]
    for _agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))  # the highest bid, so that the hand is played
        pictures.append(env.render())
        if len(pictures) == 12:
            break
    for picture in pictures:
        assert picture.shape == (HEIGHT, WIDTH, 3) and picture.dtype == np.uint8
    # Every action changes the picture (a card leaves a hand for the table, a bid shows in the text lines).
    assert all(not np.array_equal(a, b) for a, b in zip(pictures, pictures[1:], strict=False))
    # The cloth is green and the cards are drawn on it: light pixels cover part of the picture.
    light = (pictures[0].min(axis=2) > 200).mean()
    assert 0.02 < light < 0.5


def test_a_played_card_appears_in_the_middle():
    from tressette_env.engine import apply, legal_actions, new_game

    state = new_game(seed=0)
    before = table_picture(state)
    after = table_picture(apply(state, legal_actions(state)[0]))
    middle = (slice(HEIGHT // 4, 3 * HEIGHT // 4), slice(WIDTH // 4, 3 * WIDTH // 4))
    assert not np.array_equal(before[middle], after[middle])


def test_the_single_learner_envs_render_pictures_too():
    env = gym.make(game_spec("calabresella").gym_id, render_mode="rgb_array", others="random")
    env.reset(seed=0)
    assert env.render().shape == (HEIGHT, WIDTH, 3)


def test_the_gif_example_writes_an_animation(tmp_path, monkeypatch, capsys):
    out = tmp_path / "hand.gif"
    example = Path(__file__).resolve().parents[1] / "examples" / "animate_hand.py"
    monkeypatch.setattr(sys, "argv", [str(example), "--seed", "1", "--out", str(out)])
    runpy.run_path(str(example), run_name="__main__")
    from PIL import Image

    with Image.open(out) as gif:
        assert gif.n_frames == 41 and gif.size == (WIDTH, HEIGHT)  # the deal before the first card, then 40 cards
    assert "41 frames of tressette" in capsys.readouterr().out


def test_the_text_picture_keeps_scores_apart_from_names_and_counts_one_card():
    # issue 31: "this hand: team 0 1 2/3" ran the team's number into its score; "1 cards";
    # a chiamare's hand score named the declarer's side and the others "player 0" and "player 1".
    from tressette_env import tressette_a_chiamare_v0
    from tressette_env.engine import legal_actions
    from tressette_env.engine.game import view
    from tressette_env.engine.render import count_text, render_view

    assert (count_text(1), count_text(0), count_text(3)) == ("1 card", "0 cards", "3 cards")
    env = tressette_a_chiamare_v0.raw_env(render_mode="ansi")
    env.reset(seed=4)
    seen_one = False
    while env.game.public.result is None:
        game = env.game
        if game.public.turn >= 0 and any(h.bit_count() == 1 for h in game.hands):
            text = render_view(view(game, game.public.turn))
            assert "1 cards" not in text
            seen_one = seen_one or "  1 card" in text
        env.step(legal_actions(game)[-1])  # the last legal action: the highest bid in the auction
    text = env.render()
    assert seen_one and "1 cards" not in text
    assert re.search(r"this hand: player 0: [\d /]+ · player 1: [\d /]+ · player 2: ", text)
    assert re.search(r"hand score: the declarer's side: -?\d+ · the others: -?\d+", text), text
