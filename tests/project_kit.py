"""A small copy of the real project for tests that run ``berserk-rules check`` end to end.

The copy has the real ``pyproject.toml``, ``conftest.py``, ``tests/test_rulebook.py`` and
``rules/`` (so the real steps, plugin and corpus are used), and only the feature files a test
gives it — a run takes a second or two instead of the whole suite's time.
"""

from __future__ import annotations

import hashlib
import shutil
import signal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A scenario that passes on the reference engine, with real steps (306.1: the choice phase).
PASSING = """\
  Сценарий: {name}
    Дано идёт фаза выбора игрока А
    Тогда игроку А доступны действия: передача хода
"""


# A scenario whose position describes one card: drivers that misbehave on purpose key on its name.
CARD = """\
  Сценарий: {name}
    Дано карты:
      | название | тип      | удар | жизни |
      | {card} | существо | 1    | 1     |
    И идёт фаза выбора игрока А
    Тогда игроку А доступны действия: передача хода
"""


def feature(*scenarios: str, tags: str = "@rule-306.1") -> str:
    """A feature file with these scenario blocks (each starting with «  Сценарий:»)."""
    return "# language: ru\n" + tags + "\nФункция: Проба\n\n" + "\n".join(scenarios)


def make_project(root: Path, features: dict[str, str], files: dict[str, str] | None = None) -> Path:
    """The project at ``root`` with ``features`` ({"x.feature": text}) under ``features/``."""
    root.mkdir(parents=True, exist_ok=True)
    for name in ("pyproject.toml", "conftest.py"):
        shutil.copy(ROOT / name, root / name)
    (root / "tests").mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "tests" / "test_rulebook.py", root / "tests" / "test_rulebook.py")
    shutil.copytree(ROOT / "rules", root / "rules", ignore=shutil.ignore_patterns("sources"))
    (root / "features").mkdir(exist_ok=True)
    for name, text in features.items():
        (root / "features" / name).write_text(text, encoding="utf-8")
    for name, text in (files or {}).items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def as_from_a_terminal() -> None:
    """``preexec_fn`` of a command a test stops with Ctrl-C (``os.killpg(pid, SIGINT)``): the command
    starts with SIGINT at its default, as a terminal's foreground job does, and so turns it into
    KeyboardInterrupt. A test session started in the background by a shell without job control
    (``pytest … &`` in a script, how long runs are often started) has SIGINT *ignored*, every child
    inherits that, and the «Ctrl-C» would never reach the command: the test would fail for a reason
    of its own start (returncode 1 instead of 130, a run that never stops)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


BYTECODE_CACHE = "__pycache__"
PARSE_CACHE = "build/.cache/"  # check keeps its parses of the feature files there (features.DISK_CACHE)


def snapshot(root: Path, *, parse_cache: bool = True) -> dict[str, str]:
    """Every file under ``root`` (symbolic links as links) -> a digest of its content.

    Python's bytecode caches (``__pycache__``) are left out: running pytest in a project writes them
    for its ``conftest.py`` and tests unless ``PYTHONDONTWRITEBYTECODE`` is set, and they are no
    file of the project — a comparison of two snapshots must not depend on that variable.
    ``parse_cache=False``: the parses ``check`` keeps in the project's ``build/.cache/`` are left out
    too (a test of what a run leaves of its results); kept by default, so that a folder nothing may
    write (the installed suite) is held to that."""
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if BYTECODE_CACHE in path.relative_to(root).parts:
            continue
        if not parse_cache and rel.startswith(PARSE_CACHE):
            continue
        if path.is_symlink():
            found[rel] = "link:" + str(path.readlink())
        elif path.is_file():
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found
