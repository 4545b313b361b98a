"""No user file is lost, and no write failure or hostile text gives a traceback.

* ``export DIR`` builds the vectors in a new folder and swaps it in: an earlier export is replaced,
  the user's own files in it (and whatever a symbolic link in it points to) are kept, a folder of
  something else is refused; Ctrl-C or SIGTERM at any moment leaves the old export or the new one,
  whole, and no temporary folder.
* ``import`` (both forms) writes all or nothing; ``site --corpus`` builds only a complete import.
* A full disk or a folder that cannot be written is one line naming the path and the reason, for
  ``site``, ``export``, ``import`` and ``check --junit``. (Tests run as root here, where a chmod'ed
  folder is still writable: the failures are made by a path under a file and by an ``OSError``
  injected at the write call.)
* ``--junit`` is valid XML whatever an engine says; engine text reaches the terminal with its
  control characters shown, not obeyed.
* ``site --no-check`` with a truncated results file warns in one line and builds without them.
"""

from __future__ import annotations

import errno
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from berserk_rules.cli import main
from berserk_rules.corpus import project_root
from berserk_rules.errors import UserError
from tests.project_kit import CARD, PASSING, as_from_a_terminal, feature, make_project, snapshot

ROOT = project_root()
# What a misbehaving engine may put in a message, a name or a log: an OSC title, a screen clear,
# colour, NUL, a vertical tab, an 8-bit CSI, a bidi override.
NASTY = "\x1b]0;захвачено\x07\x1b[2J\x1b[31mкрасный\x00\x0b\x9b6n\u202e"
RAW = ("\x1b", "\x07", "\x00", "\x0b", "\x9b", "\u202e")

SLOW_HOOK = """

def pytest_runtest_call(item):  # tests/test_user_files.py: a scenario that takes its time
    import os
    import time

    if os.environ.get("BERSERK_TEST_SLOW") and "медленно" in item.name:
        time.sleep(120)
"""


def hidden_leftovers(folder: Path) -> list[str]:
    """Temporary folders or files a command left beside its target."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".") and ".export-" in p.name)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_project(tmp_path / "p", FEATURES)
    with (root / "conftest.py").open("a", encoding="utf-8") as handle:
        handle.write(SLOW_HOOK)
    monkeypatch.chdir(root)
    return root


FEATURES = {"hod.feature": feature(PASSING.format(name="проходит"), PASSING.format(name="медленно"))}


@pytest.fixture(scope="module")
def earlier_export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One ``export`` of the test project, made once: each test starts from a copy of it."""
    root = make_project(tmp_path_factory.mktemp("template") / "p", FEATURES)
    cwd = Path.cwd()
    os.chdir(root)
    try:
        assert main(["export", "vectors"]) == 0
    finally:
        os.chdir(cwd)
    return root / "vectors"


def exported(project: Path, template: Path) -> Path:
    shutil.copytree(template, project / "vectors", symlinks=True)
    return project / "vectors"


def one_line(err: str) -> str:
    lines = [line for line in err.strip().splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


# --- export ---------------------------------------------------------------------------------------


def test_reexport_replaces_only_the_export(
    project: Path, earlier_export: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    exported(project, earlier_export)
    vectors = project / "vectors"
    manifest = json.loads((vectors / ".berserk-export").read_text(encoding="utf-8"))
    assert sorted(manifest["files"]) == ["hod/5.json", "hod/9.json", "index.json"]
    # the user's own things in the export folder: files, a folder, a note beside the vectors,
    # and a symbolic link to a folder outside (never followed, never emptied)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.txt").write_text("не трогать", encoding="utf-8")
    (vectors / "notes.txt").write_text("мои записи", encoding="utf-8")
    (vectors / "mine").mkdir()
    (vectors / "mine" / "a.json").write_text("{}", encoding="utf-8")
    (vectors / "hod" / "note.txt").write_text("заметка", encoding="utf-8")
    (vectors / "link").symlink_to(outside)
    stale = vectors / "hod" / "3.json"  # listed in no manifest: the user's, kept
    stale.write_text("{}", encoding="utf-8")
    capfd.readouterr()
    assert main(["export", "vectors"]) == 0, capfd.readouterr().err
    assert (vectors / "notes.txt").read_text(encoding="utf-8") == "мои записи"
    assert (vectors / "mine" / "a.json").exists() and (vectors / "hod" / "note.txt").exists()
    assert stale.exists()
    assert (vectors / "link").is_symlink() and (outside / "precious.txt").exists()
    assert json.loads((vectors / "index.json").read_text(encoding="utf-8"))["format"] == "berserk-vectors/1"
    assert (vectors / "hod" / "5.json").exists()
    assert hidden_leftovers(project) == []
    # the new folder keeps the usual permissions, not a temporary folder's 0700
    assert (vectors.stat().st_mode & 0o777) == (project.stat().st_mode & 0o777)


def test_export_refuses_to_overwrite_what_it_did_not_write(
    project: Path, earlier_export: Path, tmp_path: Path, capfd
) -> None:
    exported(project, earlier_export)
    vectors = project / "vectors"
    # a vector edited by hand is the user's now: the new export would overwrite it — refused
    (vectors / "hod" / "5.json").write_text('{"мой": 1}', encoding="utf-8")
    before = snapshot(project)
    capfd.readouterr()
    assert main(["export", "vectors"]) == 2
    line = one_line(capfd.readouterr().err)
    assert "записал бы файлы поверх ваших (hod/5.json)" in line and "ничего не изменено" in line
    assert snapshot(project) == before and hidden_leftovers(project) == []
    # a symbolic link in place of a folder of the export: its target is not touched
    shutil.rmtree(vectors / "hod")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "5.json").write_text("чужое", encoding="utf-8")
    (vectors / "hod").symlink_to(outside)
    assert main(["export", "vectors"]) == 2
    assert "(hod)" in one_line(capfd.readouterr().err)
    assert (outside / "5.json").read_text(encoding="utf-8") == "чужое"
    # a folder that is no export at all, and a file
    (project / "other").mkdir()
    (project / "other" / "notes.txt").write_text("мои записи", encoding="utf-8")
    (project / "file").write_text("x", encoding="utf-8")
    assert main(["export", "other"]) == 2
    assert "папка не пуста и это не прежний экспорт" in one_line(capfd.readouterr().err)
    assert main(["export", "file"]) == 2
    assert "это файл" in one_line(capfd.readouterr().err)
    assert (project / "other" / "notes.txt").exists()


def test_export_made_before_manifests_is_replaced_user_files_kept(
    project: Path, earlier_export: Path, capfd
) -> None:
    exported(project, earlier_export)
    vectors = project / "vectors"
    (vectors / ".berserk-export").unlink()  # as an export of the previous version left it
    (vectors / "notes.txt").write_text("мои записи", encoding="utf-8")
    assert main(["export", "vectors"]) == 0, capfd.readouterr().err
    assert (vectors / "notes.txt").exists() and (vectors / ".berserk-export").exists()


def start_export(project: Path, slow: bool = True) -> subprocess.Popen[bytes]:
    env = {**os.environ, "BERSERK_TEST_SLOW": "1" if slow else ""}
    command = [sys.executable, "-m", "berserk_rules.cli", "export", "vectors"]
    proc = subprocess.Popen(
        command,
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
        preexec_fn=as_from_a_terminal,  # Ctrl-C reaches it even if this session ignores SIGINT
    )
    assert proc.stdout is not None
    seen = b""
    while b"." not in seen:  # the first scenario passed: the slow one runs now
        chunk = os.read(proc.stdout.fileno(), 1024)
        assert chunk, "export ended before the slow scenario"
        seen += chunk
    return proc


@pytest.mark.parametrize(
    ("sig", "group", "code", "name"),
    [(signal.SIGTERM, False, 143, "SIGTERM"), (signal.SIGINT, True, 130, "Ctrl-C")],
    ids=["sigterm", "ctrl-c"],
)
def test_interrupted_export_leaves_the_earlier_one(
    project: Path, earlier_export: Path, capfd, sig: int, group: bool, code: int, name: str
) -> None:
    exported(project, earlier_export)
    (project / "vectors" / "notes.txt").write_text("мои записи", encoding="utf-8")
    before = snapshot(project)
    proc = start_export(project)
    if group:
        os.killpg(proc.pid, sig)  # what a terminal's Ctrl-C does
    else:
        os.kill(proc.pid, sig)  # kill PID: only the command hears it, pytest is stopped by it
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert one_line(err.decode()) == (
        f"berserk-rules export: прервано ({name}) — прежний экспорт в {project / 'vectors'} не тронут"
    )
    assert snapshot(project) == before
    assert hidden_leftovers(project) == []


def test_interrupted_first_export_leaves_nothing(project: Path) -> None:
    proc = start_export(project)
    os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143
    assert one_line(err.decode()).endswith(f"папка {project / 'vectors'} не создана")
    assert not (project / "vectors").exists() and hidden_leftovers(project) == []


def test_signal_during_the_swap_waits_for_it(
    project: Path, earlier_export: Path, monkeypatch: pytest.MonkeyPatch, capfd
) -> None:
    """SIGTERM while the new export is being swapped in: the swap completes, then the command stops."""
    from berserk_rules.commands import _folders

    exported(project, earlier_export)
    (project / "vectors" / "notes.txt").write_text("мои записи", encoding="utf-8")
    real = _folders.exchange

    def exchange(first: Path, second: Path) -> bool:
        os.kill(os.getpid(), signal.SIGTERM)
        return real(first, second)

    monkeypatch.setattr(_folders, "exchange", exchange)
    capfd.readouterr()
    assert main(["export", "vectors"]) == 143
    assert "новый экспорт в" in capfd.readouterr().err
    assert (project / "vectors" / "notes.txt").exists() and (project / "vectors" / "hod" / "5.json").exists()
    assert hidden_leftovers(project) == []


def test_exchange_fallback_two_renames(
    project: Path, earlier_export: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the system cannot swap two folders in one step, two renames do, with the same result."""
    from berserk_rules.commands import _folders

    exported(project, earlier_export)
    (project / "vectors" / "notes.txt").write_text("мои записи", encoding="utf-8")
    monkeypatch.setattr(_folders, "exchange", lambda first, second: False)
    assert main(["export", "vectors"]) == 0
    assert (project / "vectors" / "notes.txt").exists() and (project / "vectors" / ".berserk-export").exists()
    assert sorted(p.name for p in project.iterdir() if p.name.startswith(".vectors")) == []


def test_staged_folder_replaces_only_what_is_ours(tmp_path: Path) -> None:
    """The swap on its own: ours replaced or removed, the rest moved over, links never followed."""
    from berserk_rules.commands._folders import StagedFolder

    target, outside = tmp_path / "out", tmp_path / "outside"
    for path, text in {
        "out/a.json": "старое",
        "out/gone/b.json": "старое",
        "out/gone/note.txt": "моё",
        "out/user/x.txt": "моё",
        "outside/b.json": "чужое",
    }.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    (target / "link").symlink_to(outside)
    ours = {"a.json", "gone/b.json", "link/b.json"}
    with StagedFolder(target, "test") as staged:
        (staged.path / "a.json").write_text("новое", encoding="utf-8")
        (staged.path / "c.json").write_text("новое", encoding="utf-8")
        staged.install(lambda rel, entry: rel in ours and entry.is_file(follow_symlinks=False), "тест")
    assert sorted(snapshot(target)) == [
        "a.json",
        "c.json",
        "gone/note.txt",
        "link",
        "user/x.txt",
    ]
    assert (target / "a.json").read_text(encoding="utf-8") == "новое"
    assert (outside / "b.json").read_text(encoding="utf-8") == "чужое"
    assert staged.left == [] and sorted(p.name for p in tmp_path.iterdir()) == ["out", "outside"]
    # a file of the user's where the new output writes: refused, nothing changed, nothing left
    (target / "c.json").write_text("моё", encoding="utf-8")
    before = snapshot(target)
    with pytest.raises(UserError, match=r"поверх ваших \(c.json\)"), StagedFolder(target, "test") as staged:
        (staged.path / "c.json").write_text("новое", encoding="utf-8")
        staged.install(lambda rel, entry: False, "тест")
    assert snapshot(target) == before and sorted(p.name for p in tmp_path.iterdir()) == ["out", "outside"]


def fail_writes(monkeypatch: pytest.MonkeyPatch, code: int, when: Any) -> None:
    """``Path.write_text`` and ``write_bytes`` raise ``OSError(code)`` for the paths ``when`` accepts."""
    for method in ("write_text", "write_bytes"):
        real = getattr(pathlib.Path, method)

        def failing(self: Path, *args: Any, _real: Any = real, **kwargs: Any) -> int:
            if when(self):
                raise OSError(code, os.strerror(code))
            return int(_real(self, *args, **kwargs))

        monkeypatch.setattr(pathlib.Path, method, failing)


def test_export_on_a_full_disk_is_one_line(
    project: Path, earlier_export: Path, monkeypatch: pytest.MonkeyPatch, capfd
) -> None:
    exported(project, earlier_export)
    (project / "vectors" / "notes.txt").write_text("мои записи", encoding="utf-8")
    before = snapshot(project)
    fail_writes(monkeypatch, errno.ENOSPC, lambda path: path.name == "index.json")
    capfd.readouterr()
    assert main(["export", "vectors"]) == 2
    line = one_line(capfd.readouterr().err)
    assert "нет места на диске (ENOSPC)" in line and "прежний экспорт в" in line and "не тронут" in line
    assert snapshot(project) == before and hidden_leftovers(project) == []


def test_export_into_a_path_under_a_file_is_one_line(project: Path, capfd) -> None:
    (project / "afile").write_text("x", encoding="utf-8")
    assert main(["export", "afile/vectors"]) == 2
    line = one_line(capfd.readouterr().err)
    assert "afile: часть пути — файл, а не папка (ENOTDIR)" in line


# --- import ---------------------------------------------------------------------------------------

EDITION = "Часть 1. Общее.\n101. Раздел\n101.1. Первое правило.\n101.2. Второе правило.\n"


@pytest.fixture
def edition(tmp_path: Path, capfd) -> Path:
    """An imported edition with the user's things in its folder (input text, notes)."""
    folder = tmp_path / "ed"
    (folder / "in").mkdir(parents=True)
    (folder / "in" / "text.txt").write_text(EDITION, encoding="utf-8")
    (folder / "notes.md").write_text("мои заметки", encoding="utf-8")
    code = main(["import", "--edition", "проба", "--out", str(folder), str(folder / "in" / "text.txt")])
    assert code in (0, 1), capfd.readouterr()
    capfd.readouterr()
    return folder


def test_edition_import_is_marked_complete_and_keeps_user_files(edition: Path, capfd) -> None:
    marker = json.loads((edition / ".berserk-import").read_text(encoding="utf-8"))
    assert marker["name"] == "проба" and "rules/part-1.md" in marker["files"]
    assert (edition / "notes.md").exists() and (edition / "in" / "text.txt").exists()
    (edition / "rules" / "mine.md").write_text("своё", encoding="utf-8")
    text = edition / "in" / "text.txt"
    text.write_text(EDITION.replace("Второе", "Иное"), encoding="utf-8")
    assert main(["import", "--edition", "проба", "--out", str(edition), str(text)]) in (0, 1)
    assert "Иное" in (edition / "rules" / "part-1.md").read_text(encoding="utf-8")
    assert (edition / "rules" / "mine.md").exists() and (edition / "notes.md").exists()
    assert f"редакция «проба»: {edition}" in capfd.readouterr().out  # not the temporary folder
    assert not [p for p in edition.parent.iterdir() if p.name.startswith(".ed.")]


def test_failed_edition_import_leaves_the_old_edition(
    edition: Path, monkeypatch: pytest.MonkeyPatch, capfd
) -> None:
    before = snapshot(edition)
    text = edition / "in" / "text.txt"
    text.write_text(EDITION + "Часть 2. Ещё.\n201. Раздел\n201.1. Правило.\n", encoding="utf-8")
    before = snapshot(edition)
    fail_writes(monkeypatch, errno.ENOSPC, lambda path: path.name == "part-2.md")
    assert main(["import", "--edition", "проба", "--out", str(edition), str(text)]) == 2
    line = one_line(capfd.readouterr().err)
    assert "нет места на диске (ENOSPC)" in line and "прежняя редакция" in line
    assert snapshot(edition) == before
    assert not [p for p in edition.parent.iterdir() if p.name.startswith(".ed.")]
    # a first import that fails leaves no folder at all
    fresh = edition.parent / "fresh"
    assert main(["import", "--edition", "проба", "--out", str(fresh), str(text)]) == 2
    assert "папка" in one_line(capfd.readouterr().err) and not fresh.exists()


def test_edition_import_refuses_a_folder_of_other_things(tmp_path: Path, capfd) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "diary.txt").write_text("мои записи", encoding="utf-8")
    text = tmp_path / "text.txt"
    text.write_text(EDITION, encoding="utf-8")
    assert main(["import", "--edition", "проба", "--out", str(other), str(text)]) == 2
    assert "папка не пуста и это не папка редакции" in one_line(capfd.readouterr().err)
    assert sorted(p.name for p in other.iterdir()) == ["diary.txt"]


def test_site_corpus_refuses_an_incomplete_import(
    edition: Path, capfd, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    (edition / ".berserk-import").unlink()  # as a half-written folder of an import that failed
    assert main(["site", "--no-check", "--corpus", str(edition), "--out", str(edition / "site")]) == 2
    line = one_line(capfd.readouterr().err)
    assert "это не завершённый импорт редакции — нет отметки о завершённом импорте (.berserk-import)" in line
    assert not (edition / "site").exists()


def rules_project(tmp_path: Path) -> Path:
    root = tmp_path / "r"
    root.mkdir()
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    shutil.copytree(ROOT / "rules", root / "rules")
    (root / "features").mkdir()
    return root


def test_failed_import_leaves_rules_as_they_were(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd
) -> None:
    root = rules_project(tmp_path)
    monkeypatch.chdir(root)
    out = root / "out"
    assert main(["import", "--out", str(out)]) == 0
    for name in ("part-1.md", "part-3.md"):  # two files the next import rewrites
        (out / name).write_text("старое", encoding="utf-8")
    before = snapshot(out)
    written: list[str] = []

    def second_write_fails(path: Path) -> bool:
        written.append(path.name)
        return len(written) == 2

    fail_writes(monkeypatch, errno.ENOSPC, second_write_fails)
    capfd.readouterr()
    assert main(["import", "--out", str(out)]) == 2
    line = one_line(capfd.readouterr().err)
    assert "импорт не записан" in line and "нет места на диске (ENOSPC)" in line
    assert snapshot(out) == before  # nothing half-written, no temporary file left


# --- JUnit XML and engine text ---------------------------------------------------------------------


def hostile_results() -> dict[str, Any]:
    return {
        "schema": 1,
        "engine": {"name": "движок" + NASTY, "version": "1\x00"},
        "scenarios": [
            {
                "id": "features/a.feature:5",
                "file": "features/a.feature",
                "line": 5,
                "name": "сценарий" + NASTY,
                "rules": ["401.3"],
                "status": "failed",
                "message": "AssertionError: " + NASTY + "\nвторая строка\ud800",
            },
            {
                "id": "features/a.feature:9",
                "file": "features/a.feature",
                "line": 9,
                "name": "два",
                "rules": ["401.3"],
                "status": "error",
                "error": "engine" + NASTY,
                "message": "decision(): " + NASTY,
            },
            {"id": "features/a.feature:12", "name": "три", "status": "skipped", "message": NASTY},
        ],
    }


def test_junit_is_valid_xml_whatever_the_engine_says(tmp_path: Path) -> None:
    from berserk_rules.report.junit import write_junit

    path = tmp_path / "junit.xml"
    write_junit(hostile_results(), path)
    suites = ET.parse(path).getroot()  # invalid XML raises here
    assert (
        suites.get("name")
        == "berserk-rules: движок\\x1b]0;захвачено\\x07\\x1b[2J\\x1b[31mкрасный\\x00\\x0b\x9b6n\u202e 1\\x00"
    )
    failure = next(suites.iter("failure"))
    assert failure.text is not None and failure.text.startswith("AssertionError: \\x1b]0;")
    assert failure.text.endswith("вторая строка\\ud800")
    assert (
        next(suites.iter("error")).get("type")
        == "engine\\x1b]0;захвачено\\x07\\x1b[2J\\x1b[31mкрасный\\x00\\x0b\x9b6n\u202e"
    )
    assert not [p.name for p in tmp_path.iterdir() if p.name != "junit.xml"]  # no temporary file left


def test_terminal_text_shows_control_characters() -> None:
    from berserk_rules.commands._common import TerminalFilter, terminal_text

    assert terminal_text("a\x1b[2Jb\tc\nd\r\ne\rf\x9b\u202e") == "a\\x1b[2Jb\tc\nd\ne\\x0df\\x9b\\u202e"
    safe = TerminalFilter()
    data = "ok \x1b[1m\x1b[31mкрасный\x1b[0m \x1b[2J \x1b]0;t\x07 ё\r\nx\ry\x1b[8mскрыто".encode()
    out = b"".join(safe.feed(data[i : i + 1]) for i in range(len(data))) + safe.feed(b"", final=True)
    assert out.decode() == (
        "ok \x1b[1m\x1b[31mкрасный\x1b[0m \\x1b[2J \\x1b]0;t\\x07 ё\nx\\x0dy\\x1b[8mскрыто"
    )


HOSTILE_DRIVER = f"""
from berserk_rules.reference.driver import ReferenceDriver

NASTY = {NASTY!r}


class HostileDriver(ReferenceDriver):
    name = "движок" + NASTY
    version = "1"

    def decision(self):
        if "Злодей" in self.cards:
            raise RuntimeError("сбой" + NASTY)
        return super().decision()

    def start(self, setup):
        self.cards = setup.get("cards", {{}})
        super().start(setup)
"""


def test_engine_text_reaches_terminal_and_junit_safely(tmp_path: Path) -> None:
    root = make_project(
        tmp_path / "p",
        {"hod.feature": feature(PASSING.format(name="проходит"), CARD.format(name="злодей", card="Злодей"))},
        {"hostile_driver.py": HOSTILE_DRIVER},
    )
    command = [sys.executable, "-m", "berserk_rules.cli", "check", "--driver", "hostile_driver:HostileDriver"]
    command += ["--junit", "build/junit.xml"]
    done = subprocess.run(command, cwd=root, capture_output=True, timeout=300, check=False)
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 1, out + err
    assert "сбой\\x1b]0;захвачено\\x07\\x1b[2J" in out  # shown as text …
    assert not [c for c in RAW if c in out + err]  # … never as a command to the terminal
    suites = ET.parse(root / "build" / "junit.xml").getroot()
    error = next(suites.iter("error"))
    assert "сбой\\x1b]0;захвачено" in (error.text or "")
    results = root / "build" / "results.json"
    done = subprocess.run(
        [sys.executable, "-m", "berserk_rules.cli", "matrix", str(results), "--failures", "1"],
        cwd=root,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    shown = done.stdout.decode()
    assert "сбой\\x1b]0;захвачено" in shown and not [c for c in RAW if c in shown]


def test_matrix_shows_engine_text_safely(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd) -> None:
    monkeypatch.chdir(ROOT)
    path = tmp_path / "r.json"
    data = hostile_results()
    for scenario in data["scenarios"]:
        scenario["message"] = scenario["message"].replace("\ud800", "")
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    for argv in ([], ["--failures", "1"], ["--json"]):
        assert main(["matrix", str(path), *argv]) == 0
        out = capfd.readouterr().out
        assert not [c for c in RAW if c in out], (argv, out)
        assert "захвачено" in out


# --- write failures: one line ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        (errno.ENOSPC, "нет места на диске (ENOSPC)"),
        (errno.EROFS, "файловая система только для чтения (EROFS)"),
        (errno.EACCES, "нет прав на запись (EACCES)"),
        (errno.ENOTDIR, "часть пути — файл, а не папка (ENOTDIR)"),
    ],
)
def test_os_error_line(code: int, reason: str) -> None:
    from berserk_rules.commands._common import os_error_line

    assert os_error_line(OSError(code, os.strerror(code), "/x/y")) == f"/x/y: {reason}"
    assert os_error_line(OSError(code, os.strerror(code)), Path("/z")) == f"/z: {reason}"


@pytest.mark.parametrize(
    ("code", "reason"), [(errno.ENOSPC, "нет места"), (errno.EROFS, "только для чтения")]
)
def test_junit_write_failure_is_one_line_and_keeps_the_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd, code: int, reason: str
) -> None:
    root = make_project(tmp_path / "p", {"hod.feature": feature(PASSING.format(name="проходит"))})
    monkeypatch.chdir(root)

    def failing(*args: Any, **kwargs: Any) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(ET.ElementTree, "write", failing)
    assert main(["check", "--junit", "build/junit.xml"]) == 2
    line = one_line(capfd.readouterr().err)
    assert line.startswith(
        "berserk-rules check: ошибка: --junit: отчёт не записан (результаты в build/results.json"
    )
    assert "build/junit.xml: " in line and reason in line
    assert json.loads((root / "build" / "results.json").read_text(encoding="utf-8"))["summary"]["passed"] == 1
    # no half-written report beside them (.cache: the parses check keeps for the next run)
    assert sorted(p.name for p in (root / "build").iterdir() if p.name != ".cache") == ["results.json"]


def test_junit_into_a_path_under_a_file_is_said_before_the_run(project: Path, capfd) -> None:
    (project / "afile").write_text("x", encoding="utf-8")
    assert main(["check", "--junit", "afile/junit.xml"]) == 2
    line = one_line(capfd.readouterr().err)
    assert "--junit afile/junit.xml: нельзя писать в afile: часть пути — файл, а не папка (ENOTDIR)" in line
    assert not (project / "build").exists()


# --- site -----------------------------------------------------------------------------------------


@pytest.fixture
def site_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_project(tmp_path / "p", {"hod.feature": feature(PASSING.format(name="проходит"))})
    shutil.copytree(ROOT / "docs", root / "docs", ignore=shutil.ignore_patterns("_generated"))
    # the protocol page includes the schemas (../berserk_rules/harness/schemas): the package itself, not a
    # copy of that folder — a bare berserk_rules/ folder in the project would shadow the installed package
    # (a namespace package) for every subprocess started there
    (root / "berserk_rules").symlink_to(ROOT / "berserk_rules", target_is_directory=True)
    shutil.copytree(ROOT / "runners" / "js", root / "runners" / "js")  # the protocol page includes its runner
    monkeypatch.chdir(root)
    return root


@pytest.mark.slow  # builds the site
def test_site_with_a_truncated_results_file_warns_in_one_line(site_project: Path, capfd) -> None:
    results = site_project / "build" / "results.json"
    results.parent.mkdir()
    results.write_text('{"schema": 1, "scenarios": [{"id"', encoding="utf-8")
    code = main(["site", "--no-check"])
    out, err = capfd.readouterr()
    assert code == 1, out + err
    assert "Traceback" not in out + err and "Sphinx" not in out + err
    assert err.strip().splitlines() == [
        f"berserk-rules site: предупреждение: результаты не загружены: {results}:1: "
        "файл результатов — не JSON: пропущено двоеточие (позиция 34) — сайт собирается без них "
        "(все сценарии «не запускался»); "
        "запустите «berserk-rules check»"
    ]
    assert (site_project / "build" / "site" / "index.html").exists()
    assert f"Итог: {results}:1: файл результатов — не JSON" in out


def test_site_into_a_path_under_a_file_is_one_line(site_project: Path, capfd) -> None:
    (site_project / "afile").write_text("x", encoding="utf-8")
    assert main(["site", "--no-check", "--out", "afile/site"]) == 2
    line = one_line(capfd.readouterr().err)
    assert line.startswith("berserk-rules site: ошибка: --out: нельзя писать в")
    assert "afile: часть пути — файл, а не папка (ENOTDIR)" in line


@pytest.mark.slow  # builds the site
def test_site_on_a_full_disk_is_one_line(site_project: Path, monkeypatch: pytest.MonkeyPatch, capfd) -> None:
    """Sphinx's own crash report is replaced by one line when the build fails to write."""
    import sphinx.application

    class FullDisk:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(sphinx.application, "Sphinx", FullDisk)
    assert main(["site", "--no-check"]) == 2
    out, err = capfd.readouterr()
    line = one_line(err)
    assert line == (
        f"berserk-rules site: ошибка: сайт не собран: не удалось записать {site_project / 'build' / 'site'}: "
        "нет места на диске (ENOSPC)"
    )
    assert "Traceback" not in out


def test_parallel_write_failure_is_recognised() -> None:
    from sphinx.errors import SphinxParallelError

    from berserk_rules.commands.site import os_error_of

    found = os_error_of(SphinxParallelError("OSError: [Errno 28] No space left on device", "tb"))
    assert found is not None and found.errno == errno.ENOSPC and found.filename is None
    found = os_error_of(SphinxParallelError("PermissionError: [Errno 13] Permission denied: '/a/b'", "tb"))
    assert found is not None and (found.errno, found.filename) == (errno.EACCES, "/a/b")
    assert os_error_of(SphinxParallelError("KeyError: 'x'", "tb")) is None


# --- on a real full disk and a real read-only file system (where this machine lets us mount) ------


@pytest.fixture
def small_disks(tmp_path: Path) -> Any:
    """(a full tmpfs, a read-only tmpfs); skipped where mounting is not allowed (not root, no
    CAP_SYS_ADMIN) — the injected errors above cover the same code everywhere."""
    if shutil.which("mount") is None or shutil.which("umount") is None:
        pytest.skip("нет программы mount")
    full, read_only = tmp_path / "full", tmp_path / "ro"
    mounted: list[Path] = []
    try:
        for folder, options in ((full, "size=64k"), (read_only, "ro,size=64k")):
            folder.mkdir()
            command = ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)]
            done = subprocess.run(command, capture_output=True, check=False)
            if done.returncode != 0:
                pytest.skip(f"tmpfs не смонтировать: {done.stderr.decode().strip()}")
            mounted.append(folder)
        handle = os.open(full / "fill", os.O_WRONLY | os.O_CREAT)  # fill it: later writes get ENOSPC
        try:
            while os.write(handle, b"\0" * 4096):
                pass
        except OSError:
            pass
        finally:
            os.close(handle)
        yield full, read_only
    finally:
        for path in mounted:
            subprocess.run(["umount", str(path)], check=False)


@pytest.mark.slow  # builds the site
def test_real_full_disk_and_read_only_folder(site_project: Path, small_disks: Any, capfd) -> None:
    full, read_only = small_disks
    text = site_project / "text.txt"
    text.write_text(EDITION, encoding="utf-8")
    cases = [
        (["export", str(full / "vectors")], "нет места на диске (ENOSPC)"),
        (["export", str(read_only / "vectors")], "файловая система только для чтения (EROFS)"),
        (["import", "--edition", "x", "--out", str(full / "ed"), str(text)], "нет места на диске (ENOSPC)"),
        (
            ["import", "--edition", "x", "--out", str(read_only / "ed"), str(text)],
            "только для чтения (EROFS)",
        ),
        (["site", "--no-check", "--out", str(full / "site")], "нет места на диске (ENOSPC)"),
        (["site", "--no-check", "--out", str(read_only / "site")], "только для чтения (EROFS)"),
    ]
    for argv, reason in cases:
        capfd.readouterr()
        assert main(argv) == 2, argv
        out, err = capfd.readouterr()
        line = one_line(err)
        assert reason in line, (argv, line)
        assert "Traceback" not in out
    assert not [p.name for p in full.iterdir() if p.name.startswith(".")]  # no temporary folder left
    assert list(read_only.iterdir()) == []
