"""The disk cache of what the engine said about each card of a list (``berserk_rules.reference.
reading_cache``): a warm ``berserk-rules cards`` says exactly what a cold one says, asks the engine
nothing, and never answers for another engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from berserk_engine.language import grammar as g

from berserk_rules.cli import main
from berserk_rules.reference import card_reading, reading_cache

HEADER = "| название | тип | стоимость | удар | жизни | текст |\n"
LIST = (
    HEADER
    + "| Палач | существо | 3 | 3 | 3 | Гибель: возьмите карту. |\n"
    + "| Кривой | существо | 2 | 1 | 1 | Когда луна восходит: ранить на 1 героя противника. |\n"
    + "| Старый Дуболом | существо | 2 | 2 | 2 | Когда Старый Дуболом погибает, возьмите карту. |\n"
    + "| Ловкач | существо | 2 | 1 | 1 | Найм: ранить Юного Дуболома на 1. |\n"
)


def _run(path: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, str]:
    code = main(["cards", *flags, str(path)])
    return code, capsys.readouterr().out


def _never(_card: dict[str, object]) -> None:
    raise AssertionError("the engine was asked: the cache should have answered")


@pytest.mark.parametrize("flags", [(), ("--json",)])
def test_a_warm_run_says_what_a_cold_run_says_without_the_engine(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    flags: tuple[str, ...],
) -> None:
    path = tmp_path / "cards.txt"
    path.write_text(LIST, encoding="utf-8")
    monkeypatch.setenv(reading_cache.CACHE_ENV, "off")
    uncached = _run(path, capsys, *flags)
    monkeypatch.setenv(reading_cache.CACHE_ENV, str(tmp_path / "cache"))
    cold = _run(path, capsys, *flags)
    assert list((tmp_path / "cache").glob("cards-*.json"))
    monkeypatch.setattr(card_reading, "_finding", _never)
    warm = _run(path, capsys, *flags)
    assert uncached == cold == warm
    assert uncached[0] == 1 and "Кривой" in uncached[1] and "Ловкач" in uncached[1]


@pytest.fixture
def cached_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The list, with the cache in a folder of the test."""
    path = tmp_path / "cards.txt"
    path.write_text(LIST, encoding="utf-8")
    monkeypatch.setenv(reading_cache.CACHE_ENV, str(tmp_path / "cache"))
    return path


def test_another_engine_has_its_own_entries(
    cached_list: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = cached_list
    first = _run(path, capsys)
    monkeypatch.setattr(reading_cache, "engine_digest", lambda: "another-engine")
    asked: list[object] = []
    finding = card_reading._finding
    monkeypatch.setattr(card_reading, "_finding", lambda card: asked.append(card) or finding(card))
    assert _run(path, capsys) == first
    assert len(asked) == 4  # nothing of the first engine's answers was used


def test_a_broken_cache_file_is_no_cache(
    cached_list: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = cached_list
    first = _run(path, capsys)
    (cached,) = (tmp_path / "cache").glob("cards-*.json")
    cached.write_text("{не json", encoding="utf-8")
    assert _run(path, capsys) == first
    assert len(json.loads(cached.read_text(encoding="utf-8"))) == 4  # rewritten


def test_off_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cards.txt"
    path.write_text(LIST, encoding="utf-8")
    monkeypatch.setenv(reading_cache.CACHE_ENV, "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    _run(path, capsys)
    assert not (tmp_path / "xdg").exists()


def test_one_variable_and_one_folder_for_both_caches(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert reading_cache.CACHE_ENV == g.CACHE_ENV
    monkeypatch.setenv(g.CACHE_ENV, str(tmp_path))
    assert reading_cache.folder() == g.cache_folder()
    monkeypatch.delenv(g.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert reading_cache.folder() == g.cache_folder()


def test_the_digest_follows_the_engines_files() -> None:
    digest = reading_cache.engine_digest()
    assert len(digest) == 24
    reading_cache.engine_digest.cache_clear()
    assert reading_cache.engine_digest() == digest


def test_the_grammars_aliases_from_its_text_are_larks() -> None:
    """The aliases a warm run knows without building the parser are the ones lark's rules carry."""
    grammar = g.grammar()
    rules = {str(rule.origin.name) for rule in grammar.parser.rules}
    from_lark = frozenset(str(rule.alias) for rule in grammar.parser.rules if rule.alias) - rules
    assert grammar.aliases == from_lark
    assert "own_name" in grammar.aliases and "wound" in grammar.aliases
