"""Sphinx's post-transforms skipped on pages without the nodes they look for
(berserk_rules.site.transforms): every one of them is found and replaced in its place, and a small
site is written the same with and without the replacement."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docutils import nodes

from berserk_rules.site import transforms

PAGES = {
    "index.rst": "Свод\n====\n\n.. toctree::\n\n   code\n   plain\n",
    "code.rst": "Код\n===\n\n.. highlight:: python\n\n::\n\n   >>> print(1)  # doctest: +SKIP\n   1\n\n"
    ".. code-block:: gherkin\n\n   Функция: пример\n\n"
    "=====  =====\nА      Б\n=====  =====\n1      2\n=====  =====\n\n.. math::\n\n   a + b\n\n"
    ".. only:: html\n\n   Только в HTML.\n\n.. only:: latex\n\n   Только в LaTeX.\n",
    "plain.rst": "Текст\n=====\n\nПросто текст, без кода, таблиц и картинок.\n",
}

CONF = """
html_theme = "furo"
language = "ru"
SKIP = {skip}


def setup(app):
    if SKIP:
        from berserk_rules.site.transforms import skip_where_nothing_to_do

        app.connect("builder-inited", skip_where_nothing_to_do)
"""


def build(tmp: Path, skip: bool) -> tuple[dict[str, str], list[str]]:
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    name = "skip" if skip else "all"
    src = tmp / f"src-{name}"
    src.mkdir()
    for page, text in PAGES.items():
        (src / page).write_text(text, encoding="utf-8")
    (src / "conf.py").write_text(CONF.format(skip=skip), encoding="utf-8")
    out = tmp / name
    with docutils_namespace():
        app = Sphinx(src, src, out, tmp / f"{name}.doctrees", "html", status=None, warning=None)
        app.build()
        registered = [f"{t.__module__}.{t.__qualname__}" for t in app.registry.post_transforms]
    pages = {str(p.relative_to(out)): p.read_text(encoding="utf-8") for p in sorted(out.rglob("*.html"))}
    return pages, registered


def test_the_pages_are_written_the_same_with_the_transforms_skipped(tmp_path: Path) -> None:
    skipped, registered = build(tmp_path, True)
    every, original = build(tmp_path, False)
    assert set(transforms.LOOKS_FOR) <= set(original)  # Sphinx and furo still have each of them
    replaced = [
        name for name, was in zip(registered, original, strict=True) if name != was
    ]  # in their places, by the module's subclasses
    assert len(replaced) == len(transforms.LOOKS_FOR)
    assert all(name.startswith("berserk_rules.site.transforms.") for name in replaced)
    assert skipped == every
    code = skipped["code.html"]
    assert "highlight-python" in code and "highlight-gherkin" in code  # highlighted as before
    assert "doctest: +SKIP" not in code  # the flag trimmed
    assert "table-wrapper" in code and "math-wrapper" in code and "Только в LaTeX" not in code


def test_a_page_without_the_kinds_is_left_alone() -> None:
    document = nodes.document(None, None)  # type: ignore[arg-type]
    document += nodes.paragraph("", "текст")
    assert not transforms.has_any(document, (nodes.literal_block,))
    assert transforms.has_any(document, (nodes.paragraph,))
    assert transforms.has_any(document, (nodes.Element,))  # a subclass counts


def test_a_transform_is_wrapped_once(tmp_path: Path) -> None:
    from sphinx.transforms.post_transforms.code import HighlightLanguageTransform

    made: Any = transforms.skipping(HighlightLanguageTransform)
    assert transforms.skipping(HighlightLanguageTransform) is made
    assert made.default_priority == HighlightLanguageTransform.default_priority
