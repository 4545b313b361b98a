"""The store of card definitions (``berserk_engine.card_store``): what one process read, the next takes
as it was — the same definitions, the same games — and nothing it should not."""

from __future__ import annotations

import os
import random
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from berserk_engine import card_store, characteristics, grammar, hooks, queue, setup
from berserk_engine.card_store import CardStore
from berserk_engine.cards import CardDef
from berserk_engine.errors import CardTextError
from berserk_engine.selfplay import random_action, standard_position

pytestmark = pytest.mark.skipif(
    not card_store.__file__.endswith(".py"), reason="the compiled engine keeps no store (its classes)"
)


def _examples() -> list[tuple[str, str]]:
    """(type, text): every example of the card language's forms that a card of its kind reads."""
    found = []
    for kind, spell in (("существо", False), ("заклинание", True)):
        for text in grammar._examples(spell):
            try:
                CardDef.build("Образец", kind, cost=1, strike=1, life=2, text=text)
            except CardTextError:
                continue
            found.append((kind, text))
    return found


def _forget() -> None:
    """Everything this process remembers of the cards it read."""
    setup._DEFINITIONS.clear()
    grammar._READ.clear()
    clear = getattr(grammar._parse_cached, "cache_clear", None)  # not while a test stands in for it
    if clear is not None:
        clear()
    queue._ABILITIES.clear()
    characteristics._GRANTED.clear()
    hooks._KEYWORDS_OF.clear()


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CardStore:
    """The process's store, in a folder of the test's own."""
    made = CardStore(tmp_path / "__pycache__" / (card_store.PREFIX + "k"))
    monkeypatch.setattr(card_store, "_STORE", [made])
    _forget()
    yield made
    _forget()


def test_every_form_of_the_card_language_comes_back_as_it_was_read(store: CardStore) -> None:
    examples = _examples()
    assert len(examples) > 100
    for index, (kind, text) in enumerate(examples):
        built = CardDef.build(f"Образец {index}", kind, cost=1, strike=1, life=2, text=text)
        store.put(("card", index), built)
        again = store.get(("card", index))
        assert again is not built and repr(again) == repr(built), text
        assert again.abilities == built.abilities
        # built again attribute by attribute in their order (card_store.rebuilt), not by pickle's own way
        assert list(vars(again)) == list(vars(built))


def test_a_game_from_stored_cards_is_the_same_game(store: CardStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three times the same seeded games: the cards read with no store, read and stored, taken from the
    store (nothing read) — the same decisions, the same log."""

    def games() -> list[Any]:
        out = []
        for seed in range(1, 6):
            game = setup.new_game(standard_position(seed))
            rng = random.Random(seed)
            moves = 0
            while (decision := game.decision()) is not None and moves < 400:
                game.act(decision.player, random_action(decision.options, rng))
                moves += 1
            out.append((moves, game.log_for(None)))
        return out

    monkeypatch.setattr(card_store, "_STORE", [None])
    unstored = games()
    _forget()
    monkeypatch.setattr(card_store, "_STORE", [store])
    stored = games()
    files = sorted(p.name for p in store.folder.iterdir())
    assert files, "nothing was stored"
    _forget()

    def not_read(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a card was read although it was stored")

    monkeypatch.setattr(grammar, "_parse_cached", not_read)
    monkeypatch.setattr(CardDef, "build", not_read)
    assert games() == stored == unstored
    assert sorted(p.name for p in store.folder.iterdir()) == files


def test_a_damaged_or_foreign_entry_is_a_miss(store: CardStore) -> None:
    built = CardDef.build("Страж", "существо", cost=2, strike=1, life=3)
    store.put(("card", "Страж"), built)
    (entry,) = store.folder.iterdir()
    entry.write_bytes(entry.read_bytes()[:20])
    assert store.get(("card", "Страж")) is None
    store.put(("card", "Страж"), built)
    assert repr(store.get(("card", "Страж"))) == repr(built)
    # the same file name under another key (a collision) is not taken for it
    other = store.folder / CardStore._name(("card", "Волк"))
    os.replace(entry, other)
    assert store.get(("card", "Волк")) is None


def test_nothing_is_written_where_bytecode_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, package: Path
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setattr(card_store, "_STORE", [])
    opened = card_store.store()
    assert opened is not None and not opened.write
    assert not (package / "__pycache__").exists()  # no content key remembered either
    made = CardStore(tmp_path / "s", write=False)
    made.put(("card", 1), CardDef.build("Страж", "существо"))
    assert not (tmp_path / "s").exists()
    monkeypatch.setenv(card_store.SWITCH, "0")
    monkeypatch.setattr(card_store, "_STORE", [])
    assert card_store.store() is None


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the engine's package standing for it (its files, their stat as this process loaded
    them), and a reader's cache folder of the test's own."""
    copy = tmp_path / "berserk_engine"
    shutil.copytree(card_store.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(card_store, "PACKAGE", copy)
    monkeypatch.setattr(card_store, "FILES", card_store.package_files(copy))
    monkeypatch.setenv(card_store.CACHE_ENV, str(tmp_path / "readings"))
    monkeypatch.setattr(card_store, "_STORE", [])
    return copy


def test_the_store_lies_in_the_readers_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from berserk_engine.language import grammar as language

    monkeypatch.delenv(card_store.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert card_store.cache_folder() == language.cache_folder() == tmp_path / "xdg/berserk-rules/readings"
    monkeypatch.setenv(card_store.CACHE_ENV, str(tmp_path / "r"))
    assert card_store.cache_folder() == language.cache_folder() == tmp_path / "r"
    monkeypatch.setattr(card_store, "_STORE", [])
    opened = card_store.store()
    assert opened is not None and opened.folder.parent == tmp_path / "r"
    assert opened.folder.name.startswith(card_store.PREFIX)
    monkeypatch.setenv(card_store.CACHE_ENV, "off")  # no cache of the reader: no store either
    assert card_store.cache_folder() is None is language.cache_folder()
    monkeypatch.setattr(card_store, "_STORE", [])
    assert card_store.store() is None


def test_the_key_follows_the_contents_not_the_times_or_the_place(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh checkout or a ``git switch`` there and back (the same files, new times of change) finds
    the store; an edit of any file does not."""
    files = card_store.FILES
    key = card_store.content_key()
    assert key == card_store.content_key(card_store.PACKAGE, files)
    grammar_file = next(path for path, _, _ in files if path.endswith("grammar.py"))
    os.utime(package / grammar_file, ns=(1, 1))
    touched = card_store.package_files(package)
    assert card_store.store_key(touched) != card_store.store_key(files)
    assert card_store.content_key(package, touched) == key
    text = (package / grammar_file).read_text(encoding="utf-8")
    (package / grammar_file).write_text(text + "\n", encoding="utf-8")
    assert card_store.content_key(package, card_store.package_files(package)) != key
    (package / grammar_file).write_text(text, encoding="utf-8")
    assert card_store.content_key(package, card_store.package_files(package)) == key
    monkeypatch.setattr(card_store, "READER_LIBRARIES", ("lark", "pymorphy3"))
    assert card_store.content_key() != key


def test_the_content_key_is_remembered_under_the_files_stat(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    cache = package / "__pycache__"
    earlier = cache / (card_store.PREFIX + "kept-in-the-package-before")  # the store's old place
    earlier.mkdir(parents=True)
    opened = card_store.store()
    assert opened is not None and opened.write
    (remembered,) = cache.glob(card_store.KEY_PREFIX + "*")
    assert remembered.name == card_store.KEY_PREFIX + card_store.store_key()
    assert opened.folder.name == card_store.PREFIX + remembered.read_text(encoding="ascii")
    assert not earlier.exists()

    def hashed(*args: Any) -> str:
        raise AssertionError("the files were hashed although their key was remembered")

    monkeypatch.setattr(card_store, "content_key", hashed)
    monkeypatch.setattr(card_store, "_STORE", [])
    again = card_store.store()
    assert again is not None and again.folder == opened.folder
    # a store in use is the most recently used one (the ones removed are the others)
    again.put(("card", 1), CardDef.build("Страж", "существо"))
    os.utime(again.folder, ns=(1, 1))
    monkeypatch.setattr(card_store, "_STORE", [])
    card_store.store()
    assert again.folder.stat().st_mtime_ns > 1
    # a process of files changed since: another stat key, hashed again (and the old one forgotten)
    (package / "grammar.py").write_text("# edited\n", encoding="utf-8")
    monkeypatch.setattr(card_store, "FILES", card_store.package_files())
    monkeypatch.setattr(card_store, "content_key", lambda *args: "0" * 24)
    monkeypatch.setattr(card_store, "_STORE", [])
    other = card_store.store()
    assert other is not None and other.folder.name == card_store.PREFIX + "0" * 24
    assert [p.name for p in cache.glob(card_store.KEY_PREFIX + "*")] == [
        card_store.KEY_PREFIX + card_store.store_key()
    ]


def test_no_store_for_a_process_whose_files_changed_after_it_loaded_them(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The content is hashed when the first card is read, later than the files were looked at: a file
    changed in between would put definitions of the code this process runs under the key of the new
    code."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    (package / "grammar.py").write_text("# edited\n", encoding="utf-8")
    assert card_store.store() is None
    assert not list((package / "__pycache__").glob(card_store.KEY_PREFIX + "*"))
    monkeypatch.setattr(card_store, "FILES", card_store.package_files(package))  # a process started now
    monkeypatch.setattr(card_store, "_STORE", [])
    assert card_store.store() is not None


def test_the_key_changes_with_any_file_of_the_engine_and_the_reader_libraries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    files = card_store.package_files()
    assert any(path.endswith("grammar.py") for path, _, _ in files)
    assert not any("__pycache__" in path for path, _, _ in files)
    key = card_store.store_key(files)
    assert card_store.store_key(files) == key
    path, size, changed = files[0]
    assert card_store.store_key([(path, size, changed + 1), *files[1:]]) != key
    assert card_store.store_key([(path, size + 1, changed), *files[1:]]) != key
    assert card_store.store_key(files[1:]) != key
    monkeypatch.setattr(card_store, "READER_LIBRARIES", ("lark", "pymorphy3"))
    assert card_store.store_key(files) != key


def test_a_new_store_keeps_the_most_recently_used_others_and_a_bounded_number_of_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "readings"
    others = []
    for age in range(card_store.KEPT + 2):  # age 0: used last
        other = cache / f"{card_store.PREFIX}other{age}"
        other.mkdir(parents=True)
        (other / "x.pickle").write_bytes(b"")
        os.utime(other, ns=(10**18 - age * 10**9,) * 2)
        others.append(other)
    (cache / "parse.json").write_text("{}", encoding="utf-8")  # the reader's parses beside them
    monkeypatch.setattr(card_store, "MAX_ENTRIES", 2)
    made = CardStore(cache / (card_store.PREFIX + "new"))
    for index in range(4):
        made.put(("card", index), CardDef.build(f"Страж {index}", "существо"))
    assert [o.exists() for o in others] == [True] * card_store.KEPT + [False, False]
    assert (cache / "parse.json").exists()
    assert len(list(made.folder.glob("*.pickle"))) == 2
    assert made.get(("card", 1)) is not None and made.get(("card", 3)) is None


def test_an_unwritable_store_is_no_store(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")
    made = CardStore(blocked / (card_store.PREFIX + "k"))
    made.put(("card", 1), CardDef.build("Страж", "существо"))
    assert not made.write and made.get(("card", 1)) is None
