"""Командная строка ``berserk-rules``.

Each sub-command lives in ``berserk_rules.commands.<name>`` and exposes ``run(args) -> int``.
This module only declares the arguments and dispatches, so the commands stay independent.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from berserk_rules.errors import UserError

DEFAULT_RESULTS = "build/results.json"
# Set by program(): this process ends when the command returns (berserk_rules.site keeps what a build
# froze out of the garbage collector frozen, rather than pay a full collection nobody needs)
PROCESS_ENDS_AFTER_COMMAND = False


ARGPARSE_MESSAGES: tuple[tuple[str, str], ...] = (
    (r"the following arguments are required: (.*)", r"не хватает обязательных аргументов: \1"),
    (r"unrecognized arguments: (.*)", r"неизвестные аргументы: \1"),
    (r"argument (.*?): expected one argument", r"аргументу \1 нужно значение"),
    (
        r"argument (.*?): invalid choice: (.*?) \(choose from (.*)\)",
        r"аргумент \1: неизвестное значение \2 (допустимы: \3)",
    ),
    (r"argument (.*?): ignored explicit argument (.*)", r"аргумент \1: лишнее значение \2"),
    (r"argument (.*?): not allowed with argument (.*)", r"аргумент \1 нельзя указывать вместе с \2"),
    (r"ambiguous option: (.*?) could match (.*)", r"неоднозначный параметр \1: подходят \2"),
)


def translate(message: str) -> str:
    """argparse's English error message in Russian (unchanged when it is not a known one)."""
    for pattern, replacement in ARGPARSE_MESSAGES:
        if re.fullmatch(pattern, message):
            return re.sub(pattern, replacement, message)
    return message


class RussianHelpFormatter(argparse.HelpFormatter):
    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, "использование: " if prefix is None else prefix)


class RussianArgumentParser(argparse.ArgumentParser):
    """argparse with Russian usage, help headings and error messages."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", RussianHelpFormatter)
        add_help = kwargs.pop("add_help", True)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self._positionals.title = "аргументы"
        self._optionals.title = "параметры"
        if add_help:
            self.add_argument(
                "-h", "--help", action="help", default=argparse.SUPPRESS, help="показать эту справку и выйти"
            )

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: ошибка: {translate(message)}\n")


class VersionAction(argparse.Action):
    """``--version``: the package's version and the suite's (computed only when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> NoReturn:
        print(version_line())
        parser.exit()


def version_line() -> str:
    """«berserk-rules 1.0.0, набор 1.0.0+sha.…» (the project's suite: checkout or installed)."""
    from importlib.metadata import PackageNotFoundError, version

    from berserk_rules.rulebook.suite_version import suite_version

    try:
        package = version("berserk-rules")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree without installing
        package = "(не установлен)"
    try:
        suite = suite_version()
    except UserError as exc:
        suite = f"не найден ({exc})"
    return f"berserk-rules {package}, набор сценариев {suite}"


def build_parser() -> argparse.ArgumentParser:
    parser = RussianArgumentParser(
        prog="berserk-rules",
        description="Исполняемый свод правил «Берсерк. Герои»: правила, сценарии, эталонный движок, сайт.",
    )
    parser.add_argument(
        "--version",
        action=VersionAction,
        help="показать версию berserk-rules и набора сценариев (семантическая+sha.хеш) и выйти",
    )
    sub = parser.add_subparsers(dest="command", metavar="КОМАНДА", required=True, title="команды")

    p = sub.add_parser("corpus", help="корпус правил и терминов")
    p.add_argument("--json", action="store_true", help="вывести корпус как JSON-список")

    p = sub.add_parser(
        "import", help="перестроить rules/ из исходных текстов или импортировать редакцию (--edition)"
    )
    p.add_argument("--check", action="store_true", help="только проверить, что rules/ совпадает с импортом")
    p.add_argument(
        "--out",
        default=None,
        help="куда писать файлы частей (по умолчанию rules/); с --edition — папка редакции",
    )
    p.add_argument(
        "--edition", default=None, metavar="ИМЯ", help="импортировать полный текст редакции ИМЯ в папку --out"
    )
    p.add_argument(
        "--editorial",
        default=None,
        metavar="ФАЙЛ",
        help="с --edition: файл решений (по умолчанию ПАПКА/rules/editorial.toml)",
    )
    p.add_argument(
        "files",
        nargs="*",
        metavar="ФАЙЛ",
        help="с --edition: текст редакции (UTF-8), один или несколько файлов",
    )

    p = sub.add_parser("compare", help="сравнить две редакции правило за правилом")
    p.add_argument("old", metavar="БЫЛО", help="папка редакции (или проекта) — из которой")
    p.add_argument("new", metavar="СТАЛО", help="папка редакции (или проекта) — в которую")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("rule", help="показать правило или термин, его варианты и сценарии")
    p.add_argument("id", help="номер правила (401.7) или термин глоссария")
    p.add_argument("--results", default=None, help=f"файл результатов (по умолчанию {DEFAULT_RESULTS})")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("lint", help="проверить сценарии (features/)")
    p.add_argument("paths", nargs="*", help="файлы или папки (по умолчанию features/)")
    p.add_argument("--json", action="store_true")

    for name, text in (
        ("check", "прогнать все сценарии на движке, записать результаты, вывести сводку"),
        ("site", "выполнить check и собрать сайт"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("--driver", default=None, help="драйвер движка на Python: модуль:Класс")
        p.add_argument(
            "--engine",
            default=None,
            metavar="КОМАНДА",
            help="движок как процесс по протоколу berserk-rules, например «berserk-engine serve»",
        )
        p.add_argument("--timeout", default=None, metavar="С", help="предел ожидания ответа движка, с (5)")
        p.add_argument(
            "--scenario-timeout", default=None, metavar="С", help="предел времени одного сценария, с (20)"
        )
        p.add_argument(
            "--isolation",
            default=None,
            choices=("process", "none"),
            help="process (по умолчанию): движок в отдельном процессе; none: в процессе pytest (отладка)",
        )
        p.add_argument(
            "--known-failures", default=None, metavar="ФАЙЛ", help="TOML-список известных ошибок движка"
        )
        p.add_argument("--junit", default=None, metavar="ФАЙЛ", help="записать также отчёт JUnit XML")
        p.add_argument(
            "--suite",
            default=None,
            metavar="X.Y.Z",
            help="закрепить версию набора сценариев: другая установленная версия — ошибка (X.Y.Z+sha.… — "
            "и содержимое)",
        )
        p.add_argument(
            "--results", default=None, help=f"куда записать результаты (по умолчанию {DEFAULT_RESULTS})"
        )
        p.add_argument(
            "-n",
            "--workers",
            default=None,
            help="число процессов pytest-xdist; по умолчанию один процесс, "
            "auto — от 500 сценариев на машине с двумя и более ядрами",
        )
        if name == "check":
            p.add_argument(
                "--trace",
                action="store_true",
                help="записать и партию по шагам (доска и журнал после каждого шага) для сайта "
                "(site --no-check); site записывает её всегда",
            )
        else:
            p.set_defaults(trace=True)  # the site shows every scenario's game step by step
        p.add_argument(
            "-v",
            "--verbose",
            action="store_true",
            help="полный отчёт pytest со всеми трассировками (по умолчанию — строка на каждый сбой)",
        )
        p.add_argument(
            "pytest_args",
            nargs=argparse.REMAINDER,
            help="после --: сценарии (features/part-3, ФАЙЛ:СТРОКА), аргументы pytest (-k, -x)",
        )
        if name == "site":
            p.add_argument("--out", default=None, help="куда собрать сайт (по умолчанию build/site)")
            p.add_argument(
                "--no-check", action="store_true", help="не прогонять сценарии, взять последние результаты"
            )
            p.add_argument(
                "--corpus",
                default=None,
                metavar="ПАПКА",
                help="собрать сайт редакции из ПАПКИ (import --edition); по умолчанию --out ПАПКА/site",
            )
            p.add_argument(
                "--compare",
                default=None,
                metavar="ПАПКА",
                help="с --corpus: страница изменений по сравнению с редакцией из ПАПКИ",
            )
            p.add_argument(
                "--matrix",
                nargs="+",
                default=None,
                metavar="РЕЗУЛЬТАТЫ",
                help="файлы результатов для матрицы движков",
            )

    p = sub.add_parser(
        "export", help="записать каждый сценарий как тестовый вектор JSON (для авторов движков)"
    )
    p.add_argument("dir", metavar="ПАПКА", help="куда записать векторы (новая или прежний экспорт)")

    p = sub.add_parser("docs", help="документы автора движка текстом: протокол и схемы, что спрашивают шаги")
    p.add_argument("document", choices=("protocol", "steps"), help="protocol — протокол, steps — шаги")
    p.add_argument("--path", action="store_true", help="только напечатать, где лежит документ")

    p = sub.add_parser(
        "kit", help="набор автора движка: раннер векторов и движок-пример на JavaScript (копия из пакета)"
    )
    p.add_argument("dir", metavar="ПАПКА", help="куда скопировать набор (новая или пустая папка)")

    p = sub.add_parser(
        "known-failures", help="список известных ошибок (TOML для check --known-failures) по результатам"
    )
    p.add_argument("results", metavar="РЕЗУЛЬТАТЫ", help="файл результатов (check --results)")

    p = sub.add_parser("matrix", help="сравнить движки: правила × движки по файлам результатов")
    p.add_argument("results", nargs="+", metavar="РЕЗУЛЬТАТЫ", help="файлы результатов (check --results)")
    p.add_argument(
        "--failures", default=None, metavar="ДВИЖОК", help="только сбои этого движка (имя или номер)"
    )
    p.add_argument("--json", action="store_true", help="матрица как JSON")
    p.add_argument("--badges", default=None, metavar="ПАПКА", help="записать SVG-значки по частям")

    p = sub.add_parser("bench", help="замер скорости эталонного движка на случайных партиях")
    p.add_argument("--json", action="store_true")
    p.add_argument("--games", type=int, default=200, help="сколько партий сыграть (200)")
    p.add_argument("--seed", type=int, default=1, help="зерно первой партии (1)")
    p.add_argument(
        "--repeat", type=int, default=3, help="сколько раз сыграть те же партии; скорость — медиана (3)"
    )
    p.add_argument(
        "--compiled",
        action="store_true",
        help="замерить скомпилированную сборку того же движка (mypyc; собирается один раз, нужен mypy)",
    )

    p = sub.add_parser(
        "compile", help="собрать скомпилированный движок (mypyc) и напечатать папку для PYTHONPATH"
    )
    p.add_argument("--jobs", type=int, default=2, help="процессов компилятора C (2)")

    p = sub.add_parser("deck", help="проверить колоду по правилам составления (Название карты, Орда)")
    p.add_argument("file", help="файл колоды: формат и таблица карт с количеством")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("cards", help="прочитать список карт движком: какие тексты он не понимает и почему")
    p.add_argument("file", help="файл карт: таблица в столбцах файла колоды")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--show",
        action="store_true",
        help="показать, как понята каждая способность: канонический текст и дерево",
    )

    p = sub.add_parser(
        "ask", help="вопрос судьи: прогнать свой файл сценариев откуда угодно и показать партии по шагам"
    )
    p.add_argument("file", metavar="ФАЙЛ", help="файл сценариев .feature (в любой папке)")
    p.add_argument("--html", default=None, metavar="ФАЙЛ", help="записать страницу с партиями по шагам")
    p.add_argument(
        "--site",
        default=None,
        metavar="АДРЕС",
        help="адрес сайта свода для ссылок на правила и толкования (по умолчанию $BERSERK_RULES_SITE)",
    )
    p.add_argument("--driver", default=None, help="драйвер движка на Python: модуль:Класс")
    p.add_argument("--engine", default=None, metavar="КОМАНДА", help="движок как процесс по протоколу")
    p.add_argument("--json", action="store_true", help="результаты сценариев как JSON")

    p = sub.add_parser("coverage", help="покрытие корпуса сценариями")
    p.add_argument("--json", action="store_true")
    p.add_argument("--results", default=None, help=f"файл результатов (по умолчанию {DEFAULT_RESULTS})")

    p = sub.add_parser(
        "changelog", help="изменения сценариев с прошлой версии набора; --release записывает новую версию"
    )
    p.add_argument(
        "--release",
        default=None,
        metavar="X.Y.Z",
        help="выпустить версию: раздел в CHANGELOG-suite.md, новая опись suite-manifest.json",
    )
    p.add_argument("--date", default=None, help="дата выпуска в CHANGELOG-suite.md (по умолчанию сегодня)")
    return parser


# The exit code when whoever read our output stopped reading (``rule 401.7 | head``): the shell's
# code for a program ended by SIGPIPE, as ``cat`` gives there — without a traceback.
BROKEN_PIPE = 128 + 13


def main(argv: Sequence[str] | None = None) -> int:
    try:
        try:
            return dispatch(argv)
        finally:
            sys.stdout.flush()  # here, not at exit: a closed pipe is seen while we can still say so
    except BrokenPipeError:
        # Nothing more is written to stdout: Python's flush at exit must not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return BROKEN_PIPE


def program() -> NoReturn:
    """The ``berserk-rules`` program (the console script): :func:`main`, then the process ends.

    Everything a command loaded is frozen out of the garbage collector first: a process ending runs
    one last full collection over every object still alive, which after a site build (scenarios,
    results, corpus, caches) cost 0.8–1.0 s of processor time for nothing (measured: 0.05–0.17 s
    frozen). The objects are still released and ``atexit`` handlers still run; only that traversal is
    skipped. :func:`main` itself, called in process (tests), freezes nothing."""
    import gc

    # set by the module's name: under «python -m berserk_rules.cli» this file runs as __main__, and
    # the site reads the flag from berserk_rules.cli
    this: Any = importlib.import_module("berserk_rules.cli")
    this.PROCESS_ENDS_AFTER_COMMAND = True
    code = main()
    gc.freeze()
    sys.exit(code)


def dispatch(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    module = importlib.import_module(f"berserk_rules.commands.{args.command.replace('-', '_')}")
    try:
        return int(module.run(args) or 0)
    except BrokenPipeError:
        raise  # main's: the reader is gone, nobody to tell
    except UserError as exc:
        print(f"berserk-rules {args.command}: ошибка: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C where a command has nothing of its own to say about it
        print(f"\nberserk-rules {args.command}: прервано (Ctrl-C)", file=sys.stderr)
        return 130
    except OSError as exc:  # a write point that does not say it itself: still one line, no traceback
        from berserk_rules.commands._common import os_error_line

        print(f"berserk-rules {args.command}: ошибка: {os_error_line(exc)}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    program()
