"""The step registry's lookup: the same step as trying every definition, ambiguity named, pytest-bdd
sees one step per kind."""

from __future__ import annotations

from pathlib import Path

import pytest

import berserk_rules.steps.all as all_steps
from berserk_rules.rulebook.features import feature_files, parse_feature
from berserk_rules.steps import registry

ROOT = Path(__file__).resolve().parents[1]
KINDS = {"Context": "given", "Action": "when", "Outcome": "then"}


def feature_steps() -> set[tuple[str, str]]:
    """(kind, text) of every step of every scenario and outline row of features/."""
    found = set()
    for path in feature_files([ROOT / "features"]):
        for pickle in parse_feature(path, ROOT).pickles:
            for step in pickle["steps"]:
                found.add((KINDS[step["type"]], step["text"]))
    return found


def test_lookup_finds_what_trying_every_definition_finds() -> None:
    steps = feature_steps()
    assert len(steps) > 1000
    for kind, text in steps:
        every = [d for d in registry.STEPS if d.kind == kind and d.parse(text) is not None]
        assert len(every) == 1, (kind, text, [d.pattern for d in every])
        assert registry.lookup(kind, text) is every[0]


def test_lookup_is_case_insensitive_like_the_patterns() -> None:
    text = next(t for k, t in sorted(feature_steps()) if k == "when")
    assert registry.lookup("when", text.upper()) is registry.lookup("when", text)


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty registry for one test."""
    monkeypatch.setattr(registry, "STEPS", [])
    monkeypatch.setattr(registry, "_INDEX", {kind: {} for kind in registry.KINDS})
    monkeypatch.setattr(registry, "_FOUND", {})


@pytest.mark.usefixtures("fresh")
def test_two_definitions_of_one_step_are_named() -> None:
    @registry.when("игрок {player:P} пасует")
    def one(player: str) -> None: ...

    @registry.when("{who} пасует")
    def other() -> None: ...  # the pattern's fields that a step does not take are dropped

    with pytest.raises(registry.AmbiguousStep) as info:
        registry.lookup("when", "игрок А пасует")
    assert "«игрок {player:P} пасует»" in str(info.value) and "«{who} пасует»" in str(info.value)
    assert registry.lookup("when", "Б пасует") is registry.STEPS[1]
    assert registry.lookup("then", "игрок А пасует") is None


@pytest.mark.usefixtures("fresh")
def test_a_definition_added_later_is_found() -> None:
    assert registry.lookup("given", "карта «Гном» в руке") is None

    @registry.given("карта «{name:N}» в руке")
    def card(name: str) -> None: ...

    assert registry.lookup("given", "карта «Гном» в руке") is registry.STEPS[0]
    assert registry.STEPS[0].parse("карта «Гном» в руке") == {"name": "Гном"}
    assert registry.lookup("given", "картаX «Гном» в руке") is None


@pytest.mark.usefixtures("fresh")
def test_unknown_options_of_a_step_are_an_error() -> None:
    with pytest.raises(TypeError, match="target_fixture"):
        registry.given("шаг", target_fixture="x")


def test_pytest_bdd_sees_one_step_per_kind() -> None:
    stepdefs = [name for name in vars(all_steps) if name.startswith("pytestbdd_stepdef_")]
    assert sorted(stepdefs) == [
        f"pytestbdd_stepdef_{kind}_berserk_rules_{kind}" for kind in sorted(registry.KINDS)
    ]
