"""The declared-fields filter: a value with every object field its JSON Schema does not declare
removed. The schemas are the whole contract only if every field a step reads is declared in them; the
proof is a run of every scenario on answers so stripped (tests/test_declared_fields.py,
tests/declared_driver.py)."""

from __future__ import annotations

import functools
from typing import Any

from berserk_rules.harness.contract import SCHEMA_BASE, _Compiler, schema
from berserk_rules.harness.verdict import _ANNOTATIONS, Check

# keywords that constrain or describe nothing about an object's fields (a node made of these only is
# «any value»: what it holds is declared as a whole, e.g. ``"expected": {}``)
_OPAQUE_KEYS = _ANNOTATIONS


@functools.cache  # the schemas do not change in a process; a run strips millions of nodes
def _node(name: str, pointer: str) -> Any:
    """The schema node at ``pointer`` (``/$defs/card/properties/id``) of schema ``name``."""
    target: Any = schema(name)
    for part in (p for p in pointer.split("/") if p):
        key = part.replace("~1", "/").replace("~0", "~")
        target = target[int(key)] if isinstance(target, list) else target[key]
    return target


@functools.cache
def _keywords(name: str, pointer: str) -> dict[str, Any]:
    """The node's keywords (none for a boolean schema)."""
    node = _node(name, pointer)
    return node if isinstance(node, dict) else {}


@functools.cache
def _ref_target(ref: str, name: str) -> tuple[str, str]:
    """(schema name, pointer) of a ``$ref`` written in schema ``name``."""
    full = SCHEMA_BASE + name + ref if ref.startswith("#") else ref
    target, _, fragment = full.partition("#")
    return target.removeprefix(SCHEMA_BASE), fragment


@functools.cache
def _node_check(name: str, pointer: str) -> Check:
    return _Compiler().node(_node(name, pointer), SCHEMA_BASE + name)


# what _applying does at a node: ($ref target, allOf members, anyOf/oneOf branches with their checks,
# the if check with then and else)
Plan = tuple[
    tuple[str, str] | None,
    tuple[str, ...],
    tuple[tuple[str, Check], ...],
    tuple[Check, str | None, str | None] | None,
]


@functools.cache
def _plan(name: str, pointer: str) -> Plan | None:
    """What :func:`_applying` does at a node, worked out once: the ``$ref`` target, the ``allOf``
    members, the ``anyOf`` / ``oneOf`` branches with their checks, the ``if`` check with its ``then``
    and ``else`` (None for a boolean schema)."""
    node = _node(name, pointer)
    if not isinstance(node, dict):
        return None
    ref = _ref_target(node["$ref"], name) if "$ref" in node else None
    members = tuple(f"{pointer}/allOf/{i}" for i in range(len(node.get("allOf", []))))
    branches = tuple(
        (f"{pointer}/{key}/{i}", _node_check(name, f"{pointer}/{key}/{i}"))
        for key in ("anyOf", "oneOf")
        for i in range(len(node.get(key, [])))
    )
    condition: tuple[Check, str | None, str | None] | None = None
    if "if" in node:
        then = f"{pointer}/then" if "then" in node else None
        otherwise = f"{pointer}/else" if "else" in node else None
        condition = (_node_check(name, f"{pointer}/if"), then, otherwise)
    return ref, members, branches, condition


def _applying(name: str, pointer: str, value: Any, out: list[tuple[str, str]]) -> None:
    """Every schema node that applies to ``value`` at this node: the node itself, what its ``$ref``
    and ``allOf`` name, the branches of ``anyOf`` / ``oneOf`` that ``value`` fits, and ``then`` or
    ``else`` as its ``if`` decides (a field named only inside an ``if`` is not declared by it)."""
    out.append((name, pointer))
    plan = _plan(name, pointer)
    if plan is None:
        return
    ref, members, branches, condition = plan
    if ref is not None:
        _applying(ref[0], ref[1], value, out)
    for member in members:
        _applying(name, member, value, out)
    for branch, fits in branches:
        if fits(value):
            _applying(name, branch, value, out)
    if condition is not None:
        test, then, otherwise = condition
        chosen = then if test(value) else otherwise
        if chosen is not None:
            _applying(name, chosen, value, out)


Nodes = tuple[tuple[str, str], ...]


@functools.cache
def _whole(name: str, pointer: str) -> bool:
    """The node is «any value» (``true``, or annotations only): what it holds is declared as a whole."""
    node = _node(name, pointer)
    return node is True or (isinstance(node, dict) and not set(node) - _OPAQUE_KEYS)


@functools.cache
def _field(nodes: Nodes, key: str) -> Nodes:
    """The nodes that declare field ``key`` of an object the ``nodes`` apply to (none: undeclared)."""
    inner: list[tuple[str, str]] = []
    for name, pointer in nodes:
        node = _keywords(name, pointer)
        if key in node.get("properties", {}):
            escaped = key.replace("~", "~0").replace("/", "~1")
            inner.append((name, f"{pointer}/properties/{escaped}"))
        elif node.get("additionalProperties", False) is not False:
            inner.append((name, f"{pointer}/additionalProperties"))
    return tuple(inner)


@functools.cache
def _items(nodes: Nodes) -> Nodes:
    return tuple((n, f"{p}/items") for n, p in nodes if "items" in _keywords(n, p))


def _strip(value: Any, at: Nodes) -> Any:
    nodes: list[tuple[str, str]] = []
    for name, pointer in at:
        _applying(name, pointer, value, nodes)
    for name, pointer in nodes:
        if _whole(name, pointer):
            return value  # «any value»: declared as a whole
    if isinstance(value, dict):
        kept: dict[str, Any] = {}
        applying = tuple(nodes)
        for key, item in value.items():
            inner = _field(applying, key)
            if inner:
                kept[key] = _strip(item, inner)
        return kept
    if isinstance(value, list):
        items = _items(tuple(nodes))
        return [_strip(item, items) for item in value] if items else value
    return value


def declared_only(ref: str, value: Any) -> Any:
    """``value`` (valid for schema ``ref``: a name, or a name with a fragment) with every object field
    that the schema does not declare removed, at every depth. A field is declared by ``properties``
    or ``additionalProperties`` of a schema node that applies to its object (:func:`_applying`); a
    value whose schema is «any value» (``{}``) is kept whole."""
    name, _, fragment = ref.partition("#")
    return _strip(value, ((name, fragment),))
