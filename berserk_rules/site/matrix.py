"""Sphinx: the «Матрица движков» page (``{berserk-matrix}``) and the engines' SVG badges.

A separate small extension, set up by :mod:`berserk_rules.site`. The results files come
from the ``berserk_matrix`` configuration value (paths separated by ``os.pathsep``; ``berserk-rules
site --matrix RESULTS…`` sets it); without it, the site's own results file (one engine). The page
depends on those files, so it is rebuilt when a run changes them; the badges are written into
``<site>/badges/`` when the build finishes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective

from berserk_rules.report.matrix import build, html_page, load_runs, write_badges
from berserk_rules.report.results import read_results
from berserk_rules.site.data import built_site_data


def matrix_files(app: Sphinx | BuildEnvironment) -> list[Path]:
    value = str(app.config.berserk_matrix or "")
    if value:
        return [Path(p) for p in value.split(os.pathsep) if p]
    own = str(app.config.berserk_results or "")
    root = Path(app.config.berserk_root or Path(app.srcdir).parent)
    return [Path(own) if own else root / "build" / "results.json"]


def matrix_data(app: Sphinx | BuildEnvironment) -> dict[str, Any] | None:
    from berserk_rules.corpus import load_corpus

    files = [p for p in matrix_files(app) if p.is_file()]
    if not files:
        return None
    root = Path(app.config.berserk_root or Path(app.srcdir).parent)
    return build(load_runs(files, read=reader(app)), load_corpus(root))


def reader(app: Sphinx | BuildEnvironment) -> Callable[[Path], dict[str, Any] | None]:
    """Reads a results file — the site's own from what the build has already read (``site_data``):
    with ten times the scenarios that file is 40 MB, 1.4 s and 190 MB each time it is parsed."""
    data = built_site_data(app)
    run: dict[str, Any] | None = data.run if data is not None else None
    own = data.results_path.resolve() if data is not None and run is not None else None

    def read(path: Path) -> dict[str, Any] | None:
        if own is not None and path.resolve() == own:
            return run
        return read_results(path)

    return read


class MatrixDirective(SphinxDirective):
    """The matrix of the configured results files, as HTML."""

    def run(self) -> list[nodes.Node]:
        for path in matrix_files(self.env):
            if path.is_file():
                self.env.note_dependency(str(path.resolve()))
        data = matrix_data(self.env)
        if data is None:
            return [nodes.paragraph(text="Результатов прогона нет: запустите «berserk-rules check».")]
        return [nodes.raw("", html_page(data), format="html")]


def on_build_finished(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    data = matrix_data(app)
    if data is not None:
        write_badges(data, Path(app.outdir) / "badges")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("berserk_matrix", "", "env", types=[str])
    app.add_directive("berserk-matrix", MatrixDirective)
    app.connect("build-finished", on_build_finished)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
