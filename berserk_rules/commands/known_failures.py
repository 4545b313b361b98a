"""``berserk-rules known-failures RESULTS > FILE``: the ratchet — the known-failures file
(:mod:`berserk_rules.runner.known_failures`) that lists every scenario failing in a results file.

Written to stdout (TOML, ``strict = true``): with ``check --known-failures FILE`` the same failures
are expected (xfail), a new failure fails the run, and so does a known failure that starts to pass
(strict), so the file only shrinks. A failed, errored or still known-failing scenario is listed with
the first line of its message as the reason; passed, skipped, not applicable and not run are not.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from berserk_rules.errors import UserError
from berserk_rules.report.results import read_results
from berserk_rules.runner.known_failures import suite_problem

LISTED = ("failed", "error", "xfail")
REASON_LIMIT = 200


def _string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def reason_of(scenario: dict[str, Any]) -> str:
    lines = [line.strip() for line in str(scenario.get("message") or "").splitlines() if line.strip()]
    status = str(scenario.get("status"))
    text = lines[0] if lines else {"error": "ошибка движка", "xfail": "известная ошибка"}.get(status, "упал")
    return text if len(text) <= REASON_LIMIT else text[: REASON_LIMIT - 1] + "…"


def known_failures_toml(data: dict[str, Any], source: str) -> str:
    engine = data.get("engine") or {}
    name = " ".join(str(engine[k]) for k in ("name", "version") if engine.get(k)) or "движок"
    lines = [
        f"# Известные ошибки: {name}, по результатам {source}",
        "# (berserk-rules known-failures; strict: исправленный сценарий валит прогон — удалите его отсюда;",
        "# suite: для какого набора сценариев составлен список — check предупредит, если установлен другой)",
    ]
    suite = data.get("suite")
    if isinstance(suite, str) and suite_problem(suite, None) is None:
        lines.append(f"suite = {_string(suite)}")
    lines.append("strict = true")
    listed = [s for s in data.get("scenarios", []) if s.get("status") in LISTED]
    for scenario in listed:
        lines += ["", "[[xfail]]", f"scenario = {_string(str(scenario['id']))}"]
        lines.append(f"reason = {_string(reason_of(scenario))}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    path = Path(args.results)
    data = read_results(path)
    if data is None:
        raise UserError(f"{path}: нет такого файла результатов (berserk-rules check --results {path})")
    text = known_failures_toml(data, str(path))
    sys.stdout.write(text)
    count = text.count("[[xfail]]")
    print(f"berserk-rules known-failures: известных ошибок {count}", file=sys.stderr)
    return 0
