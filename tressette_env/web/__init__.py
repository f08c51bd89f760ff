"""The web table: play any game of the family in the browser, watch bots play, step through records.

``tressette serve`` (the ``web`` extra: ``pip install -e ".[web]"``, Starlette and uvicorn)
serves a page and a websocket on 127.0.0.1. The browser is one more seat of the table
protocol (``tressette_env.protocol.view``): the server holds the game and sends each
connection only what its seat may know; a page only shows it and sends actions.

| module | what it holds |
| --- | --- |
| ``table`` | ``Table``: one table of the game, its persons and bots, each seat's ``view`` message (pure Python) |
| ``records_view`` | an uploaded record (JSON lines) as replay frames, bounded, refused clearly when damaged |
| ``review`` | the review of a finished hand (double-dummy values, or the heuristic's choices) |
| ``app`` | ``make_app``: the Starlette app (``/``, ``/static``, the websocket ``/ws``); ``serve`` runs uvicorn |
| ``static`` | the page: ``index.html``, its scripts (the cards drawn as SVG), the styles |

``table``, ``records_view`` and ``review`` import no web library; only ``app`` needs the extra.
"""
