"""The results file (``build/results.json``): its one owner — the format (:data:`RESULTS_SCHEMA`,
:data:`STATUSES`), writing it (:func:`build`, :func:`write`), reading it (:func:`read_results` and
the helpers on it) and counting statuses (:func:`count`).

Written by the pytest plugin at the end of a run (:mod:`berserk_rules.runner.recorder`), read by
``check``, ``coverage``, ``rule``, ``matrix``, ``site`` and the site itself.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from berserk_rules.errors import SourceError, UserError
from berserk_rules.rulebook.features import ScenarioRef, relative_name

RESULTS_SCHEMA = 1
STATUSES = ("passed", "failed", "xfail", "xpass", "skipped", "error", "not run", "not applicable")
BAD = ("failed", "error", "xpass")  # the statuses that fail a run (an unexpected pass: when strict)
MESSAGE_LIMIT = 4000


# --- writing -------------------------------------------------------------------------------------


@dataclass
class Record:
    """What a run found out about one scenario (gathered from pytest's reports)."""

    status: str | None = None
    message: str | None = None
    duration: float = 0.0
    log: Any = None
    nodeid: str = ""
    error: str | None = None  # kind of an "error": "engine" or "input"
    position: Any = None  # site replay (issue 10)
    failed_step: Any = None  # site replay (issue 10)
    steps: Any = None  # the replay step by step: board and log entries after each step (issue 19)


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def count(statuses: Iterable[str]) -> dict[str, int]:
    """Status -> how many: every status of :data:`STATUSES` (0 when none), then any other seen."""
    counts = dict.fromkeys(STATUSES, 0)
    for status in statuses:
        counts[status] = counts.get(status, 0) + 1
    return counts


def scenario_entry(ref: ScenarioRef | None, ident: str, record: Record | None) -> dict[str, Any]:
    """One scenario's entry in the results."""
    file, _, line = ident.rpartition(":")
    data: dict[str, Any] = {
        "id": ident,
        "name": ref.name if ref else (record.nodeid if record else ident),
        "file": ref.file if ref else file,
        "line": ref.line if ref else int(line) if line.isdigit() else 0,
        "rules": list(ref.rules) if ref else [],
        "terms": list(ref.terms) if ref else [],
        "interpretations": list(ref.interpretations) if ref else [],
        "tags": list(ref.tags) if ref else [],
        "status": record.status if record and record.status else "not run",
        "message": record.message if record else None,
        "duration": round(record.duration, 6) if record else 0.0,
    }
    if record is not None and record.error is not None:
        data["error"] = record.error
    if record is not None and record.log is not None:
        data["log"] = record.log
    # --- site replay (issue 10)
    if record is not None and record.position is not None:
        data["position"] = record.position
    if record is not None and record.failed_step is not None:
        data["failed_step"] = record.failed_step
    if record is not None and record.steps is not None:
        data["steps"] = record.steps
    # ---
    return data


def build(
    records: dict[str, Record],
    scenarios: list[ScenarioRef],
    *,
    engine: dict[str, Any],
    started_iso: str,
    duration: float,
    known_file: str | None = None,
    known_strict: bool = True,
    suite: str | None = None,
    trace: bool = False,
) -> dict[str, Any]:
    """The results document: every scenario of ``features/`` (those not run as "not run"), then
    the records of scenarios that are not there, with the summary of statuses."""
    entries = [scenario_entry(ref, ref.id, records.get(ref.id)) for ref in scenarios]
    known_ids = {ref.id for ref in scenarios}
    for ident in sorted(set(records) - known_ids):
        entries.append(scenario_entry(None, ident, records[ident]))
    summary = count(entry["status"] for entry in entries)
    summary["total"] = len(entries)
    return {
        "schema": RESULTS_SCHEMA,
        "engine": engine,
        **({"suite": suite} if suite else {}),  # the suite's version: berserk_rules.rulebook.suite_version
        "started": started_iso or now(),
        "finished": now(),
        "duration": round(duration, 3),
        "summary": summary,
        "trace": trace,  # the games were recorded step by step (--berserk-trace): the scenarios' "steps"
        **({"known_failures": {"file": known_file, "strict": known_strict}} if known_file else {}),
        "scenarios": entries,
    }


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))


def json_by_line(data: Any) -> str:
    """JSON text with each member of a top-level object on a line of its own, and each element of a
    top-level list member on a line of its own (one scenario a line in the results): written by the
    json module's C encoder, which ``indent`` turns off (the results of the whole suite took over a
    second to write with ``indent=1``); diffs and error lines still point at one scenario."""
    if not isinstance(data, dict):
        return _compact(data)
    members = []
    for key, value in data.items():
        name = json.dumps(key, ensure_ascii=False)
        if isinstance(value, list) and value:
            members.append(f" {name}: [\n" + ",\n".join("  " + _compact(item) for item in value) + "\n ]")
        else:
            members.append(f" {name}: {_compact(value)}")
    return "{\n" + ",\n".join(members) + "\n}"


def write_json_atomic(path: Path, data: Any, *, by_line: bool = False) -> None:
    """Write JSON to ``path`` through a temporary file in the same folder and an atomic rename
    (``by_line``: :func:`json_by_line`, for large documents; otherwise indented by one space)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            # one write of the whole text: json.dump would write each of its ~10⁶ pieces separately
            text = (
                json_by_line(data)
                if by_line
                else json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False)
            )
            handle.write(text + "\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# --- reading -------------------------------------------------------------------------------------


def _results_line(text: str, needle: str) -> int | None:
    """1-based line of the first occurrence of ``needle`` in the results text (None if absent)."""
    index = text.find(needle)
    return text.count("\n", 0, index) + 1 if index >= 0 else None


def read_results(path: str | Path) -> dict[str, Any] | None:
    """The validated results document, or None when the file does not exist.

    Every malformation raises :class:`SourceError` naming the file (and the line when known): not
    JSON, not UTF-8, a folder, another schema version (an older or newer berserk-rules), a wrong
    shape of ``engine``/``summary``/``scenarios`` or of a scenario record.
    """
    from berserk_rules.rulebook.project import read_utf8

    path = Path(path)
    if not path.exists():
        return None
    what = "файл результатов"
    text = read_utf8(path, what=what)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SourceError(path, exc.lineno, f"{what} — не JSON: {_json_message(exc)}") from None
    rerun = "перезапустите «berserk-rules check»"
    if not isinstance(data, dict):
        raise SourceError(path, 1, f"{what} должен быть JSON-объектом с полями schema и scenarios; {rerun}")
    schema = data.get("schema")
    if schema != RESULTS_SCHEMA:
        is_int = isinstance(schema, int) and not isinstance(schema, bool)
        if schema is None:
            why = f"без поля «schema» (старый формат); ожидается schema {RESULTS_SCHEMA}: {rerun}"
        elif is_int and schema < RESULTS_SCHEMA:
            why = f"старого формата (schema {schema}); ожидается schema {RESULTS_SCHEMA}: {rerun}"
        elif is_int:
            why = (
                f"более нового формата (schema {schema}), эта версия berserk-rules читает schema "
                f"{RESULTS_SCHEMA}: обновите berserk-rules или {rerun}"
            )
        else:
            why = f"с неверным полем «schema»: {schema!r}; ожидается {RESULTS_SCHEMA}: {rerun}"
        raise SourceError(path, _results_line(text, '"schema"'), f"{what} {why}")
    scenarios = data.get("scenarios")
    if not isinstance(scenarios, list):
        raise SourceError(
            path, _results_line(text, '"scenarios"'), f"в файле результатов нет списка «scenarios»; {rerun}"
        )
    for name in ("engine", "summary"):
        if name in data and not isinstance(data[name], dict):
            raise SourceError(path, _results_line(text, f'"{name}"'), f"поле «{name}» должно быть объектом")
    summary = data.get("summary") or {}
    for status, count in summary.items():
        if not isinstance(count, int) or isinstance(count, bool):
            raise SourceError(
                path, _results_line(text, f'"{status}"'), f"summary: «{status}» должно быть целым числом"
            )
    seen: set[str] = set()
    cursor = max(text.find('"scenarios"'), 0)
    for number, record in enumerate(scenarios, start=1):
        where = f"scenarios, запись №{number}"
        if not isinstance(record, dict) or not isinstance(record.get("id"), str) or not record["id"]:
            raise SourceError(path, None, f"{where}: нет строкового поля «id»")
        ident = record["id"]
        found = text.find(json.dumps(ident, ensure_ascii=False), cursor)
        cursor = found + 1 if found >= 0 else cursor
        ok = (
            ident not in seen
            and record.get("status") in STATUSES
            and (record.get("message") is None or isinstance(record.get("message"), str))
            and isinstance(record.get("duration", 0), int | float)
            and not isinstance(record.get("duration", 0), bool)
        )
        if ok:  # the line is counted only for a message (counting it for each record is quadratic)
            seen.add(ident)
            continue
        line = text.count("\n", 0, found) + 1 if found >= 0 else None
        if ident in seen:
            raise SourceError(path, line, f"{where}: сценарий {ident} записан дважды")
        seen.add(ident)
        if record.get("status") not in STATUSES:
            raise SourceError(
                path,
                line,
                f"{where} ({ident}): неизвестный статус {record.get('status')!r}; "
                f"допустимы: {', '.join(STATUSES)}",
            )
        message = record.get("message")
        if message is not None and not isinstance(message, str):
            raise SourceError(path, line, f"{where} ({ident}): «message» должно быть строкой или null")
        duration = record.get("duration", 0)
        if not isinstance(duration, int | float) or isinstance(duration, bool):
            raise SourceError(path, line, f"{where} ({ident}): «duration» должно быть числом")
    return data


def _json_message(exc: json.JSONDecodeError) -> str:
    messages = {
        "Expecting value": "ожидается значение",
        "Expecting property name enclosed in double quotes": "ожидается имя поля в двойных кавычках",
        "Expecting ',' delimiter": "пропущена запятая",
        "Expecting ':' delimiter": "пропущено двоеточие",
        "Extra data": "лишние данные после конца JSON",
        "Unterminated string starting at": "незакрытая строка",
        "Invalid control character at": "недопустимый управляющий символ",
    }
    return f"{messages.get(exc.msg, exc.msg)} (позиция {exc.colno})"


def load_results(path: str | Path) -> dict[str, dict[str, Any]]:
    """Scenario id -> its record (``status``, ``message``, ``duration``, …) from a results file.

    A missing file gives an empty map (nothing has run yet); a malformed one raises SourceError.
    """
    data = read_results(path)
    if data is None:
        return {}
    return {record["id"]: record for record in data["scenarios"]}


def stale_results(results: dict[str, dict[str, Any]], scenarios: Iterable[ScenarioRef]) -> list[str]:
    """Ids in the results that name no scenario of ``features/`` (renamed, moved or deleted since)."""
    known = {ref.id for ref in scenarios}
    return [ident for ident in results if ident not in known]


# --- where a run may write -----------------------------------------------------------------------


SOURCE_FOLDERS = ("features", "rules", "docs", "engine", "berserk_rules", "tests", "tools")


def check_results_target(path: Path, root: Path) -> None:
    """Refuse a results path that would overwrite something else or cannot be written.

    A folder, a path under a file, a file of the project's sources (``features/``, ``rules/``,
    code, docs), an existing file that is not a results file, and a folder that cannot be written
    are each a :class:`UserError` — before anything runs, so nothing is overwritten.
    """
    import tempfile

    shown = relative_name(path, root)
    if path.is_dir():
        raise UserError(f"--results {shown}: это папка; укажите файл, например {shown}/results.json")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise UserError(f"--results {shown}: {relative_name(parent, root)} — файл, а не папка")
            existing = parent
            break
    else:  # pragma: no cover - "/" exists
        existing = Path("/")
    try:
        inside = path.resolve().relative_to(root.resolve()).parts
    except ValueError:
        inside = ()
    if inside and inside[0] in SOURCE_FOLDERS:
        raise UserError(
            f"--results {shown}: это папка исходников проекта ({inside[0]}/); результаты туда не пишутся"
        )
    if path.exists():
        try:
            with path.open("rb") as handle:
                head = handle.read(4096).decode("utf-8", "replace")
        except OSError as exc:
            raise UserError(f"--results {shown}: файл не читается ({exc.strerror or exc})") from None
        if not head.lstrip().startswith("{") or '"schema"' not in head:
            raise UserError(
                f"--results {shown}: файл уже есть и это не файл результатов berserk-rules — "
                "он не будет перезаписан; укажите другой путь"
            )
    try:
        with tempfile.NamedTemporaryFile(dir=existing, prefix=".berserk-write-test-"):
            pass
    except OSError as exc:
        raise UserError(
            f"--results {shown}: в папку {existing} нельзя писать ({exc.strerror or exc})"
        ) from None
