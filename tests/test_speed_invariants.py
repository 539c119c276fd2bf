"""The engine's speed paths give the answers of the plain ones (session 10, docs/benchmarks.md).

Checked on random games in every preset (2, 4 and 6 players, also at clones):

- ``queries.status`` / ``statuses`` / ``personal_status`` (a printed-Status table per ruleset
  and player count) against the formula written out from the rules, with ``ruleset(state)``;
- ``pp_required(state, p)`` (one player's sum) against ``pp_required_all(state)[p]``;
- ``turn.activity_options`` with its character scan (``queries.open_scan``) against the same
  checks with no scan, the lists the scan serves against a fresh look, and the scan closed afterwards;
- the ``GameState`` paths of ``rule_queries.neutral_value``, ``usurpers`` and (session 11)
  ``faction_value`` against their ``Facts`` paths;
- session 11, at every main decision (also on clones and after save/load round trips): the options
  offered against the checks computed afresh, the checks writing nothing, the scan's memo
  (``has_card``/``count_cards``), ``pp_required_with`` (``can_hold``, no writes) against the sum
  after writing the change, and the checks that stop at a first candidate against the full lists.
"""

from __future__ import annotations

import random

import pytest

from fandonia_env.engine import Game
from fandonia_env.engine.chapters import activities, romance, turn
from fandonia_env.engine.core.options import preset_names
from fandonia_env.engine.core.state import GameState
from fandonia_env.engine.data.components import OFFICES, ROYALS
from fandonia_env.engine.rules import queries, rule_queries, turn_steps
from fandonia_env.engine.rules.ruleset import ruleset


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
    turn.open_scan, turn.close_scan = (lambda s: None), (lambda s, prev: None)
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
            for exclude in (None, st.monarch, "thomas", *queries.owned_ids(st, p)):
                assert rule_queries.faction_value(st, p, exclude) == rule_queries.faction_value(
                    rule_queries.StateFacts(st), p, exclude)
        for used in ("thomas", "alfred"):
            assert rule_queries.neutral_value(st, used) == rule_queries.neutral_value(rule_queries.StateFacts(st), used)
        top = st.stack[-1] if st.stack else None
        if top is None or top.op != "decide" or top.args["kind"] != "turn_main":
            continue
        p = top.args["player"]
        assert turn.activity_options(st, p) == _no_scan(st, p)
        assert st.scan is None
        prev = queries.open_scan(st)
        try:  # the lists the scan serves are those of a fresh look at the characters
            scanned = [activities._pc_or_facs(st, p), romance._candidates(st, p), rule_queries.usurpers(st, p),
                       queries.hiding_ids(st), queries.banished_or_imprisoned_ids(st),
                       queries.imprisoned_or_hiding_ids(st), [queries.owned_ids(st, q) for q in range(st.n)]]
        finally:
            queries.close_scan(st, prev)
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
        queries.close_scan(g.state, prev)
    assert g.state.scan is None and other.scan is None


# -- session 11: the scan's memo, can_hold without writes, checks stopping at a first candidate --


def _fingerprint(st: GameState) -> tuple:
    """Everything a legality check could write (characters, players, bookkeeping)."""
    from fandonia_env.engine.core.character import char_values as _char_values

    return (tuple(_char_values(c) for c in st.chars.values()), repr(st.players), repr(st.pt),
            repr(st.tstate), repr(st.misc), st.support, st.monarch, list(st.wars))


def _pp_by_writing(st: GameState, p: int, owners: list[str] = (), titles: list[str] = ()) -> int:
    """``pp_required_with`` as ``can_hold`` computed it before: write the change, sum, undo."""
    saved = [(cid, st.chars[cid].owner) for cid in owners]
    for cid in titles:
        st.wchar(cid).titles += 1
    for cid in owners:
        st.wchar(cid).owner = p
    try:
        return queries.pp_required(st, p)
    finally:
        for cid, o in saved:
            st.wchar(cid).owner = o
        for cid in titles:
            st.wchar(cid).titles -= 1


def _check_pp_with(st: GameState, p: int) -> None:
    chars = st.chars
    for cid, c in chars.items():
        trials = [([cid], []), ([], [cid]), ([cid], [cid])]
        if c.spouse is not None:  # a change to a spouse alters the other's Status (A18, §18.9-§18.10)
            trials += [([cid, c.spouse], []), ([c.spouse], [cid])]
        for owners, titles in trials:
            assert queries.pp_required_with(st, p, owners, titles) == _pp_by_writing(st, p, owners, titles), \
                (cid, owners, titles)


def _lists_agree(st: GameState, p: int) -> None:
    """Checks that stop at a first candidate answer as the full lists do (waiver off and on)."""
    from fandonia_env.engine.chapters import crown
    from fandonia_env.engine.core import registry

    a = registry.ACTIVITIES
    f = registry.FREE_ACTIONS
    pt = st.pt
    for waiver in (False, True):
        pt["waiver"] = waiver
        try:
            assert a["acquire_title"].legal(st, p) == bool(activities._title_candidates(st, p))
            assert a["recruit"].legal(st, p) == (bool(st.players[p].loyalty_drawn)
                                                 and bool(activities._recruit_candidates(st, p)))
            assert a["recruit_treachery"].legal(st, p) == (
                activities._intrigue_ok(st, p, need_treachery=True) and bool(activities._treachery_targets(st, p)))
            assert a["seduce"].legal(st, p) == (activities._intrigue_ok(st, p, need_treachery=False)
                                                and bool(activities._seduction_pairs(st, p)))
            assert a["travel"].legal(st, p) == bool(activities._travellers(st, p))
            assert a["intrigue_card"].legal(st, p) == ((turn_steps.uses_intrigue(st, p) or queries.has_card(st, p, "intrigue"))
                                                       and bool(crown._intrigue_victims(st, p)))
            assert f["propose"].legal(st, p) == (bool(st.pt) and st.pt.get("player") == p
                                                 and bool(romance._pairs(st, p)))
            if "hold_wedding" in a:
                assert a["hold_wedding"].legal(st, p) == bool(romance.wedding_pairs(st, p))
        finally:
            pt["waiver"] = False
    # the lists themselves, as written before (pair_ok checking both again, weddings over all characters)
    cands = romance._candidates(st, p)
    auto = romance.auto_left(st, p) > 0
    assert romance._pairs(st, p) == ([(x, y) for x in cands for y in cands if romance.pair_ok(st, p, x, y, auto)]
                                     if len(cands) >= 2 else [])
    assert romance.wedding_pairs(st, p) == [
        (cid, c.engaged_to) for cid, c in st.chars.items()
        if c.owner == p and c.engaged_to is not None and cid < c.engaged_to and romance.engaged_valid(st, cid)
        and romance._can_wed_here(c) and romance._can_wed_here(st.chars[c.engaged_to])
        and romance._unmarried(st, cid) and romance._unmarried(st, c.engaged_to)
        and romance.wedding_pp_ok(st, p, cid, c.engaged_to)]
    chars = st.chars
    assert queries.faction(st, p) == [cid for cid, c in chars.items() if c.owner == p]
    assert queries.facs(st, p) == [cid for cid, c in chars.items() if c.owner == p and not c.is_pc and cid not in ROYALS]
    assert queries.farcs(st, p) == [cid for cid, c in chars.items() if c.owner == p and cid in ROYALS]


def _check_main_decision(g: Game) -> None:
    from fandonia_env.engine.core.actions import PASS

    st = g.state
    p = st.stack[-1].args["player"]
    before = _fingerprint(st)
    plain = _no_scan(st, p)  # from scratch: no scan, no memo
    assert turn.activity_options(st, p) == plain
    assert sorted(set(plain + [PASS])) == g.legal_actions()  # what the decision offers
    assert st.scan is None
    assert _fingerprint(st) == before  # the checks wrote nothing
    _lists_agree(st, p)
    _check_pp_with(st, p)
    prev = queries.open_scan(st)
    try:  # the same answers while the scan (and its memo) is open
        _lists_agree(st, p)
        _check_pp_with(st, p)
        for q in range(st.n):
            for ctype in ("intrigue", "treachery", "pardon", "assassination", "dwtk"):
                memo = (queries.has_card(st, q, ctype), queries.count_cards(st, q, ctype))
                hand = [card for card in st.players[q].hand if queries.CARD_TYPE_OF[card] == ctype]
                assert memo == (bool(hand), len(hand))
    finally:
        queries.close_scan(st, prev)
    assert _fingerprint(st) == before


@pytest.mark.parametrize("preset", preset_names())
@pytest.mark.parametrize("players", [2, 4, 6])
def test_legality_at_every_decision_matches_a_fresh_computation(preset: str, players: int) -> None:
    """At every main decision of random games, also on clones and after save/load round trips:
    the options offered are those of the checks computed afresh, the checks write nothing, and
    ``pp_required_with`` (``can_hold``) equals the sum after really writing the change."""
    seed = players * 7 + len(preset)
    g = Game(players=players, seed=seed, max_turns=25, preset=preset)
    rng = random.Random(seed)
    k = main = 0
    while not g.over:
        if k % 9 == 4:  # go on with a clone (characters shared copy-on-write with the original)
            orig, g = g, g.clone()
            if g.decision()["kind"] == "turn_main":
                p = g.decision()["player"]
                assert turn.activity_options(g.state, p) == turn.activity_options(orig.state, p)
        if k % 23 == 11:  # go on after a save/load round trip (no memo survives in the save)
            doc = g.to_json()
            g = Game.from_json(doc)
            assert g.to_json() == doc
        if g.decision()["kind"] == "turn_main":
            _check_main_decision(g)
            main += 1
        g.apply(rng.choice(g.legal_actions()))
        k += 1
    assert main > 10


def test_pp_required_with_counts_the_spouse_of_a_changed_character() -> None:
    """The Status of p's character married to a changed one moves with it (A18, §18.9-§18.10):
    a noble FAC married to a NRC who joins (8 while married to a FARC), or to a character who
    gains a title (the higher of the two personal Statuses)."""
    from fandonia_env.engine.data.components import NOBLES
    from fandonia_env.engine.face.builder import Position

    pos = Position(players=3, seed=5)
    st = pos.state
    pcs = {pl.pc for pl in st.players}
    free = [c for c in NOBLES if c not in pcs and st.chars[c].spouse is None and st.chars[c].office is None]
    men = [c for c in free if not NOBLES[c].female]
    women = [c for c in free if NOBLES[c].female]
    royal = next(r for r in ROYALS if st.chars[r].spouse is None and st.chars[r].owner is None
                 and not st.chars[r].dead and r not in ("george", "catherine") and not ROYALS[r].female)
    fac, nc, fac2 = women[0], men[0], women[1]
    pos.char(fac, owner=0, spouse=nc).char(nc, spouse=fac)  # a FAC married to a NC
    pos.char(fac2, owner=0, spouse=royal).char(royal, spouse=fac2)  # a FAC married to a NRC
    assert queries.pp_required_with(st, 0, [royal]) == _pp_by_writing(st, 0, [royal])
    for k in range(4):  # the NC's titles climb past the FAC's own Status
        assert queries.pp_required_with(st, 0, (), [nc]) == _pp_by_writing(st, 0, (), [nc]), k
        pos.char(nc, titles=k + 1)
    _check_pp_with(st, 0)
    prev = queries.open_scan(st)
    try:
        _check_pp_with(st, 0)
    finally:
        queries.close_scan(st, prev)
