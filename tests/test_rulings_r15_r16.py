"""Rulings R15 (the PP limit applies at once, after every PP loss, §35.4-§35.5) and R16 (a FARC
Monarch counts toward the PP limit in the 1981 edition, never given up himself; A17, A59, D84)."""

from __future__ import annotations

import ast
import pathlib

import pytest
from helpers import halted, home_position, logged

from fandonia_env.engine.core.actions import char_action
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.rules.queries import lose_pp, pp_candidates, pp_required, status
from fandonia_env.engine.rules.ruleset import ruleset

ENGINE = pathlib.Path(__file__).resolve().parent.parent / "fandonia_env" / "engine"

#: two FACs with no office and no spouse (home_position vacates every office but the Monarch's)
FACS = ("42", "32")


def faction(edition: str = "1981", p: int = 0, short_by: int = 0) -> Position:
    """Three players at home (PCs 11, 12, 13), player p with the FACs ``FACS`` and exactly the PP
    they need less ``short_by``."""
    pos = home_position(edition=edition)
    for cid in FACS:
        pos.char(cid, owner=p)
    st = pos.state
    st.players[p].pp = pp_required(st, p) - short_by
    for pl in st.players:
        pl.ball_mod = 0
    return pos


def farc_monarch(pos: Position, p: int = 0) -> str:
    """The reigning Monarch becomes player p's FARC (a usurper on the throne, §36.6)."""
    st = pos.state
    mon = st.monarch
    pos.char(mon, owner=p)
    st.reign = {"player": p, "cid": mon, "since": st.turn}
    return mon


def court_ball(pos: Position, *dice: int):
    pos.state.forced_crown = ["court_ball"]
    pos.dice(*dice)
    return pos.run("crown_phase")


# ---------------------------------------------------------------------------
# R15: one mechanism, every PP loss
# ---------------------------------------------------------------------------


def test_r15_every_pp_loss_schedules_the_pp_limit_check_at_once():
    st = Position(players=3, seed=1).state
    st.players[0].pp = 5
    below = len(st.stack)
    assert lose_pp(st, 0, 2, "test") == 2
    assert [f.op for f in st.stack[below:]] == ["pp_check_all"]
    lose_pp(st, 0, 1, "test")  # losses in a row share the check on top
    assert [f.op for f in st.stack[below:]] == ["pp_check_all"]
    st.players[1].pp = 0
    st.stack[below:] = []
    assert lose_pp(st, 1, 3, "test") == 0  # nothing lost (§35.3): nothing to check
    assert len(st.stack) == below


def _pp_writers() -> set[tuple[str, str]]:
    """(module, function) of every assignment to a ``.pp`` attribute in the engine's sources."""
    found = set()
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(fn):
                targets: list[ast.expr] = []
                if isinstance(node, ast.Assign):
                    targets = list(node.targets)
                elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                    targets = [node.target]
                flat: list[ast.expr] = []
                for t in targets:
                    flat.extend(t.elts if isinstance(t, ast.Tuple) else [t])
                if any(isinstance(t, ast.Attribute) and t.attr == "pp" for t in flat):
                    found.add((path.stem, fn.name))
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "setattr" \
                        and len(node.args) > 1 and getattr(node.args[1], "value", None) == "pp":
                    found.add((path.stem, fn.name))
    return found


def test_r15_every_pp_loss_goes_through_lose_pp():
    """The check is written once, in ``queries.lose_pp``: no other engine code lowers a player's PP
    (the set-up deals the starting PP, §3.8; ``gain_pp`` only adds; a ``SeatPlayer`` only reads
    them for a seat's read-only view)."""
    assert _pp_writers() == {("queries", "lose_pp"), ("queries", "gain_pp"), ("turn", "setup")}


def test_r15_1981_court_ball_lose_one_pp_asks_at_once_before_the_next_roll():
    pos = faction(short_by=0)
    st = pos.state
    pp = st.players[0].pp
    g = court_ball(pos, 2, 3, 3, 4, 3, 4)  # player 0: 5, Ill-mannered; players 1 and 2: 7
    d = g.decision()
    assert (d["player"], d["kind"]) == (0, "pp_limit_lose")
    assert set(d["options"]) == {char_action(c) for c in FACS}
    assert d["ctx"] == {"pp": pp - 1, "required": pp}
    # right then: the other players have not rolled yet
    assert st.rng.scripted == [3, 4, 3, 4]
    assert not logged(st, "Court Ball Table: player 1")
    g.apply(char_action("32"))
    halted(g)
    assert st.chars["32"].owner is None and st.chars["42"].owner == 0
    assert logged(st, "Court Ball Table: player 1") and logged(st, "Court Ball Table: player 2")
    assert st.rng.scripted == []


def test_r15_1981_court_ball_loss_within_the_limit_asks_nothing():
    pos = faction(short_by=-1)  # one PP to spare
    g = court_ball(pos, 2, 3, 3, 4, 3, 4)
    halted(g)
    assert all(pos.state.chars[c].owner == 0 for c in FACS)


def test_r15_errata_d21_banned_pc_loss_asks_at_once_before_the_next_roll():
    pos = faction("errata", p=1, short_by=-1)  # one PP to spare: the 2 PP of D21 leave him short
    st = pos.state
    st.wchar(st.players[1].pc).banned = True
    g = court_ball(pos, 3, 4, 3, 4)  # players 0 and 2 roll 7
    d = g.decision()
    assert (d["player"], d["kind"]) == (1, "pp_limit_lose")
    assert set(d["options"]) == {char_action(c) for c in FACS}
    assert logged(st, "Court Ball Table: player 0") and not logged(st, "Court Ball Table: player 2")
    assert st.rng.scripted == [3, 4]
    g.apply(char_action("42"))
    halted(g)
    assert st.chars["42"].owner is None
    assert logged(st, "Court Ball Table: player 2")


# ---------------------------------------------------------------------------
# R16: the FARC Monarch and the PP limit
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition,counts", [("1981", True), ("errata", False)])
def test_r16_farc_monarch_counts_in_1981_only(edition, counts):
    pos = faction(edition)
    st = pos.state
    facs = pp_required(st, 0)
    mon = farc_monarch(pos)
    assert st.chars[mon].office == "monarch"
    assert ruleset(st).farc_monarch_outside_pp_total is not counts
    # his Status with the Monarch's office bonus (§16.3, A18), or nothing (ES §36.10.6, D84)
    assert pp_required(st, 0) == facs + (status(st, mon) if counts else 0)


def test_r16_1981_farc_monarch_is_never_given_up_the_others_are():
    pos = faction()
    st = pos.state
    mon = farc_monarch(pos)
    assert set(pp_candidates(st, 0)) == set(FACS)  # never the Monarch (A59)
    assert status(st, mon) > st.players[0].pp  # George, Status 10 + 4 (office): more than both FACs
    g = pos.run("pp_check_all")  # PP cover the FACs but not the FARC Monarch too
    d = g.decision()
    assert (d["player"], d["kind"]) == (0, "pp_limit_lose")
    assert set(d["options"]) == {char_action(c) for c in FACS}
    g.apply(char_action("42"))
    halted(g)  # still short: the last FAC goes without a decision (R10); then nobody is left to give up
    assert st.chars["42"].owner is None and st.chars["32"].owner is None
    assert st.chars[mon].owner == 0 and st.monarch == mon
    assert st.players[0].pp < pp_required(st, 0) == status(st, mon)


def test_r16_1981_player_short_with_only_his_farc_monarch_keeps_him():
    pos = home_position()
    st = pos.state
    mon = farc_monarch(pos)
    st.players[0].pp = 0
    g = pos.run("pp_check_all")
    halted(g)
    assert st.chars[mon].owner == 0 and pp_required(st, 0) == status(st, mon) > 0


def test_r16_errata_farc_monarch_leaves_the_limit_alone():
    pos = faction("errata")
    st = pos.state
    farc_monarch(pos)
    g = pos.run("pp_check_all")
    halted(g)
    assert all(st.chars[c].owner == 0 for c in FACS)


def test_r16_1981_pp_loss_with_a_farc_monarch_asks_for_other_characters_at_once():
    """R15 and R16 together: a Court Ball loss leaves the player short of his FACs plus his FARC
    Monarch; he gives up a FAC right then."""
    pos = faction()
    st = pos.state
    mon = farc_monarch(pos)
    st.players[0].pp = pp_required(st, 0)  # exactly covered, the FARC Monarch included
    g = court_ball(pos, 2, 3, 3, 4, 3, 4)
    d = g.decision()
    assert (d["player"], d["kind"]) == (0, "pp_limit_lose")
    assert char_action(mon) not in d["options"]
    assert set(d["options"]) == {char_action(c) for c in FACS}
