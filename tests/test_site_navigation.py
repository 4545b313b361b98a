"""The sidebar made without BeautifulSoup (berserk_rules.site.navigation.navigation_tree) is, character
for character, what furo makes of the same toctree HTML (furo.navigation.get_navigation_tree) — or it
declines and furo makes it."""

from __future__ import annotations

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
