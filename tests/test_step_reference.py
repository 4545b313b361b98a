"""What each step asks of the engine (issue 27, item 4): ``docs/step-reference.md`` is generated from
the steps as they run (:mod:`berserk_rules.report.step_reference`), and the protocol page reads whole
as plain text (``berserk-rules docs protocol|steps``)."""

from __future__ import annotations

import difflib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from berserk_rules.commands.docs import rendered
from berserk_rules.harness import messages
from berserk_rules.report.step_reference import REFERENCE, Reads, key_name, leaves, traced
from berserk_rules.steps import all as _all  # noqa: F401 - registers every step
from berserk_rules.steps.registry import KIND_NAMES, STEPS

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "berserk_rules" / "harness" / "schemas"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "berserk_rules.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow  # the whole suite once, in process
def test_the_reference_is_what_the_steps_ask(tmp_path: Path) -> None:
    """Regenerated, the reference is the committed file: a step that starts to ask something else
    (another request, another field) fails here until the reference is regenerated with it."""
    out = tmp_path / "step-reference.md"
    done = subprocess.run(
        [sys.executable, "-m", "berserk_rules.report.step_reference", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    fresh = out.read_text(encoding="utf-8")
    committed = (ROOT / REFERENCE).read_text(encoding="utf-8")
    diff = "".join(
        difflib.unified_diff(committed.splitlines(True), fresh.splitlines(True), REFERENCE, "заново")
    )
    assert fresh == committed, (
        f"{REFERENCE} не совпадает с тем, что спрашивают шаги — пересоздайте его: "
        f"python -m berserk_rules.report.step_reference\n{diff[:4000]}"
    )


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        (["--help"], 0, "ФАЙЛ.md"),  # the usage, not a file named «--help» after a whole run
        (["--bogus"], 2, "неизвестные аргументы: --bogus"),
        (["a.md", "b.md"], 2, "неизвестные аргументы: b.md"),
        (["нет-такой-папки/ref.md"], 2, "нет папки нет-такой-папки"),
    ],
)
def test_the_generator_reads_its_arguments_before_running(
    tmp_path: Path, args: list[str], code: int, said: str
) -> None:
    """Help and bad arguments are answered at once: the suite does not run, nothing is written."""
    done = subprocess.run(
        [sys.executable, "-m", "berserk_rules.report.step_reference", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == code, done.stdout + done.stderr
    assert said in done.stdout + done.stderr
    assert list(tmp_path.iterdir()) == []


def test_every_step_of_the_dictionary_has_its_section() -> None:
    text = (ROOT / REFERENCE).read_text(encoding="utf-8")
    sections = re.findall(r"^## `(.*)`$", text, re.M)
    assert sections == [f"{KIND_NAMES[d.kind]} {d.pattern}" for d in STEPS]
    # the three steps the issue names, as an author reads them
    for step, field in (
        ("Когда начинается ход игрока {p:P}", 'позиция `start` = `"turn"`'),
        ("Тогда Очередь пуста", "`observe.queue`"),
    ):
        section = text.split(f"## `{step}`", 1)[1].split("\n## ", 1)[0]
        assert field in section, section


def test_traced_answers_note_the_fields_read() -> None:
    reads = Reads()
    view = traced(
        {"players": {"А": {"hand": {"count": 2}}}, "queue": [], "play": [{"name": "Гном"}]},
        reads,
        ("observe",),
    )
    assert view["players"]["А"]["hand"]["count"] == 2
    assert view["queue"] == []
    assert [card["name"] for card in view["play"]] == ["Гном"]
    assert "decision" not in view
    paths = {tuple(key_name(k) for k in p) for p in reads.paths}
    assert leaves(paths) == [
        ("observe", "decision"),
        ("observe", "play", "[]", "name"),
        ("observe", "players", "{игрок}", "hand", "count"),
        ("observe", "queue"),
    ]
    assert key_name("[Закрыть]: выстрел на 2.") == "{ключ}"


def test_docs_protocol_is_complete_without_sphinx() -> None:
    done = cli("docs", "protocol")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "```{" not in text  # no directive left: the table and the files are written in
    for m in messages.MESSAGES:
        assert f"| `{m.name}` |" in text
    for schema in sorted(SCHEMAS.glob("*.schema.json")):
        assert json.loads(schema.read_text(encoding="utf-8"))["$id"] in text, schema.name
    assert "export function replay(" in text  # the JavaScript runner, included
    assert text == rendered(ROOT / "docs" / "protocol.md")
    steps = cli("docs", "steps")
    assert steps.returncode == 0 and steps.stdout == (ROOT / REFERENCE).read_text(encoding="utf-8")
    where = cli("docs", "steps", "--path")
    assert Path(where.stdout.strip()) == ROOT / REFERENCE
