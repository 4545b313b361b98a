"""A reply's text read once: the value ``contract.loads`` gives and the exact text of its ``result``
member, so the schema checker remembers a result by its text instead of serialising it again."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from berserk_rules.harness import contract

_DECODER = json.JSONDecoder(parse_constant=contract._reject_constant)  # strict as contract.loads
_SCANSTRING: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
_SPACE = " \t\n\r"


def loads_response(text: str) -> tuple[Any, str | None]:
    """``contract.loads(text)`` and, when it is an object with a ``result``, the exact text of that
    member (for the schema checker's memory: a result is recognised by its text, not serialised
    again). The top-level object is read member by member with the json module's own scanners, so
    the value is the one ``json.loads`` gives (the last of repeated keys wins); anything irregular
    is left to ``contract.loads``, which raises its usual error."""
    try:
        members: dict[str, Any] = {}
        spans: dict[str, tuple[int, int]] = {}
        end = len(text)
        at = _skip(text, 0)
        if text[at] != "{":
            return contract.loads(text), None
        at = _skip(text, at + 1)
        if text[at] != "}":
            while True:
                if text[at] != '"':
                    return contract.loads(text), None
                key, at = _SCANSTRING(text, at + 1, True)
                at = _skip(text, at)
                if text[at] != ":":
                    return contract.loads(text), None
                at = _skip(text, at + 1)
                value, after = _DECODER.raw_decode(text, at)
                members[key], spans[key] = value, (at, after)
                at = _skip(text, after)
                if text[at] == ",":
                    at = _skip(text, at + 1)
                    continue
                if text[at] != "}":
                    return contract.loads(text), None
                break
        if _skip(text, at + 1) != end:
            return contract.loads(text), None
    except (ValueError, IndexError, RecursionError):
        return contract.loads(text), None
    span = spans.get("result")
    return members, (text[span[0] : span[1]] if span is not None else None)


def _skip(text: str, at: int) -> int:
    """The index of the first character at or after ``at`` that is not JSON white space."""
    while at < len(text) and text[at] in _SPACE:
        at += 1
    return at
