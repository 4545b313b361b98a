"""The suite's spread over pytest-xdist workers (``conftest.py``) names real modules and tests: a renamed
module would silently leave its group (its fixture set up on both workers again), a renamed test its
place at the front."""

from __future__ import annotations

from pathlib import Path

import conftest

TESTS = Path(__file__).resolve().parent


def test_every_grouped_module_exists() -> None:
    missing = [
        m for modules in conftest.GROUPS.values() for m in modules if not (TESTS / f"{m}.py").is_file()
    ]
    assert not missing, missing


def test_every_grouped_test_exists_and_joins_a_group() -> None:
    for test, group in conftest.GROUPED_TESTS.items():
        assert group in conftest.GROUPS, test
        path, _, name = test.partition("::")
        assert f"def {name}(" in (TESTS.parent / path).read_text(encoding="utf-8"), test
        assert conftest._piece(test) == group


def test_every_first_piece_is_a_group_or_a_test_of_the_suite() -> None:
    for piece in conftest.FIRST:
        if "::" not in piece:
            assert piece in conftest.GROUPS, piece
            continue
        path, _, name = piece.partition("::")
        source = (TESTS.parent / path).read_text(encoding="utf-8")
        assert f"def {name}(" in source, piece


def test_a_group_is_found_by_its_module_in_tests_only() -> None:
    assert conftest._group("tests/test_site.py") == "site"
    assert conftest._group("tests/test_browser_search.py") == "site"  # the same builds (shared_site)
    assert conftest._group("tests/test_rulebook.py") is None
    assert conftest._group("other/test_site.py") is None
    assert conftest._piece("tests/test_site.py::test_no_remote_assets") == "site"
    assert conftest._piece("tests/test_rulebook.py::test_x") == "tests/test_rulebook.py::test_x"
