"""Командная строка ``berserk-rules``.

Each sub-command lives in ``berserk_rules.commands.<name>`` and exposes ``run(args) -> int``.
This module only declares the arguments and dispatches, so the commands stay independent.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from berserk_rules.errors import UserError

DEFAULT_RESULTS = "build/results.json"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="berserk-rules",
        description="Исполняемый свод правил «Берсерк. Герои»: правила, сценарии, эталонный движок, сайт.",
    )
    sub = parser.add_subparsers(dest="command", metavar="КОМАНДА", required=True)

    p = sub.add_parser("corpus", help="корпус правил и терминов")
    p.add_argument("--json", action="store_true", help="вывести корпус как JSON-список")

    p = sub.add_parser("import", help="перестроить rules/ из исходных текстов")
    p.add_argument("--check", action="store_true", help="только проверить, что rules/ совпадает с импортом")
    p.add_argument("--out", default=None, help="куда писать файлы частей (по умолчанию rules/)")

    p = sub.add_parser("rule", help="показать правило или термин, его варианты и сценарии")
    p.add_argument("id", help="номер правила (401.7) или термин глоссария")
    p.add_argument("--results", default=DEFAULT_RESULTS, help="файл результатов")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("lint", help="проверить сценарии (features/)")
    p.add_argument("paths", nargs="*", help="файлы или папки (по умолчанию features/)")
    p.add_argument("--json", action="store_true")

    for name, text in (
        ("check", "прогнать все сценарии на движке, записать результаты, вывести сводку"),
        ("site", "выполнить check и собрать сайт"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("--driver", default=None, help="драйвер движка: модуль:Класс")
        p.add_argument("--results", default=DEFAULT_RESULTS, help="куда записать результаты")
        p.add_argument("-n", "--workers", default=None, help="число процессов pytest-xdist (auto)")
        p.add_argument("pytest_args", nargs=argparse.REMAINDER, help="аргументы для pytest после --")
        if name == "site":
            p.add_argument("--out", default="build/site", help="куда собрать сайт")
            p.add_argument(
                "--no-check", action="store_true", help="не прогонять сценарии, взять последние результаты"
            )

    p = sub.add_parser("coverage", help="покрытие корпуса сценариями")
    p.add_argument("--json", action="store_true")
    p.add_argument("--results", default=DEFAULT_RESULTS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    module = importlib.import_module(f"berserk_rules.commands.{args.command}")
    try:
        return int(module.run(args) or 0)
    except UserError as exc:
        print(f"berserk-rules {args.command}: ошибка: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
