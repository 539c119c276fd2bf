"""Variants as chosen procedures (issue 29): the procedures a Ruleset names exist, and the tables
it picks per edition differ only where the errata say so."""

from __future__ import annotations

import pytest

from fandonia_env.engine.core import registry
from fandonia_env.engine.core.actions import char_action
from fandonia_env.engine.core.machine import OPS
from fandonia_env.engine.core.options import preset_names, switches_for
from fandonia_env.engine.data.tables import FUNERAL, UNRESOLVED_PROBLEM_EFFECTS, lookup
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.game import make_config
from fandonia_env.engine.rules.ruleset import Ruleset, ruleset_for


def _rulesets() -> list[Ruleset]:
    out = [Ruleset.for_config(make_config(preset=p)) for p in preset_names()]
    out += [ruleset_for(e, [sw]) for e in ("1981", "errata") for sw in switches_for(e)]
    return out + [ruleset_for(e, []) for e in ("1981", "errata")]


@pytest.mark.parametrize("rs", _rulesets(), ids=lambda rs: f"{rs.edition}:{'+'.join(rs.optional) or '-'}")
def test_every_named_hook_and_operation_exists(rs):
    """``*_hook``: a registered hook (or None); ``*_hooks``: registered hooks; ``*_ops``: registered
    operations."""
    for name, value in rs.rules().items():
        if name.endswith("_hook"):
            assert value is None or callable(registry.HOOKS.get(value)), (name, value)
        elif name.endswith("_hooks"):
            assert all(callable(registry.HOOKS.get(h)) for h in value), (name, value)
        elif name.endswith("_ops"):
            assert all(o in OPS for o in value), (name, value)


def test_d95_funeral_table_differs_in_fell_into_grave_only():
    """D95 (ES §38 Funerals): Fell Into Grave (5) loses One PP in the errata, One IP in 1981."""
    t81, tes = ruleset_for("1981", ["funerals"]).funeral_table, ruleset_for("errata", ["funerals"]).funeral_table
    assert t81 is FUNERAL
    for r in range(2, 13):
        if r != 5:
            assert lookup(tes, r) is lookup(t81, r)
    assert (lookup(t81, 5)["pp"], lookup(t81, 5)["ip"]) == (0, -1)
    assert (lookup(tes, 5)["pp"], lookup(tes, 5)["ip"]) == (-1, 0)
    assert lookup(tes, 5)["text"] == "Fell Into Grave. Lose One PP (errata, D95)."


def test_d87_unresolved_problem_effect_h_in_the_errata_only():
    e81 = ruleset_for("1981", ["unresolved_problems"]).unresolved_problem_effects
    ees = ruleset_for("errata", ["unresolved_problems"]).unresolved_problem_effects
    assert list(ees) == list(UNRESOLVED_PROBLEM_EFFECTS)
    assert list(e81) == [k for k in UNRESOLVED_PROBLEM_EFFECTS if k != "treason_trials"]


@pytest.mark.parametrize("edition", ["1981", "errata"])
def test_extradition_runs_the_procedure_the_ruleset_names(edition, monkeypatch):
    """§25 (``to_trial``) or ES §25 (D66-D74): the Extradition card played, the hook named by
    ``extradite_hook`` goes on."""
    name = ruleset_for(edition, []).extradite_hook
    assert name == {"1981": "extradite_1981", "errata": "extradite_es"}[edition]
    calls = []
    monkeypatch.setitem(registry.HOOKS, name, lambda state, p, cid: calls.append((p, cid)))
    pos = Position(players=3, seed=1, edition=edition)
    pos.turn_state(0)
    pos.give(0, "extradition")
    pos.run("justice_extradite_target", choice=char_action("25"), p=0)
    assert calls == [(0, "25")]
