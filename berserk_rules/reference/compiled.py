"""The compiled reference engine: the same source (``engine/berserk_engine/``) compiled to C extension
modules with mypyc, the compiler mypy ships (as black and mypy itself ship compiled builds of
pure-Python code).

Nothing changes in the rules or in the code a reader reads: the compiled engine is built from the very
files of the package ``berserk_engine``, and ``tests/test_compiled.py`` holds it to the pure-Python one
(every scenario passes; seeded random games give the same log and the same final position). It is
about twice as fast, which is what ``berserk-rules bench --compiled`` measures; the editable install
stays pure Python, so editing the engine (and ``tools/mutants.py``) needs no build.

A build goes to ``build/compiled/<fingerprint>/`` of the project: a copy of the source with the
compiled ``.so`` modules beside it, importable by putting that folder first on ``PYTHONPATH``. The
fingerprint covers the sources, the mypy version and the Python version, so a build is made once and
reused until something of these changes; a new build removes the earlier ones. It needs mypy
(``pip install -e ".[dev]"``) and a C compiler.

Left uncompiled: ``grammar.py`` — the converters of its typed slots carry a ``pattern`` attribute
that ``parse`` reads, and a compiled function takes no attributes; the grammar runs when cards are
read, not while a game is played. ``serve.py`` — the process protocol's ``Session`` is meant to be
subclassed by other engines' sessions (the test engines ``tests/engines/broken_engine.py`` and
``last_request_engine.py`` do), and an interpreted class cannot inherit from a compiled one; there
JSON in and out is the cost, not the session.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

from berserk_rules.errors import UserError

UNCOMPILED = ("grammar.py", "serve.py")
# the card reader's grammar of Russian: its classes extend lark's (a compiled class cannot inherit from
# an interpreted one), and its readings are cached — it is not on the hot path of a game
UNCOMPILED_PACKAGES = ("language",)
DONE = "complete"  # the marker file of a complete build

_SETUP = """\
import sys
from mypyc.build import mypycify
from setuptools import setup

files = sys.argv[sys.argv.index("--") + 1 :]
del sys.argv[sys.argv.index("--") :]
setup(
    name="berserk-engine-compiled",
    py_modules=[],
    ext_modules=mypycify(["--ignore-missing-imports", *files], multi_file=True),
)
"""


def engine_source() -> Path:
    """The folder of the package ``berserk_engine`` as installed (``engine/berserk_engine/`` in an
    editable install)."""
    import berserk_engine

    return Path(berserk_engine.__file__).resolve().parent


def _sources(source: Path) -> list[Path]:
    return sorted(p for p in source.rglob("*.py") if "__pycache__" not in p.parts)


def fingerprint(source: Path) -> str:
    """What a build depends on: the engine's files, mypy's version and Python's."""
    try:
        from mypy.version import __version__ as mypy_version
    except ImportError:
        mypy_version = "нет"
    digest = hashlib.sha256()
    digest.update(
        f"{mypy_version}|{sys.version}|{platform.machine()}|{UNCOMPILED}|{UNCOMPILED_PACKAGES}".encode()
    )
    for path in _sources(source):
        digest.update(path.relative_to(source).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def build(root: Path, *, jobs: int = 2, quiet: bool = False) -> Path:
    """Build the compiled engine (or find the build already made) under ``root/build/compiled`` and
    return the folder to put first on ``PYTHONPATH``. A failed build is a :class:`UserError` naming its
    log; nothing half-built is ever used."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        raise UserError(
            'для сборки скомпилированного движка нужен mypy (mypyc): pip install -e ".[dev]"'
        ) from None
    source = engine_source()
    stamp = fingerprint(source)
    target = root / "build" / "compiled" / stamp
    if (target / DONE).is_file():
        return target
    work = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    shutil.rmtree(work, ignore_errors=True)
    package = work / "berserk_engine"
    shutil.copytree(source, package, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
    (work / "setup_compiled.py").write_text(_SETUP, encoding="utf-8")
    files = [
        p.relative_to(work).as_posix()
        for p in _sources(package)
        if p.name not in UNCOMPILED and p.relative_to(package).parts[0] not in UNCOMPILED_PACKAGES
    ]
    log = work.with_suffix(".log")
    if not quiet:
        print(f"berserk-rules: компилирую движок ({len(files)} модулей, mypyc) в {target} …", file=sys.stderr)
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run(
            [sys.executable, "setup_compiled.py", "build_ext", "--inplace", "-j", str(jobs), "--", *files],
            cwd=work,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=False,
        )
    if done.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)  # the log stays, for the message below
        tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-15:]
        raise UserError(
            f"сборка скомпилированного движка не удалась (код {done.returncode}), журнал: {log}\n"
            + "\n".join(tail)
        )
    shutil.rmtree(work / "build", ignore_errors=True)
    (work / "setup_compiled.py").unlink()
    log.unlink()
    if target.exists():  # built meanwhile by another process: keep that one
        shutil.rmtree(work, ignore_errors=True)
    else:
        (work / DONE).write_text(stamp + "\n", encoding="utf-8")
        work.rename(target)
    for old in target.parent.iterdir():  # earlier builds (about 14 MB each) and logs are not kept
        if old != target and (old / DONE).is_file():
            shutil.rmtree(old, ignore_errors=True)
        elif old.suffix == ".log" and not old.with_suffix(".tmp").exists():  # not a build under way
            old.unlink(missing_ok=True)
    return target


def environment(folder: Path) -> dict[str, str]:
    """The environment of a process that imports the compiled engine from ``folder``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(folder), env.get("PYTHONPATH", "")) if p)
    return env
