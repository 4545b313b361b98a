"""How a piece of card text was read — the tree both readers build (the phrase registry of
:mod:`berserk_engine.grammar` and the grammar of :mod:`berserk_engine.language.abilities`), which
``berserk-rules cards --show`` prints and :func:`berserk_engine.grammar.render` writes back in the
engine's canonical words."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Phrase:
    category: str  # "keyword" | "trigger" | "cost" | "effect" | "static"
    format: str
    example: str
    build: Callable[[dict[str, Any]], Any]
    parser: Any
    term: str | None = None  # the glossary term this phrase implements


@dataclass(frozen=True)
class Reading:
    """How a piece of card text was read: which phrase took which words (``kind`` "phrase": a phrase
    and the values of its slots; "effect": the parts of a sequence; "sentence": a whole ability —
    its keyword / static phrase, or its trigger / payment and effect). Every word of the text belongs
    to one of its nodes; :func:`render` writes it back in the engine's canonical words."""

    kind: str
    phrase: Phrase | None = None
    named: dict[str, Any] | None = None
    parts: tuple[Reading, ...] = ()
    optional: bool = False


# The renderer of readings in the engine's canonical words (:func:`berserk_engine.grammar.render`): the
# grammar module gives it when it loads. The sentence layer (language/abilities.py) is below the grammar
# module in the engine's imports, yet a node of it keeps the canonical words of a part («вы можете …», a
# delayed effect), so it asks the renderer it was given rather than import the module above it.
_RENDERERS: list[Callable[[Reading], str]] = []


def set_renderer(render: Callable[[Reading], str]) -> None:
    _RENDERERS[:] = [render]


def rendered(reading: Reading) -> str:
    """The reading in the engine's canonical words."""
    if not _RENDERERS:
        raise RuntimeError("berserk_engine.grammar не загружен: импортируйте berserk_engine")
    return _RENDERERS[0](reading)
