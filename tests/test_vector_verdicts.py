"""The vector runners and ``check`` give the same verdicts (issue 27, item 3): vectors carry what they
need of an engine (``needs``, the ``require`` step), and the runners report not applicable apart from
failed — scenario by scenario the same as ``check`` on the same engine, for the reference engine and
for the example engine in JavaScript.

The whole suite runs three times here (export on the reference engine, ``check`` on the example
engine, the vectors replayed): slow tier. Node.js is needed for the JavaScript half (skipped without
it, failed in CI: ``BERSERK_REQUIRE_NODE``)."""

from __future__ import annotations

import json
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from berserk_rules.commands.export import collect
from berserk_rules.harness.checked import InProcessDriver, ProcessDriver
from berserk_rules.harness.protocol import EngineProcess
from berserk_rules.reference.driver import ReferenceDriver
from berserk_rules.report.vectors import run_vector
from berserk_rules.runner.capabilities import Capabilities
from tests.shared_build import js_engine_check, reference_export
from tests.test_js_package import tool

ROOT = Path(__file__).resolve().parent.parent
JS_ENGINE = ROOT / "runners" / "js" / "example" / "engine.mjs"
SYMBOLS = {"✓": "passed", "✗": "failed", "∅": "not applicable"}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The vectors and the reference engine's results (``shared_build.reference_export``) and
    ``check`` of the example engine (``shared_build.js_engine_check``, the run tests/test_capabilities.py
    reads too): each once per session."""
    tmp = tmp_path_factory.mktemp("verdicts")
    tool("node")
    js, done = js_engine_check(tmp_path_factory)
    assert done["code"] == 0, done["stdout"][-3000:] + done["stderr"][-3000:]
    (tmp / "js.json").symlink_to(js / "js.json")
    export = reference_export(tmp_path_factory)
    (tmp / "reference.json").symlink_to(export / "reference.json")
    (tmp / "vectors").symlink_to(export / "vectors", target_is_directory=True)
    return tmp


def vectors(folder: Path) -> list[dict]:
    index = collect(folder)  # every vector validates against its schema
    return [json.loads((folder / e["path"]).read_text(encoding="utf-8")) for e in index["vectors"]]


def check_verdicts(results: Path, ids: set[str]) -> dict[str, str]:
    """``check``'s status of each scenario that has a vector; an engine's error is a failure to a runner."""
    data = json.loads(results.read_text(encoding="utf-8"))
    shown = {"error": "failed", "xfail": "failed"}
    return {s["id"]: shown.get(s["status"], s["status"]) for s in data["scenarios"] if s["id"] in ids}


def test_the_python_runner_agrees_with_check_on_the_reference_engine(runs: Path) -> None:
    found = vectors(runs / "vectors")
    assert len(found) > 100 and all(v["needs"]["parts"] for v in found)
    caps = Capabilities.from_handshake(ReferenceDriver.capabilities)
    verdicts = {v["id"]: run_vector(v, InProcessDriver(ReferenceDriver()), caps)[0] for v in found}
    expected = check_verdicts(runs / "reference.json", set(verdicts))
    assert verdicts == expected
    assert Counter(verdicts.values()) == Counter({"passed": len(found)})


def test_the_runners_agree_with_check_on_the_example_engine(runs: Path) -> None:
    """The JavaScript runner (and the Python one, through the protocol) on the example engine: the
    same passed / failed / not applicable as ``check`` — scenario by scenario, so the counts too."""
    found = vectors(runs / "vectors")
    expected = check_verdicts(runs / "js.json", {v["id"] for v in found})
    counts = Counter(expected.values())
    assert counts["passed"] >= 10 and counts["not applicable"] > counts["passed"]

    done = subprocess.run(
        [tool("node"), str(ROOT / "runners" / "js" / "replay.mjs"), str(JS_ENGINE), str(runs / "vectors")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == (1 if counts["failed"] else 0), done.stdout[-3000:] + done.stderr
    js = {m[2]: SYMBOLS[m[1]] for m in re.finditer(r"^([✓✗∅]) (\S+)", done.stdout, re.M)}
    assert js == expected
    passed, failed, apart = counts["passed"], counts["failed"], counts["not applicable"]
    assert f"прошли {passed}, не прошли {failed}, не применимы {apart}" in done.stdout

    engine = EngineProcess([tool("node"), str(JS_ENGINE)])
    try:
        caps = Capabilities.from_handshake(engine.ensure().get("capabilities"))
        python = {v["id"]: run_vector(v, ProcessDriver(engine, v["id"]), caps)[0] for v in found}
    finally:
        engine.close()
    assert python == expected
