"""Any edition importable: ``import --edition`` on a synthetic full-length text and on our sources,
editions compared rule by rule, and an edition's site built with ``site --corpus``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from synthetic_edition import generate

from berserk_rules.cli import main
from berserk_rules.corpus import load_corpus
from berserk_rules.editions import compare, import_edition, word_changes
from berserk_rules.project import project_root

ROOT = project_root()
TITLE_DECISION = '\n["synth.txt"]\n1 = { id = "1.заглавие", inferred = true, note = "Заглавие документа." }\n'


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the synthetic text, its imported edition folder) — imported with the title decision."""
    tmp = tmp_path_factory.mktemp("synthetic")
    text = tmp / "synth.txt"
    text.write_text(generate(), encoding="utf-8")
    out = tmp / "edition"
    first = import_edition("синтетическая", [text], out)
    assert [p.line for p in first.unplaced] == [1]  # the document's title line: before Part 1
    assert any("не попала в корпус" in problem for problem in first.fidelity)
    assert not first.ok
    with (out / "rules" / "editorial.toml").open("a", encoding="utf-8") as handle:
        handle.write(TITLE_DECISION)
    # Imported again with the decision: every test gets the complete edition, whatever ran before it
    # (under xdist a module's tests may run on different workers, in any order).
    assert import_edition("синтетическая", [text], out).ok
    return text, out


def test_synthetic_full_length_edition_imports_completely(synthetic: tuple[Path, Path], capsys) -> None:
    text, out = synthetic
    code = main(["import", "--edition", "синтетическая", "--out", str(out), str(text)])
    report = capsys.readouterr().out
    assert code == 0, report
    assert "НЕ РАЗМЕЩЕНЫ" not in report
    assert "каждая непустая строка входа есть в корпусе" in report
    corpus = load_corpus(out)
    assert len(corpus.rules()) > 1000 and len(corpus.terms()) == 240
    assert corpus.get("1.вступление").inferred  # the Part's introduction
    rule = corpus.get("101.1")
    assert rule.variants[0].source == "synth.txt"
    # ВАЖНО blocks, tables, list lines and unnumbered paragraphs stay inside their rule, verbatim
    lines = [line for e in corpus.entries for v in e.variants for line in v.lines]
    assert any(line.startswith("ВАЖНО") for line in lines)
    assert any("\t" in line and "[" in line for line in lines)
    assert any(line.startswith("· ") for line in lines)
    assert (out / "edition.toml").read_text(encoding="utf-8").startswith('name = "синтетическая"')


def test_edition_with_bad_input_is_a_clear_error(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes("Часть 1. Общее.\n101. Раздел\n\xff".encode() + b"\xff\n")
    assert main(["import", "--edition", "x", "--out", str(tmp_path / "e"), str(bad)]) == 2
    assert "не в кодировке UTF-8" in capsys.readouterr().err
    assert main(["import", "--edition", "x", str(bad)]) == 2
    assert "нужна папка редакции --out" in capsys.readouterr().err
    assert main(["import", "--edition", "x", "--out", str(ROOT)]) == 2
    assert "нужны входные файлы" in capsys.readouterr().err
    assert main(["import", str(bad)]) == 2
    assert "только вместе с --edition" in capsys.readouterr().err


def test_our_sources_as_an_edition(tmp_path: Path) -> None:
    sources = sorted((ROOT / "rules" / "sources").glob("*.txt"))
    # with the project's editorial decisions: exactly the project's corpus
    report = import_edition("свод", sources, tmp_path / "ours", ROOT / "rules" / "editorial.toml")
    assert report.ok, report.lines_of_report()
    for path in (tmp_path / "ours" / "rules").glob("*.md"):
        assert path.read_text(encoding="utf-8") == (ROOT / "rules" / path.name).read_text(encoding="utf-8")
    # without them: unnumbered paragraphs join the rule before them; the lines that follow a lost
    # passage («|») or open a source have nothing to join, and each is reported and missing
    bare = import_edition("без решений", sources, tmp_path / "bare")
    assert len([p for p in bare.placements if p.what == "attached"]) > 10
    unplaced = {(p.source, p.line) for p in bare.unplaced}
    assert ("001_9650f60f6bd2280f.txt", 2) in unplaced
    missing = {problem.split(": строка источника")[0] for problem in bare.fidelity}
    assert missing == {f"{source}:{line}" for source, line in unplaced}


def test_editions_compared_rule_by_rule(synthetic: tuple[Path, Path], tmp_path: Path, capsys) -> None:
    text, out = synthetic
    lines = text.read_text(encoding="utf-8").split("\n")
    changed = next(i for i, line in enumerate(lines) if line.startswith("102.3. "))
    removed = next(i for i, line in enumerate(lines) if line.startswith("103.2. "))
    lines[changed] = lines[changed].replace("102.3. ", "102.3. Отныне ", 1)
    del lines[removed]
    lines.insert(removed, "103.99. Новое правило этой редакции.")
    newer = tmp_path / "synth.txt"
    newer.write_text("\n".join(lines), encoding="utf-8")
    editorial = out / "rules" / "editorial.toml"
    assert import_edition("вторая", [newer], tmp_path / "second", editorial).ok
    changes = {c.id: c for c in compare(load_corpus(out), load_corpus(tmp_path / "second"))}
    assert changes["102.3"].kind == "changed" and changes["102.3"].added_words == ["Отныне"]
    assert changes["103.2"].kind == "removed"
    assert changes["103.99"].kind == "added"
    assert len(changes) == 3
    assert main(["compare", str(out), str(tmp_path / "second"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {item["id"] for item in data} == {"102.3", "103.2", "103.99"}
    assert main(["compare", str(out), str(tmp_path / "second")]) == 0
    assert "«синтетическая» → «вторая»: добавлено 1, удалено 1, изменено 1" in capsys.readouterr().out


def test_word_changes() -> None:
    assert word_changes("игрок берёт карту", "игрок берёт две карты") == (["карту"], ["две карты"])


def test_edition_site(synthetic: tuple[Path, Path], tmp_path: Path) -> None:
    """An edition's site: its rules with the project's scenarios attached by number, no warnings."""
    from berserk_rules.commands.site import build_site

    older, small = tmp_path / "older", tmp_path / "small"
    text = generate(sections_per_part=2, terms=30)
    for folder, name, body in (
        (older, "старая", text.replace("201.2. ", "201.2. Прежде ", 1)),
        (small, "малая", text),
    ):
        (folder / "in").mkdir(parents=True)
        (folder / "in" / "synth.txt").write_text(body, encoding="utf-8")
        (folder / "rules").mkdir()
        (folder / "rules" / "editorial.toml").write_text(TITLE_DECISION, encoding="utf-8")
        assert import_edition(name, [folder / "in" / "synth.txt"], folder).ok
    results = tmp_path / "results.json"  # no run yet: every scenario «не запускался»
    warnings = tmp_path / "warnings.txt"
    code = build_site(ROOT, small / "site", results, warnings=warnings, corpus=small, compare=older)
    assert code == 0 and warnings.read_text(encoding="utf-8") == ""
    part3 = (small / "site" / "rules" / "part-3.html").read_text(encoding="utf-8")
    assert 'id="rule-301.1"' in part3
    assert "Сценариев пока нет." in part3  # rules without scenarios show so
    index = (small / "site" / "index.html").read_text(encoding="utf-8")
    assert "малая — свод правил" in index
    scenario_page = (small / "site" / "_generated" / "features" / "part-4" / "401-ochered.html").read_text(
        encoding="utf-8"
    )
    assert "нет в этой редакции" in scenario_page  # 401.x of our scenarios is not in this edition
    assert "Назад" in part3 and "Previous" not in part3  # the theme's words in Russian here too
    changes = (small / "site" / "changes.html").read_text(encoding="utf-8")
    assert "изменено — 1" in changes and "добавлено — 0" in changes
    assert '<span class="berserk-diff">Прежде </span>' in changes  # the word that changed
