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

Every checkout of the project on a machine (a fresh clone, a git worktree, the clone CI tests) shares
the builds too: a new build is also left in ``~/.cache/berserk-rules/compiled/<fingerprint>/``
(``$XDG_CACHE_HOME`` if set; ``BERSERK_COMPILE_CACHE`` names another folder, or ``off``), and a checkout
that has no build of its fingerprint copies that one (0.1 s) instead of compiling (about 36 s of CPU at
``-O0``, issue 28, thirteenth round) — as pip keeps the wheels it built. The same fingerprint is the
same source, mypy and Python, so the copy is the build the checkout would make; the cache keeps the
three builds of each level used last.

The C code is compiled at ``-O3`` (mypyc's default). The environment variable ``BERSERK_COMPILE_OPT``
(0–3) chooses another level, and the level is part of the fingerprint (builds of different levels are
kept side by side): ``tests/test_compiled.py`` builds at ``-O0`` — it checks that the compiled engine
plays the same game, not how fast it plays, and gcc compiles mypyc's C at ``-O0`` for about half the
CPU time of ``-O3``.

With gcc, the build precompiles the two headers every C file of a kind includes first (mypyc's header of
the engine's declarations for the modules' C, ``Python.h`` for the small shim of each module): each is
read once for the whole build instead of once per file, −18 % of the CPU time of the ``-O0`` build here
(47.6 → 39.1 s; issue 28, ninth round). gcc uses a ``.gch`` only when it was made with the very options
of the file it compiles and reads the header itself otherwise, so the precompiled headers change how long
a build takes, never what it builds; with another compiler they are not made.

The C files of the one extension mypyc makes of all the modules are compiled ``-j`` at a time, the
largest first (distutils compiles the files of an extension one after another; ``-j`` only builds
extensions side by side): with two processes the ``-O3`` build takes 39 s instead of 65 s by the clock
here, the ``-O0`` one 22 s instead of 31 s, for the same CPU time (issue 28, eleventh round).

Every module of the engine is compiled but these, which cannot be: ``serve.py`` — the process protocol's
``Session`` is meant to be subclassed by other engines' sessions (the test engines
``tests/engines/broken_engine.py`` and ``last_request_engine.py`` do), and an interpreted class cannot
inherit from a compiled one (there JSON in and out is the cost, not the session); and the package
``language`` — the card reader's grammar of Russian, whose classes extend lark's (a compiled class cannot
inherit from an interpreted one). ``grammar.py``, the reader's sentence layer, is compiled since issue 28's
eighth round (it was left out as «not on a game's hot path»; compiled, it plays the same games and passes
every scenario).
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

from berserk_rules.errors import UserError
from berserk_rules.reference.reading_cache import user_cache_folder

UNCOMPILED = ("serve.py",)
# the card reader's grammar of Russian: its classes extend lark's (a compiled class cannot inherit from
# an interpreted one), and its readings are cached — it is not on the hot path of a game
UNCOMPILED_PACKAGES = ("language",)
DONE = "complete"  # the marker file of a complete build
OPT_LEVEL = "BERSERK_COMPILE_OPT"  # environment: the C compiler's optimisation level of a build
LEVELS = ("0", "1", "2", "3")
# environment: the folder of the builds shared by the checkouts of this machine, or «off»
CACHE = "BERSERK_COMPILE_CACHE"
SHARED_KEPT = 3  # builds of each level kept in the shared cache (the ones used last)

_SETUP = """\
import os
import subprocess
import sys
import sysconfig
from multiprocessing.pool import ThreadPool

from mypyc.build import mypycify
from setuptools import setup
from setuptools.command.build_ext import build_ext


def first_include(source):
    with open(source, encoding="utf-8") as f:
        line = f.readline().strip()
    return line[len("#include ") :] if line.startswith("#include ") else None


class BuildExt(build_ext):
    \"\"\"build_ext, with the header every C file of a kind includes first compiled once for all of them
    (gcc's precompiled headers): mypyc's own header for the modules' C, Python.h for the small module
    shims. gcc takes a .gch only when it was made with the same options, else it reads the header as
    always; so this changes how long the build takes, never what it builds.\"\"\"

    def build_extensions(self):
        try:
            version = subprocess.run(
                [self.compiler.compiler_so[0], "--version"], capture_output=True, text=True, check=False
            ).stdout
        except OSError:  # no compiler: the build itself says so
            version = ""
        if "Free Software Foundation" in version:  # gcc (clang reads a .gch only when told to)
            self.precompile()
        if self.parallel and self.parallel > 1:
            self.compiler.compile = self.compile_in_parallel
        super().build_extensions()

    def compile_in_parallel(
        self, sources, output_dir=None, macros=None, include_dirs=None, debug=0, extra_preargs=None,
        extra_postargs=None, depends=None,
    ):
        \"\"\"The compiler's compile, its C files in ``-j`` processes at a time, the largest first: ``-j``
        builds extensions side by side, but mypyc puts every module's C into one extension, whose files
        distutils compiles one after another.\"\"\"
        cc = self.compiler
        macros, objects, extra_postargs, pp_opts, build = cc._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs
        )
        cc_args = cc._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj):
            src, ext = build[obj]
            cc._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        todo = sorted((obj for obj in objects if obj in build), key=lambda o: -os.path.getsize(build[o][0]))
        with ThreadPool(self.parallel) as pool:
            pool.map(one, todo, chunksize=1)
        return objects

    def precompile(self):
        cc = self.compiler
        done = set()
        for ext in self.extensions:
            header = first_include(ext.sources[0])
            if header is None:
                continue
            if header.startswith('"'):  # mypyc's header, beside the C files
                path = os.path.join(os.path.dirname(ext.sources[0]), header.strip('"'))
                output = path + ".gch"
            elif header == "<Python.h>" and len(ext.sources) == 1:  # a module shim
                path = os.path.join(sysconfig.get_paths()["include"], "Python.h")
                folder = os.path.join(self.build_temp, "pch")
                ext.include_dirs.insert(0, folder)  # searched first: gcc finds Python.h.gch there
                output = os.path.join(folder, "Python.h.gch")
            else:
                continue
            if output in done:
                continue
            done.add(output)
            os.makedirs(os.path.dirname(output), exist_ok=True)
            includes = [f"-I{d}" for d in [*ext.include_dirs, *cc.include_dirs]]
            options = [*cc.compiler_so, *includes, *ext.extra_compile_args]
            made = subprocess.run(
                [*options, "-x", "c-header", path, "-o", output], capture_output=True, text=True, check=False
            )
            if made.returncode != 0:  # no precompiled header: the C files read the header themselves
                print(f"precompiled header {output} not made: {made.stderr[-500:]}", flush=True)


level, *files = sys.argv[sys.argv.index("--") + 1 :]
del sys.argv[sys.argv.index("--") :]
setup(
    name="berserk-engine-compiled",
    py_modules=[],
    ext_modules=mypycify(["--ignore-missing-imports", *files], multi_file=True, opt_level=level),
    cmdclass={"build_ext": BuildExt},
)
"""


def engine_source() -> Path:
    """The folder of the package ``berserk_engine`` as installed (``engine/berserk_engine/`` in an
    editable install)."""
    import berserk_engine

    return Path(berserk_engine.__file__).resolve().parent


def _sources(source: Path) -> list[Path]:
    return sorted(p for p in source.rglob("*.py") if "__pycache__" not in p.parts)


def opt_level() -> str:
    """The C optimisation level of a build: ``BERSERK_COMPILE_OPT`` if set, else mypyc's ``3``."""
    level = os.environ.get(OPT_LEVEL, "").strip() or "3"
    if level not in LEVELS:
        raise UserError(f"{OPT_LEVEL}={level!r}: уровень оптимизации C — одно из {', '.join(LEVELS)}")
    return level


def fingerprint(source: Path, level: str = "3") -> str:
    """What a build depends on: the engine's files, mypy's version, Python's, the C optimisation level
    and the build's own recipe (the setup script, precompiled headers included) — a build shared by
    another checkout (:func:`shared_cache`) is taken only if it was made the same way."""
    try:
        from mypy.version import __version__ as mypy_version
    except ImportError:
        mypy_version = "нет"
    digest = hashlib.sha256()
    tools = f"{mypy_version}|{sys.version}|{platform.machine()}"
    digest.update(f"{tools}|{UNCOMPILED}|{UNCOMPILED_PACKAGES}|-O{level}|{_SETUP}".encode())
    for path in _sources(source):
        digest.update(path.relative_to(source).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def shared_cache() -> Path | None:
    """The folder of builds shared by every checkout of the project on this machine (``CACHE``, else
    ``$XDG_CACHE_HOME/berserk-rules/compiled``, else ``~/.cache/berserk-rules/compiled``); None when
    ``CACHE`` is ``off`` (the rule of the readings' cache: ``reading_cache.user_cache_folder``)."""
    return user_cache_folder(CACHE, "compiled")


def build(root: Path, *, jobs: int = 2, quiet: bool = False) -> Path:
    """Build the compiled engine (or find the build already made) under ``root/build/compiled`` and
    return the folder to put first on ``PYTHONPATH``. A build of the same fingerprint made by another
    checkout is copied from :func:`shared_cache` instead of built again, and a new build is left there
    for the others. A failed build is a :class:`UserError` naming its log; nothing half-built is ever
    used."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        raise UserError(
            'для сборки скомпилированного движка нужен mypy (mypyc): pip install -e ".[dev]"'
        ) from None
    level = opt_level()
    source = engine_source()
    stamp = fingerprint(source, level)
    target = root / "build" / "compiled" / stamp
    if (target / DONE).is_file():
        return target
    work = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    shutil.rmtree(work, ignore_errors=True)
    cache = shared_cache()
    cached = cache / stamp if cache is not None else None
    if cached is not None and _copied(cached, stamp, work):
        if not quiet:
            print(f"berserk-rules: скомпилированный движок взят из {cached}", file=sys.stderr)
    else:
        _compile(source, work, target, level, jobs, quiet)
        (work / DONE).write_text(f"{stamp} -O{level}\n", encoding="utf-8")
        if cached is not None:
            _share(work, cached, level)
    if target.exists():  # built meanwhile by another process: keep that one
        shutil.rmtree(work, ignore_errors=True)
    else:
        work.rename(target)
    # earlier builds at this level (about 14 MB each) and logs are not kept; another level's build is
    # (the tests' -O1 build does not evict a developer's -O3 one, nor the other way round)
    for old in target.parent.iterdir():
        if old != target and _level_of(old / DONE) == level:
            shutil.rmtree(old, ignore_errors=True)
        elif old.suffix == ".log" and not old.with_suffix(".tmp").exists():  # not a build under way
            old.unlink(missing_ok=True)
    return target


def _compile(source: Path, work: Path, target: Path, level: str, jobs: int, quiet: bool) -> None:
    """The build itself, into ``work``: a copy of the source and its compiled modules."""
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
        print(
            f"berserk-rules: компилирую движок ({len(files)} модулей, mypyc, -O{level}) в {target} …",
            file=sys.stderr,
        )
    command = [sys.executable, "setup_compiled.py", "build_ext", "--inplace", "-j", str(jobs)]
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run(
            [*command, "--", level, *files],
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


def _copied(cached: Path, stamp: str, work: Path) -> bool:
    """Copy the shared build of this fingerprint to ``work``, if there is a complete one (its marker is
    written before it appears there by a rename); False, and nothing in ``work``, otherwise."""
    try:
        done = cached / DONE
        if not done.is_file() or done.read_text(encoding="utf-8").split()[:1] != [stamp]:
            return False
        shutil.copytree(cached, work, ignore=shutil.ignore_patterns("__pycache__"))
        os.utime(done)  # used now: the last of its level to be evicted
    except OSError:  # evicted meanwhile by another checkout, or unreadable: built here instead
        shutil.rmtree(work, ignore_errors=True)
        return False
    return True


def _share(work: Path, cached: Path, level: str) -> None:
    """Leave a copy of the new build in the shared cache (appearing whole, by a rename) and keep there
    the :data:`SHARED_KEPT` builds of this level used last. The cache is a convenience: a folder that
    cannot be written only costs the next checkout a build."""
    copy = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(work, copy, ignore=shutil.ignore_patterns("__pycache__"))
        if cached.exists():  # shared meanwhile by another process
            shutil.rmtree(copy, ignore_errors=True)
        else:
            copy.rename(cached)
        builds = [b for b in cached.parent.iterdir() if _level_of(b / DONE) == level]
        builds.sort(key=lambda b: (b / DONE).stat().st_mtime, reverse=True)
        for old in builds[SHARED_KEPT:]:
            shutil.rmtree(old, ignore_errors=True)
        for left in cached.parent.glob("*.tmp"):  # copies of interrupted runs, a day old
            if time.time() - left.stat().st_mtime > 86400:
                shutil.rmtree(left, ignore_errors=True)
    except OSError as error:
        shutil.rmtree(copy, ignore_errors=True)
        print(f"berserk-rules: сборка не оставлена в общем кэше {cached.parent}: {error}", file=sys.stderr)


def _level_of(done: Path) -> str | None:
    """The optimisation level of a complete build by its marker file (builds made before levels were
    recorded are -O3), None for a folder that is not a complete build."""
    if not done.is_file():
        return None
    words = done.read_text(encoding="utf-8").split()
    return words[1].removeprefix("-O") if len(words) > 1 else "3"


def environment(folder: Path) -> dict[str, str]:
    """The environment of a process that imports the compiled engine from ``folder``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(folder), env.get("PYTHONPATH", "")) if p)
    return env
