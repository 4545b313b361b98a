"""pytest-bdd's copy of a step's data table, without :func:`copy.deepcopy`.

pytest-bdd renders every scenario before running it (``ScenarioTemplate.render``), and each data
table of its steps through ``Step.render_datatable``: ``copy.deepcopy`` of the table, then every
cell's ``<param>`` replaced from the Examples row. ``deepcopy`` reaches each cell, row and location
through ``__reduce_ex__`` and a memo — for the positions our scenarios describe in tables that was
the largest single cost of a scenario run (a seventh of it, more than all the schema checks).

:func:`render_datatable` builds the same copy directly: a new table, new rows, new cells and new
locations, the strings shared (they are immutable, as ``deepcopy`` shares them too), each cell's
value rendered by pytest-bdd's own ``render_string``. :func:`install` puts it in place of
pytest-bdd's method only when the table classes have exactly the fields it copies (another version
of pytest-bdd with more fields keeps its own method); ``tests/test_pytest_plugin.py`` holds the two
equal on every table of ``features/``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from pytest_bdd.gherkin_parser import Cell, DataTable, Location, Row
from pytest_bdd.parser import Step, render_string

ORIGINAL = Step.__dict__["render_datatable"]  # the staticmethod of pytest-bdd
EXPECTED_FIELDS = {
    DataTable: ("location", "rows"),
    Row: ("id", "location", "cells"),
    Cell: ("location", "value"),
    Location: ("column", "line"),
}


def render_datatable(datatable: DataTable, context: Mapping[str, object]) -> DataTable:
    """What ``Step.render_datatable`` returns (a deep copy with ``<param>`` rendered in every cell)."""
    return DataTable(
        location=Location(column=datatable.location.column, line=datatable.location.line),
        rows=[
            Row(
                id=row.id,
                location=Location(column=row.location.column, line=row.location.line),
                cells=[
                    Cell(
                        location=Location(column=cell.location.column, line=cell.location.line),
                        value=render_string(cell.value, context),
                    )
                    for cell in row.cells
                ],
            )
            for row in datatable.rows
        ],
    )


def fits() -> bool:
    """The table classes of the installed pytest-bdd have exactly the fields copied here."""
    return all(
        dataclasses.is_dataclass(kind) and tuple(f.name for f in dataclasses.fields(kind)) == names
        for kind, names in EXPECTED_FIELDS.items()
    )


def install() -> bool:
    """Use :func:`render_datatable` for pytest-bdd's steps (idempotent); False when the installed
    pytest-bdd's tables do not fit and its own method stays."""
    if not fits():
        return False
    Step.render_datatable = staticmethod(render_datatable)  # type: ignore[method-assign]
    return True
