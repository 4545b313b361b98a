"""The hot data classes of the engine write their ``__init__`` out: compiled by mypyc, a generated one
would run interpreted at every card, event and task made (docs/architecture.md, «Скомпилированная
сборка»). A written ``__init__`` must stay the one the dataclass would generate: the same parameters
in the same order, the same defaults (``None`` standing for a ``default_factory``, which the
``__init__`` calls), and a fresh container for every instance."""

from __future__ import annotations

import dataclasses
import inspect

import pytest
from berserk_engine import data
from berserk_engine.game import Decision

CLASSES = sorted({*data.REGISTRY.values(), Decision}, key=lambda c: c.__name__)
# a generated __init__ is compiled from a string (its file: "<string>")
WRITTEN = [c for c in CLASSES if c.__init__.__code__.co_filename != "<string>"]


def test_the_hot_classes_write_their_init_out() -> None:
    names = {c.__name__ for c in WRITTEN}
    hot = {"Card", "Pending", "Decision", "Perform", "MoveEvent", "ChoicePhase", "QueueItem"}
    assert hot <= names, hot - names


@pytest.mark.parametrize("cls", WRITTEN, ids=lambda c: c.__name__)
def test_a_written_init_is_the_generated_one(cls: type) -> None:
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = [f for f in dataclasses.fields(cls) if f.init]
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        assert p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD, p
        if f.default is not dataclasses.MISSING:
            assert p.default == f.default, (p, f.default)
        elif f.default_factory is not dataclasses.MISSING:
            assert p.default is None, p
        else:
            assert p.default is inspect.Parameter.empty, p
    required = {p.name: f"x{n}" for n, p in enumerate(params) if p.default is inspect.Parameter.empty}
    one, two = cls(**required), cls(**required)
    for f in fields:
        if f.default_factory is not dataclasses.MISSING:
            made = getattr(one, f.name)
            assert made == f.default_factory() and made is not getattr(two, f.name), f.name
    assert one == two
