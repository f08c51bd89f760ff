"""The table protocol: a seat of any game played by another program through JSON lines.

| module | what it holds |
| --- | --- |
| ``view`` | ``act_message(view, legal)``: what a seat receives (its view as JSON, the legal actions named) and ``read_answer`` |
| ``state`` | the exact public record as JSON and back (``encode_public``, ``decode_view``), for a harness that rebuilds the view |
| ``bot`` | ``BotPlayer``: a program started as a subprocess, seated as a player (``tressette eval --bot NAME=COMMAND``) |
| ``serve`` | ``serve(player)``: one of our players answering the protocol on stdin and stdout (``tressette bot SPEC``) |

The messages and their fields: docs/protocol.md.
"""

PROTOCOL = "tressette-table/1"
"""The protocol's name and version, in every message."""
