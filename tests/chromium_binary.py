"""Which Chromium the browser tests drive (``tests/test_browser*.py``, ``tests/test_edition_attachment.py``).

``BERSERK_CHROMIUM`` when it is set; otherwise Debian's ``chromium-headless-shell`` when it is
installed — the headless-only build of the same Chromium (the same Blink and V8, without the desktop
browser around them), the build Playwright itself runs for headless pages; otherwise ``chromium``.
Measured here (issue 28): the 114 pages of the site visited one after another cost 20.5 s of processor
time in ``chromium`` and 14.2 s in the headless shell (three runs each), and every browser test
passes in both (``BERSERK_CHROMIUM=/usr/bin/chromium pytest tests/test_browser*.py``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

# (a command on PATH, the path Debian installs it at)
CANDIDATES = (
    ("chromium-headless-shell", "/usr/lib/chromium/chromium-headless-shell"),
    ("chromium", "/usr/bin/chromium"),
)
INSTALL = "apt-get install -y chromium-headless-shell (или chromium)"


def chromium_path() -> str:
    """The browser to launch: the first of ``BERSERK_CHROMIUM``, the headless shell, ``chromium`` that
    exists — or, when none does, the path of ``chromium`` (the tests then say it is missing)."""
    chosen = os.environ.get("BERSERK_CHROMIUM")
    if chosen:
        return chosen
    for command, path in CANDIDATES:
        found = shutil.which(command) or (path if Path(path).is_file() else None)
        if found:
            return found
    return CANDIDATES[-1][1]
