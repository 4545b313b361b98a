"""Plain data in and out: every object of the game state serialises to JSON and back.

Classes that travel inside the state (cards, Queue items, continuous effects, events, tasks of the
resolution stack, parsed abilities) are dataclasses registered with :func:`serializable`. A registered
instance becomes ``{"$": "ClassName", field: value, …}``; tuples become lists and come back as tuples
where the field is annotated as a tuple. That is what makes a snapshot of any state a position that
:func:`berserk_engine.setup.new_game` accepts (issue: «snapshot round trip»).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

REGISTRY: dict[str, type] = {}
_TUPLE_FIELDS: dict[type, frozenset[str]] = {}
_UPGRADES: dict[tuple[str, str], Callable[[Any], Any]] = {}
_WRITTEN: dict[type, Callable[[Any], dict[str, Any]]] = {}


def serializable(*classes: type) -> None:
    """Register dataclasses for :func:`to_data` / :func:`from_data`. Called after the classes, not
    used as a decorator: compiled (``berserk-rules compile``), a decorated class would not be a native
    class."""
    for cls in classes:
        name = cls.__name__
        if name in REGISTRY and REGISTRY[name] is not cls:
            raise TypeError(f"two serialisable classes named {name}")
        REGISTRY[name] = cls
        _TUPLE_FIELDS[cls] = frozenset(f.name for f in dataclasses.fields(cls) if _is_tuple(f.type))


def _is_tuple(annotation: Any) -> bool:
    """Is a field declared a tuple? Interpreted, with postponed annotations, the field's type is its text
    («tuple[str, ...]»); compiled by mypyc it is the class itself (``tuple``), and without postponed
    annotations a generic alias whose origin is ``tuple``. JSON gives a list for each of them."""
    if isinstance(annotation, str):
        return annotation.replace(" ", "").startswith(("tuple", "Tuple"))
    return annotation is tuple or getattr(annotation, "__origin__", None) is tuple


def written_as(cls: type, fields: Callable[[Any], dict[str, Any]]) -> None:
    """A class whose instances :func:`to_data` writes as ``fields(instance)`` (field name → value),
    not field by field: a slot kept apart in memory that its data keep in an older form (``Card.wounds``
    among its markers). :func:`from_data` passes those fields to the class, which reads that form."""
    _WRITTEN[cls] = fields


def upgrade(cls: type, name: str, convert: Callable[[Any], Any]) -> None:
    """A field whose form changed: :func:`from_data` passes the value it read (in whichever form an
    older engine wrote it) through ``convert``, which returns today's form (or raises ValueError)."""
    _UPGRADES[(cls.__name__, name)] = convert


def to_data(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str, float)):
        return value
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    cls = type(value)
    if cls in _TUPLE_FIELDS:
        out: dict[str, Any] = {"$": cls.__name__}
        written = _WRITTEN.get(cls)
        if written is not None:  # a class whose fields are written in another form (Card.written_fields)
            for k, v in written(value).items():
                out[k] = to_data(v)
            return out
        for f in dataclasses.fields(value):
            out[f.name] = to_data(getattr(value, f.name))
        return out
    raise TypeError(f"не сериализуется: {cls.__name__}")


def from_data(value: Any) -> Any:
    if isinstance(value, list):
        return [from_data(v) for v in value]
    if isinstance(value, dict):
        name = value.get("$")
        if name is None:
            return {k: from_data(v) for k, v in value.items()}
        cls = REGISTRY.get(name)
        if cls is None:
            raise ValueError(f"неизвестный вид объекта {name!r}")
        tuples = _TUPLE_FIELDS[cls]
        kwargs = {}
        for k, v in value.items():
            if k == "$":
                continue
            v = from_data(v)
            if k in tuples and isinstance(v, list):
                v = tuple(v)
            convert = _UPGRADES.get((name, k))
            if convert is not None:
                v = convert(v)
            kwargs[k] = v
        return cls(**kwargs)
    return value
