"""The words of ``tressette play`` and of the human player: what a new user sees and may type.

Each test drives the public interface (``play_episode`` with a scripted reader, or
``HumanPlayer.act``) and pins one point a new user met playing in the terminal: the end of a
hand in words, the bare card and words without accents, discards named as discards, one
name per seat, grouped action lists, the reason a card is refused, the hint's verb, the
cards' letters, a single legal action played with one key, a void hand dealt again.
"""

import random
import re
import sys
from pathlib import Path

import pytest

from tressette_env.agents.human import HumanPlayer, QuitGame
from tressette_env.agents.registry import make_player
from tressette_env.engine import apply, card_code, legal_actions, new_game, view
from tressette_env.engine.actions import CALL, CHIAMO, GIVE, PASS
from tressette_env.engine.cards import SUIT_MASK, SUITS
from tressette_env.envs.spec import game_spec
from tressette_env.games import calabresella as cal
from tressette_env.play import play_episode

WIDTH = 80


def session(game, seed, answer, rules=None, seat=0, opponents="heuristic", limit=3000):
    """``play_episode`` with ``answer(prompt)`` typing: (its record, everything written and asked, the prompts)."""
    rules = rules or game_spec(game).make_rules()
    said, asked = [], []

    def read(prompt):
        asked.append(prompt)
        said.append(prompt)
        if len(asked) > limit:
            raise EOFError
        return answer(prompt)

    human = HumanPlayer(read=read, write=said.append, confirm=False)
    agents = rules.game.agents(rules)
    others = [make_player(opponents) for _ in range(agents - 1)]
    record = play_episode(game, rules, human, others, [opponents] * (agents - 1), seat, seed, None, said.append)
    return record, "\n".join(said), asked


def first(prompt):
    """The first action offered at each decision; Enter to every other question."""
    return "1" if prompt.startswith("your action") else ""


def typing(*lines):
    """A HumanPlayer reading ``lines`` (then the end of input) and writing to a list."""
    said = []
    answers = iter(lines)

    def read(prompt):
        said.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    return HumanPlayer(read=read, write=said.append), said


def calabresella_at(phase, seed=0):
    """A Calabresella deal played up to ``phase``: the first seat to speak bids chiamo and calls a card an opponent holds."""
    state = new_game(game_spec("calabresella").make_rules(), seed)
    while state.public.phase != phase:
        p = state.public
        legal = legal_actions(state)
        if p.phase == cal.AUCTION:
            action = CHIAMO if CHIAMO in legal else PASS
        elif p.phase == cal.CALL_PHASE:
            held = [hand for seat, hand in enumerate(state.hands) if seat != p.turn]
            action = next(a for a in legal if any(hand >> (a - CALL) & 1 for hand in held))
        else:
            action = legal[0]
        state = apply(state, action)
    return state


def screen_lines(said):
    return "\n".join(said).splitlines()


def test_a_finished_hand_is_told_in_words_with_its_last_trick_and_the_match():
    rules = game_spec("tressette").make_rules(episode="match", target_score=11)
    _, text, asked = session("tressette", 3, first, rules, opponents="random")
    assert "{'hand'" not in text and "hand_score" not in text and "card_thirds" not in text
    assert re.search(r"trick 10, the last, to (you|player \d): ", text)  # the last trick, with its cards
    assert "hand 1 over" in text and "hand 0" not in text  # hands counted from 1, as the screens do
    assert re.search(r"team 0 \(you, player 2\): \d+ points? \(cards [\d /]+(, accusi \d+)?\)", text)
    assert re.search(r"team 1 \(player 1, player 3\): \d+ points? \(cards [\d /]+(, accusi \d+)?\)", text)
    assert re.search(r"match \(to 11\): team 0 \(you, player 2\) \d+ · team 1 \(player 1, player 3\) \d+", text)
    assert re.search(r"the match goes to team \d", text)
    assert "Enter deals hand 2, q stops: " in asked  # a match waits between hands
    assert asked[-1].startswith("Enter leaves")  # and before it leaves


def test_a_contract_hand_ends_with_its_contract_and_stakes_in_words():
    _, text, _ = session("calabresella", 9, first)  # player 2 bids chiamo
    assert re.search(r"contract: chiamo by player 2, (won|lost)", text)
    assert re.search(r"player 2 \(soloist\): \d+ points? \(cards [\d /]+\)", text)
    assert re.search(r"you and player 1 \(opponents\): \d+ points? \(cards [\d /]+\)", text)
    assert re.search(r"stakes: you [+-]\d+ · player 1 [+-]\d+ · player 2 [+-]\d+", text)


def test_the_bare_card_and_words_without_accents_are_accepted():
    state = calabresella_at(cal.RETURN)  # the soloist gives a card back: "dà 4d" in the engine's words
    me, legal = view(state, state.public.turn), legal_actions(state)
    card = legal[0] - GIVE
    code = card_code(card)
    for typed in (code, code.upper(), f"da {code}", f"DÀ {code}", f"dà {code}"):
        player, _ = typing(typed, "")
        assert player.act(me, legal, random.Random(0)) == GIVE + card, typed


def test_discards_are_named_as_discards_and_others_discards_stay_face_down():
    state = calabresella_at(cal.DISCARD)
    me, legal = view(state, state.public.turn), legal_actions(state)
    code = card_code(legal[-1] - GIVE)
    player, said = typing("?", f"scarta {code}", "")
    assert player.act(me, legal, random.Random(0)) == legal[-1]
    screen = "\n".join(said)
    assert "your actions: discard a card face down (scarta):" in screen and "dà" not in screen
    assert re.search(r"hint: heuristic would discard \w\w face down: type \d+", screen)
    assert f"scarta {code}: Enter to confirm" in screen
    _, text, _ = session("calabresella", 9, first)  # player 2 is the soloist: he gives a card back, then discards
    assert "player 2 gives Cd back" in text  # face up: told
    discards = [line for line in text.splitlines() if "discard" in line]
    assert discards == ["player 2 discards a card face down"] * 4  # face down: the cards untold


def test_each_seat_has_one_name_and_scores_stand_apart_from_team_numbers():
    _, text, _ = session("tressette", 3, first, opponents="random")
    assert text.startswith('tressette: you are player 0 ("you" on the screens); player 1: random')
    assert "player_" not in text and "seat " not in text and "agent" not in text
    assert re.search(r"this hand: team 0 \(you, player 2\): [\d /]+ · team 1 \(player 1, player 3\): [\d /]+", text)
    assert not re.search(r"team \d \d", text)  # a team's number never runs into its score
    assert re.search(r"player \d \(team \d\)  1 card\b", text) and "1 cards" not in text
    _, text, _ = session("tressette_a_chiamare", 2, first)  # every seat its own side: named as a player
    screens = text[text.index("cards: A asso") :]  # after the first line's "you are player 0"
    assert re.search(r"this hand: you: [\d /]+ · player 1: ", screens) and "player 0" not in screens


def test_long_action_lists_are_grouped_by_suit_and_fit_80_columns():
    rng = random.Random(0)
    lead = new_game(game_spec("calabresella").make_rules(), 0)
    while len(legal_actions(lead)) < 25:  # the soloist on lead after the first trick: every card with each signal
        lead = apply(lead, rng.choice(legal_actions(lead)))
    for state in (lead, calabresella_at(cal.CALL_PHASE)):  # and the call: 28 to 32 cards to name
        legal = legal_actions(state)
        player, said = typing()
        with pytest.raises(QuitGame):
            player.act(view(state, state.public.turn), legal, random.Random(0))
        lines = screen_lines(said)
        assert all(len(line) <= WIDTH for line in lines)  # the terminal never wraps a word
        menu = lines[next(k for k, line in enumerate(lines) if line.startswith("your actions: ")) :][:-1]
        items = re.findall(r"(\d+)\) (\S+)", "\n".join(menu))
        cards = {action % 40 if action < 160 else (action - CALL) % 40 for action in legal}
        assert [int(k) for k, _ in items] == list(range(1, len(cards) + 1))  # each card once
        assert {code for _, code in items} == {card_code(c) for c in cards}
        rows = [line for line in menu if re.match(r"\s+(denari|coppe|spade|bastoni) ", line)]
        assert len(rows) == len({c // 10 for c in cards})  # one row per suit
        if len(legal) > len(cards):  # the signals written once per suit, after its cards
            assert all(line.count("busso") <= 1 for line in menu) and "+ busso or striscio" in "\n".join(rows)
            assert "as in " in menu[0]


def test_an_illegal_card_is_refused_with_its_reason():
    for seed in range(50):
        state = new_game(seed=seed)
        state = apply(state, legal_actions(state)[0])
        me = view(state, state.public.turn)
        led = state.public.trick[0] // 10
        off = [c for c in range(40) if me.hand >> c & 1 and c // 10 != led]
        if me.hand & SUIT_MASK[led] and off:
            break
    player, said = typing(card_code(off[0]), "1 busso")
    with pytest.raises(QuitGame):
        player.act(me, legal_actions(state), random.Random(0))
    assert f"{card_code(off[0])} is not legal now: you must follow suit: {SUITS[led]} was led and you hold" in said[-4]
    assert "only the leader signals" in said[-2]


def test_the_hint_says_bid_or_pass_in_an_auction():
    state = new_game(game_spec("calabresella").make_rules(), 0)
    player, said = typing("?")
    with pytest.raises(QuitGame):
        player.act(view(state, state.public.turn), legal_actions(state), random.Random(0))
    (hint,) = [line for line in said if line.startswith("hint:")]
    assert re.fullmatch(r"hint: heuristic would (bid \S+|pass \(passo\)): type \d", hint)


def test_the_cards_letters_are_told_at_the_start_and_with_h():
    _, text, _ = session("tressette", 3, lambda prompt: "q")
    assert "A asso, R re, C cavallo, F fante" in text and "strongest first: 3 2 A R C F 7 6 5 4" in text
    state = new_game(seed=0)
    player, said = typing("h")
    with pytest.raises(QuitGame):
        player.act(view(state, state.public.turn), legal_actions(state), random.Random(0))
    assert "R re, C cavallo, F fante" in said[-2] and "scarta 4d" in said[-2]


def test_a_single_legal_action_is_played_with_one_key():
    rng = random.Random(0)
    state = new_game(seed=0)
    while len(legal_actions(state)) > 1:
        state = apply(state, rng.choice(legal_actions(state)))
    (only,) = legal_actions(state)
    player, said = typing("")  # Enter alone, though confirm is on
    assert player.confirm and player.act(view(state, state.public.turn), [only], rng) == only
    assert f"your only action: {card_code(only)} (Enter plays it)" in said


def test_a_void_hand_offers_a_new_deal():
    def answer(prompt):
        return "1" if prompt.startswith("your action") else ""  # pass in the auction; Enter deals again

    record, text, asked = session("tressette_a_chiamare", 1, answer)  # everyone passes on seed 1
    assert "everyone passed: the hand is void, nobody pays" in text
    assert "everyone passed: Enter deals again (seed 2), q leaves: " in asked
    assert "seed 2 (--seed 2 plays this deal again)" in text and record["seed"] == 2


def test_an_answer_between_hands_that_is_none_of_the_choices_is_asked_again():
    typed = iter(["x", "q"])  # after the void hand (everyone passes on seed 1): a key that means nothing, then q

    def answer(prompt):
        return "1" if prompt.startswith("your action") else next(typed)

    _, text, asked = session("tressette_a_chiamare", 1, answer)
    void = "everyone passed: Enter deals again (seed 2), q leaves: "
    assert asked.count(void) == 2 and "'x' is not an answer here: Enter deals again, q leaves" in text
    assert "seed 2 (--seed 2" not in text  # q left


def test_the_program_waits_for_enter_before_it_leaves():
    pexpect = pytest.importorskip("pexpect")
    command = str(Path(sys.executable).with_name("tressette"))
    child = pexpect.spawn(command, ["play", "--seed", "4", "--opponents", "random", "--no-confirm"],
                          encoding="utf-8", timeout=30, dimensions=(50, 80))  # fmt: skip
    while child.expect([r"your action \(", r"Enter leaves, n deals a new hand \(seed 5\): "]) == 0:
        child.sendline("1")
    assert child.isalive()  # the final screen stays until Enter
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_playing_the_dummy_the_person_still_sees_his_own_hand():
    _, text, _ = session("tressette_col_morto", 1, first, opponents="random")  # player 0 deals: the dummy is his
    screens = [screen for screen in text.split("\n\n") if "dummy of you to play" in screen.splitlines()[0]]
    assert screens and all(re.search(r"^you \(side 0\)  denari: ", s, flags=re.M) for s in screens)


def test_a_fixed_holders_match_names_its_sides_as_the_hands_do():
    rules = game_spec("tressette_col_morto").make_rules(dummy_holder="fixed", episode="match", target_score=11)
    _, text, _ = session("tressette_col_morto", 4, first, rules, opponents="random")
    assert re.search(r"match \(to 11\): side 0 \([^)]*\) \d+ · side 1 \([^)]*\) \d+", text)
    assert re.search(r"the match goes to side [01] \(", text) and "team" not in text


def test_what_a_person_typed_is_quoted_back_cut_short_and_escaped():
    """A pasted 100,000-character line (or one holding an escape sequence) was echoed whole in the error."""
    said: list[str] = []
    person = HumanPlayer(write=said.append)
    assert person.parse("x" * 100_000 + "\x1b[31m", [0, 1, 2]) is None
    assert person.parse("2 \x07", [0, 1, 2]) is None  # (a number, then no signal's name)
    assert len(said) == 2 and all(len(line) < 200 and line.isprintable() for line in said), said
    assert said[0].startswith("'xxxx") and "is not an action: type a number 1 to 3" in said[0]
