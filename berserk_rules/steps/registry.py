"""Registry of step definitions: the single source of the step dictionary.

Step modules declare steps with :func:`given`, :func:`when` and :func:`then` from here instead of
pytest-bdd's decorators directly. Each call registers the step (kind, pattern, docstring, location)
and applies pytest-bdd's decorator, so the dictionary on the site can never drift from what runs.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pytest_bdd import given as bdd_given
from pytest_bdd import parsers
from pytest_bdd import then as bdd_then
from pytest_bdd import when as bdd_when

KIND_NAMES = {"given": "Дано", "when": "Когда", "then": "Тогда"}


@dataclass(frozen=True)
class StepDef:
    kind: str  # "given" | "when" | "then"
    pattern: str  # the human-readable pattern, e.g. 'у игрока {player} {count:d} открытых маркеров монет'
    doc: str  # the function's docstring (Russian): what the step means
    module: str
    function: str
    line: int
    table: bool  # the step takes a data table
    example: str  # an example of the step as written in a feature


STEPS: list[StepDef] = []


def _register(kind: str, decorator: Callable[..., Any], pattern: str, example: str, **kwargs: Any):
    def wrap(func: Callable[..., Any]) -> Callable[..., Any]:
        STEPS.append(
            StepDef(
                kind=kind,
                pattern=pattern,
                doc=inspect.cleandoc(func.__doc__ or ""),
                module=func.__module__,
                function=func.__name__,
                line=inspect.getsourcelines(func)[1],
                table="datatable" in inspect.signature(func).parameters,
                example=example,
            )
        )
        # stacklevel=2: pytest-bdd injects the step fixture into the module that declares the step,
        # not into this registry.
        return decorator(parsers.cfparse(pattern, extra_types=EXTRA_TYPES), stacklevel=2, **kwargs)(func)

    return wrap


def given(pattern: str, example: str = "", **kwargs: Any):
    return _register("given", bdd_given, pattern, example, **kwargs)


def when(pattern: str, example: str = "", **kwargs: Any):
    return _register("when", bdd_when, pattern, example, **kwargs)


def then(pattern: str, example: str = "", **kwargs: Any):
    return _register("then", bdd_then, pattern, example, **kwargs)


def _player(text: str) -> str:
    """Игрок: «А» или «Б»."""
    return text


_player.pattern = r"[АБ]"  # type: ignore[attr-defined]


def _name(text: str) -> str:
    """Название карты или текст способности — внутри кавычек «…» (в тексте способности могут быть
    названия карт в своих кавычках: «[Закрыть]: вызовите «Пиранья».»)."""
    return text


_name.pattern = r"(?:[^«»]|«[^«»]*»)+"  # type: ignore[attr-defined] — one level of «» inside


def _names(text: str) -> list[str]:
    """Список названий в кавычках через запятую или «и»: «Гном», «Волк» и «Гоблин»."""
    return re.findall(r"«([^«»]+)»", text)


_names.pattern = r"«[^«»]+»(?:(?:, | и )«[^«»]+»)*"  # type: ignore[attr-defined]

# Field types for step patterns: {p:P} a player (А or Б), {name:N} text inside «», {cards:L} a list
# of «…» separated by commas or «и».
EXTRA_TYPES: dict[str, Callable[[str], Any]] = {"P": _player, "N": _name, "L": _names}
