"""Hook and phase order declared in one table (issue 29): ``registry`` declares the order of the
activities, the free actions, the turn-start and end-of-turn operations; the chapters register
the operations, never their order."""

from __future__ import annotations

import pytest

from fandonia_env.engine.core import registry  # noqa: F401  (rules: every chapter registered)
from fandonia_env.engine.core.machine import OPS


@pytest.mark.parametrize("table", ["TURN_START", "END_OF_TURN", "WAR_START", "WAR_END"])
def test_every_operation_of_a_phase_table_is_registered(table):
    names = getattr(registry, table)
    assert isinstance(names, tuple) and len(set(names)) == len(names)
    assert [n for n in names if n not in OPS] == []


def test_the_activities_and_free_actions_are_offered_in_the_declared_order():
    assert list(registry.ACTIVITIES) and set(registry.ACTIVITIES) == set(registry.ACTIVITY_ORDER)
    assert set(registry.FREE_ACTIONS) == set(registry.FREE_ACTION_ORDER)
    assert [r[0] for r in registry.ACTIVITY_ROWS] == list(registry.ACTIVITY_ORDER)
    assert [r[0] for r in registry.FREE_ACTION_ROWS] == [registry.FREE_ACTIONS[k].aid
                                                       for k in registry.FREE_ACTION_ORDER]


def test_registering_an_undeclared_activity_is_refused_and_changes_nothing():
    rows, free = list(registry.ACTIVITY_ROWS), list(registry.FREE_ACTION_ROWS)
    with pytest.raises(KeyError, match="ACTIVITY_ORDER"):
        registry.activity("juggle", lambda s, p: True, "juggle_start")
    with pytest.raises(KeyError, match="FREE_ACTION_ORDER"):
        registry.free_action("juggle", lambda s, p: True, "juggle_start")
    assert "juggle" not in registry.ACTIVITIES and "juggle" not in registry.FREE_ACTIONS
    assert registry.ACTIVITY_ROWS == rows and registry.FREE_ACTION_ROWS == free


def test_no_chapter_adds_to_a_phase_table():
    """The tables are tuples: nothing appends to them at import time."""
    for table in ("TURN_START", "END_OF_TURN", "WAR_START", "WAR_END", "ACTIVITY_ORDER", "FREE_ACTION_ORDER"):
        assert isinstance(getattr(registry, table), tuple), table
