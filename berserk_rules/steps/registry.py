"""Registry of step definitions: the single source of the step dictionary, and the step lookup.

Step modules declare steps with :func:`given`, :func:`when` and :func:`then` from here instead of
pytest-bdd's decorators directly. Each call records the step (kind, pattern, docstring, location,
compiled parser) in :data:`STEPS`, so the dictionary on the site can never drift from what runs.

pytest-bdd sees three step definitions only, one per kind (:func:`bind`, called by
:mod:`berserk_rules.steps.all`): each matches a step when :func:`lookup` finds its definition here
and runs that definition's function. pytest-bdd's own lookup asks every fixture of the session
whether it is a step that matches — with every step a fixture of its own, that cost grew with steps
× step definitions (~180 fixture look-ups per step). Here a step's text is looked up once per
session (by its first word among the patterns that start with that word, plus those that start
with a field) and remembered, so a scenario's cost does not depend on the size of the dictionary.

A step that two definitions match is an error naming both patterns (pytest-bdd would silently run
one of them). Steps that a project declares with pytest-bdd's own decorators keep working beside
these: pytest-bdd tries them as before.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pytest_bdd import given as bdd_given
from pytest_bdd import parsers
from pytest_bdd import then as bdd_then
from pytest_bdd import when as bdd_when

KIND_NAMES = {"given": "Дано", "when": "Когда", "then": "Тогда"}
KINDS = tuple(KIND_NAMES)
STEP_ARGUMENT = "berserk_step"  # the dispatching step's argument: (definition, parsed arguments)


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
    func: Callable[..., Any] = field(repr=False, compare=False)
    parser: Any = field(repr=False, compare=False)  # parse.Parser of the pattern (cfparse)
    params: frozenset[str] = field(repr=False, compare=False, default=frozenset())
    required: tuple[str, ...] = field(repr=False, compare=False, default=())  # args without defaults

    def parse(self, text: str) -> dict[str, Any] | None:
        """The step's arguments from ``text``, or None when the pattern does not match it."""
        try:
            result = self.parser.parse(text)
        except ValueError:  # a field's type rejected the text
            return None
        return None if result is None else dict(result.named)


STEPS: list[StepDef] = []


class AmbiguousStep(Exception):
    """A step's text that several step definitions match."""


# --- lookup --------------------------------------------------------------------------------------

# kind -> first word of the pattern (lower case) -> definitions; "" holds patterns that start with a
# field or whose first word runs into a field ("карт{…}").
_INDEX: dict[str, dict[str, list[StepDef]]] = {kind: {} for kind in KINDS}
_FOUND: dict[tuple[str, str], StepDef | AmbiguousStep | None] = {}


def _first_word(pattern: str) -> str:
    literal = pattern.split("{", 1)[0]
    word, space, _ = literal.partition(" ")
    return word.lower() if space and word else ""


def _candidates(kind: str, text: str) -> list[StepDef]:
    index = _INDEX[kind]
    word = text.split(" ", 1)[0].lower()
    found = [*index.get(word, []), *index.get("", [])] if word else list(index.get("", []))
    return found


def lookup(kind: str, text: str) -> StepDef | None:
    """The step definition of ``kind`` ("given", "when", "then") that matches ``text``; None when
    none does; :class:`AmbiguousStep` when several do. Remembered for the session."""
    key = (kind, text)
    try:
        found = _FOUND[key]
    except KeyError:
        matches = [d for d in _candidates(kind, text) if d.parse(text) is not None] if kind in _INDEX else []
        if len(matches) > 1:
            patterns = "; ".join(f"«{m.pattern}» ({m.module}.{m.function})" for m in matches)
            found = AmbiguousStep(
                f"шаг «{KIND_NAMES[kind]} {text}» подходит под несколько определений шагов: {patterns}"
            )
        else:
            found = matches[0] if matches else None
        _FOUND[key] = found
    if isinstance(found, AmbiguousStep):
        raise found
    return found


def _register(kind: str, pattern: str, example: str, **kwargs: Any) -> Callable[..., Any]:
    if kwargs:
        raise TypeError(f"шаг «{pattern}»: неизвестные параметры {', '.join(kwargs)}")

    def wrap(func: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(func)
        definition = StepDef(
            kind=kind,
            pattern=pattern,
            doc=inspect.cleandoc(func.__doc__ or ""),
            module=func.__module__,
            function=func.__name__,
            line=inspect.getsourcelines(func)[1],
            table="datatable" in signature.parameters,
            example=example,
            func=func,
            parser=parsers.cfparse(pattern, extra_types=EXTRA_TYPES).parser,
            params=frozenset(signature.parameters),
            required=tuple(
                p.name
                for p in signature.parameters.values()
                if p.kind == p.POSITIONAL_OR_KEYWORD and p.default is p.empty
            ),
        )
        STEPS.append(definition)
        _INDEX[kind].setdefault(_first_word(pattern), []).append(definition)
        _FOUND.clear()  # a new definition may match texts already looked up
        return func

    return wrap


def given(pattern: str, example: str = "", **kwargs: Any) -> Callable[..., Any]:
    return _register("given", pattern, example, **kwargs)


def when(pattern: str, example: str = "", **kwargs: Any) -> Callable[..., Any]:
    return _register("when", pattern, example, **kwargs)


def then(pattern: str, example: str = "", **kwargs: Any) -> Callable[..., Any]:
    return _register("then", pattern, example, **kwargs)


# --- the three steps pytest-bdd sees -------------------------------------------------------------


class _Dispatch(parsers.StepParser):
    """pytest-bdd's parser of a dispatching step: matches what :func:`lookup` finds."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"berserk_rules_{kind}")
        self.kind = kind

    def is_matching(self, name: str) -> bool:
        try:
            return lookup(self.kind, name) is not None
        except AmbiguousStep:
            return True  # the step runs and fails with the message

    def parse_arguments(self, name: str) -> dict[str, Any]:
        definition = lookup(self.kind, name)
        assert definition is not None  # pytest-bdd asks only after is_matching
        return {STEP_ARGUMENT: (definition, definition.parse(name))}


def run_step(
    request: Any, berserk_step: tuple[StepDef, dict[str, Any]], datatable: Any = None, docstring: Any = None
) -> Any:
    """Run a registered step as pytest-bdd runs a step function: the pattern's arguments that the
    function takes, the data table and doc string if it takes them, the rest as fixtures."""
    __tracebackhide__ = True
    definition, parsed = berserk_step
    kwargs = {k: v for k, v in parsed.items() if k in definition.params}
    if datatable is not None and "datatable" in definition.params:
        kwargs["datatable"] = datatable
    if docstring is not None and "docstring" in definition.params:
        kwargs["docstring"] = docstring
    for name in definition.required:
        if name not in kwargs:
            kwargs[name] = request.getfixturevalue(name)
    return definition.func(**kwargs)


def bind(stacklevel: int = 1) -> None:
    """Declare the three dispatching steps as pytest-bdd steps of the calling module (a pytest
    plugin: :mod:`berserk_rules.steps.all`)."""
    for kind, decorator in (("given", bdd_given), ("when", bdd_when), ("then", bdd_then)):
        decorator(_Dispatch(kind), stacklevel=stacklevel + 1)(run_step)


# pytest-bdd reads the signature of the step function twice for every step it runs; a function's
# ``__signature__`` is what :func:`inspect.signature` returns, so it is computed once here
# (inspect builds it afresh from the code object each time otherwise: 4 % of a scenario run).
run_step.__signature__ = inspect.signature(run_step)  # type: ignore[attr-defined]


def _player(text: str) -> str:
    """Игрок: «А» или «Б»."""
    return text


_player.pattern = r"[АБ]"  # type: ignore[attr-defined]


def _name(text: str) -> str:
    """Название карты или текст способности — внутри кавычек «…» (в тексте способности могут быть
    названия карт в своих кавычках: «[Закрыть]: вызовите «Пиранья».»)."""
    return text


_name.pattern = r"(?:[^«»]|«[^«»]*»)+"  # type: ignore[attr-defined]  # one level of «» inside


def _names(text: str) -> list[str]:
    """Список названий в кавычках через запятую или «и»: «Гном», «Волк» и «Гоблин»."""
    return re.findall(r"«([^«»]+)»", text)


_names.pattern = r"«[^«»]+»(?:(?:, | и )«[^«»]+»)*"  # type: ignore[attr-defined]

# Field types for step patterns: {p:P} a player (А or Б), {name:N} text inside «», {cards:L} a list
# of «…» separated by commas or «и».
EXTRA_TYPES: dict[str, Callable[[str], Any]] = {"P": _player, "N": _name, "L": _names}
