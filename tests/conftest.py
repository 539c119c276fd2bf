"""Fixtures shared by the test files (plain helpers are in helpers.py)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

# The suite tests the reference engine, pure Python, even where a compiled build lies in the tree:
# tests patch engine classes (monkeypatch.setattr(RNG, "below", ...)), which compiled classes ignore.
# tests/test_compiled_engine.py checks the compiled engine against it, on a copy it builds.
os.environ.setdefault("FANDONIA_ENGINE", "pure")

from fandonia_env.engine.core.machine import OPS  # noqa: E402 - after the engine is chosen

# the asserts in helpers.py report their operands like the test files' own asserts
pytest.register_assert_rewrite("helpers")


@pytest.fixture
def stub_ops(monkeypatch) -> Callable[..., list[tuple[str, dict]]]:
    """Replace other chapters' operations by recorders, for this test only (the contract between
    chapters: an operation is scheduled by name).

    ``stub_ops("accuse", "kill", effects={"kill": fn})`` returns the list that every call is appended
    to, as ``(name, kwargs)``; ``effects[name](state, kwargs)``, where given, then runs too (a minimal
    stand-in for what the real operation would change, or a check of its arguments)."""

    def stub(*names: str, effects: dict[str, Callable[[Any, dict], None]] | None = None) -> list[tuple[str, dict]]:
        calls: list[tuple[str, dict]] = []

        def make(name: str) -> Callable[..., None]:
            def fn(state, **kw):
                calls.append((name, kw))
                if effects and name in effects:
                    effects[name](state, kw)
            return fn

        for name in names:
            monkeypatch.setitem(OPS, name, make(name))
        return calls

    return stub
