"""Values a caller or a file sent, quoted in one-line error messages: cut short, whatever they are.

Every bad input gets an error of one bounded line (a hostile file can hold a million-character
string or a 5,000-digit integer); these are the one home of that cutting:

- ``cut(text)``: text on one line, at most ``limit`` characters, control characters escaped.
- ``shown(value)``: ``repr(value)``, cut; a huge int by its number of digits (``str()`` of
  one is slow, and refused past 4,300 digits).
- ``reason(error)``: an exception as one short line (library messages can span paragraphs).
- ``listed(names)``: names joined by commas, the first few, then how many more.
"""

from __future__ import annotations

from collections.abc import Sequence


def cut(text: str, limit: int = 60) -> str:
    r"""``text`` on one line and at most ``limit`` characters, its control characters escaped.

    A bot's or a server's answer quoted in an error reaches a terminal: an escape sequence in it
    would retitle or recolour the terminal, a NUL or a bell would be written raw.

    >>> cut("a long   string of text", 12)
    'a long st...'
    >>> print(cut("red" + chr(27) + "[31m" + chr(7)))
    red\x1b[31m\x07
    """
    text = " ".join(text.split())
    if not text.isprintable():
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters; a huge int by about how many digits it has.

    >>> shown(10**100, 20), shown("a long string of text", 12)
    ('an int of about 101 digits', "'a long s...")
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * limit:
        return f"an int of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except Exception:  # a repr that fails must not hide the error being reported
        text = f"<{type(value).__name__}>"
    return cut(text, limit)


def reason(error: BaseException, limit: int = 160) -> str:
    """An exception as one short line: its type and the first line of its message.

    >>> reason(ValueError(chr(10).join(["bad value", "more detail"])))
    'ValueError: bad value'
    """
    lines = str(error).strip().splitlines()
    text = f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__
    return cut(text, limit)


def not_json(error: BaseException) -> str:
    """Why ``json.loads`` refused a text, in a few words: ``not JSON``, or Python's limit on a number's digits.

    >>> import json
    >>> try:
    ...     json.loads("[9,")
    ... except ValueError as error:
    ...     print(not_json(error))
    not JSON
    """
    import json
    import sys

    if isinstance(error, ValueError) and not isinstance(error, json.JSONDecodeError) and "digits" in str(error):
        return f"a number of more than {sys.get_int_max_str_digits()} digits"
    return "not JSON"


def listed(names: Sequence[str], limit: int = 6) -> str:
    """``names`` joined by commas: the first ``limit`` of them, then how many more.

    >>> listed(["a", "b", "c"], 2)
    'a, b and 1 more'
    """
    if len(names) <= limit:
        return ", ".join(names)
    return f"{', '.join(names[:limit])} and {len(names) - limit} more"
