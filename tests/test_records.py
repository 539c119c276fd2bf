"""Declared records (issue 29): the decision contexts, the turn bookkeeping (``pt``, ``tstate``,
``misc``) and the effects' parameters are ``TypedDict``s in ``engine/core/records.py``; mypy
checks the engine against them, and played games never use a key or a type they do not declare."""

from __future__ import annotations

import ast
import pathlib
import random
import re
import subprocess
import sys

import pytest

from fandonia_env.agents import make_agent
from fandonia_env.engine import Game
from fandonia_env.engine.core.compiled import type_hints
from fandonia_env.engine.core.options import preset_names
from fandonia_env.engine.core.records import DECISION_CONTEXTS, DecisionContext, Misc, PlayerTurn, TurnState
from fandonia_env.engine.core.state import type_problem

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENGINE = ROOT / "fandonia_env" / "engine"


def asked_kinds() -> set[str]:
    """The decision kinds the engine's source asks (``ask(p, "kind", ...)``, ``yes_no(state, p, "kind", ...)``)."""
    kinds = set()
    for f in ENGINE.rglob("*.py"):
        for n in ast.walk(ast.parse(f.read_text())):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("ask", "yes_no"):
                i = 1 if n.func.id == "ask" else 2
                if len(n.args) > i and isinstance(n.args[i], ast.Constant):
                    kinds.add(n.args[i].value)
    return kinds


def test_every_kind_the_engine_asks_declares_its_context():
    kinds = asked_kinds()
    assert len(kinds) >= 100
    assert kinds == set(DECISION_CONTEXTS)
    declared = set(type_hints(DecisionContext))
    assert {k for keys in DECISION_CONTEXTS.values() for k in keys} == declared


def test_mypy_checks_the_engine_against_the_declared_records():
    """mypy, as the compiled build runs it, passes on the engine; and it does check the records: a
    decision context with an undeclared key is refused."""
    pytest.importorskip("mypy", reason="mypy comes with the test extra")
    run = [sys.executable, "-m", "mypy", "--ignore-missing-imports", "--follow-imports=silent", "--no-incremental"]
    out = subprocess.run(run + ["fandonia_env/engine"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    probe = ROOT / "build" / "mypy_probe.py"
    probe.parent.mkdir(exist_ok=True)
    probe.write_text("from fandonia_env.engine.core.machine import ask\n"
                     "from fandonia_env.engine.core.state import GameState\n"
                     "ask(0, 'turn_main', [0], 'x', {'activitee': 'draw'})\n"
                     "def f(state: GameState) -> None:\n    state.pt['waivr'] = True\n")
    try:
        out = subprocess.run(run + [str(probe)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    finally:
        probe.unlink()
    assert out.returncode == 1
    assert "mypy_probe.py:3: error" in out.stdout and "DecisionContext" in out.stdout, out.stdout[-2000:]
    assert 'has no key "waivr"' in out.stdout, out.stdout[-2000:]


def _undeclared(d: dict, record: type, path: str, extra: str | None = None) -> list[str]:
    hints = type_hints(record)
    bad = []
    for k, v in d.items():
        if k in hints:
            p = type_problem(v, hints[k], f"{path}[{k!r}]")
            if p:
                bad.append(p)
        elif not (extra and re.fullmatch(extra, k)):
            bad.append(f"{path}: undeclared key {k!r}")
    return bad


@pytest.mark.parametrize("preset", preset_names())
def test_played_games_use_only_declared_keys_and_types(preset):
    ctx_hints = type_hints(DecisionContext)
    seen: set[str] = set()
    bad: list[str] = []
    for n in (2, 4, 6):
        g = Game(players=n, seed=7000 + n, preset=preset, max_turns=25)
        rng = random.Random(n)
        bots = [make_agent("noble-rule-v2" if i % 2 else "random-v1", seed=i) for i in range(n)]
        while not g.over:
            d = g.decision()
            kind, ctx = d["kind"], d["ctx"]
            seen.add(kind)
            if kind not in DECISION_CONTEXTS:
                bad.append(f"undeclared kind {kind!r}")
            for k, v in ctx.items():
                if k not in DECISION_CONTEXTS.get(kind, ()):
                    bad.append(f"{kind}: ctx key {k!r} not declared for the kind")
                elif type_problem(v, ctx_hints[k], f"{kind}.ctx[{k!r}]"):
                    bad.append(type_problem(v, ctx_hints[k], f"{kind}.ctx[{k!r}]"))
            st = g.state
            bad += _undeclared(st.pt, PlayerTurn, "pt")
            bad += _undeclared(st.tstate, TurnState, "tstate", extra=r"restricted_\d")
            bad += _undeclared(st.misc, Misc, "misc")
            p = g.current_player()
            a = bots[p].act(g.view(p, log=False), g.legal_actions()) if rng.random() < 0.9 else rng.choice(
                g.legal_actions())
            g.apply(a)
    assert sorted(set(bad)) == []
    assert len(seen) >= 25
