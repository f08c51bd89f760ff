"""Take the web table's screenshots for the docs: ``python scripts/web_screenshots.py [OUT_DIR]``.

Starts ``tressette serve``'s app (``tressette_env.web.app.make_app``) on 127.0.0.1 at a free port in a thread,
drives Debian's Chromium (``/usr/bin/chromium``, headless) with Playwright, and writes:

| file | what it shows |
| --- | --- |
| ``web_table.png`` | the four-seat game at a desktop size, a person at seat 0 on turn |
| ``web_phone.png`` | the same table at a phone's size (375 x 700) |
| ``web_review.png`` | the end-of-hand panel with its summary and the review (largest losses marked) |
| ``web_replay.png`` | the record viewer stepping through a recorded hand |

OUT_DIR defaults to ``docs``. The browser tests (``tests/web/test_browser.py``) run ``take`` into a scratch folder.
"""

from __future__ import annotations

import contextlib
import json
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"


@contextlib.contextmanager
def serving(**options) -> Iterator[str]:
    """The app served on 127.0.0.1 at a free port in a daemon thread; yields its base URL, stops it on exit."""
    import uvicorn

    from tressette_env.web.app import make_app

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(make_app(**options), host="127.0.0.1", port=port, log_level="warning", lifespan="auto")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def launch(playwright):
    """Debian's Chromium, headless, without its sandbox (no browser is downloaded)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])


def state(page) -> str:
    """The page's state: lobby, waiting, pending, turn, end, replay or closed (``#app``'s ``data-state``)."""
    return page.get_attribute("#app", "data-state") or ""


def wait_turn_or_end(page, timeout: float = 30_000) -> str:
    """Waits until the person is on turn or the hand is over; the state then."""
    page.wait_for_selector("#app[data-state=turn], #app[data-state=end]", state="attached", timeout=timeout)
    return state(page)


def act(page, choose=lambda n: 0) -> None:
    """Plays one legal action by clicks: a card or a button (``choose(n)`` picks among n), its variant, confirm."""
    legal = page.locator("#hand [data-legal], #buttons [data-legal]")
    legal.nth(choose(legal.count())).click()
    variants = page.locator("#variants [data-legal]")
    if page.locator("#variants").is_visible():
        variants.nth(choose(variants.count())).click()
    if page.locator("[data-testid=confirm]").is_visible():
        page.click("[data-testid=confirm]")


def start_table(page, base: str, game: str, players: dict[int, str], seed: int = 1, pace: int = 0) -> None:
    """Opens the lobby, chooses the game, the other seats' players, the seed and the pace, and presses Play."""
    page.goto(base + "/")
    page.wait_for_selector("[data-testid=game-select] option", state="attached")
    page.select_option("[data-testid=game-select]", game)
    for agent, player in players.items():
        page.select_option(f"[data-testid=seat-player-{agent}]", player)
    if page.locator("[data-testid=seed]").is_enabled():  # disabled when another person plays: a secret deal
        page.fill("[data-testid=seed]", str(seed))
    page.fill("[data-testid=pace]", str(pace))
    page.click("[data-testid=play]")


def play_to_end(page, choose=lambda n: 0, limit: int = 200) -> None:
    """Plays the person's decisions until the end-of-hand panel shows."""
    for _ in range(limit):
        if wait_turn_or_end(page) == "end":
            page.wait_for_selector("[data-testid=end-panel]", state="visible")
            return
        act(page, choose)
    raise AssertionError(f"the hand did not end in {limit} decisions")


def a_record(seed: int = 3) -> str:
    """One line of a record: a hand of the four-seat game, four random players (``records.Recorder``)."""
    from tressette_env.engine import legal_actions, new_game
    from tressette_env.records import Recorder

    recorder = Recorder("tressette", new_game().public.rules, seed=seed, players=["random"] * 4)
    game = recorder.start()
    while game.public.status == 0:
        game = recorder.play(game, legal_actions(game)[len(legal_actions(game)) // 2])
    return json.dumps(recorder.finish(game)) + "\n"


def take(base: str, browser, out: Path) -> list[Path]:
    """Takes the four screenshots from the server at ``base`` into ``out``; the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    desktop = browser.new_context(viewport={"width": 1100, "height": 820}, locale="en-US")
    page = desktop.new_page()
    start_table(page, base, "tressette", {a: "heuristic" for a in (1, 2, 3)}, seed=5)
    for _ in range(4):  # a few tricks in, a trick on the table
        wait_turn_or_end(page)
        act(page)
    wait_turn_or_end(page)
    page.locator("#hand [data-legal]").first.click()
    if page.locator("#variants").is_visible():
        page.locator("#variants [data-legal]").first.click()
    written.append(out / "web_table.png")
    page.screenshot(path=str(written[-1]), full_page=True)
    page.click("[data-testid=undo]")
    play_to_end(page)
    page.wait_for_selector("#review tbody tr", timeout=60_000)  # the review follows the hand's last view
    page.locator("[data-testid=end-panel]").scroll_into_view_if_needed()
    written.append(out / "web_review.png")
    page.screenshot(path=str(written[-1]), full_page=True)
    desktop.close()

    phone = browser.new_context(viewport={"width": 375, "height": 700}, locale="it-IT", is_mobile=True)
    page = phone.new_page()
    start_table(page, base, "tressette", {a: "heuristic" for a in (1, 2, 3)}, seed=8)
    for _ in range(2):
        wait_turn_or_end(page)
        act(page)
    wait_turn_or_end(page)
    written.append(out / "web_phone.png")
    page.screenshot(path=str(written[-1]), full_page=True)
    phone.close()

    viewer = browser.new_context(viewport={"width": 1100, "height": 820}, locale="en-US")
    page = viewer.new_page()
    page.goto(base + "/")
    page.wait_for_selector("[data-testid=game-select] option", state="attached")
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "hand.jsonl"
        path.write_text(a_record(), encoding="utf-8")
        page.set_input_files("[data-testid=record-file]", str(path))
        page.wait_for_selector("[data-testid=replay-bar]:not([hidden]), #replay-bar:not([hidden])")
    for _ in range(6):
        page.click("[data-testid=replay-next]")
    written.append(out / "web_replay.png")
    page.screenshot(path=str(written[-1]), full_page=True)
    viewer.close()
    return written


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    out = Path(argv[0]) if argv else Path("docs")
    with serving() as base, sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            for path in take(base, browser, out):
                print(path)
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
