"""The known failures of an engine: a TOML list of scenarios expected to fail (``xfail``), and the
suite version it was made for (``suite = "1.1.0+sha.…"``: a list made for another suite is warned
about — its lines may name scenarios that changed); pinning the suite itself: :func:`suite_problem`."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from berserk_rules.corpus import read_utf8, toml_error
from berserk_rules.errors import SourceError
from berserk_rules.rulebook.features import ScenarioRef, relative_name

REFERENCE_KNOWN_FAILURES = "known-failures/reference.toml"


@dataclass(frozen=True)
class KnownFailure:
    scenario: str
    reason: str
    issue: str | None = None
    strict: bool = True


KNOWN_KEYS = {"scenario", "rule", "reason", "issue"}


def load_known_failures(path: Path, scenarios: list[ScenarioRef], root: Path) -> dict[str, KnownFailure]:
    """Scenario id -> known failure, from a TOML file; an entry naming nothing is a SourceError.

    ``suite`` at the top (optional; ``known-failures`` writes it) is the suite version the list was
    made for: :func:`recorded_suite`. ``[[xfail]]`` entries name a ``scenario``
    (``features/…feature:LINE``; a scenario outline's own line covers all its rows) or a ``rule``
    (every scenario tagged with it), give a ``reason`` and optionally an ``issue`` (a link).
    ``strict = false`` at the top makes an unexpected pass a reported «xpass» that does not fail the
    run; by default (strict) it fails the run, so the list cannot rot — like toml-test's
    ``-skip-must-err``.
    """
    shown = relative_name(path, root)
    try:
        data = tomllib.loads(read_utf8(path, shown, "список известных ошибок"))
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(shown, exc) from None
    entries = data.get("xfail", [])
    strict = data.get("strict", True)
    unknown_keys = set(data) - {"xfail", "strict", "suite"}
    if unknown_keys or not isinstance(entries, list) or not isinstance(strict, bool):
        raise SourceError(
            shown,
            None,
            'ожидаются suite = "X.Y.Z+sha.…", strict = true|false и список таблиц [[xfail]] '
            "(scenario или rule, reason, issue)",
        )
    if "suite" in data and suite_problem(data["suite"], None) is not None:
        raise SourceError(shown, None, str(suite_problem(data["suite"], None)))
    by_id = {ref.id: [ref.id] for ref in scenarios}
    for ref in scenarios:
        if ref.row is not None:
            by_id.setdefault(f"{ref.file}:{ref.scenario_line}", []).append(ref.id)
    by_rule: dict[str, list[str]] = {}
    for ref in scenarios:
        for rule in ref.rules:
            by_rule.setdefault(rule, []).append(ref.id)
    known: dict[str, KnownFailure] = {}
    for number, entry in enumerate(entries, start=1):
        where = f"запись [[xfail]] №{number}"
        if not isinstance(entry, dict):
            raise SourceError(shown, None, f"{where}: ожидается таблица")
        names = [key for key in ("scenario", "rule") if isinstance(entry.get(key), str)]
        if len(names) != 1:
            raise SourceError(shown, None, f"{where}: нет строки scenario (или rule — одно из двух)")
        target = entry[names[0]]
        reason = entry.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise SourceError(shown, None, f"{where} ({target}): нет причины reason")
        extra = set(entry) - KNOWN_KEYS
        if extra:
            raise SourceError(shown, None, f"{where}: лишние поля {', '.join(sorted(extra))}")
        issue = entry.get("issue")
        if issue is not None and not isinstance(issue, str):
            raise SourceError(shown, None, f"{where}: issue должен быть строкой (ссылкой)")
        ids = by_id.get(target) if names[0] == "scenario" else by_rule.get(target)
        if not ids:
            raise SourceError(
                shown,
                None,
                f"{where}: сценария {target} нет "
                "(нужны путь от корня проекта и строка сценария, например features/part-4/x.feature:12)"
                if names[0] == "scenario"
                else f"{where}: ни один сценарий не проверяет правило {target}",
            )
        text = reason.strip() + (f" ({issue})" if issue else "")
        for ident in ids:
            known[ident] = KnownFailure(ident, text, issue, strict)
    return known


SUITE_SPEC = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+(\+sha\.[0-9a-f]{12})?$")


def suite_problem(wanted: object, actual: str | None) -> str | None:
    """What is wrong when ``wanted`` (``X.Y.Z``, or ``X.Y.Z+sha.<12 hex>`` — exactly that content)
    is asked of the suite at version ``actual`` (None: only check the form); None when it fits."""
    if not isinstance(wanted, str) or not SUITE_SPEC.match(wanted):
        return f"версия набора задаётся как X.Y.Z или X.Y.Z+sha.<12 знаков хеша>, а не {wanted!r}"
    if actual is None:
        return None
    same = actual == wanted if "+" in wanted else actual.partition("+")[0] == wanted
    if same:
        return None
    return f"установлен набор сценариев {actual}, а нужен {wanted}"


def recorded_suite(path: Path) -> str | None:
    """The suite version a known-failures file says it was made for (None: it does not say)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None  # load_known_failures reports what is wrong with the file
    suite = data.get("suite")
    return suite if isinstance(suite, str) else None
