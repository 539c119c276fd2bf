"""The engine's speed paths give the answers of the plain ones (session 10, docs/benchmarks.md).

Checked on random games in every preset (2, 4 and 6 players, also at clones):

- ``queries.status`` / ``statuses`` / ``personal_status`` (a printed-Status table per ruleset
  and player count) against the formula written out from the rules, with ``ruleset(state)``;
- ``pp_required(state, p)`` (one player's sum) against ``pp_required_all(state)[p]``;
- ``turn.activity_options`` with its character scan (``queries.open_scan``) against the same
  checks with no scan, the lists the scan serves against a fresh look, and the scan closed afterwards;
- the ``GameState`` paths of ``rule_queries.neutral_value`` and ``usurpers`` against their
  ``Facts`` paths.
"""

from __future__ import annotations

import random

import pytest

from fandonia_env.engine import Game, activities, queries, romance, rule_queries, turn
from fandonia_env.engine.data.components import OFFICES, ROYALS
from fandonia_env.engine.options import preset_names
from fandonia_env.engine.ruleset import ruleset
from fandonia_env.engine.state import GameState


def _personal(state: GameState, cid: str) -> int:
    c = state.chars[cid]
    if c.fixed_status is not None:
        return c.fixed_status
    return ruleset(state).printed_status(cid, state.n) + (0 if cid in ROYALS else c.titles)


def _status(state: GameState, cid: str) -> int:
    """``queries.status`` as it read before the printed-Status table (A18, §18.9-§18.10, §33.2.3)."""
    c = state.chars[cid]
    s = _personal(state, cid)
    if c.spouse is not None:
        sp = state.chars[c.spouse]
        rc_match = (c.spouse in ROYALS) != (cid in ROYALS)
        if rc_match and cid not in ROYALS and sp.owner is not None and not sp.dead:
            s = queries.ROYAL_SPOUSE_STATUS
        elif not (sp.banished or sp.imprisoned or sp.wrongdoer):
            other = _personal(state, c.spouse)
            if rc_match and cid in ROYALS and c.owner is not None:
                other = queries.ROYAL_SPOUSE_STATUS
            s = max(s, other)
    if c.office is not None:
        s += OFFICES[c.office].bonus
    if c.counselor_card is not None:
        s += ruleset(state).counselor_card_status
    if state.support == 0 and (c.office is not None or c.consort or (cid in ROYALS and c.owner is None)):
        s //= 2
    return s


def _no_scan(state: GameState, p: int) -> list[int]:
    saved = turn.open_scan, turn.close_scan
    turn.open_scan, turn.close_scan = (lambda s: [None, None]), (lambda prev: None)
    try:
        return turn.activity_options(state, p)
    finally:
        turn.open_scan, turn.close_scan = saved


def _positions(preset: str, players: int, seed: int, every: int = 7):
    """Positions of a random game, a clone of every ``every``-th one (shared characters)."""
    g = Game(players=players, seed=seed, max_turns=30, preset=preset)
    rng = random.Random(seed)
    k = 0
    while not g.over:
        yield g.state.clone() if k % every == 0 else g.state
        g.apply(rng.choice(g.legal_actions()))
        k += 1


@pytest.mark.parametrize("preset", preset_names())
@pytest.mark.parametrize("players", [2, 4, 6])
def test_speed_paths_match_the_plain_ones(preset: str, players: int) -> None:
    checked = 0
    for st in _positions(preset, players, seed=players * 11 + len(preset)):
        table = queries.statuses(st)
        assert list(table) == list(st.chars)
        for cid in st.chars:
            assert table[cid] == queries.status(st, cid) == _status(st, cid), cid
            assert queries.personal_status(st, cid) == _personal(st, cid), cid
        totals = queries.pp_required_all(st)
        assert [queries.pp_required(st, p) for p in range(st.n)] == totals
        assert rule_queries.neutral_value(st, "thomas") == rule_queries.neutral_value(
            rule_queries.StateFacts(st), "thomas")
        for p in range(st.n):
            assert rule_queries.usurpers(st, p) == rule_queries.usurpers(rule_queries.StateFacts(st), p)
        top = st.stack[-1] if st.stack else None
        if top is None or top.op != "decide" or top.args["kind"] != "turn_main":
            continue
        p = top.args["player"]
        assert turn.activity_options(st, p) == _no_scan(st, p)
        assert queries._SCAN == [None, None]
        prev = queries.open_scan(st)
        try:  # the lists the scan serves are those of a fresh look at the characters
            scanned = [activities._pc_or_facs(st, p), romance._candidates(st, p), rule_queries.usurpers(st, p),
                       queries.hiding_ids(st), queries.banished_or_imprisoned_ids(st),
                       queries.imprisoned_or_hiding_ids(st), [queries.owned_ids(st, q) for q in range(st.n)]]
        finally:
            queries.close_scan(prev)
        assert scanned == [activities._pc_or_facs(st, p), romance._candidates(st, p), rule_queries.usurpers(st, p),
                           queries.hiding_ids(st), queries.banished_or_imprisoned_ids(st),
                           queries.imprisoned_or_hiding_ids(st), [queries.owned_ids(st, q) for q in range(st.n)]]
        checked += 1
    assert checked > 0


def test_scan_is_per_state() -> None:
    """A scan open for one state answers nothing about another (a clone that went its own way)."""
    g = Game(players=4, seed=3, max_turns=30)
    rng = random.Random(3)
    for _ in range(120):
        g.apply(rng.choice(g.legal_actions()))
    other = g.state.clone()
    p = next(i for i in range(4) if queries.owned_ids(other, i))
    cid = queries.owned_ids(other, p)[0]
    other.wchar(cid).owner = None
    prev = queries.open_scan(g.state)
    try:
        assert cid in queries.owned_ids(g.state, p)
        assert cid not in queries.owned_ids(other, p)
    finally:
        queries.close_scan(prev)
    assert queries._SCAN == [None, None]
