"""The effects interpreter (``fandonia_env/engine/rules/effects.py``, issue 12): every effect code of
every table is known to it, every chapter's order covers its table, and an effect applied once
through it does what the rule says."""

from __future__ import annotations

import pytest
from helpers import pc

from fandonia_env.engine.chapters import assassination, clemency, counsel, crown, prestige, trials
from fandonia_env.engine.data import tables as T
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.rules import effects
from fandonia_env.engine.rules.effects import EFFECTS, Ctx, apply_effect, apply_row, row_codes


def _rows(table):
    return [row for _lo, _hi, row in table["rows"]]


ALL_ROWS = [(key, row) for key, t in T.DICE_TABLES.items() for row in _rows(t)]


@pytest.mark.parametrize("key,row", ALL_ROWS, ids=[f"{k}:{r['text'][:30]}" for k, r in ALL_ROWS])
def test_every_code_of_every_table_row_is_known_to_the_interpreter(key, row):
    for code in row_codes(row):
        assert code in EFFECTS, (key, row["text"], code)


def test_every_counsel_effect_code_is_known_to_the_interpreter():
    for tkey, t in T.COUNSELING_TABLES.items():
        for c in t["counsels"]:
            assert c["effect"]["code"] in EFFECTS, (tkey, c["id"])


def test_every_code_is_documented_with_its_rule():
    doc = effects.__doc__ or ""
    for code, e in EFFECTS.items():
        assert f"``{code}``" in doc, code
        assert e.rule, code
    assert set(EFFECTS) >= set(T.EFFECT_CODES) | set(T.COUNSEL_EFFECT_CODES)


def test_unknown_code_is_refused():
    with pytest.raises(ValueError):
        apply_effect(Position(players=3, seed=1).state, "no_such_code", Ctx(p=0))


#: each interpreting chapter: its table(s) and the order it applies codes in.
ORDERS = [
    ([T.PRESTIGE_TABLES[k] for k in T.PRESTIGE_TABLE_KEYS], prestige.PRESTIGE_ORDER, ()),
    ([T.SCANDAL], assassination.SCANDAL_ORDER, ()),
    ([T.ASSASSINATION], assassination.ASSASSINATION_ORDER, ()),
    ([T.INTERROGATION], trials.INTERROGATION_ORDER, ()),
    ([T.TRIAL], trials.TRIAL_ORDER, ()),
    ([T.CLEMENCY], clemency.CLEMENCY_ORDER, ()),
    ([T.COURT_BALL], crown.COURT_BALL_ORDER, ("pp",)),
    ([T.COUNSELING_RESULTS], counsel.COUNSELING_RESULTS_ORDER, ()),
]


@pytest.mark.parametrize("tables,order,done", ORDERS, ids=lambda x: None)
def test_each_chapter_order_covers_every_code_of_its_table(tables, order, done):
    for t in tables:
        for row in _rows(t):
            assert set(row_codes(row)) <= set(order) | set(done), (t["key"], row["text"])
    assert set(order) <= set(EFFECTS)


def test_prestige_results_that_end_activities_carry_the_code():
    """T1.14.11 notes 2, 5, 6: the interpreter ends activities on ``lose_remaining_activities``."""
    for key in T.PRESTIGE_TABLE_KEYS:
        for row in _rows(T.PRESTIGE_TABLES[key]):
            ends = any(T.PRESTIGE_RESULT_NOTES.get(c, {}).get("ends_activities") for c in row["special"])
            assert not ends or "lose_remaining_activities" in row["special"], (key, row["text"])


# ---------------------------------------------------------------------------
# Small positions: one effect through the interpreter does what the rule says
# ---------------------------------------------------------------------------


def test_22_scandal_libel_loses_half_pp_rounded_up_then_accused_and_pp_check_last():
    pos = Position(players=3, seed=1)
    st = pos.state
    st.players[0].pp = 7
    cid = pc(pos, 0)
    ctx = Ctx(cid=cid, why="scandal", params={"exposer": None})
    below = len(st.stack)
    steps = apply_row(st, T.lookup(T.SCANDAL, 4), assassination.SCANDAL_ORDER, ctx)
    assert st.players[0].pp == 3  # half of 7 rounded up is 4
    assert steps == [("accuse", {"cid": cid, "why": "scandal"})]
    # the loss scheduled the PP limit check itself (ruling R15), under the steps the row returns
    assert [f.op for f in st.stack[below:]] == ["pp_check_all"]


def test_22_corruption_is_no_effect_unless_exposed():
    pos = Position(players=3, seed=1)
    ctx = Ctx(cid=pc(pos, 1), why="scandal", params={"exposer": None})
    assert apply_row(pos.state, T.lookup(T.SCANDAL, 11), assassination.SCANDAL_ORDER, ctx) == []
    ctx = Ctx(cid=pc(pos, 1), why="scandal", params={"exposer": 0})
    assert apply_row(pos.state, T.lookup(T.SCANDAL, 11), assassination.SCANDAL_ORDER, ctx) == [
        ("accuse", {"cid": pc(pos, 0), "why": "accusing PC of a scandal"})]


def test_t1_14_halved_double_current_pp_rounds_up():
    pos = Position(players=3, seed=1)
    st = pos.state
    st.players[0].pp = 9
    row = T.lookup(T.PRESTIGE_TABLES["patronage"], 12)  # Leader. Double Current PP.
    apply_effect(st, "double_pp", Ctx(p=0, label="Patronage", half=True), row)
    assert st.players[0].pp == 9 + 5


def test_t1_14_lose_all_ip_and_pp_amounts_in_printed_order():
    pos = Position(players=3, seed=1)
    st = pos.state
    st.players[0].pp, st.players[0].ip = 30, 8
    row = T.lookup(T.PRESTIGE_TABLES["business"], 4)  # Loss Of Status. Lose Twenty PP & All IP.
    ctx = Ctx(p=0, label="Business Speculation", params={"own": False})
    apply_row(st, row, prestige.PRESTIGE_ORDER, ctx)
    assert (st.players[0].pp, st.players[0].ip) == (10, 0)


def test_21_successful_assassination_caught_assassin_is_accused_then_target_killed():
    pos = Position(players=3, seed=1)
    ctx = Ctx(cid=pc(pos, 0), why="caught assassin", params={"target": pc(pos, 1)})
    steps = apply_row(pos.state, T.lookup(T.ASSASSINATION, 9), assassination.ASSASSINATION_ORDER, ctx)
    assert steps == [("accuse", {"cid": pc(pos, 0), "why": "caught assassin"}),
                     ("kill", {"cid": pc(pos, 1), "cause": "assassinated"})]


def test_t1_15_welfare_program_gives_two_ip_to_players_with_two_or_less():
    pos = Position(players=3, seed=1)
    st = pos.state
    for q, ip in enumerate((0, 2, 3)):
        st.players[q].ip = ip
    eff = T.COUNSELING_TABLES["economic_crisis"]["counsels"][1]["effect"]
    apply_effect(st, eff["code"], Ctx(p=0, why="counsel", params={"effect": eff}))
    assert [pl.ip for pl in st.players] == [2, 4, 3]


def test_15_8_counsel_pp_loss_schedules_the_pp_check_after_the_lost_office():
    pos = Position(players=3, seed=1)
    st = pos.state
    st.players[0].pp = 10
    ctx = Ctx(p=0, label="pleased", loss_label="displeased", params={"counselor": None})
    below = len(st.stack)
    steps = apply_row(st, T.lookup(T.COUNSELING_RESULTS, 2), counsel.COUNSELING_RESULTS_ORDER, ctx)
    assert st.players[0].pp == 5 and steps == []
    assert [f.op for f in st.stack[below:]] == ["pp_check_all"]  # ruling R15, from the loss itself


def test_38_clemency_overrules_a_banishment_with_imprisonment():
    pos = Position(players=3, seed=1)
    st = pos.state
    cid = pc(pos, 1)
    st.wchar(cid).banished = True
    then = ("justice_clemency", {"cid": cid, "i": 1})
    ctx = Ctx(cid=cid, params={"clemency": True, "then": then})
    steps = apply_row(st, T.lookup(T.CLEMENCY, 4), clemency.CLEMENCY_ORDER, ctx)
    c = st.chars[cid]
    assert c.imprisoned and not c.banished and steps[-1] == then


def test_ctx_constructor_follows_the_fields_in_order():
    """``Ctx.__init__`` is written out (the compiled engine builds it natively): each field has its
    parameter, in the fields' order, with the field's default; containers are fresh per context."""
    from dataclasses import MISSING, fields

    fs = fields(Ctx)
    blank = Ctx()
    for f in fs:
        want = f.default_factory() if f.default_factory is not MISSING else f.default
        assert getattr(blank, f.name) == want, f.name
    assert Ctx().params is not blank.params and Ctx().steps is not blank.steps
    distinct = [object() for _ in fs]
    by_pos = Ctx(*distinct)
    by_kw = Ctx(**{f.name: v for f, v in zip(fs, distinct, strict=True)})
    for f, v in zip(fs, distinct, strict=True):
        assert getattr(by_pos, f.name) is v and getattr(by_kw, f.name) is v, f.name


def test_frame_constructor_keeps_op_and_args():
    """``Frame.__init__`` is written out too: the two fields, in order, and a copy is deep."""
    from dataclasses import fields

    from fandonia_env.engine.core.state import Frame

    assert [f.name for f in fields(Frame)] == ["op", "args"]
    args = {"p": 1, "opts": [1, 2]}
    fr = Frame("turn_main", args)
    assert fr.op == "turn_main" and fr.args is args and Frame(op="x", args={}).op == "x"
    k = fr.copy()
    assert k == fr and k.args is not args and k.args["opts"] is not args["opts"]
    import pickle

    assert pickle.loads(pickle.dumps(fr)) == fr  # unpickling a compiled class calls it with no argument
    assert Frame() == Frame("", {}) and Frame().args is not Frame().args
