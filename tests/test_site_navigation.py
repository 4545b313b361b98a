"""The sidebar made without BeautifulSoup (berserk_rules.site.navigation.navigation_tree) is, character
for character, what furo makes of the same toctree HTML (furo.navigation.get_navigation_tree) — or it
declines and furo makes it."""

from __future__ import annotations

from typing import Any

import pytest

from berserk_rules.site.navigation import navigation_tree

furo_navigation = pytest.importorskip("furo.navigation")

CAPTION = '<p class="caption" role="heading"><span class="caption-text">{}</span></p>\n'


def entry(level: int, href: str, title: str, current: bool = False, inner: str = "") -> str:
    classes = f"toctree-l{level}" + (" current" if current else "")
    own = "current " if current and not inner else ""
    link = f'<a class="{own}reference internal" href="{href}">{title}</a>'
    return f'<li class="{classes}">{link}{inner}</li>\n'


def listing(items: str, current: bool = False) -> str:
    return ('<ul class="current">' if current else "<ul>") + f"\n{items}</ul>\n"


def furo(html: str) -> str:
    return str(furo_navigation.get_navigation_tree.__wrapped__(html))


SIDEBARS = {
    "no current page": CAPTION.format("Правила")
    + listing(entry(1, "rules/part-1.html", "Часть 1: правило 119.8") + entry(1, "glossary.html", "Часть 7."))
    + CAPTION.format("Проверка правил")
    + listing(
        entry(1, "interpretations.html", "Реестр толкований")
        + entry(
            1,
            "_generated/scenarios.html",
            "Сценарии",
            inner=listing(entry(2, "_generated/features/part-1/a.html", "119.8 Частично выполненная")),
        )
    ),
    "a current page two levels down": CAPTION.format("Проверка правил")
    + listing(
        entry(1, "../../interpretations.html", "Реестр толкований")
        + entry(
            1,
            "../scenarios.html",
            "Сценарии",
            current=True,
            inner=listing(
                entry(2, "../part-1/a.html", "119.8 Частично выполненная")
                + entry(2, "#", "201. Типы зон", current=True)
                + entry(2, "b.html", "202. Игровая зона"),
                current=True,
            ),
        )
        + entry(1, "../../judges.html", "Судьям"),
        current=True,
    ),
    "three levels, two with children": listing(
        entry(
            1,
            "a.html",
            "А",
            inner=listing(
                entry(2, "b.html", "Б", inner=listing(entry(3, "c.html", "В"))) + entry(2, "d.html", "Г")
            ),
        )
        + entry(1, "e.html", "Д", inner=listing(entry(2, "f.html", "Е")))
    ),
    "the current page is a top entry": listing(
        entry(1, "#", "Свод", current=True) + entry(1, "x.html", "Икс")
    ),
}


@pytest.mark.parametrize("name", sorted(SIDEBARS))
def test_the_sidebar_is_what_furo_makes(name: str) -> None:
    html = SIDEBARS[name]
    made = navigation_tree(html)
    assert made is not None
    assert made == furo(html)


@pytest.mark.parametrize(
    "html",
    [
        listing(entry(1, "a.html", "«Сказал &quot;да&quot;»")),  # furo writes the quote out as it is
        listing(entry(1, "a.html", "<span>Выделено</span>")),  # a link with markup inside
        "<!-- a comment -->" + listing(entry(1, "a.html", "А")),
        '<ul>\n<li class="toctree-l1"><span>no link first</span></li>\n</ul>\n',
        "",
    ],
)
def test_what_it_cannot_be_sure_of_is_left_to_furo(html: str) -> None:
    assert navigation_tree(html) is None


# --- the sidebar rendered once per folder (berserk_rules.site.navigation.sidebar_html) --------------

SMALL_SITE = {
    "index.rst": "Свод\n====\n\n.. toctree::\n   :caption: Правила\n\n   rules/one\n   rules/two\n\n"
    ".. toctree::\n   :caption: Проверка\n   :hidden:\n\n   checks/index\n   about\n",
    "about.rst": "О своде\n=======\n\nТекст.\n\nРаздел\n------\n\nЕщё.\n",
    "rules/one.rst": "Часть 1\n=======\n\nПравило.\n\nРаздел\n------\n\nТекст.\n",
    "rules/two.rst": "Часть 2\n=======\n\nПравило.\n",
    "checks/index.rst": "Сценарии\n========\n\n.. toctree::\n\n   part/a\n   part/b\n   deeper/c\n",
    "checks/part/a.rst": "Сценарий А\n==========\n\nШаги.\n\nПодраздел\n---------\n\nЕщё.\n",
    "checks/part/b.rst": "Сценарий Б\n==========\n\nШаги.\n",
    "checks/deeper/c.rst": "Сценарий В\n==========\n\n.. toctree::\n\n   d\n",
    "checks/deeper/d.rst": "Сценарий Г\n==========\n\nШаги.\n",
}

CONF = """
html_theme = "furo"
language = "ru"


def setup(app):
    from berserk_rules.site.navigation import on_html_page_context, place_sidebar, titles_only_tocs

    app.connect("write-started", titles_only_tocs)
    app.connect("html-page-context", on_html_page_context, priority=400)
    app.connect("html-page-context", lambda app, *args: place_sidebar(args[2]), priority=900)
"""


def build_small_site(tmp: Any, out_name: str) -> dict[str, str]:
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    src = tmp / "src"
    if not src.is_dir():
        for name, text in SMALL_SITE.items():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            (src / name).write_text(text, encoding="utf-8")
        (src / "conf.py").write_text(CONF, encoding="utf-8")
    out = tmp / out_name
    with docutils_namespace():
        app = Sphinx(src, src, out, tmp / (out_name + ".doctrees"), "html", status=None, warning=None)
        app.build()
    return {str(p.relative_to(out)): p.read_text(encoding="utf-8") for p in sorted(out.rglob("*.html"))}


def test_the_sidebar_of_a_folder_marked_per_page_is_what_each_page_renders(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from berserk_rules.site import navigation

    rendered: list[str] = []
    render = navigation.rendered_sidebar

    def counted(app: Any, docname: str) -> str:
        rendered.append(docname)
        return str(render(app, docname))

    monkeypatch.setattr(navigation, "rendered_sidebar", counted)
    once = build_small_site(tmp_path, "once")
    assert all(name.endswith(navigation.STAND_IN) for name in rendered)  # no page was rendered for itself
    assert len(rendered) == 5  # one per folder: "", rules, checks, checks/part, checks/deeper
    monkeypatch.setattr(navigation, "mark_current", lambda html, href: None)
    each = build_small_site(tmp_path, "each")
    assert once.keys() == each.keys()
    assert [name for name in once if once[name] != each[name]] == []
    assert 'class="current reference internal" href="#"' in once["checks/deeper/d.html"]


@pytest.mark.parametrize(
    "href",
    ["a.html", "b.html"],  # linked twice; linked with an anchor
)
def test_a_page_linked_irregularly_is_rendered_for_itself(href: str) -> None:
    from berserk_rules.site.navigation import mark_current

    html = listing(
        entry(1, "a.html", "А") + entry(1, "a.html", "А снова") + entry(1, "b.html#x", "Б, раздел")
    )
    assert mark_current(html, href) is None
    assert mark_current(html, "c.html") == html  # not in the sidebar: nothing to mark
