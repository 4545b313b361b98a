"""``berserk-rules site`` builds through Sphinx's public application class and ends a failed build
with one line: a failed write names the folder and the reason; any other failure of Sphinx names
what failed and the file its traceback was saved to (Sphinx's own multi-line crash report is not
shown, and no private Sphinx function is patched)."""

from __future__ import annotations

import errno
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from berserk_rules.cli import main
from tests.project_kit import PASSING, feature, make_project

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def site_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_project(tmp_path / "p", {"hod.feature": feature(PASSING.format(name="проходит"))})
    shutil.copytree(ROOT / "docs", root / "docs", ignore=shutil.ignore_patterns("_generated"))
    # the protocol page includes the schemas (../berserk_rules/harness/schemas): the package itself, not a
    # copy of that folder — a bare berserk_rules/ folder in the project would shadow the installed package
    # (a namespace package) for every subprocess started there
    (root / "berserk_rules").symlink_to(ROOT / "berserk_rules", target_is_directory=True)
    monkeypatch.chdir(root)
    return root


def failing_sphinx(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
    import sphinx.application

    class Failing:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise error

    monkeypatch.setattr(sphinx.application, "Sphinx", Failing)


def lines(err: str) -> list[str]:
    return [line for line in err.strip().splitlines() if line.strip()]


def test_no_private_sphinx_api_is_used() -> None:
    files = [ROOT / "berserk_rules" / "commands" / "site.py", *(ROOT / "berserk_rules" / "site").glob("*.py")]
    for path in files:
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"\bsphinx(\.\w+)*\._", source), path  # a private Sphinx module
        assert not re.search(r"from sphinx[\w.]* import [^\n]*\b_\w", source), path  # a private name
        assert "handle_exception" not in source, path


def test_a_failed_write_in_a_parallel_worker_is_one_line(
    site_project: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    from sphinx.errors import SphinxParallelError

    failing_sphinx(
        monkeypatch, SphinxParallelError("PermissionError: [Errno 13] Permission denied: '/x/y'", "tb")
    )
    assert main(["site", "--no-check"]) == 2
    err = capfd.readouterr().err
    assert lines(err) == [
        "berserk-rules site: ошибка: сайт не собран: не удалось записать /x/y: нет прав на запись (EACCES)"
    ], err
    assert "Traceback" not in err


def test_another_sphinx_failure_is_one_line_with_the_traceback_saved(
    site_project: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    from sphinx.errors import ExtensionError

    failing_sphinx(monkeypatch, ExtensionError("расширение сломано"))
    assert main(["site", "--no-check"]) == 1
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err
    (line,) = lines(err)
    found = re.fullmatch(
        r"berserk-rules site: ошибка: сборка сайта прервалась: Extension error: расширение сломано "
        r"\(трассировка: (.+\.log)\)",
        line,
    )
    assert found, line
    saved = Path(found.group(1))
    try:
        text = saved.read_text(encoding="utf-8")
        assert "Traceback" in text and "ExtensionError" in text
    finally:
        saved.unlink()
    assert "сборка сайта не удалась (код 2)" in out


def test_ctrl_c_during_the_build_is_not_a_crash_report(
    site_project: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    failing_sphinx(monkeypatch, KeyboardInterrupt())
    code = main(["site", "--no-check"])
    assert code != 0
    assert "Traceback" not in "".join(capfd.readouterr())


def test_a_real_errno_is_kept(
    site_project: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    failing_sphinx(monkeypatch, OSError(errno.EROFS, "Read-only file system"))
    assert main(["site", "--no-check"]) == 2
    (line,) = lines(capfd.readouterr().err)
    assert line.startswith("berserk-rules site: ошибка: сайт не собран: не удалось записать")
    assert line.endswith("(EROFS)"), line
