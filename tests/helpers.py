"""Helpers shared by the test files (``from helpers import ...``; pytest puts tests/ on the path).

Positions are built with the engine's ``Position`` (fandonia_env/engine/face/builder.py); the helpers
here are the set-ups and readers that several test files need.  Fixtures are in conftest.py."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from fandonia_env.engine import Game
from fandonia_env.engine.chapters.turn import place_ambassador
from fandonia_env.engine.core import registry
from fandonia_env.engine.core.actions import ID, char_action
from fandonia_env.engine.data.components import CARD_TYPE_OF, NOBLES, NON_MONARCH_OFFICES, OFFICE_ELIGIBLE, ROYALS
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.hidden import InfoSet
from fandonia_env.engine.face.invariants import check

# ---------------------------------------------------------------------------
# Reading a game
# ---------------------------------------------------------------------------


def kind(g: Game) -> str:
    """The kind of the pending decision."""
    return g.decision()["kind"]


def halted(g: Game) -> None:
    """Assert that the procedure run by ``Position.run`` has finished (a ``halt`` decision) and that
    the state keeps every invariant."""
    d = g.decision()
    assert d is not None and d["kind"] == "halt", d
    check(g.state)


def take(g: Game, expected_kind: str, action: int) -> None:
    """Assert that the pending decision is of ``expected_kind`` and offers ``action``; take it."""
    d = g.decision()
    assert d["kind"] == expected_kind, d
    assert action in d["options"], (action, d["options"])
    g.apply(action)


def logs(g: Game) -> str:
    """Every log line (public and private), one a line."""
    return "\n".join(e["t"] for e in g.state.log)


def logs_for(g: Game, to: int | None = None) -> str:
    """The log lines addressed to player ``to``; with ``to=None``, the public ones."""
    return "\n".join(e["t"] for e in g.state.log if e.get("to") == to)


def logged(st, text: str) -> bool:
    """Whether some log line of the state contains ``text``."""
    return any(text in e["t"] for e in st.log)


def holds(st, p: int, ctype: str) -> int:
    """How many cards of type ``ctype`` player p holds."""
    return sum(1 for c in st.players[p].hand if CARD_TYPE_OF[c] == ctype)


def legal(st, key: str, p: int = 0) -> bool:
    """Whether the activity ``key`` is legal for player p now."""
    return registry.ACTIVITIES[key].legal(st, p)


def free_legal(st, key: str, p: int = 0) -> bool:
    """Whether the free action ``key`` is legal for player p now."""
    return registry.FREE_ACTIONS[key].legal(st, p)


def pc(pos: Position, p: int = 0) -> str:
    """Player p's PC."""
    return pos.state.players[p].pc


# ---------------------------------------------------------------------------
# Other chapters' operations replaced by recorders (see also the ``stub_ops`` fixture)
# ---------------------------------------------------------------------------


def recorder(name: str) -> Callable[..., None]:
    """An operation that only records its call, as ``(name, kwargs)`` in ``state.tstate["calls"]``
    (to be put in ``machine.OPS`` with ``monkeypatch.setitem``)."""

    def fn(state, **kw):
        state.tstate.setdefault("calls", []).append((name, kw))
    return fn


def recorded(st, name: str | None = None) -> list:
    """The calls ``recorder`` operations recorded: the kwargs of each call of ``name``, or every
    ``(name, kwargs)`` pair when no name is given."""
    cs = st.tstate.get("calls", [])
    return [kw for n, kw in cs if n == name] if name else cs


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------


def empty_handed(players: int = 3, seed: int = 1, **config: Any) -> Position:
    """A ``Position`` whose players hold only their DOWN WITH THE KING cards."""
    pos = Position(players=players, seed=seed, **config)
    for p in range(players):
        pos.empty_hand(p)
    return pos


def activity_turn(p: int = 0, *, players: int = 3, seed: int = 5, edition: str = "1981",
                  optional: Sequence[str] = (), vacant: Sequence[str] = (), **pt: Any) -> Position:
    """Player p's turn (turn state ``pt``), every hand empty, the offices in ``vacant`` vacant."""
    pos = empty_handed(players, seed, edition=edition, optional=list(optional))
    for office in vacant:
        pos.office(office, None)
    pos.turn_state(p, **pt)
    return pos


def home_position(players: int = 3, pcs: Sequence[str] = ("11", "12", "13"), seed: int = 1, *,
                  pp: int | None = None, ip: int | None = None, **config: Any) -> Position:
    """Everyone in Fandonia, no office but the Monarch's, empty hands, player i's PC ``pcs[i]``;
    every player's PP and IP set to ``pp`` and ``ip`` where given."""
    pos = Position(players=players, seed=seed, **config)
    st = pos.state
    for c in st.chars.values():
        if c.office and c.office != "monarch":
            c.office = None
        c.location = "fandonia"
    pos.pcs(*pcs[:players])
    for p in range(players):
        pos.empty_hand(p)
        if pp is not None:
            st.players[p].pp = pp
        if ip is not None:
            st.players[p].ip = ip
    check(st, decision=False)
    return pos


def seduce(pos: Position, p: int, seducer: str, target: str) -> Game:
    """Player p's ``seducer`` tries to seduce ``target`` (the Intrigue activity, chosen this turn)."""
    pos.turn_state(p, intrigue=1)
    return pos.run("act_seduce_target", choice=char_action(target), p=p, seducer=seducer)


def government(players: int = 3, seed: int = 1, *, keep_free: Iterable[str] = (), vacant: Sequence[str] = (),
               offices: dict[str, str | None] | None = None, support: int | None = None, ip: int | None = None,
               **config: Any) -> Position:
    """Every office but the Monarch's held by an NC in Fandonia (Ambassadors abroad), taken in order
    from the characters 11-44 who are neither PCs nor in ``keep_free``; every other character but the
    royals at home and out of office.  Then the offices in ``vacant`` are left empty, ``offices``
    (office -> character or None) placed, and the Monarch's Support and every player's IP set to
    ``support`` and ``ip`` where given."""
    pos = Position(players=players, seed=seed, **config)
    st = pos.state
    for cid, c in st.chars.items():
        if c.office != "monarch":
            c.office = None
        if cid not in ROYALS:
            c.location = "fandonia"
    keep = {pl.pc for pl in st.players} | set(keep_free)
    pool = [c for c in OFFICE_ELIGIBLE if c not in keep]
    for office, cid in zip(NON_MONARCH_OFFICES, pool):
        if office in vacant:
            continue
        st.wchar(cid).office = office
        place_ambassador(st, cid)
    for office, cid in (offices or {}).items():
        pos.office(office, cid)
    if support is not None:
        st.support = support
    if ip is not None:
        for pl in st.players:
            pl.ip = ip
    return pos


def justice_position(players: int = 3, seed: int = 1, *, plain: Sequence[str],
                     vacant: Sequence[str] = ("minister_of_justice",), **config: Any) -> Position:
    """Empty hands, the offices in ``vacant`` vacant (by default the Minister Of Justice: the Judge
    is rolled), and the nobles in ``plain`` out of office and in Fandonia."""
    pos = empty_handed(players, seed, **config)
    for office in vacant:
        pos.office(office, None)
    for cid in plain:
        c = pos.state.wchar(cid)
        if c.office:
            pos.office(c.office, None)
        c.location = "fandonia"
    return pos


def free_noble(st, pred: Callable[[str], bool] = lambda cid: True, exclude: Iterable[str] = (), *,
               at_home: bool = True, unseat: bool = False) -> str:
    """A neutral noble (no owner, no office, not a PC) matching ``pred`` and not in ``exclude``, in
    Fandonia unless ``at_home`` is false.  With ``unseat``, failing that, a neutral Office Holder is
    taken out of office (and brought home)."""
    for cid in NOBLES:
        c = st.chars[cid]
        if (c.owner is None and c.office is None and not c.is_pc and (not at_home or c.location == "fandonia")
                and cid not in exclude and pred(cid)):
            return cid
    if unseat:
        for cid in NOBLES:
            c = st.wchar(cid)
            if c.owner is None and not c.is_pc and cid not in exclude and pred(cid):
                c.office, c.location = None, "fandonia"
                return cid
    raise LookupError("no such NC")


def pcs(pos: Position) -> set[str]:
    """The players' PCs."""
    return {pl.pc for pl in pos.state.players}


def numbered_nc(pos: Position, lo: int, hi: int, office: bool | None = False, skip: Iterable[str] = ()) -> str:
    """A neutral, unmarried non-PC noble numbered lo..hi (not in ``skip``), with an office
    (``office=True``), without one (False) or either (None)."""
    for cid, c in pos.state.chars.items():
        if not cid.isdigit() or not lo <= int(cid) <= hi or cid in pcs(pos) or cid in skip:
            continue
        if c.owner is None and (office is None or (c.office is not None) == office) and c.spouse is None:
            return cid
    raise AssertionError("no such character")


def crown_farc(pos: Position, p: int, cid: str) -> None:
    """Make ``cid`` (alive) the Monarch, player p's FARC, reigning since this turn; King George dead."""
    st = pos.state
    st.wchar("george").dead = True
    st.wchar("george").office = None
    st.wchar(cid).dead = False
    st.wchar(cid).office = "monarch"
    st.wchar(cid).owner = p
    st.monarch = cid
    st.reign = {"player": p, "cid": cid, "since": st.turn}


# ---------------------------------------------------------------------------
# Counseling (§15) positions and cards
# ---------------------------------------------------------------------------

MC = "35"  # Lord Mortimer: never a PC (PCs come from 11-24 and 56-66)
COUNSEL_NCS = ("35", "36", "41", "42", "43", "44")


def court_ball(pos: Position, *dice: int) -> Game:
    """The crown phase with the Crown Table result forced to Court Ball, the dice scripted."""
    pos.state.forced_crown = ["court_ball"]
    pos.dice(*dice)
    return pos.run("crown_phase")


def T(key: str) -> int:
    """The action choosing the Counseling table ``key``."""
    return ID[f"counsel_table_{key}"]


def C(i: int) -> int:
    """The action choosing counsel number ``i``."""
    return ID[f"counsel_{i}"]


def put(pos: Position, p: int, *types: str) -> None:
    """Move one card of each type into p's hand, from wherever it is (pile, discards, hands)."""
    st = pos.state
    for t in types:
        for src in [st.deck, st.discard] + [pl.hand for pl in st.players]:
            card = next((c for c in src if CARD_TYPE_OF[c] == t), None)
            if card is not None:
                src.remove(card)
                st.players[p].hand.append(card)
                break


def under(pos: Position, p: int, cid: str, ctype: str, field: str) -> str:
    """Put a card of type ``ctype`` (taken as ``put`` takes it, into p's hand) under character ``cid``
    as its ``field`` (``counselor_card``, ``henchman_card``, ``alignment_card``); returns the card."""
    put(pos, p, ctype)
    hand = pos.state.players[p].hand
    card = next(c for c in hand if CARD_TYPE_OF[c] == ctype)
    hand.remove(card)
    setattr(pos.state.chars[cid], field, card)
    return card


def make_mc(pos: Position, p: int, cid: str) -> str:
    """Make ``cid`` player p's FAC and a Monarch's Counselor; returns the card."""
    pos.char(cid, owner=p)
    return under(pos, p, cid, "monarchs_counselor", "counselor_card")


def make_hm(pos: Position, p: int, cid: str) -> str:
    """Make ``cid`` player p's FAC and a henchman; returns the Henchman card."""
    pos.char(cid, owner=p)
    return under(pos, p, cid, "henchman", "henchman_card")


def counsel_position(players: int = 3, *, empty_hands: bool = False, **config: Any) -> Position:
    """Seed 5, player 0 first; the Lords of ``COUNSEL_NCS`` out of office and at home."""
    pos = Position(players=players, seed=5, first=0, **config)
    st = pos.state
    for cid in COUNSEL_NCS:
        st.wchar(cid).office = None
        st.wchar(cid).location = "fandonia"
    if empty_hands:
        for p in range(players):
            pos.empty_hand(p)
    return pos


def counsel_turn(crown: str = "court_ball", problems: Iterable[str] = (), mc: bool = True, players: int = 3, *,
                 edition: str = "1981", optional: Sequence[str] = (), empty_hands: bool = False,
                 **pt: Any) -> Position:
    """Player 0's turn (turn state ``pt``) in a ``counsel_position``, after the Crown Events result
    ``crown``, with the political problems ``problems`` in their first turn; when ``mc``, his FAC
    Lord Mortimer (``MC``) is a Monarch's Counselor (no modifiers)."""
    pos = counsel_position(players, empty_hands=empty_hands, edition=edition, optional=list(optional))
    st = pos.state
    st.crown = crown
    st.problems = {k: {"turns": 1} for k in problems}
    pos.turn_state(0, **pt)
    if mc:
        make_mc(pos, 0, MC)
    return pos


# ---------------------------------------------------------------------------
# Whole games
# ---------------------------------------------------------------------------


def play_out(g: Game, bots: Sequence[Any], *, check_view: bool = False) -> Game:
    """Play ``g`` to its end: the deciding seat's bot acts on its view (no log), the legal actions and
    its ``InfoSet``; every choice must be legal (with ``check_view``, the view's decision must offer
    exactly the legal actions)."""
    while not g.over:
        p = g.current_player()
        legal = g.legal_actions()
        view = g.view(p, log=False)
        if check_view:
            assert view["decision"] is not None and view["decision"]["options"] == legal
        a = bots[p].act(view, legal, InfoSet(g.state, p))
        assert a in legal, (getattr(bots[p], "id", p), view["decision"]["kind"], a, legal)
        g.apply(a)
    return g


def random_moves(g: Game, rng: random.Random, moves: int | None = None) -> Iterator[int]:
    """Play random legal moves (``rng.choice``) until the game ends, or after ``moves`` moves; yields
    the move's number (0, 1, ...) before each move, so that the caller can look at each position or
    stop with ``break``."""
    i = 0
    while not g.over and (moves is None or i < moves):
        yield i
        g.apply(rng.choice(g.legal_actions()))
        i += 1


def play_randomly(g: Game, rng: random.Random, moves: int | None = None) -> Game:
    """``random_moves`` run through: the game at its end (or after ``moves`` moves)."""
    for _ in random_moves(g, rng, moves):
        pass
    return g


def seat_decision(client: Any, gid: str, seat: int, token: str, timeout: float = 60) -> dict[str, Any]:
    """A server seat's state once it has a decision or the game stops (the nobles move in the server's
    threads): polls ``GET /games/{gid}/seats/{seat}`` with the seat's token through ``client``
    (FastAPI's TestClient or an httpx client)."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        st = client.get(f"/games/{gid}/seats/{seat}", headers={"Authorization": f"Bearer {token}"}).json()
        if st["decision"] is not None or st["status"] != "playing":
            return st
        assert time.monotonic() < deadline, "the nobles did not move"
        time.sleep(0.02)
