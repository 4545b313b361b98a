"""Sphinx configuration of the berserk-rules site (Russian, furo, no remote assets)."""

from __future__ import annotations

from pathlib import Path

project = "Берсерк. Герои — исполняемый свод правил"
author = "Редакция berserk-rules"
copyright = "2026, редакция berserk-rules"
language = "ru"

extensions = ["myst_parser", "berserk_rules.site"]
myst_enable_extensions = ["colon_fence", "deflist"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

nitpicky = True  # a broken {rule} reference fails the build under -W
suppress_warnings: list[str] = []

html_theme = "furo"
html_title = "Берсерк. Герои — свод правил"
html_short_title = "Свод правил"
html_search_language = "ru"
html_static_path = ["_static"]
templates_path = ["_templates"]  # furo's page, search and icons with Russian words; the «go to rule» box
html_favicon = "_static/favicon.svg"
html_sidebars = {
    "**": [
        "sidebar/brand.html",
        "sidebar/search.html",
        "sidebar/goto.html",
        "sidebar/scroll-start.html",
        "sidebar/navigation.html",
        "sidebar/scroll-end.html",
    ]
}
html_css_files = ["berserk.css"]
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None
html_theme_options = {
    # ←/→ step the replays of scenario pages; the theme must never turn them into page changes (issue 26)
    "navigation_with_keys": False,
    "light_css_variables": {
        "color-brand-primary": "#7a1f1f",
        "color-brand-content": "#7a1f1f",
    },
    "dark_css_variables": {
        "color-brand-primary": "#e07a6a",
        "color-brand-content": "#e07a6a",
    },
}

# Results of the latest scenario run and the project root (defaults: <root>/build/results.json and
# the folder above docs/). Override with -D berserk_results=... on the command line.
berserk_results = ""
berserk_root = ""

# Rule text is rendered verbatim: never turn "..." into «...» or -- into dashes.
smartquotes = False

# furo strings missing from Sphinx's Russian catalog (compiled automatically at build time)
# absolute: Sphinx resolves locale_dirs against the source folder, which differs for an edition's
# site (berserk-rules site --corpus), and looks for sphinx.js relative to the current folder
locale_dirs = [str(Path(__file__).resolve().parent / "locales")]
html_show_sphinx = False
html_show_copyright = False
