"""``berserk-rules changelog [--release X.Y.Z]``: what changed in the suite since its last version.

Without ``--release``: the scenarios added, changed (steps or tags) and removed since the version
recorded in ``suite-manifest.json``, printed (nothing is written). With ``--release X.Y.Z``: that
list becomes the section of version X.Y.Z at the top of ``CHANGELOG-suite.md``, the manifest records
the features as they are now, and pyproject.toml gets the same version
(:mod:`berserk_rules.rulebook.suite_version`). Only in a checkout: the installed suite is read, never written.
"""

from __future__ import annotations

import argparse
import datetime as dt

from berserk_rules.errors import UserError
from berserk_rules.rulebook import suite_version
from berserk_rules.rulebook.project import is_installed_suite, project_root


def run(args: argparse.Namespace) -> int:
    root = project_root()
    if args.release is None:
        manifest, found = suite_version.changes(root)
        since = (
            f"изменения с версии {manifest.version}"
            if manifest
            else f"описи прошлой версии ({suite_version.MANIFEST}) нет, все сценарии новые"
        )
        print(f"Набор {suite_version.suite_version(root)}; {since}:\n")
        print(suite_version.format_changes(found))
        return 0
    if is_installed_suite(root):
        raise UserError("--release: набор установленного пакета не меняют; выпуск версии — в клоне проекта")
    date = args.date or dt.datetime.now(dt.UTC).date().isoformat()
    section = suite_version.release(root, args.release, date)
    print(section, end="")
    print(f"записано: {suite_version.CHANGELOG}, {suite_version.MANIFEST}, pyproject.toml")
    return 0
