"""The web table driven in a browser: Debian's Chromium, headless, by Playwright's sync API.

| test | what it checks |
| --- | --- |
| ``test_whole_hand_of_each_game`` | every game of the catalog: a hand played by clicks (a legal card or button each time, its signal variant, Confirm) until the end panel shows its summary |
| ``test_undo_and_hint`` | a selected card taken back with Undo, a hint shown, then the card confirmed |
| ``test_record_stepped_through`` | a record (``records.Recorder``) opened from the file input, stepped first/next/prev/last; its first frame the hand as dealt |
| ``test_second_record_chosen`` | a file of two records: "record 1 of 2", the second chosen from the select, its first frame "dealt" |
| ``test_damaged_record_shows_error`` | a damaged record: the error banner, the page still in the lobby |
| ``test_bad_link_shows_error`` | a link to no table, a wrong token for an open table: the server's words for each in the error banner |
| ``test_second_person_by_link`` | a second browser context takes a seat by the ``joined`` link (it gets no links, the seed field was disabled); both play the hand to its end |
| ``test_two_people_press_next_hand`` | both people press Next hand: one new deal, no error; a stale ``next`` does nothing; a lost connection is retaken (the banner, then the seat) |
| ``test_reload_takes_seat_back`` | the creator's address bar holds its own link; a reload takes the seat back |
| ``test_italian_toggle`` | the language switch changes the labels |
| ``test_every_phase_in_italian`` | every phase name of the family's games has its Italian words in ``i18n.js`` |
| ``test_phone_viewport`` | at 375 x 700 the hand shows with no horizontal scrolling |
| ``test_lobby_seed_and_players`` | the seed empty (random) at first, disabled with its note when another seat is a person; no model path box; ppo only for a game with a model |
| ``test_other_forms`` | in due with packets, a perdere with five, calabresella with four, col morto in two (each when the catalog offers the switch) |
| ``test_watch_bots`` | a table of bots watched at pace 0 to the end of the hand |
| ``test_screenshots_script`` | ``scripts/web_screenshots.py`` takes its four pictures |

Skipped when Playwright, starlette/uvicorn or /usr/bin/chromium is missing, unless the environment variable
``TRESSETTE_BROWSER_TESTS=required`` (then those fail). The server runs in a thread on 127.0.0.1 at a free port.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("TRESSETTE_BROWSER_TESTS") == "required"


def _load_helpers():
    spec = importlib.util.spec_from_file_location("web_screenshots", ROOT / "scripts" / "web_screenshots.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("web_screenshots", module)
    spec.loader.exec_module(module)
    return module


def _missing() -> str | None:
    for name in ("playwright.sync_api", "starlette", "uvicorn"):
        if importlib.util.find_spec(name.split(".")[0]) is None:
            return f"{name} is not installed"
    if not Path("/usr/bin/chromium").exists():
        return "/usr/bin/chromium is missing"
    return None


MISSING = _missing()
if MISSING and not REQUIRED:
    pytest.skip(f"browser tests: {MISSING}", allow_module_level=True)

web = _load_helpers()


@pytest.fixture(scope="module")
def base():
    if MISSING:
        pytest.fail(f"TRESSETTE_BROWSER_TESTS=required but {MISSING}")
    with web.serving() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = web.launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser):
    made = browser.new_context(viewport={"width": 1100, "height": 820}, locale="en-US")
    made.set_default_timeout(30_000)
    yield made
    made.close()


def _games(page) -> list[str]:
    page.wait_for_selector("[data-testid=game-select] option", state="attached")
    return page.eval_on_selector_all("[data-testid=game-select] option", "os => os.map(o => o.value)")


def _bots(page, player: str = "random") -> dict[int, str]:
    seats = page.eval_on_selector_all(
        "[data-agent-player]", "ss => ss.filter(s => !s.disabled).map(s => +s.dataset.agentPlayer)"
    )
    return dict.fromkeys(seats, player)


def test_whole_hand_of_each_game(context, base):
    page = context.new_page()
    page.goto(base + "/")
    games = _games(page)
    assert {"tressette", "tressette_in_due", "calabresella"} <= set(games)
    rng = random.Random(36)
    for number, game in enumerate(games):
        page.goto(base + "/")
        page.wait_for_selector("[data-testid=game-select] option", state="attached")
        page.select_option("[data-testid=game-select]", game)
        confirm = page.locator("[data-testid=confirm-each]")
        if confirm.is_checked() != (number % 2 == 0):  # every other game without the Confirm step
            confirm.click()
        web.start_table(page, base, game, _bots(page), seed=10 + number, pace=0)
        web.play_to_end(page, choose=rng.randrange)
        assert page.locator("#summary li").count() > 0, game
        assert page.locator("[data-testid=error-banner]").is_hidden(), page.inner_text("#error-text")
        assert page.locator("[data-testid=next-hand]").is_visible()
    page.click("[data-testid=next-hand]")  # the next hand of the last game starts
    assert web.wait_turn_or_end(page) in ("turn", "end")


def test_undo_and_hint(context, base):
    page = context.new_page()
    web.start_table(page, base, "tressette", {1: "random", 2: "random", 3: "random"}, seed=4)
    assert web.wait_turn_or_end(page) == "turn"
    assert page.inner_text("[data-testid=score]").startswith("Cards taken: 0 – 0")  # the thirds taken so far
    page.click("[data-testid=hint]")
    page.wait_for_selector("[data-testid=hint-text]", state="visible")
    assert page.locator(".hinted").count() >= 1
    card = page.locator("#hand [data-legal]").first
    card.click()
    if page.locator("#variants").is_visible():
        page.locator("#variants [data-legal]").first.click()
    assert page.locator("[data-testid=confirm]").is_visible()
    page.click("[data-testid=undo]")
    assert page.locator("[data-testid=confirm]").is_hidden()
    assert web.state(page) == "turn"
    page.locator("#hand [data-legal]").last.focus()  # by the keyboard: Enter chooses, Escape takes back
    page.keyboard.press("Enter")
    assert page.locator("[data-testid=confirm]").is_visible() or page.locator("#variants").is_visible()
    page.keyboard.press("Escape")
    assert page.locator("[data-testid=confirm]").is_hidden()
    before = page.locator("#hand .card").count()
    web.act(page)
    page.wait_for_selector(f"#hand .card:nth-child({before})", state="detached")
    assert page.locator("#log li").count() >= 1


@pytest.mark.parametrize(
    ("game", "switches", "shown"),
    [
        ("tressette_in_due", {"deal": "packets"}, None),
        ("tressette_a_perdere", {"players": 5}, None),
        ("calabresella", {"players": 4}, None),
        ("tressette_col_morto", {"players": 2}, "#own-hand"),
    ],
)
def test_other_forms(context, base, game, switches, shown):
    """The packets of in due, calabresella with four and its call, col morto in two (a dummy played by each)."""
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("[data-testid=game-select] option", state="attached")
    page.select_option("[data-testid=game-select]", game)
    for name, value in switches.items():
        switch = page.locator(f"[data-testid=switch-{name}]")
        if switch.count() == 0:
            pytest.skip(f"the catalog offers no switch {name} for {game}")
        if switch.evaluate("el => el.tagName") == "SELECT":
            switch.select_option(json.dumps(value))
        else:
            switch.fill(str(value))
            switch.dispatch_event("change")
    page.fill("[data-testid=seed]", "5")
    page.fill("[data-testid=pace]", "0")
    for agent in _bots(page):
        page.select_option(f"[data-testid=seat-player-{agent}]", "random")
    page.click("[data-testid=play]")
    rng = random.Random(5)
    seen = False
    for _ in range(200):
        if web.wait_turn_or_end(page) == "end":
            break
        seen = seen or (shown is not None and page.locator(shown).is_visible())
        web.act(page, rng.randrange)
    page.wait_for_selector("[data-testid=end-panel]", state="visible")
    assert page.locator("[data-testid=error-banner]").is_hidden(), page.inner_text("#error-text")
    assert shown is None or seen


def test_record_stepped_through(context, base, tmp_path):
    path = tmp_path / "hand.jsonl"
    path.write_text(web.a_record(), encoding="utf-8")
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("[data-testid=game-select] option", state="attached")
    page.set_input_files("[data-testid=record-file]", str(path))
    page.wait_for_selector("#replay-bar:not([hidden])")
    index = page.locator("[data-testid=replay-index]")
    assert index.get_attribute("data-index") == "0"
    assert page.get_attribute("[data-testid=replay-step]", "data-step") == "dealt"
    assert page.locator("[data-testid=replay-record]").is_hidden()  # one record in the file: no choice
    assert page.inner_text("[data-testid=replay-record-label]") == "Record 1 of 1"
    assert page.locator("[data-testid=replay-prev]").is_disabled()
    for _ in range(3):
        page.click("[data-testid=replay-next]")
    assert index.get_attribute("data-index") == "3"
    assert page.locator("#felt .trick .card").count() >= 1 or page.locator("#log li").count() >= 1
    page.click("[data-testid=replay-prev]")
    assert index.get_attribute("data-index") == "2"
    page.click("[data-testid=replay-last]")
    assert page.locator("[data-testid=replay-next]").is_disabled()
    assert page.locator("[data-testid=end-panel]").is_visible()  # the last frame: the hand over
    assert page.locator("#felt .seat").count() == 4
    page.click("[data-testid=replay-first]")
    assert index.get_attribute("data-index") == "0"
    # every hand shown: the cards in the hands and on the table make the deck
    assert page.locator("#felt .seat .card").count() + page.locator("#felt .trick .card").count() == 40


def test_damaged_record_shows_error(context, base, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"version": 1, "game": "tressette", "hands": [\n', encoding="utf-8")
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("[data-testid=game-select] option", state="attached")
    page.set_input_files("[data-testid=record-file]", str(path))
    page.wait_for_selector("[data-testid=error-banner]", state="visible")
    assert page.inner_text("#error-text").strip()
    assert page.locator("#lobby").is_visible()


def test_second_record_chosen(context, base, tmp_path):
    path = tmp_path / "two.jsonl"
    path.write_text(web.a_record(3) + web.a_record(4), encoding="utf-8")
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("[data-testid=game-select] option", state="attached")
    page.set_input_files("[data-testid=record-file]", str(path))
    page.wait_for_selector("#replay-bar:not([hidden])")
    label = page.locator("[data-testid=replay-record-label]")
    assert label.inner_text() == "Record 1 of 2"
    page.click("[data-testid=replay-last]")
    page.select_option("[data-testid=replay-record]", "1")
    page.wait_for_selector("[data-testid=replay-record-label][data-index='1']", state="attached")
    assert label.inner_text() == "Record 2 of 2"
    assert page.get_attribute("[data-testid=replay-index]", "data-index") == "0"  # the first frame, not the index
    assert page.get_attribute("[data-testid=replay-step]", "data-step") == "dealt"
    assert page.inner_text("[data-testid=replay-step]") == "Dealt"
    assert page.locator("#felt .trick .card").count() == 0
    assert page.locator("[data-testid=error-banner]").is_hidden(), page.inner_text("#error-text")


def test_bad_link_shows_error(browser, context, base):
    page = context.new_page()
    page.goto(base + "/?table=nosuch&token=nothing")
    page.wait_for_selector("[data-testid=error-banner]", state="visible")
    assert "no table 'nosuch' is open here" in page.inner_text("#error-text")
    page.click("[data-testid=error-close]")
    assert page.locator("[data-testid=error-banner]").is_hidden()
    first = context.new_page()  # an open table, a token that names none of its seats
    web.start_table(first, base, "tressette_in_due", {1: "person"})
    link = first.locator("[data-testid=link-1]")
    link.wait_for(state="visible")
    table = link.input_value().split("table=")[1].split("&")[0]
    page.goto(f"{base}/?table={table}&token=wrong")
    page.wait_for_selector("[data-testid=error-banner]", state="visible")
    assert f"the token does not name a person's seat of table {table}" in page.inner_text("#error-text")


# kept in the page's window: the page's websockets, so that a test can send a stale message or drop the connection
SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.__sockets.push(this);
    }
  };
})();
"""


def _two_people(browser, context, base, seed):
    """A table of in due with two persons: the creator's page, the second's page (by the link) and its context."""
    first = context.new_page()
    first.goto(base + "/")
    first.wait_for_selector("[data-testid=game-select] option", state="attached")
    first.select_option("[data-testid=game-select]", "tressette_in_due")
    first.select_option("[data-testid=seat-player-1]", "person")
    assert first.locator("[data-testid=seed]").is_disabled() and first.locator("[data-testid=seed-note]").is_visible()
    web.start_table(first, base, "tressette_in_due", {1: "person"}, seed=seed)
    link = first.locator("[data-testid=link-1]")
    link.wait_for(state="visible")
    other = browser.new_context(viewport={"width": 900, "height": 800}, locale="en-US")
    other.set_default_timeout(30_000)
    other.add_init_script(SOCKETS)
    second = other.new_page()
    second.goto(link.input_value())
    second.wait_for_selector("#app[data-state=turn], #app[data-state=waiting]", state="attached")
    return first, second, other


def _play_both_to_end(pages) -> None:
    for _ in range(400):
        states = [web.state(p) for p in pages]
        if states == ["end", "end"]:
            return
        for p, s in zip(pages, states, strict=True):
            if s == "turn":
                web.act(p)
        pages[0].wait_for_timeout(15)
    raise AssertionError(f"the hand did not end: {states}")


def _no_error(page) -> None:
    assert page.locator("[data-testid=error-banner]").is_hidden(), page.inner_text("#error-text")


def test_second_person_by_link(browser, context, base):
    first, second, other = _two_people(browser, context, base, seed=21)
    try:
        url = first.locator("[data-testid=link-1]").input_value()
        assert "table=" in url and "token=" in url
        assert second.locator("[data-testid=links]").is_hidden()  # the free seats' links go to the creator only
        assert "token=" in second.url and second.url.split("token=")[1] == url.split("token=")[1]
        _play_both_to_end([first, second])
        for p in (first, second):
            assert p.locator("#summary li").count() > 0
            _no_error(p)
    finally:
        other.close()


def test_two_people_press_next_hand(browser, context, base):
    first, second, other = _two_people(browser, context, base, seed=22)
    try:
        _play_both_to_end([first, second])
        deal = int(first.get_attribute("#app", "data-deal"))
        assert second.get_attribute("#app", "data-deal") == str(deal)
        press = "() => document.getElementById('end-panel').hidden ? false : (document.getElementById('next-hand').click(), true)"
        assert first.evaluate(press)
        second.evaluate(press)  # at once: when its page still shows the end, its "next" names the finished deal
        second.evaluate(f"window.__sockets.at(-1).send(JSON.stringify({{type: 'next', deal: {deal}}}))")  # a stale one
        for p in (first, second):
            p.wait_for_selector(f"#app[data-deal='{deal + 1}']", state="attached")
            p.wait_for_selector("#app[data-state=turn], #app[data-state=waiting]", state="attached")
        first.wait_for_timeout(300)
        for p in (first, second):
            _no_error(p)
            assert p.get_attribute("#app", "data-deal") == str(deal + 1)  # one new deal
        # the connection lost: the banner, then the seat taken again by the page's own link
        second.evaluate("window.__sockets.at(-1).close()")
        second.wait_for_selector("[data-testid=reconnect-banner]", state="visible")
        second.wait_for_selector("[data-testid=reconnect-banner]", state="hidden")
        second.wait_for_selector("#app[data-state=turn], #app[data-state=waiting]", state="attached")
        second.wait_for_function("window.__sockets.length === 2")
        _no_error(second)
        assert second.locator("#hand .card").count() > 0
    finally:
        other.close()


def test_reload_takes_seat_back(browser, context, base):
    first, second, other = _two_people(browser, context, base, seed=23)
    try:
        assert "table=" in first.url and "token=" in first.url  # the address bar holds the creator's own link
        url = first.url
        cards = sorted(first.eval_on_selector_all("#hand .card", "cs => cs.map(c => +c.dataset.card)"))
        first.reload()
        first.wait_for_selector("#app[data-state=turn], #app[data-state=waiting]", state="attached")
        assert first.url == url
        assert sorted(first.eval_on_selector_all("#hand .card", "cs => cs.map(c => +c.dataset.card)")) == cards
        _no_error(first)
        _no_error(second)
    finally:
        other.close()


def test_lobby_seed_and_players(context, base):
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("[data-testid=game-select] option", state="attached")
    seed = page.locator("[data-testid=seed]")
    assert seed.input_value() == "" and seed.is_enabled()
    assert page.locator("[data-testid=seed-note]").is_hidden()
    assert page.locator("[data-testid^=seat-model-]").count() == 0  # no free-text model path
    catalog = page.evaluate(
        """() => new Promise((done) => {
          const ws = new WebSocket(`ws://${location.host}/ws`);
          ws.onopen = () => ws.send(JSON.stringify({type: "catalog"}));
          ws.onmessage = (e) => { done(JSON.parse(e.data)); ws.close(); };
        })"""
    )
    for game in catalog["games"]:
        page.select_option("[data-testid=game-select]", game["name"])
        offered = page.eval_on_selector_all("[data-testid=seat-player-1] option", "os => os.map(o => o.value)")
        wanted = [p for p in catalog["players"] if p != "ppo" or game["model"]] + ["person"]
        assert offered == wanted, game["name"]
    page.select_option("[data-testid=game-select]", "tressette")
    page.select_option("[data-testid=seat-player-2]", "person")
    assert seed.is_disabled() and page.locator("[data-testid=seed-note]").is_visible()
    page.select_option("[data-testid=seat-player-2]", "random")
    assert seed.is_enabled() and page.locator("[data-testid=seed-note]").is_hidden()


def test_italian_toggle(context, base):
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("[data-testid=game-select] option", state="attached")
    assert page.inner_text("[data-testid=play]") == "Play"
    page.click("[data-testid=lang-toggle]")
    assert page.inner_text("[data-testid=play]") == "Gioca"
    assert page.inner_text("[data-testid=watch]") == "Guarda i bot"
    assert page.get_attribute("html", "lang") == "it"
    assert page.get_attribute("[data-testid=seed]", "placeholder") == "casuale"
    page.click("[data-testid=lang-toggle]")
    assert page.inner_text("[data-testid=play]") == "Play"


def test_every_phase_in_italian():
    from types import SimpleNamespace

    from tressette_env.games import a_chiamare, a_perdere, calabresella, col_morto, in_due

    names = {"play", *calabresella.PHASE_NAMES.values(), *a_chiamare.PHASE_NAMES.values()}
    names |= {*in_due.PHASE_NAMES.values()}
    names.add(a_perdere.TressetteAPerdere.phase_name(None, SimpleNamespace(phase=1)))
    names.add(col_morto.TressetteColMorto.phase_name(None, SimpleNamespace(phase=col_morto.FIRST_CARD)))
    text = (ROOT / "tressette_env" / "web" / "static" / "i18n.js").read_text(encoding="utf-8")
    missing = sorted(name for name in names if json.dumps(f"phase:{name}") not in text)
    assert not missing, missing


def test_phone_viewport(browser, base):
    phone = browser.new_context(viewport={"width": 375, "height": 700}, locale="en-US", is_mobile=True)
    try:
        page = phone.new_page()
        web.start_table(page, base, "tressette", {1: "random", 2: "random", 3: "random"}, seed=2)
        assert web.wait_turn_or_end(page) == "turn"
        cards = page.locator("#hand .card")
        assert cards.count() == 10
        width = page.evaluate("document.documentElement.clientWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for i in range(cards.count()):
            box = cards.nth(i).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
    finally:
        phone.close()


def test_watch_bots(context, base):
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("[data-testid=game-select] option", state="attached")
    page.select_option("[data-testid=game-select]", "tressette")
    page.fill("[data-testid=pace]", "0")
    page.click("[data-testid=watch]")
    page.wait_for_selector("[data-testid=end-panel]", state="visible")
    assert page.locator("#log li").count() >= 40


def test_screenshots_script(browser, base, tmp_path):
    written = web.take(base, browser, tmp_path)
    assert [p.name for p in written] == ["web_table.png", "web_review.png", "web_phone.png", "web_replay.png"]
    assert all(p.stat().st_size > 5000 for p in written)
