"""Top-level pytest configuration: the rulebook plugin (markers, driver, results) and the steps; and, for
the project's own test suite under pytest-xdist (the README's ``pytest -n auto``), how its tests are
spread over the workers.

Spreading the suite (issue 28, item 4). With xdist's default (``--dist load``) the tests go out in
long runs of consecutive tests, so where the expensive ones land is luck: a worker could start the
compiled build (minutes) near the end while the other one sat idle, and two workers each set up the
same module fixture (a browser, an ``ask`` run) or waited for each other's shared build
(``tests/shared_build.py``: the second worker to ask blocks until the first one has built). So when
the whole suite runs on workers and no ``--dist`` is given, a scheduler of this file
(``pytest_xdist_make_scheduler``, pytest-xdist's ``loadscope`` with groups of our own) hands out:

* each test on its own, one at a time, to the worker that is free — except the modules of
  :data:`GROUPS`, which go to one worker as one piece: the modules that set up the same expensive
  fixture (once, on that worker, and nobody waits for it);
* the most expensive pieces first (:data:`FIRST`, then the rest of the ``slow`` tier, then the rest,
  each in pytest's own order), so that the last minutes hold short tests that fill both workers
  evenly.

Nothing is skipped or merged here: the same tests run, only the order and the worker change (no test
depends on either — README). ``--dist`` given explicitly, ``-n 0``, or a run of some of the tests
(``pytest tests/test_x.py -n 2``) is left as asked.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["berserk_rules.pytest_plugin", "berserk_rules.steps.all"]

TESTS = Path(__file__).resolve().parent / "tests"

# modules that share an expensive setup, each group run by one worker (name -> modules)
GROUPS = {
    # the site's three builds (tests/shared_site.py), read by test_site and visited by the browser
    # tests (a browser and a server per module): one worker builds them once and nobody waits
    "site": (
        "test_site",
        "test_browser",
        "test_browser_judges",
        "test_browser_search",
        "test_browser_replay",
    ),
    # the whole suite in process with the vectors (shared_build.reference_export), then served
    "reference-export": ("test_engines", "test_vector_verdicts"),
    "hostile-site": ("test_browser_safety",),  # a site of hostile input files and a browser
    "renumbered-site": ("test_edition_attachment",),  # an edition, its site and a server
    "editions": ("test_editions",),  # a synthetic edition
    "ask": ("test_ask",),  # one ``ask`` run read by several tests
    "user-files": ("test_user_files",),  # an earlier export
    "catalogue": ("test_catalogue",),  # a run of unrunnable scenarios
}
GROUP_OF = {module: group for group, modules in GROUPS.items() for module in modules}
# single tests of other modules that join a group: they read the same session build (test -> group)
GROUPED_TESTS = {
    # ``check`` on the JavaScript example engine (shared_build.js_engine_check), read by
    # test_vector_verdicts as well: made once, by the group's worker, and nobody waits for it
    "tests/test_capabilities.py::test_js_engine_verdict_keeps_not_applicable_apart": "reference-export",
}

# the longest pieces, in this order, ahead of everything else (measured with ``--durations``)
FIRST = (
    "tests/test_compiled.py::test_compiled_engine_is_the_same_engine",  # the mypyc build, then the suite
    "site",
    # pytest-xdist gives the first worker (whose first piece is one test) a second piece at once, and
    # that piece waits for the build: a short one, or the next heavy group would wait for minutes
    "tests/test_compiled.py::test_compile_command",
    "reference-export",
    "tests/test_declared_fields.py::test_every_scenario_passes_on_declared_fields_only",
    "tests/test_other_engine.py::test_another_engine_runs_the_same_scenarios",
    "hostile-site",
)


def _whole_suite(config: pytest.Config) -> bool:
    """Does this run collect the whole test suite (``pytest`` in the project, or ``pytest tests``)?"""
    if config.args_source == pytest.Config.ArgsSource.TESTPATHS:
        return True
    invoked = Path(config.invocation_params.dir)
    return any((invoked / arg).resolve() == TESTS for arg in config.args)


SPREAD = "berserk_spread"  # on ``config.option`` and in the workers' input: spread as described above


def _group(path: str) -> str | None:
    """The group of a test by its module (``tests/test_site.py`` -> «site»), None outside the groups."""
    folder, _, name = path.rpartition("/")
    return GROUP_OF.get(name.removesuffix(".py")) if folder == "tests" else None


def _piece(nodeid: str) -> str:
    """What the scheduler hands out as one piece: the test's group, or the test itself."""
    return GROUPED_TESTS.get(nodeid) or _group(nodeid.partition("::")[0]) or nodeid


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own (it resolves ``-n auto`` and sets «load»)
def pytest_cmdline_main(config: pytest.Config) -> None:
    option = config.option
    workers = getattr(option, "numprocesses", None)
    if workers and getattr(option, "dist", None) == "no" and _whole_suite(config):
        setattr(option, SPREAD, True)
        option.loadscopereorder = False  # the workers' order of tests, not «largest group first»


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist (absent under ``-p no:xdist``)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """One test at a time, a group at a time (pytest-xdist's ``loadgroup`` marks groups by renaming
    the tests, which pytest 9 no longer lets it do: here the scheduler knows the groups itself)."""
    if not getattr(config.option, SPREAD, False):
        return None
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped,unused-ignore]

    class Spread(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _piece(nodeid)

    return Spread(config, log)  # type: ignore[arg-type]


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist
def pytest_configure_node(node: object) -> None:
    """The workers parse the command line again, without the choice above: tell them."""
    config = node.config  # type: ignore[attr-defined]
    node.workerinput[SPREAD] = getattr(config.option, SPREAD, False)  # type: ignore[attr-defined]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a worker of the spread suite: the most expensive pieces first (the scheduler hands the tests
    out in the order the workers collected them)."""
    if not getattr(config, "workerinput", {}).get(SPREAD):
        return
    first = {piece: rank for rank, piece in enumerate(FIRST)}

    def rank(item: pytest.Item) -> tuple[int, int]:
        piece = _piece(item.nodeid)
        if piece in first:
            return 0, first[piece]
        return (1 if item.get_closest_marker("slow") else 2), 0

    items[:] = sorted(items, key=rank)  # stable: pytest's order within each rank
