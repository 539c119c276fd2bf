"""Chance in one place (issue 12, item 5): ``engine/core/chance.py`` and the builder's scripts.

* every draw function's outcome description is a probability distribution (sums to 1) and
  holds what the draw really gives;
* each scripted outcome (dice, Loyalty, Opportunity and Event draws, random picks from a hand)
  is the one drawn, without touching the generator, and scripts survive clone and save;
* with nothing scripted the generator is used exactly as before: the golden games replay
  identically, every draw going through ``chance.py``;
* no engine module but ``chance.py`` (and the generator's own ``rng.py``) draws from a
  generator: the sources are scanned, like ``tests/test_structure.py`` scans imports.
"""

from __future__ import annotations

import ast
import json
import pathlib
import sys
from collections import Counter
from fractions import Fraction

import pytest
from helpers import play_randomly

from fandonia_env.engine import Game
from fandonia_env.engine.chapters.turn import do_draw
from fandonia_env.engine.core import chance
from fandonia_env.engine.core.actions import NO, YES
from fandonia_env.engine.core.rng import RNG
from fandonia_env.engine.core.state import StateError
from fandonia_env.engine.data.components import CARD_TYPE_OF, OPPORTUNITY_TYPE_OF
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.invariants import check
from fandonia_env.engine.face.playthrough import replay
from fandonia_env.engine.rules.queries import draw_event

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENGINE = ROOT / "fandonia_env" / "engine"
GOLDEN = sorted((ROOT / "tests" / "golden").glob("playthrough_*.jsonl"))


PILE_FIELD = {"loyalty": "loyalty_pool", "opportunity": "opportunity_pool", "event": "deck"}


def _rng(st) -> tuple[int, int, list[int]]:
    return st.rng.state, st.rng.inc, list(st.rng.scripted)


def _midgame(seed: int = 3, steps: int = 150) -> Game:
    import random

    return play_randomly(Game(players=4, seed=seed, max_turns=20), random.Random(seed), steps)


# ---------------------------------------------------------------------------
# Outcome descriptions
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3])
def test_roll_outcomes_are_every_sequence_of_faces_equally_likely(n):
    out = chance.roll_outcomes(n)
    assert len(out) == 6**n == len({faces for faces, _ in out})
    assert all(len(f) == n and set(f) <= set(chance.FACES) for f, _ in out)
    assert sum(p for _, p in out) == 1 and {p for _, p in out} == {Fraction(1, 6**n)}


@pytest.mark.parametrize("items", [[], ["a"], ["a", "b", "c"], ["a", "b", "b", "c", "d"]])
def test_shuffle_outcomes_are_the_permutations_each_one_over_n_factorial(items):
    out = list(chance.shuffle_outcomes(items))
    assert sum(p for _, p in out) == 1
    assert Counter(tuple(sorted(o)) for o, _ in out) == Counter({tuple(sorted(items)): len(out)})


def test_pick_outcomes_merge_equal_items():
    assert chance.pick_outcomes(["x", "y", "x", "z"]) == [("x", Fraction(1, 2)), ("y", Fraction(1, 4)),
                                                         ("z", Fraction(1, 4))]
    assert sum(p for _, p in chance.pick_outcomes(list("abcdefg"))) == 1


def test_draw_outcomes_sum_to_one_for_every_pile_full_empty_or_reshuffled():
    st = _midgame().state
    for pile in chance.PILES:
        out = chance.draw_outcomes(st, pile)
        assert sum(p for _, p in out) == 1 and len(out) == len({x for x, _ in out})
    assert [x for x, _ in chance.draw_outcomes(st, "loyalty")] == st.loyalty_pool
    assert [x for x, _ in chance.draw_outcomes(st, "event")] == st.deck
    st.loyalty_pool.clear()
    assert chance.draw_outcomes(st, "loyalty") == [(None, 1)]
    st.discard.extend(st.deck)
    st.deck.clear()
    assert [x for x, _ in chance.draw_outcomes(st, "event")] == st.discard  # a reshuffle comes first
    st.discard.clear()
    assert chance.draw_outcomes(st, "event") == [(None, 1)]
    with pytest.raises(ValueError, match="unknown pile"):
        chance.draw_outcomes(st, "hand")


def test_outcome_functions_draw_nothing():
    st = _midgame().state
    before = st.to_json()
    chance.draw_outcomes(st, "opportunity")
    chance.draw_outcomes(st, "event")
    chance.pick_outcomes(st.players[0].hand)
    assert st.to_json() == before


def test_what_is_drawn_is_always_among_the_described_outcomes():
    """Unscripted draws from many generator states: only described outcomes, all of them seen."""
    st = _midgame().state
    seen: dict[str, set] = {"roll": set(), "loyalty": set(), "pick": set()}
    hand = list(st.players[1].hand)
    for k in range(400):
        s = st.clone()
        s.rng = RNG(seed=k)
        seen["roll"].add(tuple(chance.roll(s, 2, "test")))
        seen["loyalty"].add(chance.draw(s, "loyalty", "test"))
        seen["pick"].add(chance.pick(s, hand, "test"))
    assert seen["roll"] == {f for f, _ in chance.roll_outcomes(2)}
    assert seen["loyalty"] == {x for x, _ in chance.draw_outcomes(st, "loyalty")}
    assert seen["pick"] == {x for x, _ in chance.pick_outcomes(hand)}


# ---------------------------------------------------------------------------
# Scripted draws
# ---------------------------------------------------------------------------


def test_scripting_any_described_outcome_draws_exactly_it_without_the_generator():
    """Applying a chance outcome = scripting it: for every pile and every outcome."""
    st = _midgame().state
    for pile in ("loyalty", "opportunity", "event"):
        for x, _ in chance.draw_outcomes(st, pile):
            s = st.clone()
            rng0 = _rng(s)
            chance.script(s, pile, [x])
            assert chance.draw(s, pile, "test") == x
            assert _rng(s) == rng0 and chance.SCRIPT_KEY not in s.misc
            left = getattr(s, PILE_FIELD[pile])
            assert x not in left and len(left) == len(getattr(st, PILE_FIELD[pile])) - 1
    hand = st.players[0].hand
    for x, _ in chance.pick_outcomes(hand):
        s = st.clone()
        chance.script(s, "pick", [x])
        assert chance.pick(s, s.players[0].hand, "test") == x and _rng(s) == _rng(st)


def test_position_next_draws_loyalty_through_the_normal_draw():
    pos = Position(players=3, seed=4)
    st = pos.state
    cid = st.loyalty_pool[-1]
    pos.next_draws("loyalty", cid)
    assert chance.scripted(st, "loyalty") == [cid]
    rng0 = _rng(st)
    do_draw(st, 1, "loyalty")
    assert st.players[1].loyalty_drawn == [cid] and cid not in st.loyalty_pool
    assert _rng(st) == rng0 and chance.scripted(st, "loyalty") == [] and chance.SCRIPT_KEY not in st.misc
    do_draw(st, 1, "loyalty")  # nothing scripted: the generator again
    assert _rng(st) != rng0 and len(st.players[1].loyalty_drawn) == 2


def test_position_next_draws_opportunity_by_kind_applies_its_effect():
    pos = Position(players=3, seed=4).turn_state(0)
    st = pos.state
    ip = st.players[0].ip
    pos.next_draws("opportunity", "gain_ip", "extra_activity")
    do_draw(st, 0, "opportunity")
    do_draw(st, 0, "opportunity")
    a, b = st.players[0].opportunity_drawn
    assert OPPORTUNITY_TYPE_OF[a] == "gain_ip" and OPPORTUNITY_TYPE_OF[b] == "extra_activity"
    assert st.players[0].ip == ip + 1 and st.pt["extra"] == 1
    oid = st.opportunity_pool[0]
    pos.next_draws("opportunity", oid)
    do_draw(st, 0, "opportunity")
    assert st.players[0].opportunity_drawn[-1] == oid


def test_position_next_draws_event_takes_the_topmost_card_of_the_type_and_keeps_the_pile_order():
    pos = Position(players=3, seed=4)
    st = pos.state
    top_type = CARD_TYPE_OF[st.deck[-1]]
    ctype = next(CARD_TYPE_OF[c] for c in st.deck if CARD_TYPE_OF[c] != top_type)
    top_of_type = next(c for c in reversed(st.deck) if CARD_TYPE_OF[c] == ctype)
    rest = [c for c in st.deck if c != top_of_type]
    pos.next_draws("event", ctype)
    do_draw(st, 2, "event")
    assert st.players[2].hand[-1] == top_of_type and st.deck == rest
    by_id = st.deck[3]
    pos.next_draws("event", by_id)
    assert draw_event(st) == by_id


def test_scripted_event_draw_after_the_pile_runs_out_reshuffles_first():
    pos = Position(players=2, seed=8)
    st = pos.state
    st.discard.extend(st.deck)
    st.deck.clear()
    card = st.discard[5]
    pos.next_draws("event", card)
    rng0 = _rng(st)
    with chance.recording() as draws:
        assert draw_event(st) == card
    assert [(d.kind, d.scripted) for d in draws] == [("shuffle", False), ("event", True)]
    assert _rng(st) != rng0 and st.discard == [] and card not in st.deck
    assert "reshuffled into a new Event pile" in st.log[-1]["t"]


def test_position_next_pick_chooses_the_intrigued_card():
    pos = Position(players=3, seed=5)
    for q in range(3):
        pos.empty_hand(q)
    pos.turn_state(0)
    pos.give(1, "evidence", "alibi", "informer")
    st = pos.state
    pos.next_pick("alibi")
    rng0 = _rng(st)
    g = pos.run("intrigue_draw", p=0, victim=1)
    assert g.decision()["kind"] == "halt"
    check(g.state)
    assert "'Alibi', a legal card, which is discarded" in "\n".join(e["t"] for e in st.log)
    assert sorted(CARD_TYPE_OF[c] for c in st.players[1].hand) == ["dwtk", "evidence", "informer"]
    assert _rng(st) == rng0


def test_position_next_pick_scripts_both_blackmail_draws_of_errata_d94():
    pos = Position(players=3, seed=5, edition="errata", optional=["blackmail"])
    for q in range(3):
        pos.empty_hand(q)
    pos.turn_state(0)
    pos.give(1, "evidence", "alibi", "informer")
    pos.player(1, ip=0)  # cannot pay: refusal is automatic
    pos.next_pick("dwtk", "informer")
    st = pos.state
    g = pos.run("intrigue_draw", p=0, victim=1)
    g.apply(YES)  # blackmail
    d = g.decision()
    assert d["kind"] == "blackmail_keep" and d["ctx"]["card"] == "informer"
    g.apply(NO)
    assert "D94" in "\n".join(e["t"] for e in st.log) and chance.SCRIPT_KEY not in st.misc


def test_position_dice_goes_through_chance_and_rolls_report_their_reason():
    pos = Position(players=3, seed=1).dice(6, 5)
    st = pos.state
    assert chance.scripted(st, "dice") == [6, 5] == st.rng.scripted
    with chance.recording() as draws:
        assert chance.dice_count(st, "a test count") == 65
        chance.d6(st, "unscripted")
    assert draws[0] == chance.Draw("roll", "a test count", (6, 5), True)
    assert draws[1].kind == "roll" and not draws[1].scripted


def test_scripts_survive_clone_and_a_checked_json_round_trip():
    g = _midgame()
    st = g.state
    chance.script(st, "event", [st.deck[0]])
    chance.script(st, "loyalty", [st.loyalty_pool[0]])
    chance.script(st, "pick", ["intrigue"])
    chance.script(st, "dice", [3])
    c = g.clone()
    j = Game.from_json(json.loads(json.dumps(g.to_json())))
    assert c.state == g.state == j.state
    for s in (c.state, j.state):
        assert chance.scripted(s, "pick") == ["intrigue"] and chance.scripted(s, "dice") == [3]
    # the save format is unchanged: the queues are plain misc bookkeeping, checked when loaded
    doc = g.to_json()
    doc["misc"][chance.SCRIPT_KEY] = {"bogus": ["x"]}
    with pytest.raises(StateError, match="chance_script"):
        Game.from_json(doc)
    doc["misc"][chance.SCRIPT_KEY] = {"event": [7]}
    with pytest.raises(StateError, match="chance_script"):
        Game.from_json(doc)


def test_bad_scripts_are_refused_when_queued_or_when_drawn():
    pos = Position(players=3, seed=2)
    st = pos.state
    with pytest.raises(ValueError, match="unknown pile"):
        pos.next_draws("hand", "x")
    with pytest.raises(ValueError, match="known event id or type"):
        pos.next_draws("event", "no_such_card")
    with pytest.raises(ValueError, match="known loyalty id"):
        pos.next_draws("loyalty", "george")
    with pytest.raises(ValueError, match="known opportunity id or type"):
        pos.next_draws("opportunity", "c001")
    with pytest.raises(ValueError, match="die face"):
        pos.dice(7)
    with pytest.raises(ValueError, match="unknown chance kind"):
        chance.script(st, "coin", ["heads"])
    assert chance.SCRIPT_KEY not in st.misc and st.rng.scripted == []
    gone = st.players[0].pc  # a PC's Loyalty counter is not in the pool
    pos.next_draws("loyalty", gone)
    with pytest.raises(chance.ChanceError, match="not in the pile"):
        chance.draw(st, "loyalty", "test")
    pos.next_pick("dwtk")
    with pytest.raises(chance.ChanceError, match="not among"):
        chance.pick(st, [c for c in CARD_TYPE_OF if CARD_TYPE_OF[c] == "evidence"], "test")


def test_a_draw_from_an_empty_pile_keeps_the_script():
    pos = Position(players=3, seed=2)
    st = pos.state
    cid = st.loyalty_pool[0]
    pos.next_draws("loyalty", cid)
    pool, st.loyalty_pool = st.loyalty_pool, []
    assert chance.draw(st, "loyalty", "test") is None and chance.scripted(st, "loyalty") == [cid]
    st.loyalty_pool = pool
    assert chance.draw(st, "loyalty", "test") == cid


# ---------------------------------------------------------------------------
# Nothing scripted: the generator's path is unchanged
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", [p for p in GOLDEN if p.stem.endswith(("_1981-all-optional", "_errata"))],
                         ids=lambda p: p.stem)
def test_golden_game_replays_identically_with_every_draw_through_chance(path, monkeypatch):
    """The generator is called only from chance.py (or from itself) while a golden game replays,
    and the replay is identical line by line (so the generator is consumed exactly as when the
    golden file was recorded)."""
    callers: Counter = Counter()

    def guarded(name):
        real = getattr(RNG, name)

        def wrapper(self, *a):
            caller = pathlib.Path(sys._getframe(1).f_code.co_filename).name
            callers[caller] += 1
            assert caller in ("chance.py", "rng.py"), f"RNG.{name} called from {caller}"
            return real(self, *a)
        return wrapper

    for name in ("d6", "below", "shuffle"):
        monkeypatch.setattr(RNG, name, guarded(name))
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    with chance.recording() as draws:
        again = replay(lines)
    assert again == lines
    assert callers["chance.py"] > 0
    kinds = Counter(d.kind for d in draws)
    assert {"roll", "shuffle", "event", "loyalty", "opportunity"} <= set(kinds), kinds
    assert not any(d.scripted for d in draws)


# ---------------------------------------------------------------------------
# Only chance.py draws: a scan of the engine's sources
# ---------------------------------------------------------------------------

#: methods that draw from a generator: the game's ``RNG`` and those of ``random``/``numpy.random``
DRAW_METHODS = frozenset({"d6", "below", "shuffle", "_next32", "script_dice", "choice", "choices", "randint",
                          "randrange", "random", "sample", "getrandbits", "uniform", "permutation", "integers"})
#: the one module that draws, and the generator itself
ALLOWED_MODULES = frozenset({"chance.py", "rng.py"})


def _private_generators(fn: ast.AST) -> set[str]:
    """Names of a function that hold a private ``random.Random`` (a parameter annotated so, or a
    local made by ``random.Random(...)``): agents' and recorders' own generators, never the game's."""
    out = set()
    if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = fn.args
        out |= {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs
                if x.annotation is not None and ast.unparse(x.annotation) in ("random.Random", "Random")}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and ast.unparse(node.value.func) in ("random.Random", "Random"):
            out |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return out


def rng_violations(src: str) -> list[str]:
    """Where a source reads the game's generator (``x.rng``, except to copy it) or calls a drawing
    method on anything but the ``chance`` module or a private ``random.Random``."""
    tree = ast.parse(src)
    out: list[str] = []
    copies = {id(n.func.value) for n in ast.walk(tree) if isinstance(n, ast.Call)
              and isinstance(n.func, ast.Attribute) and n.func.attr == "copy" and not n.args}

    def visit(node: ast.AST, private: frozenset[str]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            private = private | _private_generators(node)
        if isinstance(node, ast.Attribute) and node.attr == "rng" and isinstance(node.ctx, ast.Load) \
                and id(node) not in copies:
            out.append(f"line {node.lineno}: {ast.unparse(node)} reads the game's generator")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in DRAW_METHODS:
            recv = node.func.value
            if not (isinstance(recv, ast.Name) and recv.id in private):
                out.append(f"line {node.lineno}: {ast.unparse(node.func)}(...) draws")
        for ch in ast.iter_child_nodes(node):
            visit(ch, private)

    visit(tree, frozenset({"chance"}))  # chance.d6(...), chance.shuffle(...): the way to draw
    return out


def test_no_engine_module_but_chance_draws_from_a_generator():
    files = sorted(ENGINE.rglob("*.py"))
    assert any(f.name == "turn.py" for f in files) and any(f.parent.name == "data" for f in files)
    bad = {str(f.relative_to(ENGINE)): v for f in files if f.name not in ALLOWED_MODULES
           for v in [rng_violations(f.read_text())] if v}
    assert not bad, f"draw through fandonia_env/engine/core/chance.py instead: {bad}"


def test_the_scan_finds_direct_draws_and_allows_private_generators():
    bad = '''
def f(state, st):
    a = state.rng.d6()
    i = st.rng.copy().below(4)
    rng = RNG(3)
    rng.shuffle(x)
    random.choice(x)
    np.random.permutation(x)
    r = state.rng
'''
    found = rng_violations(bad)
    assert len(found) == 7, found  # state.rng read twice, .d6, .below, rng.shuffle, random.choice, permutation
    ok = '''
import random

def resample(state, observer, rng: random.Random):
    rng.shuffle(pool)
    g.rng = RNG(rng.getrandbits(63))
    g.rng = self.rng.copy()

def record(seed):
    chance.shuffle(state, deck, "why")
    n = chance.d6(state, "why")
    rng = random.Random(seed)
    return play(lambda d: rng.choice(d))
'''
    assert rng_violations(ok) == []


def _pcg32_reference(state: int, inc: int, count: int) -> list[int]:
    """PCG32 as ``pcg32_random_r`` writes it, on 64-bit integers (the generator keeps halves)."""
    out = []
    for _ in range(count):
        old = state
        state = (old * 6364136223846793005 + inc) & ((1 << 64) - 1)
        xs = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        out.append(((xs >> rot) | (xs << ((-rot) & 31))) & 0xFFFFFFFF)
    return out


@pytest.mark.parametrize("seed,stream", [(0, 54), (1, 54), (42, 7), ((1 << 63) - 1, 54), ((1 << 64) + 5, 1 << 40),
                                         (123456789, (1 << 64) - 1)])
def test_rng_is_pcg32_on_its_64_bit_state(seed, stream):
    """The generator's split arithmetic gives the reference PCG32 stream, state and increment."""
    r = RNG(seed, stream)
    s0, inc = r.state, r.inc
    assert 0 <= s0 < 1 << 64 and inc % 2 == 1 and inc == ((stream << 1) | 1) & ((1 << 64) - 1)
    want = _pcg32_reference(s0, inc, 2000)
    assert [r._next32() for _ in range(2000)] == want
    c = RNG(0, 0, (s0, inc, []))  # a saved generator restarts the same stream
    assert c.state == s0 and [c._next32() for _ in range(50)] == want[:50]
    k = r.copy()
    assert k == r and k is not r and k._next32() == r._next32()
