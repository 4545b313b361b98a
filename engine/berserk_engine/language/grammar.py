"""The card language's grammar: ``syntax/*.lark`` (lark, Earley) over the analyses of words.

lark's Earley parser matches one terminal type per token; a Russian word has several analyses
(«каждого»: genitive masculine, genitive neuter, accusative animate masculine). The parser here is
given the tokens themselves (a lexer that passes them through), and its terminal matcher accepts a
token for every terminal among the token's analyses — the one change to lark's parser, pinned by
tests/test_language.py. Agreement is in the terminals' names (see ``syntax/groups.lark`` and
:func:`~berserk_engine.language.morphology.agreement_key`): rules written once per key are repeated
for every key by :func:`expand`.

The parse keeps every reading (``ambiguity="explicit"``): :mod:`~berserk_engine.language.tree`
compiles each and merges those with the same meaning.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator, Sequence
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from lark import Lark, Tree
from lark import Token as LarkToken
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer

from berserk_engine import card_store
from berserk_engine.language.morphology import CASES, Analysis, all_keys
from berserk_engine.language.names import name_terminal
from berserk_engine.language.tokens import Token

FOLDER = Path(__file__).resolve().parent / "syntax"  # the written grammar: a file per layer
PUNCTUATION = {
    ".": "DOT",
    ",": "COMMA",
    ":": "COLON",
    ";": "SEMICOLON",
    "(": "LPAR",
    ")": "RPAR",
    "-": "DASH",
    "\u2013": "DASH",
    "\u2014": "DASH",
}
_EXTEND = re.compile(r"^%extend\b", re.MULTILINE)
_START = re.compile(r"^%start\b(.*)$", re.MULTILINE)
_BLOCK = re.compile(r"^%(per_key|per_case)\n(.*?)^%end\n", re.MULTILINE | re.DOTALL)
_TERMINAL = re.compile(r"\b[A-Z][A-Z0-9_]*\b")


def expand(text: str) -> str:
    """The written grammar with its ``%per_key`` and ``%per_case`` blocks repeated, and every terminal
    declared."""
    keys = all_keys()

    def block(m: re.Match[str]) -> str:
        body = m.group(2)
        if m.group(1) == "per_key":
            return "".join(body.replace("{K}", k).replace("{k}", k.lower()) for k in keys)
        out = []
        for case in CASES:
            of_case = [k for k in keys if k.startswith(case.upper() + "_")]
            alternatives = " | ".join(f"group_{k.lower()}" for k in of_case)
            out.append(body.replace("{case}", case).replace("{keys_of_case}", alternatives))
        return "".join(out)

    expanded = _BLOCK.sub(block, text)
    rules = "\n".join(line for line in expanded.splitlines() if not line.lstrip().startswith("//"))
    terminals = sorted(set(_TERMINAL.findall(rules)))
    return expanded + "\n%declare " + " ".join(terminals) + "\n"


class _Word(LarkToken):
    """A token as the parser sees it: its terminals (the names of its analyses) and the token."""

    terminals: frozenset[str]
    source: Token


def _terminals(token: Token, found: frozenset[Analysis]) -> frozenset[str]:
    if token.kind == "word" or (token.kind == "icon" and found):
        return frozenset(a.terminal for a in found)
    if token.kind == "punct":
        return frozenset({PUNCTUATION[token.text]})
    if token.kind == "quote":  # a card's name: also a noun group in the nominative (language/names.py)
        return frozenset({"QUOTE", name_terminal(token.inner)})
    return frozenset({token.kind.upper()})


def words(tokens: Sequence[Token], found: Sequence[frozenset[Analysis]]) -> list[_Word]:
    """The parser's tokens for a text's tokens and their analyses."""
    out = []
    for token, analyses in zip(tokens, found, strict=True):
        word = _Word("WORD", token.text, start_pos=token.start, end_pos=token.end)
        word.terminals = _terminals(token, analyses)
        word.source = token
        out.append(word)
    return out


class _PassThrough(Lexer):
    def __init__(self, _conf: Any) -> None:  # lark passes its lexer configuration: nothing to set up
        pass

    def lex(self, data: Any) -> Iterator[Any]:  # type: ignore[override]
        yield from data


def _match(term: Any, token: Any) -> bool:
    return term.name in token.terminals


def source() -> str:
    """The written grammar: every ``*.lark`` file of :data:`FOLDER`, in name order — those that only
    define rules first, then those that add alternatives to rules of other files (``%extend``: lark
    extends only a rule defined before)."""
    texts = [p.read_text(encoding="utf-8") for p in sorted(FOLDER.glob("*.lark"))]
    return "\n".join(sorted(texts, key=lambda text: _EXTEND.search(text) is not None))


def starts(text: str) -> list[str]:
    """The rules named by the ``%start`` lines of a written grammar, in order."""
    return [name for line in _START.findall(text) for name in line.split()]


class Grammar:
    """The compiled grammar: its ``text`` (the written grammar expanded), its ``digest`` (the disk cache of
    readings is keyed by it) and the aliases of its alternatives are known from the text alone; the lark
    parser (``parser``, about 0.3–0.8 s to build) is built the first time a text is not in the cache."""

    def __init__(self, text: str, start: list[str]) -> None:
        self.last: tuple[Any, Any] = ((), ())
        self.text = text
        self.start = start
        self.digest = hashlib.sha256(text.encode()).hexdigest()[:16]

    @cached_property
    def parser(self) -> Lark:
        from lark.parsers import earley

        parser = Lark(self.text, parser="earley", lexer=_PassThrough, ambiguity="explicit", start=self.start)
        engine = parser.parser.parser
        if not isinstance(engine, earley.Parser):  # lark changed: the matcher below would not be used
            raise RuntimeError(f"lark: ожидается парсер Earley, а не {type(engine).__name__}")
        engine.term_matcher = _match
        original = engine.predict_and_complete

        def remember(i: int, to_scan: Any, columns: Any, transitives: Any, node_cache: Any) -> Any:
            # the Earley sets of the last parse: where it stopped, :func:`_pieces` reads them
            self.last = (columns, to_scan)
            return original(i, to_scan, columns, transitives, node_cache)

        setattr(engine, "predict_and_complete", remember)  # noqa: B010 — a method of lark's, replaced
        return parser

    @cached_property
    def aliases(self) -> frozenset[str]:
        """The aliases of the grammar's alternatives (``-> wound``) that name no rule: each a construction
        of its own (the same set as lark's rules give, without building the parser; a test compares)."""
        rules = set(_RULE.findall(self.text))
        return frozenset(_ALIAS.findall(self.text)) - rules


_RULE = re.compile(r"^(?:%extend\s+)?[?!]?([a-z_][a-z0-9_]*)\s*:", re.MULTILINE)
_ALIAS = re.compile(r"->\s*([a-z_][a-z0-9_]*)")


@cache
def grammar() -> Grammar:
    """The grammar (its text read and expanded once; its parser built when first needed)."""
    written = source()
    return Grammar(expand(_START.sub("", written)), starts(written))


Piece = tuple[str, int, bool]  # a constituent where a parse stopped: (rule, index of its first word, open)


class NoParse(ValueError):
    """The words do not fit the grammar: ``token`` is the first that does not fit (None: the words end
    too early), ``at`` its index among the words; ``expected``: the terminals the grammar waited for
    there; ``pieces``: the constituents the parser was inside there (open: waiting for more words) or had
    just completed there (closed), each as its rule and the index of its first word — what
    :mod:`~berserk_engine.language.diagnosis` names as the piece it did not understand."""

    def __init__(
        self, token: Token | None, expected: frozenset[str], at: int = 0, pieces: tuple[Piece, ...] = ()
    ) -> None:
        super().__init__(token.text if token is not None else "")
        self.token = token
        self.expected = expected
        self.at = at
        self.pieces = pieces


def _pieces(columns: Sequence[Any], to_scan: Any, at: int) -> tuple[Piece, ...]:
    """The constituents at the word ``at`` where the parse stopped, from lark's Earley sets: the items
    waiting for a terminal there and every item they are part of (the items of the set where each began
    that wait for its rule), and the items completed there."""
    from lark.grammar import NonTerminal

    found: set[Piece] = set()
    todo = list(to_scan)
    seen: set[Any] = set()
    while todo:
        item = todo.pop()
        if item in seen:
            continue
        seen.add(item)
        found.add((str(item.rule.origin.name), item.start, True))
        if item.start < len(columns):
            todo.extend(
                parent
                for parent in columns[item.start]
                if isinstance(parent.expect, NonTerminal) and parent.expect == item.rule.origin
            )
    if at < len(columns):
        found.update((str(i.rule.origin.name), i.start, False) for i in columns[at] if i.is_complete)
    return tuple(sorted(found))


def parse(ws: list[_Word], start: str) -> Tree[Any]:
    """The forest of readings (``_ambig`` nodes where there are several). Raises :class:`NoParse`.

    Forests are cached on disk (:func:`cache_folder`), keyed by the grammar's and the lexicon's hash,
    pymorphy3's version, the start rule and the terminals of the words — what the parse depends on."""
    folder = cache_folder()
    path = folder / f"{_cache_key(ws, start)}.json" if folder is not None else None
    if path is not None:
        cached = _load(path, ws)
        if isinstance(cached, NoParse):
            raise cached
        if cached is not None:
            return cached
    try:
        forest = grammar().parser.parse(ws, start=start)  # type: ignore[arg-type]
    except UnexpectedInput as exc:
        token = getattr(exc, "token", None)
        source = getattr(token, "source", None)
        expected = frozenset(getattr(exc, "expected", ()) or ())
        at = next((i for i, w in enumerate(ws) if w is token), None)
        columns, to_scan = grammar().last
        stop = len(ws) if at is None else at
        pieces = _pieces(columns, to_scan, stop)
        if path is not None:
            _store(
                path, {"error": {"at": at, "expected": sorted(expected), "pieces": [list(p) for p in pieces]}}
            )
        raise NoParse(source, expected, stop, pieces) from None
    if path is not None:
        data = _plain(forest, {id(w): i for i, w in enumerate(ws)})
        if data is not None:
            _store(path, {"forest": data})
    return forest


CACHE_ENV = card_store.CACHE_ENV  # the folder of the cache of parses; "off": no cache


def cache_folder() -> Path | None:
    """Where parses are cached: ``$BERSERK_READER_CACHE``, else ``$XDG_CACHE_HOME/berserk-rules/readings``
    (``~/.cache/…``); None when the variable says ``off``. The store of card definitions lies there too
    (:func:`berserk_engine.card_store.cache_folder`, the one place that says where)."""
    return card_store.cache_folder()


def _versions() -> str:
    """What a cached parse rests on: the grammar as it is now (:func:`grammar` is cached and cleared on
    its own — a digest cached here outlived a cleared grammar, and parses by one grammar were stored under
    another's key), the lexicon and the libraries' versions."""
    return f"{grammar().digest}|{_fixed_versions()}"


@cache
def _fixed_versions() -> str:
    from importlib.metadata import version

    from berserk_engine.language.lexicon import lexicon

    return f"{lexicon().digest}|{version('pymorphy3')}|{version('lark')}"


def _cache_key(ws: Sequence[_Word], start: str) -> str:
    words = "|".join(",".join(sorted(w.terminals)) for w in ws)
    return hashlib.sha256(f"{_versions()}|{start}|{words}".encode()).hexdigest()[:32]


def _plain(tree: Any, index: dict[int, int]) -> Any:
    """A forest as plain data: a tree as [its name, its children], a word as its index (None: a leaf
    that is not one of the words — not cached)."""
    if isinstance(tree, Tree):
        children = [_plain(c, index) for c in tree.children]
        return None if any(c is None for c in children) else [str(tree.data), children]
    return index.get(id(tree))


def _tree(data: Any, ws: Sequence[_Word]) -> Any:
    if isinstance(data, int):
        return ws[data]
    name, children = data
    return Tree(name, [_tree(c, ws) for c in children])


def _load(path: Path, ws: Sequence[_Word]) -> Tree[Any] | NoParse | None:
    """A cached forest (or the cached error) — None when there is none or it cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if "error" in data:
            at = data["error"]["at"]
            pieces = tuple((str(r), int(s), bool(o)) for r, s, o in data["error"]["pieces"])
            return NoParse(
                ws[at].source if at is not None else None,
                frozenset(data["error"]["expected"]),
                len(ws) if at is None else at,
                pieces,
            )
        return _tree(data["forest"], ws)  # type: ignore[no-any-return]
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None


def _store(path: Path, data: dict[str, Any]) -> None:
    """Write a cache entry atomically (several processes may read the same cards); a cache that cannot
    be written is no cache, never an error."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        pass
