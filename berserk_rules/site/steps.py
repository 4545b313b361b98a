"""The step dictionary on the site (``{berserk-steps}``)."""

from __future__ import annotations

import importlib
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.util import logging

from berserk_rules.site.data import project_root
from berserk_rules.site.domain import BerserkDirective
from berserk_rules.site.nodes import KIND_NAMES, add_row, badge, message_block, section_marker, table_node

logger = logging.getLogger(__name__)


class StepsDirective(BerserkDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        self.note_berserk()
        try:
            steps = load_steps()
        except Exception as exc:  # a broken step module must not crash the whole site build
            logger.warning(
                "словарь шагов не построен: %s: %s", type(exc).__name__, exc, location=self.get_location()
            )
            return [nodes.paragraph(text="Словарь шагов не построен: ошибка в модулях шагов.")]
        if steps is None:
            return [nodes.paragraph(text="Определения шагов ещё не написаны: словарь пуст.")]
        root = project_root(self.config, self.env.srcdir)
        out: list[nodes.Node] = []
        counts = Counter(step.kind for step in steps)
        summary = ", ".join(
            f"{KIND_NAMES.get(k, k)} — {counts[k]}" for k in ("given", "when", "then") if counts[k]
        )
        out.append(nodes.paragraph(text=f"Всего шагов: {len(steps)} ({summary})." if steps else "Шагов нет."))
        out.extend(self.parameter_types())
        by_module: dict[str, list[Any]] = defaultdict(list)
        for step in steps:
            by_module[step.module].append(step)
        kind_order = {"given": 0, "when": 1, "then": 2}

        def module_key(module: str) -> tuple[int, str]:
            return (min(kind_order.get(s.kind, 3) for s in by_module[module]), module)

        for module in sorted(by_module, key=module_key):
            module_obj = sys.modules.get(module)
            doc = (getattr(module_obj, "__doc__", None) or "").strip().splitlines()
            first = doc[0].strip() if doc else ""
            title, _, rest = first.partition(":")
            if not rest or len(title) > 40:
                title, rest = module.rsplit(".", 1)[-1], first
            marker = section_marker(
                title=title.strip(), level=0, ids=[f"module-{module}"], classes=["berserk-step-module"]
            )
            out.append(marker)
            path = module_path(module, root)
            para = nodes.paragraph(classes=["berserk-step-module-info"])
            if rest.strip():
                para += nodes.Text(rest.strip().rstrip(".").capitalize() + ". ")
            para += nodes.Text("Модуль ")
            para += nodes.literal(path, path)
            para += nodes.Text(f", шагов: {len(by_module[module])}.")
            out.append(para)
            for step in sorted(by_module[module], key=lambda s: s.line):
                out.append(self.step(step, path))
        return out

    def parameter_types(self) -> list[nodes.Node]:
        """Legend of the parameter types usable in patterns (from the registry's EXTRA_TYPES)."""
        try:
            from berserk_rules.steps.registry import EXTRA_TYPES
        except ImportError:
            return []
        table = table_node([1, 2, 4])
        table["classes"].append("berserk-param-types")
        add_row(table, ["Параметр", "Что подходит (регулярное выражение)", "Описание"], head=True)
        add_row(table, [nodes.literal("{n:d}", "{n:d}"), nodes.literal("[0-9]+", "[0-9]+"), "целое число"])
        for code, func in EXTRA_TYPES.items():
            pattern = str(getattr(func, "pattern", ""))
            doc = (getattr(func, "__doc__", None) or "").strip().splitlines()
            example = "{x:" + code + "}"
            add_row(
                table,
                [nodes.literal(example, example), nodes.literal(pattern, pattern), doc[0] if doc else ""],
            )
        return [
            nodes.paragraph(text="Параметры в шаблонах записываются в фигурных скобках: {имя:тип}."),
            table,
        ]

    def step(self, step: Any, path: str) -> nodes.Node:
        box = nodes.container(ids=[f"step-{step.module}-{step.function}"], classes=["berserk-stepdef"])
        head = nodes.paragraph(classes=["berserk-stepdef-head"])
        kind = KIND_NAMES.get(step.kind, step.kind)
        head += badge(kind, f"berserk-kind-{step.kind}")
        head += nodes.Text(" ")
        head += nodes.literal(step.pattern, step.pattern, classes=["berserk-pattern"])
        if step.table:
            head += nodes.Text(" ")
            head += badge("с таблицей", "berserk-table-flag")
        box += head
        if step.doc:
            for paragraph in step.doc.split("\n\n"):
                box += nodes.paragraph(text=" ".join(paragraph.split()))
        if step.example and "\n" in step.example:
            box += nodes.paragraph(text="Пример:", classes=["berserk-stepdef-example"])
            box += message_block(step.example, "berserk-stepdef-example-block")
        elif step.example:
            box += nodes.paragraph(
                "",
                "",
                nodes.Text("Пример: "),
                nodes.literal(step.example, step.example),
                classes=["berserk-stepdef-example"],
            )
        where = f"{path}:{step.line} ({step.function})"
        box += nodes.paragraph(
            "",
            "",
            nodes.Text("Определение: "),
            nodes.literal(where, where),
            classes=["berserk-stepdef-where"],
        )
        return box


def load_steps() -> list[Any] | None:
    """Every registered step, or None when the step modules do not exist yet."""
    try:
        importlib.import_module("berserk_rules.steps.all")
    except ModuleNotFoundError as exc:
        if exc.name in ("berserk_rules.steps.all",):
            return None
        raise
    from berserk_rules.steps.registry import STEPS

    return list(STEPS)


def module_path(module: str, root: Path) -> str:
    file = getattr(sys.modules.get(module), "__file__", None)
    if not file:
        return module
    try:
        return Path(file).resolve().relative_to(root).as_posix()
    except ValueError:
        return module
