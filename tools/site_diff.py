"""Does the site's HTML stay the same across the tooling redesign? (issue 17: byte-identical unless a
named bug was fixed).

The content (rules/, features/, docs/*.md) is taken from the base commit, so that only the tooling
differs: the site is built twice from that content, once with the base commit's code and once with
this working tree's code (``berserk_rules/``, ``engine/``, ``docs/conf.py``, ``docs/_static``,
``docs/_templates``, ``docs/locales``), both with ``site --no-check`` and the same results file (the
base commit's ``check`` on that content), each in its own temporary folder. Then every file of the
two outputs is compared after normalising only what legitimately varies:

* ``?v=<checksum>`` after a static file's name in the pages (Sphinx's cache buster: it changes
  whenever ``berserk.js`` or ``berserk.css`` changes — those files are compared on their own);
* in ``searchindex.js``, the extension's module name in ``envversion`` (``berserk_rules.sphinx_ext``
  → ``berserk_rules.site``).

Default base: the parent of the commit that removed ``berserk_rules/sphinx_ext.py`` (the split into
the ``berserk_rules/site`` package). Prints the number of differing files, grouped by the kind of
difference (the first differing line of each file, with its neighbourhood shortened), and writes a
unified diff of every differing file into ``--keep``/diff.txt when ``--keep`` is given.

Usage: ``.venv/bin/python tools/site_diff.py [--base COMMIT] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE = ("berserk_rules", "engine", "docs/conf.py", "docs/_static", "docs/_templates", "docs/locales")
SKIPPED = shutil.ignore_patterns("__pycache__", "*.mo", "node_modules")
# differences already named in the history (git log 2bd865f..main), line by line: a changed line of a
# page that matches one of these is explained by that commit; every other changed line is listed as
# unexplained. The generic lines (a blank line, «<ul>», «</div>») are the ones difflib pairs up around
# a moved block.
KNOWN = [
    (
        r'class="caption" role="heading"',
        "897f1cc: подписи оглавлений с aria-level (axe: aria-required-attr, issue 19)",
    ),
    (
        r"заголовок в источниках утрачен|Часть \d+: правил[оа]? "
        r"|Примечание редакции:</strong> Заголовок этой части",
        "897f1cc: части без заголовка в источниках названы по их правилам, с примечанием редакции",
    ),
    (r"berserk-source|berserk-part-variant", "897f1cc: источники по подписи, не по хэшу имени файла"),
    (r"berserk-rule-interpretations", "897f1cc: толкования, на которые опираются сценарии правила"),
    (
        r"<h1>Поиск</h1>|searchindex\.js|language_data\.js",
        "897f1cc / 1052c5a: h1 страницы поиска; указатель страниц по запросу",
    ),
    (r"berserk-letters", "aaa5e7a: буквенный указатель глоссария"),
    (r"^\s*$|^\s*</?ul>$|^</div>$|^<div class=\"berserk-scenarios docutils container\">$", "перенос блока"),
]
STATIC = {
    "_static/berserk.css": "897f1cc / aaa5e7a: печать, фокус, значок «прошёл», буквы глоссария (issue 19)",
    "_static/berserk.js": "1052c5a: поиск по корням и с опечаткой (issue 19)",
    "_static/berserk-entries.js": "1052c5a / 897f1cc: данные поиска (корни) и новые названия частей",
    "searchindex.js": "названия частей и новые слова страниц (по классам выше)",
    "objects.inv": "названия частей (по классам выше)",
    # pages generated from the code, not from the tooling: their content is the code's own
    "steps.html": "содержание: словарь шагов строится из berserk_rules/steps (шаги добавлены и перенесены)",
    "protocol.html": "содержание: страница включает схему протокола (berserk_rules/schemas), она изменилась",
}
VERSION_RE = re.compile(r"\?v=[0-9a-f]{8,}")
ENVVERSION_RE = re.compile(r'"berserk_rules\.(?:sphinx_ext|site)":')


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def default_base() -> str:
    removed = git("log", "--diff-filter=D", "--format=%H", "--", "berserk_rules/sphinx_ext.py").split()
    if not removed:
        raise SystemExit("не найден коммит, удаливший berserk_rules/sphinx_ext.py: укажите --base")
    return git("rev-parse", removed[-1] + "^").strip()


def export(commit: str, dest: Path) -> None:
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)


def cli(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``berserk-rules ARGS`` with ``project``'s own code (it comes first on the module path)."""
    env = {**os.environ, "PYTHONPATH": str(project), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "berserk_rules.cli", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
    )


def normalised(path: Path) -> bytes:
    data = path.read_bytes()
    if path.suffix in (".html", ".js"):
        text = data.decode("utf-8", errors="surrogateescape")
        text = VERSION_RE.sub("?v=…", text)
        if path.name == "searchindex.js":
            text = ENVVERSION_RE.sub('"berserk_rules.EXT":', text)
        data = text.encode("utf-8", errors="surrogateescape")
    return data


def first_difference(old: bytes, new: bytes) -> str:
    a = old.decode("utf-8", errors="replace").splitlines()
    b = new.decode("utf-8", errors="replace").splitlines()
    for line in difflib.unified_diff(a, b, lineterm="", n=0):
        if line.startswith(("-", "+")) and not line.startswith(("---", "+++")):
            return re.sub(r"\s+", " ", line.strip())[:160]
    return "(только перевод строки)"


def compare_only(old: Path, new: Path) -> None:
    """``--compare OLD NEW``: only the comparison, of two site folders already built."""
    report("—", old, new, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--base", help="коммит до переделки (по умолчанию — родитель разделения sphinx_ext.py)"
    )
    parser.add_argument("--keep", type=Path, help="папка для обеих сборок и diff.txt (её не должно быть)")
    parser.add_argument(
        "--compare", nargs=2, type=Path, metavar=("OLD", "NEW"), help="сравнить две готовые сборки"
    )
    args = parser.parse_args()
    if args.compare:
        compare_only(*args.compare)
        return
    base = git("rev-parse", args.base).strip() if args.base else default_base()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = args.keep.resolve() if args.keep else Path(tmp_name)
        old, new = tmp / "old", tmp / "new"
        export(base, old)
        export(base, new)
        for name in CODE:  # this tree's code over the base commit's content
            target = new / name
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, target, ignore=SKIPPED)
            elif source.exists():
                shutil.copy2(source, target)
        results = tmp / "results.json"
        done = cli(old, "check", "--results", str(results))
        if not results.is_file():
            raise SystemExit(
                f"check в {old} не записал результаты:\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
            )
        for project in (old, new):
            done = cli(
                project,
                "site",
                "--no-check",
                "--results",
                str(results),
                "--out",
                str(tmp / project.name / "site"),
            )
            if done.returncode:
                raise SystemExit(
                    f"site в {project}: код {done.returncode}\n{done.stdout[-2000:]}{done.stderr[-3000:]}"
                )
        report(base, old / "site", new / "site", tmp if args.keep else None)


def explain(rel: str, old: bytes, new: bytes, why: dict[str, set[str]], unexplained: list[str]) -> None:
    """Sort the changed lines of one file into the classes of :data:`KNOWN` (or ``STATIC``)."""
    if rel in STATIC:
        why[STATIC[rel]].add(rel)
        return
    a = old.decode("utf-8", errors="replace").splitlines()
    b = new.decode("utf-8", errors="replace").splitlines()
    for line in difflib.unified_diff(a, b, lineterm="", n=0):
        if not line.startswith(("-", "+")) or line.startswith(("---", "+++")):
            continue
        for pattern, name in KNOWN:
            if re.search(pattern, line[1:]):
                why[name].add(rel)
                break
        else:
            unexplained.append(f"{rel}: {line[:200]}")


def report(base: str, old: Path, new: Path, keep: Path | None) -> None:
    files_old = {p.relative_to(old) for p in old.rglob("*") if p.is_file()}
    files_new = {p.relative_to(new) for p in new.rglob("*") if p.is_file()}
    only_old, only_new = sorted(files_old - files_new), sorted(files_new - files_old)
    kinds: dict[str, list[str]] = defaultdict(list)
    diffs: list[str] = []
    why: dict[str, set[str]] = defaultdict(set)
    unexplained: list[str] = []
    same = 0
    for rel in sorted(files_old & files_new):
        a, b = normalised(old / rel), normalised(new / rel)
        if a == b:
            same += 1
            continue
        kinds[first_difference(a, b)].append(str(rel))
        explain(rel.as_posix(), a, b, why, unexplained)
        if keep is not None:
            diffs.extend(
                difflib.unified_diff(
                    a.decode("utf-8", errors="replace").splitlines(),
                    b.decode("utf-8", errors="replace").splitlines(),
                    f"old/{rel}",
                    f"new/{rel}",
                    lineterm="",
                    n=1,
                )
            )
    differing = sum(len(v) for v in kinds.values())
    print(
        f"база: {base[:12]}; файлов: {len(files_old)} и {len(files_new)}; "
        f"одинаковы {same}, различаются {differing}"
    )
    print(f"только в старой сборке: {len(only_old)} {[str(p) for p in only_old[:10]]}")
    print(f"только в новой сборке: {len(only_new)} {[str(p) for p in only_new[:10]]}")
    for first, files in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        print(f"\n{len(files)} файл(ов), первое отличие: {first}")
        print("  " + ", ".join(files[:6]) + (" …" if len(files) > 6 else ""))
    print("\nклассы отличий (по строкам; файл может быть в нескольких):")
    for name, files in sorted(why.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(files)} файл(ов): {name}")
    print(f"необъяснённых строк: {len(unexplained)}")
    for line in unexplained[:40]:
        print("  " + line)
    if keep is not None:
        (keep / "diff.txt").write_text("\n".join(diffs) + "\n", encoding="utf-8")
        print(f"\nполный diff: {keep / 'diff.txt'}")


if __name__ == "__main__":
    main()
