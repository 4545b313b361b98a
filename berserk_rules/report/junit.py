r"""JUnit XML from a results file, for CI systems (``check --junit FILE``).

One ``<testsuite>`` per feature file, one ``<testcase>`` per scenario (outline rows separately):
``classname`` is the feature file, ``name`` the scenario, ``file``/``line`` where it is written,
the rules it checks as ``<property name="rule">``. ``failed`` and ``xpass`` become ``<failure>``,
``error`` becomes ``<error>``, ``skipped``, ``xfail``, ``not applicable`` and ``not run`` become
``<skipped>`` with the reason — kept apart by its ``type`` (the status: a known failure is no
scenario out of the engine's capabilities), and every test case names its status in ``<property
name="status">``, the word of the results and of ``check``. Written from the same results the
summary is printed from, so the two never disagree.

The XML is always well-formed: characters XML 1.0 does not allow (control characters such as
``\x00``, ``\x1b``, ``\x0b`` from an engine's message, lone surrogates) are written as the text
``\xNN`` (:func:`xml_text`). The file is written beside its target and renamed into place, so a
full disk leaves no half-written report.
"""

from __future__ import annotations

import os
import re
import tempfile
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path
from typing import Any

FAILURE = ("failed", "xpass")
SKIPPED = ("skipped", "xfail", "not run", "not applicable")
# Characters outside XML 1.0's Char production (tab, newline and carriage return are allowed).
NOT_XML_RE = re.compile(r"[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def xml_text(value: object) -> str:
    """``value`` as text XML 1.0 can hold: each character it cannot is written as ``\\xNN``."""
    return NOT_XML_RE.sub(_shown, str(value))


def junit_tree(results: dict[str, Any]) -> ET.ElementTree:
    engine = results.get("engine") or {}
    engine_name = " ".join(str(engine.get(k)) for k in ("name", "version") if engine.get(k)) or "движок"
    suites = ET.Element("testsuites", name=f"berserk-rules: {engine_name}")
    by_file: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for scenario in results.get("scenarios", []):
        by_file[str(scenario.get("file", ""))].append(scenario)
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for file, scenarios in by_file.items():
        suite = ET.SubElement(suites, "testsuite", name=file, timestamp=str(results.get("started", "")))
        if results.get("suite"):  # the suite's version the run used (berserk_rules.rulebook.suite_version)
            suite_props = ET.SubElement(suite, "properties")
            ET.SubElement(suite_props, "property", name="berserk-suite", value=str(results["suite"]))
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        time_total = 0.0
        for scenario in scenarios:
            status = scenario.get("status")
            duration = float(scenario.get("duration") or 0.0)
            time_total += duration
            case = ET.SubElement(
                suite,
                "testcase",
                classname=file,
                name=str(scenario.get("name", scenario.get("id"))),
                file=file,
                line=str(scenario.get("line", 0)),
                time=f"{duration:.6f}",
            )
            props = ET.SubElement(case, "properties")
            ET.SubElement(props, "property", name="id", value=str(scenario.get("id")))
            ET.SubElement(props, "property", name="status", value=str(status))
            for rule in scenario.get("rules", []):
                ET.SubElement(props, "property", name="rule", value=str(rule))
            message = str(scenario.get("message") or "")
            counts["tests"] += 1
            first = message.split("\n")[0][:500]
            if status in FAILURE:
                counts["failures"] += 1
                ET.SubElement(case, "failure", message=first, type=str(status)).text = message
            elif status == "error":
                counts["errors"] += 1
                kind = str(scenario.get("error") or "error")
                ET.SubElement(case, "error", message=first, type=kind).text = message
            elif status in SKIPPED:
                counts["skipped"] += 1
                shown = f"{status}: {message}".strip(": ")[:500]
                ET.SubElement(case, "skipped", message=shown, type=str(status))
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("time", f"{time_total:.6f}")
    for key, value in totals.items():
        suites.set(key, str(value))
    ET.indent(suites)
    for element in suites.iter():  # every text and attribute: engine messages and names included
        if element.text:
            element.text = xml_text(element.text)
        for name, text in element.attrib.items():
            element.set(name, xml_text(text))
    return ET.ElementTree(suites)


def write_junit(results: dict[str, Any], path: Path) -> None:
    """Write the report to ``path`` atomically; :class:`OSError` when it cannot be written (the
    half-written temporary file is removed)."""
    tree = junit_tree(results)
    name = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(handle, "wb") as stream:
            tree.write(stream, encoding="utf-8", xml_declaration=True)
        os.replace(name, path)
        name = None
    except OSError as exc:  # named after the report, not after its temporary file
        raise OSError(exc.errno, exc.strerror, str(path)) from exc
    finally:
        if name is not None:
            Path(name).unlink(missing_ok=True)
