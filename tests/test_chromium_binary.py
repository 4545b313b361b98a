"""The browser the browser tests launch (``tests/chromium_binary.py``): ``BERSERK_CHROMIUM`` first, then
Debian's headless shell, then ``chromium``."""

from __future__ import annotations

import chromium_binary
import pytest
from chromium_binary import chromium_path


def _installed(monkeypatch: pytest.MonkeyPatch, commands: dict[str, str]) -> None:
    monkeypatch.delenv("BERSERK_CHROMIUM", raising=False)
    monkeypatch.setattr(chromium_binary.shutil, "which", lambda name: commands.get(name))
    monkeypatch.setattr(chromium_binary.Path, "is_file", lambda self: False)


def test_the_variable_chooses_the_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    _installed(monkeypatch, {"chromium-headless-shell": "/usr/bin/chromium-headless-shell"})
    monkeypatch.setenv("BERSERK_CHROMIUM", "/opt/other/chrome")
    assert chromium_path() == "/opt/other/chrome"


def test_the_headless_shell_before_chromium(monkeypatch: pytest.MonkeyPatch) -> None:
    both = {"chromium": "/usr/bin/chromium", "chromium-headless-shell": "/usr/bin/chromium-headless-shell"}
    _installed(monkeypatch, both)
    assert chromium_path() == "/usr/bin/chromium-headless-shell"
    _installed(monkeypatch, {"chromium": "/usr/bin/chromium"})
    assert chromium_path() == "/usr/bin/chromium"


def test_nothing_installed_names_chromium(monkeypatch: pytest.MonkeyPatch) -> None:
    _installed(monkeypatch, {})
    assert chromium_path() == "/usr/bin/chromium"
