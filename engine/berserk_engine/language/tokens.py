"""The tokens of a card text, each with its character positions: words (a hyphen or an apostrophe inside a
word keeps it one word; a word in Latin letters may hold digits after a hyphen, as a card's name does:
«SU-27», «MK-2b»), numbers, signed numbers («+1», «-1»), icons in square brackets («[Закрыть]»), a
card's name or a granted ability's words in quotes («…», "…", '…', “…”, „…”), and punctuation (full
stop, comma, colon, semicolon, parentheses, dashes).

A text is refused with a clear error, never a traceback, when it cannot be a card's text: a character
of no token, an unclosed icon or quote, more characters than :data:`MAX_TEXT`, a number of more than
:data:`MAX_DIGITS` digits. The error (:class:`TextError`) names the position (from 0) and the piece.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_TEXT = 2000  # characters in one card text: printed cards hold a few hundred
MAX_DIGITS = 3  # a number on a card: values of the game are small (the longest real one has 2 digits)

LETTER = "A-Za-z" + chr(0x0400) + "-" + chr(0x04FF)  # Latin and Cyrillic letters
_TOKEN = re.compile(
    rf"(?P<word>[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+(?![{LETTER}\d])|[{LETTER}]+(?:[-'\u2019][{LETTER}]+)*)"
    r"|(?P<signed>(?<![\w\d])[+\-\u2013\u2212]\d+)"
    r"|(?P<number>\d+)"
    r"|(?P<icon>\[[^\[\]\n]*\])"
    r"|(?P<quote>\u00ab[^\u00ab\u00bb]*\u00bb|\"[^\"]*\"|'[^']*'|[\u201c\u201e][^\u201c\u201d\u201e]*\u201d)"
    r"|(?P<punct>[.,:;()\-\u2013\u2014])"
    r"|(?P<space>\s+)"
)


@dataclass(frozen=True, slots=True)
class Token:
    """A piece of text: ``kind`` "word" | "number" | "signed" | "icon" | "quote" | "punct"; ``text`` as
    written; ``start``, ``end``: its characters in the text (``text == source[start:end]``)."""

    kind: str
    text: str
    start: int
    end: int

    @property
    def inner(self) -> str:
        """An icon's or a quote's words without the brackets or quotes; any other token's text."""
        return self.text[1:-1].strip() if self.kind in ("icon", "quote") else self.text

    @property
    def value(self) -> int:
        """A number's value (a signed number with its sign)."""
        if self.kind == "signed":
            sign = -1 if self.text[0] != "+" else 1
            return sign * int(self.text[1:])
        return int(self.text)


class TextError(ValueError):
    """A text that cannot be tokenized: ``message`` in Russian, ``position`` (from 0) of the piece."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


def tokenize(text: str) -> tuple[Token, ...]:
    """The tokens of a text, in order. Raises :class:`TextError`."""
    if len(text) > MAX_TEXT:
        raise TextError(
            f"текст карты слишком длинный (символов: {len(text)}, можно не больше {MAX_TEXT})", MAX_TEXT
        )
    found: list[Token] = []
    at = 0
    while at < len(text):
        m = _TOKEN.match(text, at)
        if m is None:
            raise TextError(_stray_message(text, at), at)
        kind = m.lastgroup or ""
        if kind != "space":
            token = Token(kind, m.group(), m.start(), m.end())
            if kind in ("number", "signed") and len(token.text.lstrip("+-\u2013\u2212")) > MAX_DIGITS:
                raise TextError(
                    f"слишком большое число «{_short(token.text)}»: в тексте карты число — не больше "
                    f"{MAX_DIGITS} цифр",
                    m.start(),
                )
            found.append(token)
        at = m.end()
    return tuple(found)


def _stray_message(text: str, at: int) -> str:
    char = text[at]
    if char == "[":
        return f"не закрыта квадратная скобка значка: «{_short(text[at:])}»"
    if char in "\u00ab\"'\u201c\u201e":
        return f"не закрыта кавычка: «{_short(text[at:])}»"
    if char in "]\u00bb":
        return f"закрывающий знак «{char}» без открывающего"
    return f"непонятный знак «{char}» (U+{ord(char):04X})"


def _short(text: str, most: int = 30) -> str:
    return text if len(text) <= most else text[:most] + "…"
