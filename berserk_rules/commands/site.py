"""``berserk-rules site``: run every scenario (``check``), then build the website with Sphinx.

The site is built even when scenarios fail, so that the failures are visible on it; the exit code
is non-zero when the check or the build failed.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from berserk_rules.commands._common import WriteError, check_writable_folder, results_path
from berserk_rules.errors import UserError
from berserk_rules.report.results import read_results

PARALLEL = os.cpu_count() or 1  # Sphinx's «-j auto»: read and write in that many processes


def build_site(
    root: Path,
    out: Path,
    results: Path,
    doctrees: Path | None = None,
    warnings: Path | None = None,
    matrix: list[Path] | None = None,
    corpus: Path | None = None,
    compare: Path | None = None,
) -> int:
    """Build ``<root>/docs`` into ``out`` with ``results`` as the results file; 0, or 1 when the
    build warned (warnings are errors, as ``sphinx-build -W -n --keep-going``), or 2 when it failed.

    Incremental: pages are rebuilt when their sources, the results or the scenarios change.
    ``warnings``: also write the warnings into this file. ``corpus``: an edition's folder
    (``import --edition``): its pages are generated next to ``out`` and built with ``docs/conf.py``.
    A failed write (full disk, read-only folder) raises :class:`WriteError` (one line); any other
    failure of Sphinx is one line too, with the traceback saved to a file.
    """
    from berserk_rules.rulebook import features

    srcdir = root / "docs"
    overrides: dict[str, Any] = {
        "berserk_results": str(results),
        "berserk_root": str(root),
        "nitpicky": True,
    }
    if matrix:
        overrides["berserk_matrix"] = os.pathsep.join(str(p) for p in matrix)
    if corpus is not None:
        from berserk_rules.site.editions import edition_pages

        srcdir = edition_pages(root, corpus, out.parent / (out.name + ".src"), compare)
        overrides["berserk_corpus"] = str(corpus.resolve())
    cached = features.DISK_CACHE
    features.DISK_CACHE = True  # the site reads every feature on each build: keep the parses
    try:
        with warnings_to(warnings) as warning_stream:
            return run_sphinx(
                srcdir,
                root / "docs",
                out,
                doctrees or out.parent / (out.name + ".doctrees"),
                overrides,
                warning_stream,
            )
    finally:
        features.DISK_CACHE = cached


@contextmanager
def warnings_to(path: Path | None) -> Iterator[TextIO]:
    """Sphinx's warnings go to stderr and, with ``path``, also into that file (as ``sphinx-build -w``)."""
    if path is None:
        yield sys.stderr
        return
    from sphinx.util.console import strip_colors

    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as file:

        class Both:
            def write(self, text: str) -> int:
                sys.stderr.write(text)
                file.write(strip_colors(text))
                return len(text)

            def flush(self) -> None:
                sys.stderr.flush()
                file.flush()

        yield Both()  # type: ignore[misc]


def run_sphinx(
    srcdir: Path, confdir: Path, out: Path, doctrees: Path, overrides: dict[str, Any], warning: TextIO
) -> int:
    """One Sphinx build through its public application class, as ``sphinx-build -W -n --keep-going
    -q -b html -j auto`` does (the same docutils set-up); Sphinx's status code."""
    from sphinx.application import Sphinx
    from sphinx.util.console import color_terminal, nocolor
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    if not color_terminal():  # as sphinx-build --color auto: no colour codes into a pipe or a file
        nocolor()
    try:
        with patch_docutils(confdir), docutils_namespace():
            app = Sphinx(
                srcdir=srcdir,
                confdir=confdir,
                outdir=out,
                doctreedir=doctrees,
                buildername="html",
                confoverrides=overrides,
                status=None,
                warning=warning,
                warningiserror=True,
                parallel=PARALLEL,
            )
            app.build()
            return int(app.statuscode)
    except (Exception, KeyboardInterrupt) as exc:
        found = os_error_of(exc)
        if found is not None:
            raise WriteError(found, out, "сайт не собран: не удалось записать") from exc
        if isinstance(exc, KeyboardInterrupt):
            raise
        print(f"berserk-rules site: ошибка: {sphinx_failure(exc)}", file=sys.stderr)
        return 2


def sphinx_failure(exc: BaseException) -> str:
    """One line for a failed Sphinx build: what failed and where its traceback was saved."""
    import tempfile
    import traceback

    from sphinx.errors import SphinxError

    kind = exc.category if isinstance(exc, SphinxError) else type(exc).__name__
    first = (str(exc).strip().splitlines() or [""])[0]
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", prefix="berserk-site-", suffix=".log", delete=False
    ) as log:
        log.write("".join(traceback.format_exception(exc)))
    return f"сборка сайта прервалась: {kind}: {first} (трассировка: {log.name})"


PARALLEL_OS_ERROR_RE = re.compile(r"\A\w*Error: \[Errno (\d+)\] (.*?)(?:: '(.*)')?\Z", re.S)


def os_error_of(exc: BaseException) -> OSError | None:
    """The :class:`OSError` a Sphinx build failed with — raised in this process, or reported by a
    parallel worker as text (``SphinxParallelError: OSError: [Errno 28] …``) — else None."""
    if isinstance(exc, OSError):
        return exc
    from sphinx.errors import SphinxParallelError

    if isinstance(exc, SphinxParallelError):
        found = PARALLEL_OS_ERROR_RE.match(str(exc).strip())
        if found:
            return OSError(int(found.group(1)), found.group(2), found.group(3))
    cause = exc.__cause__ or exc.__context__
    return os_error_of(cause) if cause is not None and cause is not exc else None


def run(args: argparse.Namespace) -> int:
    from berserk_rules.corpus import project_root

    root = project_root()
    results = results_path(root, args.results)
    corpus = Path(args.corpus).resolve() if getattr(args, "corpus", None) else None
    compare = Path(args.compare).resolve() if getattr(args, "compare", None) else None
    if compare is not None and corpus is None:
        raise UserError("--compare работает вместе с --corpus: сравнивается редакция из --corpus")
    if compare is not None and not (compare / "rules").is_dir():
        raise UserError(f"--compare {args.compare}: нет папки rules/ — это не папка редакции")
    if corpus is not None and not (corpus / "rules").is_dir():
        raise UserError(f"--corpus {args.corpus}: нет папки rules/ — это не папка редакции")
    if corpus is not None:
        from berserk_rules.commands._folders import incomplete_import

        why = incomplete_import(corpus)
        if why is not None:  # a half-written or hand-made folder is not built as if it were an edition
            raise UserError(
                f"--corpus {args.corpus}: это не завершённый импорт редакции — {why}; импортируйте её "
                f"заново: berserk-rules import --edition ИМЯ --out {args.corpus} ФАЙЛ…"
            )
    default_out = corpus / "site" if corpus is not None else Path("build/site")
    out = Path(args.out) if args.out else default_out
    out = out if out.is_absolute() else root / out
    if not (root / "docs" / "conf.py").is_file():
        raise UserError(f"нет исходников сайта: {root / 'docs' / 'conf.py'}")
    from berserk_rules.corpus import load_corpus

    load_corpus(root)  # a broken rules/*.md is a file:line error here, not a failed Sphinx build

    check_code = 0
    if not args.no_check:
        from berserk_rules.commands import check

        check_code = int(check.run(args) or 0)
        if check_code in (2, check.INTERRUPTED):  # bad input or Ctrl-C: nothing to show
            return check_code
        if check_code:
            print(
                "berserk-rules site: проверка сценариев не прошла; сайт всё равно собирается, "
                "чтобы это было видно"
            )
    elif not results.exists() and args.results:
        raise UserError(f"--results {args.results}: нет такого файла ({results})")
    elif not results.exists():
        print(f"berserk-rules site: файла результатов {results} нет — все сценарии будут «не запускался»")
    from berserk_rules.site.data import read_run

    shown_results = results
    document: dict[str, Any] | UserError | None  # read once: for the build's check and the summary
    try:
        document = statuses_only(read_run(results))  # the build's own read: parsed once (site.data)
    except UserError as exc:  # a truncated or broken file: said in one line, the site shows no run
        document = exc
        print(
            f"berserk-rules site: предупреждение: результаты не загружены: {exc} — сайт собирается без "
            "них (все сценарии «не запускался»); запустите «berserk-rules check»",
            file=sys.stderr,
        )
        check_code = check_code or 1
        shown_results = Path(os.devnull) / "no-results.json"  # a path under a file: never exists
    check_writable_folder(out, "--out")

    started = time.perf_counter()
    matrix = [Path(p).resolve() for p in getattr(args, "matrix", None) or []]
    for path in matrix:
        if not path.is_file():
            raise UserError(f"--matrix {path}: нет такого файла результатов")
        read_results(path)  # a broken one is a file:line error here, not in the middle of the build
    build_code = build_site(root, out, shown_results, matrix=matrix, corpus=corpus, compare=compare)
    elapsed = time.perf_counter() - started
    index = out / "index.html"
    if build_code:
        print(f"berserk-rules site: сборка сайта не удалась (код {build_code}) за {elapsed:.1f} с")
    else:
        print(f"Сайт: {index}")
        print(f"Сборка: {elapsed:.1f} с")
    print(summary_line(root, document, check_code, build_code))
    return 1 if (check_code or build_code) else 0


def statuses_only(document: dict[str, Any] | None) -> dict[str, Any] | None:
    """What :func:`summary_line` needs of a results document: each scenario's id and status. The
    build reads the file for itself; the whole document, held through the build, was 190 MB more
    at the top of its memory with ten times the project's scenarios."""
    if document is None:
        return None
    return {"scenarios": [{"id": r["id"], "status": r.get("status")} for r in document["scenarios"]]}


def summary_line(
    root: Path, document: dict[str, Any] | UserError | None, check_code: int, build_code: int
) -> str:
    """One line: scenario statuses of the latest run (``document``: the results file as read, or
    why it could not be read) and the outcome of check and build."""
    from berserk_rules.report.coverage import STATUS_NAMES
    from berserk_rules.report.results import STATUSES, count
    from berserk_rules.site.data import cached_scenarios

    try:
        scenarios = cached_scenarios(root)
        if isinstance(document, UserError):
            raise document
    except UserError as exc:
        return f"Итог: {exc}"
    records = {record["id"]: record for record in document["scenarios"]} if document else {}
    counts = count(str(records.get(ref.id, {}).get("status") or "not run") for ref in scenarios)
    parts = [
        f"{STATUS_NAMES.get(status, status)} — {counts[status]}" for status in STATUSES if counts.get(status)
    ]
    verdict = "сайт собран" if not build_code else "сайт НЕ собран"
    if check_code:
        verdict += ", проверка НЕ пройдена"
    return f"Итог: сценариев {len(scenarios)} ({', '.join(parts) or 'нет'}); {verdict}."
