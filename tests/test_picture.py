"""The table picture (``envs.picture``) reads without the code: a legend of its marks and suits,
the last trick and its taker between tricks and once the hand is over (the last frame of
``tressette replay --gif``), spade and bastoni apart at a glance."""

import itertools

import numpy as np
import pytest

from tressette_env.engine import apply, legal_actions, new_game
from tressette_env.engine.state import GAME_OVER, HAND_OVER
from tressette_env.engine.tricks import trick_winner
from tressette_env.envs import picture
from tressette_env.envs.spec import game_spec
from tressette_env.records import Recorder, replay

pytest.importorskip("PIL")
from PIL import Image, ImageDraw  # noqa: E402  (after the skip)

MIDDLE = (slice(picture.HEIGHT // 4, 3 * picture.HEIGHT // 4), slice(picture.WIDTH // 4, 3 * picture.WIDTH // 4))


def _card_pixels(image: np.ndarray) -> int:
    """Pixels of a card's face in the middle of the table (where the trick lies)."""
    return int((image[MIDDLE] == picture.CARD).all(axis=2).sum())


@pytest.fixture
def drawn_text(monkeypatch):
    """Every (x, y, text) the picture writes."""
    texts: list[tuple[float, float, str]] = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, words, *args, **kwargs):
        texts.append((xy[0], xy[1], words))
        return original(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return texts


def _play_out(state, until=None, play=apply):
    """Play the last legal action until the hand is over (or ``until(state)``)."""
    while state.public.status == 0 and not (until and until(state)):
        state = play(state, legal_actions(state)[-1])  # the highest bid, so that the hand is played
    return state


def test_the_legend_of_the_marks_and_the_suits_is_drawn(drawn_text):
    legend = getattr(picture, "LEGEND", "")
    assert ">" in legend and "on turn" in legend and "*" in legend and "led" in legend
    image = picture.table_picture(new_game(seed=0))
    texts = [t for _, _, t in drawn_text]
    assert legend in texts
    assert all(suit in texts for suit in ("denari", "coppe", "spade", "bastoni"))
    # Drawn at the bottom: the strips below the seats are not bare cloth.
    bottom = image[picture.HEIGHT - 24 :]
    assert not (bottom[:, :200] == picture.CLOTH).all() and not (bottom[:, -200:] == picture.CLOTH).all()


@pytest.mark.parametrize("game", ["tressette", "tressette_in_due", "calabresella", "tressette_a_perdere"])
def test_the_last_frame_of_a_replay_shows_the_last_trick_its_taker_and_the_score(game, drawn_text):
    rules = game_spec(game).make_rules()
    recorder = Recorder(game, rules, seed=5, players=["random"] * rules.game.agents(rules))
    state = _play_out(recorder.start(), play=recorder.play)
    frames: list[np.ndarray] = []
    end = replay(recorder.finish(state), lambda s, seat, action: frames.append(picture.table_picture(s)))
    p = end.public
    # The hand is over and every hand is empty, yet the trick's cards lie in the middle (it was an empty table).
    n = p.table.seats
    assert p.status != 0 and not p.trick and not any(end.hands)
    assert _card_pixels(frames[-1]) > n * 1500
    leader, cards, _ = p.tricks()[-1]
    words = [(x, t) for x, _, t in drawn_text[-40:]]
    assert any(t.startswith(f"last trick, taken by player {trick_winner(leader, cards, n)}") for _, t in words)
    assert any(t.startswith("hand score") and x > picture.WIDTH / 4 for x, t in words)  # in the middle too


def test_between_tricks_the_last_trick_stays_until_the_next_card(drawn_text):
    state = new_game(seed=1)
    first = _play_out(state, until=lambda s: s.public.tricks_done == 1)
    second = apply(first, legal_actions(first)[0])
    # Between tricks the four cards of the first trick; once the next is led, only its card.
    assert _card_pixels(picture.table_picture(first)) > 4 * 1500
    assert 0 < _card_pixels(picture.table_picture(second)) < 2 * 1500 + 1500
    assert sum(t.startswith("last trick, taken by") for _, _, t in drawn_text) == 1


def _lightness(rgb) -> float:
    r, g, b = rgb
    return 0.299 * r + 0.587 * g + 0.114 * b


def test_spade_and_bastoni_differ_in_colour_lightness_and_shape():
    colours = picture.SUIT_COLOURS
    spade, bastoni = colours[2], colours[3]
    assert abs(_lightness(spade) - _lightness(bastoni)) >= 40  # apart in grey too (it was 15)
    for a, b in itertools.combinations(colours, 2):
        assert np.linalg.norm(np.subtract(a, b)) >= 120
    # The signs as a hand's card shows them: their shapes overlap by less than half.
    masks = []
    for suit in (2, 3):
        image = Image.new("RGB", (24, 24), picture.CARD)
        picture._suit(ImageDraw.Draw(image), suit, 12, 12, 8)
        masks.append((np.asarray(image) != picture.CARD).any(axis=2))
    overlap = (masks[0] & masks[1]).sum() / (masks[0] | masks[1]).sum()
    assert overlap < 0.5


def _match_record(tmp_path, hands=3):
    """A file holding one record of a four-seat match of ``hands`` hands or more (random legal play)."""
    import json

    rules = game_spec("tressette").make_rules(episode="match", target_score=hands * 4)
    recorder = Recorder("tressette", rules, seed=11, players=["random"] * 4)
    state = recorder.start()
    while state.public.status != GAME_OVER:
        state = _play_out(state, play=recorder.play)
        if state.public.status == HAND_OVER:  # the next hand of the match
            state = recorder.next_hand(state)
    record = recorder.finish(state)
    path = tmp_path / "match.jsonl"
    path.write_text(json.dumps(record) + "\n")
    return path, record


def test_replay_gif_of_one_hand_a_frame_cap_and_a_held_last_frame(tmp_path, capsys, monkeypatch):
    from tressette_env import cli

    path, record = _match_record(tmp_path)
    hands = len(record["hands"])
    assert hands >= 2
    out = tmp_path / "hand2.gif"
    assert cli.main(["replay", str(path), "--gif", str(out), "--hand", "2", "--ms", "100"]) == 0
    with Image.open(out) as gif:
        assert gif.n_frames == len(record["hands"][1]["actions"])
        durations = []
        for k in range(gif.n_frames):
            gif.seek(k)
            durations.append(gif.info["duration"])
    assert set(durations[:-1]) == {100} and durations[-1] == 400  # the last frame stays four times as long
    capsys.readouterr()
    # Past the cap the gif is refused before a frame is drawn, naming the way out.
    monkeypatch.setattr(cli, "MAX_GIF_FRAMES", 30)
    drawn = []
    monkeypatch.setattr("tressette_env.envs.picture.table_picture", lambda state: drawn.append(state))
    with pytest.raises(SystemExit) as stopped:
        cli.main(["replay", str(path), "--gif", str(tmp_path / "all.gif")])
    err = capsys.readouterr().err
    actions = sum(len(hand["actions"]) for hand in record["hands"])
    assert stopped.value.code == 1 and f"the episode has {actions:,} actions" in err and "--hand K" in err
    assert not (tmp_path / "all.gif").exists() and not drawn
    with pytest.raises(SystemExit):
        cli.main(["replay", str(path), "--hand", str(hands + 1)])
    assert f"the episode has {hands} hand(s)" in capsys.readouterr().err
