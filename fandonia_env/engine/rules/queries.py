"""Derived facts about a state, and the small shared mutations every chapter uses.

Read-only questions (status ratings, factions, who is available...) and the
bookkeeping primitives (IP/PP with their floors, drawing and discarding cards,
dice with logging).  Chapter modules build on these; none of them keeps derived
data in the state, but for the PP totals (``PPTotals``), kept in the state's unsaved ``memo`` and
brought up to date from its write log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final, Protocol, TypeVar

from ..core import chance
from ..core.actions import ID, NAME
from ..core.machine import log, seq, watch
from ..core.state import Character, Frame, GameState, Scan
from ..data.components import (
    CARD_TYPE_OF,
    CARD_TYPES,
    FANDONIA,
    INTRIGUE_SUBSTITUTES,
    NOBLES,
    OFFICES,
    ROYALS,
    character_name,
)
from .ruleset import ruleset

# ---------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------


def name(cid: str) -> str:
    return character_name(cid)


def pname(p: int | None) -> str:
    return "neutral" if p is None else f"player {p}"


# ---------------------------------------------------------------------------
# Characters
# ---------------------------------------------------------------------------


def is_royal(cid: str) -> bool:
    return cid in ROYALS


def is_female(cid: str) -> bool:
    return NOBLES[cid].female if cid in NOBLES else ROYALS[cid].female


#: §18.10, §31.7: the Status of a character married to a FARC, or widowed by an RC.
ROYAL_SPOUSE_STATUS: Final = 8


def _printed_table(state: GameState) -> tuple[dict[str, int], int]:
    """The printed Status of every character in ``state``'s edition and player count, and the
    Status the Monarch's Counselor card adds (D1, D2, D11, D28)."""
    rs = ruleset(state)
    return rs.printed_statuses[len(state.players)], rs.counselor_card_status


def personal_status(state: GameState, cid: str) -> int:
    """Card Status plus titles, or a fixed Status (§13.4.1, §18.10, §31.7), A18."""
    c = state.chars[cid]
    if c.fixed_status is not None:
        return c.fixed_status
    # D1, D2, D11: the Status printed in the game's edition (a royal has no titles)
    return _printed_table(state)[0][cid] + (0 if cid in ROYALS else c.titles)


def status(state: GameState, cid: str) -> int:
    """The Status Rating used for all game purposes (§16.3, §18.9, §33.2.3; ruling A18)."""
    printed, ccs = _printed_table(state)
    return _status(state.chars, cid, printed, ccs, state.support == 0)


def statuses(state: GameState, cids: Iterable[str] | None = None) -> dict[str, int]:
    """``status`` of every character (``state.chars`` order), or of ``cids``: read from the
    Statuses ``PPTotals`` keeps up to date."""
    st = pp_totals(state).st
    return dict(st) if cids is None else {cid: st[cid] for cid in cids}


def status_sum(state: GameState, cids: Any) -> int:
    """The sum of ``status`` over ``cids`` (the Statuses ``PPTotals`` keeps)."""
    st = pp_totals(state).st
    total = 0
    for cid in cids:
        total += st[cid]
    return total


def _status(chars: dict[str, Character], cid: str, printed: dict[str, int], ccs: int, crisis: bool) -> int:
    c = chars[cid]
    royal = cid in ROYALS
    s = c.fixed_status
    if s is None:  # personal_status
        s = printed[cid] if royal else printed[cid] + c.titles
    spid = c.spouse
    if spid is not None:
        other: int | None
        sp = chars[spid]
        rc_match = (spid in ROYALS) != royal
        if rc_match and not royal and sp.owner is not None and not sp.dead:
            s = ROYAL_SPOUSE_STATUS  # §18.10, A19: 8 while married to a FARC
        elif not (sp.banished or sp.imprisoned or sp.wrongdoer):
            if rc_match and royal and c.owner is not None:
                other = ROYAL_SPOUSE_STATUS  # a FARC's non-royal spouse has 8 (A18 then §18.9)
            else:
                other = sp.fixed_status
                if other is None:
                    other = printed[spid] if spid in ROYALS else printed[spid] + sp.titles
            if other > s:
                s = other
    if c.office is not None:
        s += OFFICES[c.office].bonus
    if c.counselor_card is not None:
        s += ccs  # D28 (ES §13.4.3, §14.5.3), A18: the Monarch's Counselor card gives +2 Status (counsel group)
    if crisis and (c.office is not None or c.consort or (royal and c.owner is None)):
        s //= 2  # §33.2.3 government in crisis
    return s


# ---------------------------------------------------------------------------
# The character scan of a main decision (``turn.activity_options``)
# ---------------------------------------------------------------------------

def open_scan(state: GameState) -> Scan | None:
    """Open a scan on ``state`` while ``turn.activity_options`` checks the legality of every
    activity (which only reads the state; ``can_hold`` weighs its trial changes without writing
    them): ``state.scan`` holds its characters' lists for the helpers below, the ruleset, a memo of
    what the checks ask again and again (``("pc_or_facs", p)``, ``activities``; ``scan_memo``) and
    the hand counts (p -> p's card types counted: ``has_card``, ``count_cards``).  Returns what
    ``close_scan`` restores.  The scan lives on ``state`` alone: it is never saved, cloned or seen
    by another state, so games in other threads never read it (issue 26)."""
    prev = state.scan
    rs = ruleset(state)
    idx = char_index(state)
    state.scan = (idx.owned, idx.hiding, idx.bi, idx.ih, {}, {}, rs)
    return prev


def _membership(c: Character) -> int:
    """What puts a character in ``CharIndex``'s lists, as one number: owner, hiding, banished or
    imprisoned, imprisoned or hiding."""
    o = c.owner
    return (-8 if o is None else 8 * o) + (4 if c.hiding else 0) + (2 if c.banished or c.imprisoned else 0) \
        + (1 if c.imprisoned or c.hiding else 0)


class CharIndex:
    """The ids of ``state``'s characters by owner, in hiding, banished or imprisoned, and imprisoned
    or hiding, each in ``state.chars`` order: kept in ``state.memo`` and brought up to date from
    ``state.writes`` (``char_index``), so that the helpers below do not scan every character at each
    question.  A list handed out is never changed afterwards (a change of membership makes new
    lists): a caller may go on reading it while the state changes.  Never saved, compared or cloned."""

    __slots__ = ("seen", "member", "pos", "owned", "hiding", "bi", "ih")

    def __init__(self, state: GameState) -> None:
        self.seen = 0
        self.member: dict[str, int] = {}
        self.pos: dict[str, int] = {}  # each character's place in ``state.chars`` order
        self.owned: dict[int, list[str]] = {}
        self.hiding: list[str] = []
        self.bi: list[str] = []
        self.ih: list[str] = []
        self.build(state)

    def build(self, state: GameState) -> None:
        member: dict[str, int] = {}
        owned: dict[int, list[str]] = {}
        hiding: list[str] = []
        bi: list[str] = []
        ih: list[str] = []
        pos: dict[str, int] = {}
        for cid, c in state.chars.items():
            member[cid] = _membership(c)
            pos[cid] = len(pos)
            o = c.owner
            if o is not None:
                lst = owned.get(o)
                if lst is None:
                    owned[o] = [cid]
                else:
                    lst.append(cid)
            if c.hiding or c.imprisoned or c.banished:  # rare: one test for the usual character
                if c.hiding:
                    hiding.append(cid)
                    ih.append(cid)
                elif c.imprisoned:
                    ih.append(cid)
                if c.banished or c.imprisoned:
                    bi.append(cid)
        self.seen = len(state.writes)
        self.member, self.pos, self.owned, self.hiding, self.bi, self.ih = member, pos, owned, hiding, bi, ih

    def sync(self, state: GameState) -> None:
        """Bring the lists up to date: each character written since that changed membership leaves
        and joins lists, which are made anew (never changed in place)."""
        writes = state.writes
        n = len(writes)
        if n == self.seen:
            return
        chars = state.chars
        member = self.member
        for i in range(self.seen, n):
            cid = writes[i]
            m = _membership(chars[cid])
            old = member[cid]
            if m == old:
                continue
            member[cid] = m
            if m >> 3 != old >> 3:  # the owner: -1 for none
                owned = self.owned = dict(self.owned)
                if old >> 3 >= 0:
                    owned[old >> 3] = [x for x in owned[old >> 3] if x != cid]
                if m >> 3 >= 0:
                    owned[m >> 3] = self._with(owned.get(m >> 3, _NONE), cid)
            changed = (m ^ old) & 7
            if changed & 4:
                self.hiding = self._with(self.hiding, cid) if m & 4 else [x for x in self.hiding if x != cid]
            if changed & 2:
                self.bi = self._with(self.bi, cid) if m & 2 else [x for x in self.bi if x != cid]
            if changed & 1:
                self.ih = self._with(self.ih, cid) if m & 1 else [x for x in self.ih if x != cid]
        self.seen = n

    def _with(self, ids: list[str], cid: str) -> list[str]:
        """A new list: ``ids`` with ``cid`` in its place (``state.chars`` order)."""
        pos = self.pos
        at = pos[cid]
        i = 0
        while i < len(ids) and pos[ids[i]] < at:
            i += 1
        return ids[:i] + [cid] + ids[i:]


#: the key of ``CharIndex`` in ``state.memo``
_MEMO_INDEX: Final = "char_index"


class _Synced(Protocol):
    def sync(self, state: GameState) -> None: ...


_S = TypeVar("_S", bound=_Synced)


def _memo(state: GameState, key: str, make: Callable[[GameState], _S]) -> _S:
    """``state.memo[key]`` brought up to date from the write log (``make(state)`` on first use)."""
    m = state.memo.get(key)
    if m is None:
        m = state.memo[key] = make(state)
    else:
        m.sync(state)
    return m


def char_index(state: GameState) -> CharIndex:
    """``state``'s ``CharIndex``, up to date (made on first use)."""
    return _memo(state, _MEMO_INDEX, CharIndex)


def close_scan(state: GameState, prev: Scan | None) -> None:
    """Close the scan ``open_scan`` opened on ``state`` (``prev``: what it returned)."""
    state.scan = prev


def scan_memo(state: GameState) -> dict[Any, Any] | None:
    """The memo of the scan open on ``state`` (answers the legality checks share within one
    main decision, see ``open_scan``), or None when no scan is open on it."""
    scan = state.scan
    return None if scan is None else scan[4]


#: the empty list of ids ``owned_ids`` hands out (not to modify, as every list it hands out)
_NONE: Final[list[str]] = []


def owned_ids(state: GameState, p: int) -> list[str]:
    """Ids of the characters owned by p, in ``state.chars`` order (a list not to modify)."""
    scan = state.scan
    if scan is not None:
        return scan[0].get(p, _NONE)
    return char_index(state).owned.get(p, _NONE)


def hiding_ids(state: GameState) -> list[str]:
    """Ids of the characters in hiding, in ``state.chars`` order."""
    scan = state.scan
    if scan is not None:
        return scan[1]
    return char_index(state).hiding


def banished_or_imprisoned_ids(state: GameState) -> list[str]:
    scan = state.scan
    if scan is not None:
        return scan[2]
    return char_index(state).bi


def imprisoned_or_hiding_ids(state: GameState) -> list[str]:
    scan = state.scan
    if scan is not None:
        return scan[3]
    return char_index(state).ih


def abroad(c: Character) -> bool:
    return c.location != FANDONIA


def stuck_at_war(state: GameState, c: Character) -> bool:
    """§7.10.1: in a country at war with Fandonia."""
    return c.location in state.wars


def in_play(c: Character) -> bool:
    """Alive and on the board (a dead PC's card is face-down, a dead RC removed)."""
    return not c.dead


def free(state: GameState, c: Character) -> bool:
    """Not dead, banished, imprisoned, hiding or stuck in a country at war."""
    return not (c.dead or c.banished or c.imprisoned or c.hiding or stuck_at_war(state, c))


def normal(c: Character) -> bool:
    """In a normal situation: not a wrongdoer, banished, imprisoned or hiding."""
    return not (c.wrongdoer or c.banished or c.imprisoned or c.hiding or c.dead)


def faction(state: GameState, p: int) -> list[str]:
    """PC, FACs and FARCs of player p (§3.7), in id order."""
    return list(owned_ids(state, p))


def facs(state: GameState, p: int) -> list[str]:
    chars = state.chars
    return [cid for cid in owned_ids(state, p) if not chars[cid].is_pc and cid not in ROYALS]


def farcs(state: GameState, p: int) -> list[str]:
    return [cid for cid in owned_ids(state, p) if cid in ROYALS]


def pc(state: GameState, p: int) -> Character:
    return state.chars[state.players[p].pc]


def pc_active(state: GameState, p: int) -> bool:
    """The PC's card is face-up (§31.5)."""
    return not pc(state, p).dead


def henchmen(state: GameState, p: int) -> list[str]:
    """FACs with a Henchman card, plus the PC's spouse (§17.3)."""
    out = [cid for cid in facs(state, p) if state.chars[cid].henchman_card is not None]
    sp = pc(state, p).spouse
    if sp is not None and state.chars[sp].owner == p and sp not in out and not state.chars[sp].dead:
        out.append(sp)
    return out


def monarch_owner(state: GameState) -> int | None:
    """The player whose FARC is Monarch, if any (§36.10)."""
    return state.chars[state.monarch].owner if state.monarch in state.chars else None


def _exempt(state: GameState) -> set[str]:
    """The characters no PP total covers: every PC and a living PC's spouse (§35.6, A17), and the
    Monarch where the ruleset leaves a FARC Monarch out (errata D84; in the 1981 edition he counts,
    ruling R16; a NRC Monarch belongs to nobody)."""
    chars = state.chars
    exempt: set[str] = {state.monarch} if ruleset(state).farc_monarch_outside_pp_total else set()
    for pl in state.players:
        pcc = chars[pl.pc]
        exempt.add(pcc.cid)
        if pcc.spouse is not None and not pcc.dead:
            exempt.add(pcc.spouse)
    return exempt


def pp_required(state: GameState, p: int) -> int:
    """Total Status of FACs and FARCs that the PP total must cover (§35.4-35.6, A17).

    The PC and the PC's spouse are exempt, except that after the PC's death the
    former spouse counts (§31.5).
    """
    return pp_totals(state).totals[p]


def pp_required_all(state: GameState) -> list[int]:
    """``pp_required`` of every player."""
    return list(pp_totals(state).totals)


class PPTotals:
    """``pp_required`` of every player, kept in ``state.memo`` and brought up to date from
    ``state.writes`` (every character write goes through ``wchar``) instead of summed afresh at
    each question (``pp_totals``).

    A total sums the Status of a player's characters that are not exempt; a Status reads its
    character, the character's spouse, the Status tables of the game's ruleset and the crisis flag;
    the exemptions read the Monarch, the PCs and their spouses.  So after writes, the Statuses
    summed again are those of the characters written and of whoever names one of them as spouse
    (``named_by``, kept from the spouses last seen), and, when a PC was written, of those whose
    exemption changed, and, when the crisis flag turned, of those it halves; a new Monarch, ruleset or
    PC sums everything again.  Never saved, compared or cloned: a clone or a loaded state starts
    without it."""

    __slots__ = ("seen", "rs", "printed", "ccs", "crisis", "monarch", "pcs", "exempt", "st", "counted", "spouse",
                 "named_by", "totals", "quiet")

    def __init__(self, state: GameState) -> None:
        self.seen = 0
        self.rs: Any = None
        self.printed: dict[str, int] = {}  # the ruleset's printed Statuses, and its counselor card's
        self.ccs = 0
        self.crisis = False
        self.monarch = ""
        self.pcs: list[str] = []
        self.exempt: set[str] = set()
        self.st: dict[str, int] = {}  # the Status of every character
        self.counted: dict[str, int] = {}  # the characters summed, with the player they count for
        self.spouse: dict[str, str | None] = {}  # every character's spouse, as last seen
        self.named_by: dict[str, set[str]] = {}  # who names each character as spouse, as last seen
        self.totals: list[int] = []
        # what ``pp_limit_watch`` last found within the limit: (write log length, crisis, Monarch)
        self.quiet: tuple[int, bool, str] | None = None
        self.build(state)

    def build(self, state: GameState) -> None:
        """Sum every Status afresh."""
        chars = state.chars
        printed, ccs = _printed_table(state)
        crisis = state.support == 0
        exempt = _exempt(state)
        self.seen = len(state.writes)
        self.rs = ruleset(state)
        self.printed, self.ccs = printed, ccs
        self.crisis = crisis
        self.monarch = state.monarch
        self.pcs = [pl.pc for pl in state.players]
        self.exempt = exempt
        st: dict[str, int] = {}
        counted: dict[str, int] = {}
        spouse: dict[str, str | None] = {}
        named_by: dict[str, set[str]] = {}
        totals = [0] * len(state.players)
        for cid, c in chars.items():
            s = _status(chars, cid, printed, ccs, crisis)
            st[cid] = s
            sp = c.spouse
            spouse[cid] = sp
            if sp is not None:
                named_by.setdefault(sp, set()).add(cid)
            o = c.owner
            if o is not None and cid not in exempt:
                counted[cid] = o
                totals[o] += s
        self.st, self.counted, self.spouse, self.named_by, self.totals = st, counted, spouse, named_by, totals

    def sync(self, state: GameState) -> None:
        """Bring the totals up to date with the state (see the class)."""
        writes = state.writes
        n = len(writes)
        if state.monarch != self.monarch or ruleset(state) is not self.rs:
            self.build(state)
            return
        flip = (state.support == 0) != self.crisis
        if n == self.seen and not flip:
            return
        chars = state.chars
        written = set(writes[self.seen:])
        spouse = self.spouse
        named_by = self.named_by
        pcs = self.pcs
        pc_written = False
        for x in written:
            if x in pcs:
                pc_written = True
            old = spouse[x]
            new = chars[x].spouse
            if old != new:
                if old is not None:
                    named_by[old].discard(x)
                if new is not None:
                    named_by.setdefault(new, set()).add(x)
                spouse[x] = new
        if pc_written and [pl.pc for pl in state.players] != pcs:
            self.build(state)
            return
        dirty = set(written)
        for x in written:
            nb = named_by.get(x)
            if nb:
                dirty.update(nb)
        exempt = self.exempt
        if pc_written:
            new_exempt = _exempt(state)
            dirty.update(exempt ^ new_exempt)
            exempt = self.exempt = new_exempt
        if flip:  # §33.2.3: the crisis halves the Status of these only (``_status``); a character
            # not written since the last sum held the same office, consort flag and owner then
            self.crisis = not self.crisis
            for cid, c in chars.items():
                if c.office is not None or c.consort or (c.owner is None and cid in ROYALS):
                    dirty.add(cid)
        printed, ccs = self.printed, self.ccs
        crisis = self.crisis
        st = self.st
        counted = self.counted
        totals = self.totals
        for cid in dirty:
            o = counted.pop(cid, None)
            if o is not None:
                totals[o] -= st[cid]
            s = _status(chars, cid, printed, ccs, crisis)
            st[cid] = s
            o = chars[cid].owner
            if o is not None and cid not in exempt:
                counted[cid] = o
                totals[o] += s
        self.seen = n


#: the key of ``PPTotals`` in ``state.memo``
_MEMO_PP: Final = "pp_totals"


def pp_totals(state: GameState) -> PPTotals:
    """``state``'s ``PPTotals``, up to date (made on first use)."""
    return _memo(state, _MEMO_PP, PPTotals)


def pp_required_with(state: GameState, p: int, owners: Any = (), titles: Any = ()) -> int:
    """``pp_required(state, p)`` as it would be if ``owners`` joined p's faction and each of
    ``titles`` gained one title, computed without writing the state.

    The sum runs over p's characters (``owned_ids``); a change can alter only the Status of a
    changed character and of p's characters married to one (``_status`` reads a character and
    its spouse), so those are summed again with the changed values (the exemptions depend on
    neither owners nor titles).  p's present sum is the kept one (``PPTotals``)."""
    chars = state.chars
    t = pp_totals(state)
    base = t.totals[p]
    if not owners and not titles:
        return base
    owned = owned_ids(state, p)
    exempt = t.exempt
    printed, ccs = t.printed, t.ccs
    crisis = t.crisis
    changed: dict[str, Character] = {}
    for cid in titles:
        c = changed.get(cid, chars[cid]).copy()
        c.titles += 1
        changed[cid] = c
    for cid in owners:
        c = changed.get(cid, chars[cid]).copy()
        c.owner = p
        changed[cid] = c
    affected = set(changed)
    for cid in owned:
        if chars[cid].spouse in changed:
            affected.add(cid)
    for x in affected:
        if x in exempt:
            continue
        c = chars[x]
        if c.owner == p:
            base -= _status(chars, x, printed, ccs, crisis)
        n = changed.get(x, c)
        if n.owner == p:
            view = {x: n}
            sp = n.spouse
            if sp is not None:
                view[sp] = changed.get(sp, chars[sp])
            base += _status(view, x, printed, ccs, crisis)
    return base


def can_afford_recruit(state: GameState, p: int, cids: list[str]) -> bool:
    """§35.4: enough PP to hold the faction plus these characters."""
    return state.players[p].pp >= pp_required(state, p) + sum(status(state, c) for c in cids)


# ---------------------------------------------------------------------------
# IP and PP (§34, §35)
# ---------------------------------------------------------------------------


def gain_ip(state: GameState, p: int, n: int, why: str = "") -> None:
    if n <= 0:
        return
    state.players[p].ip += n
    log(state, f"player {p} gains {n} IP{' (' + why + ')' if why else ''}.")


def lose_ip(state: GameState, p: int, n: int, why: str = "") -> int:
    """Lose up to n IP; a debt beyond the total is forgiven (§34.3).  Returns the loss."""
    pl = state.players[p]
    loss = min(max(n, 0), pl.ip)
    pl.ip -= loss
    if loss:
        log(state, f"player {p} loses {loss} IP{' (' + why + ')' if why else ''}.")
    return loss


def gain_pp(state: GameState, p: int, n: int, why: str = "") -> None:
    if n <= 0:
        return
    state.players[p].pp += n
    log(state, f"player {p} gains {n} PP{' (' + why + ')' if why else ''}.")


#: the operation that holds every player to his PP limit (``usurpation.pp_check_all``, §35.5)
PP_CHECK_OP: Final = "pp_check_all"
#: the steps of a PP limit check under way (``usurpation``): the check itself, a player's turn to
#: give up characters, and (as the ``then`` of his decision) the character he gives up
_PP_CHECK_STEPS: Final = frozenset({PP_CHECK_OP, "pp_check_player"})
_PP_GIVE_UP: Final = "pp_lose_chosen"


def pp_candidates(state: GameState, p: int) -> list[str]:
    """The FACs and FARCs p may give up to his PP limit (§35.5): those his total counts
    (``pp_totals``: §35.4-§35.6, A17, R16), in ``state.chars`` order, but never the Monarch (a FARC
    Monarch is his for life, A59)."""
    exempt = pp_totals(state).exempt
    chars = state.chars
    mon = state.monarch
    return [cid for cid in owned_ids(state, p) if cid not in exempt and cid != mon and not chars[cid].dead]


def pp_limit_broken(state: GameState) -> bool:
    """Is some player short of his PP limit (§35.4) with a FAC or FARC he could give up (§35.5)?"""
    totals = pp_totals(state).totals
    for pl in state.players:
        if pl.pp < totals[pl.idx] and pp_candidates(state, pl.idx):
            return True
    return False


def _pp_check_step(f: Frame) -> bool:
    """Is ``f`` a step of a PP limit check (the check, a player's turn, his give-up decision)?"""
    return f.op in _PP_CHECK_STEPS or (f.op == "decide" and f.args["then"] == _PP_GIVE_UP)


@watch
def pp_limit_watch(state: GameState, step: Frame) -> None:
    """Ruling R17 (§35.4-§35.5): the PP limit holds at all times.  Run by the machine after every
    step: when a step has left a player short of his limit with someone to give up - whatever rose
    (an office, a title, a Status doubled back after a crisis, a spouse's Status...) - the PP limit
    check is scheduled at once, before play goes on: on top of what the step scheduled, but below the
    decisions already put to a player (their options are set).  Nothing is scheduled while a check is
    pending or under way (a loss schedules its own in ``lose_pp``, ruling R15; the check then covers
    every player), right after a step of a check (so a check that leaves someone short cannot start
    itself again and again), nor once the game is over."""
    # nothing a total reads has changed since every player was found within his limit (a PP loss
    # always goes through ``lose_pp``, which schedules the check itself, R15): the usual step
    key = (len(state.writes), state.support == 0, state.monarch)
    t = state.memo.get(_MEMO_PP)
    if t is not None and t.quiet == key:
        return
    if state.over or _pp_check_step(step):
        return
    if not pp_limit_broken(state):
        pp_totals(state).quiet = key
        return
    stack = state.stack
    for f in stack:
        if _pp_check_step(f):
            return
    i = len(stack)
    while i > 0 and stack[i - 1].op == "decide":
        i -= 1
    stack.insert(i, Frame(PP_CHECK_OP, {}))


def lose_pp(state: GameState, p: int, n: int, why: str = "") -> int:
    """Lose up to n PP (§35.3).  Every loss schedules the PP limit check at once (§35.4-§35.5,
    ruling R15): it goes on top of what is pending, so it runs as soon as the step that cost the PP
    has run the consequences it schedules, before play goes on (losses in a row share one check)."""
    pl = state.players[p]
    loss = min(max(n, 0), pl.pp)
    pl.pp -= loss
    if loss:
        log(state, f"player {p} loses {loss} PP{' (' + why + ')' if why else ''}.")
        stack = state.stack
        if not stack or stack[-1].op != PP_CHECK_OP:
            seq(state, (PP_CHECK_OP, {}))
    return loss


def ip_spendable(state: GameState, p: int) -> int:
    """IP player p may still spend this turn: none in a Famine (§34.6), at most half
    (rounded down, but a single IP may be used) in a crisis (§33.2.1, §34.7, A1 iv).

    Reading: "half of their IPs each turn" is half of what the player held when the turn
    began (``tstate["ip_start"]``), less what he has spent in crisis this turn; IP gained
    during the turn does not raise the cap and IP spent before the crisis does not count."""
    ip = state.players[p].ip
    if state.crown == "famine":
        return 0
    if state.misc.get("unres_no_ip_turn") == state.turn:  # §38 unresolved Banking Crisis (a)
        return 0
    if state.support == 0:
        spent = state.tstate.get("ip_spent", {}).get(str(p), 0)
        start = state.tstate.get("ip_start", {}).get(str(p), ip + spent)
        cap = 1 if start == 1 else start // 2
        return max(0, min(ip, cap - spent))
    return ip


def can_spend(state: GameState, p: int, n: int) -> bool:
    return ip_spendable(state, p) >= n


def spend_ip(state: GameState, p: int, n: int, why: str) -> None:
    if not can_spend(state, p, n):
        raise AssertionError(f"player {p} cannot spend {n} IP for {why}")
    state.players[p].ip -= n
    if state.support == 0:  # only spending during a crisis counts against its cap
        spent = state.tstate.setdefault("ip_spent", {})
        spent[str(p)] = spent.get(str(p), 0) + n
    log(state, f"player {p} pays {n} IP for {why}.")


# ---------------------------------------------------------------------------
# Cards (§14)
# ---------------------------------------------------------------------------


def card_type(card: str) -> str:
    return CARD_TYPE_OF[card]


def hand_types(state: GameState, p: int) -> list[str]:
    return [CARD_TYPE_OF[c] for c in state.players[p].hand]


def _hand_counts(hands: dict[int, dict[str, int]], state: GameState, p: int) -> dict[str, int]:
    """p's card types counted, once per open scan (``hands``: the scan's hand counts)."""
    d = hands.get(p)
    if d is None:
        d = hands[p] = {}
        for card in state.players[p].hand:
            t = CARD_TYPE_OF[card]
            d[t] = d.get(t, 0) + 1
    return d


def has_card(state: GameState, p: int, ctype: str) -> bool:
    scan = state.scan
    if scan is not None:
        return ctype in _hand_counts(scan[5], state, p)
    return any(CARD_TYPE_OF[c] == ctype for c in state.players[p].hand)


def count_cards(state: GameState, p: int, ctype: str) -> int:
    scan = state.scan
    if scan is not None:
        return _hand_counts(scan[5], state, p).get(ctype, 0)
    return sum(1 for c in state.players[p].hand if CARD_TYPE_OF[c] == ctype)


def take_card(state: GameState, p: int, ctype: str) -> str:
    """Remove one card of type ``ctype`` from p's hand and return its id."""
    hand = state.players[p].hand
    for i, c in enumerate(hand):
        if CARD_TYPE_OF[c] == ctype:
            return hand.pop(i)
    raise AssertionError(f"player {p} holds no {ctype!r} card")


def discard(state: GameState, card: str) -> None:
    state.discard.append(card)


def card_options(state: GameState, p: int, ctype: str) -> list[int]:
    """Action ids with which p may play a ``ctype`` card: the card itself, or in the 1981
    edition an Intrigue card used as one (§14.5.7)."""
    opts = [ID[f"play_{ctype}"]] if has_card(state, p, ctype) else []
    if (ctype in INTRIGUE_SUBSTITUTES and ruleset(state).intrigue_substitutes
            and has_card(state, p, "intrigue")):
        opts.append(ID[f"play_intrigue_as_{ctype}"])
    return opts


def illegal_cards(state: GameState) -> frozenset[str]:
    """Card types that are illegal when intrigued from a hand (§8.4.3, §14.2.7; errata D19)."""
    return ruleset(state).illegal_cards


def play_card(state: GameState, p: int, choice: int) -> tuple[str, str]:
    """Play the card named by a ``play_<type>`` or ``play_intrigue_as_<type>`` action: take it
    from p's hand and discard it (§14.2.3).  Returns the type it counts as and its log text."""

    nm = NAME[choice]
    if nm.startswith("play_intrigue_as_"):
        ctype = nm[len("play_intrigue_as_"):]
        discard(state, take_card(state, p, "intrigue"))
        return ctype, f"an 'Intrigue' card as '{CARD_TYPES[ctype].name}'"
    ctype = nm[len("play_"):]
    discard(state, take_card(state, p, ctype))
    shown = CARD_TYPES[ctype].name
    return ctype, f"{'an' if shown[0] in 'AEIOU' else 'a'} '{shown}' card"


def player_order(state: GameState) -> list[int]:
    """This turn's player order (§5), or seat order before the first turn."""
    return list(state.order) if state.order else list(range(state.n))


def draw_event(state: GameState, why: str = "an Event card drawn") -> str | None:
    """Top card of the Event pile; the discards are reshuffled when it is empty (§14.3)."""
    return chance.draw(state, "event", why)


def first(state: GameState) -> int:
    """The first player, who acts for all NCs and NRCs (§5)."""
    return state.first_player


def actor_for(state: GameState, cid: str) -> int:
    """Who rolls and decides for a character: its owner, else the first player (§5, A9)."""
    owner = state.chars[cid].owner
    return state.first_player if owner is None else owner


def pull_loyalty_counter(state: GameState, cid: str) -> int | None:
    """Take ``cid``'s Loyalty counter out of the container or out of the counters a player
    drew this turn (§11); returns that player, if it was one."""
    if cid in state.loyalty_pool:
        state.loyalty_pool.remove(cid)
        return None
    for pl in state.players:
        if cid in pl.loyalty_drawn:
            pl.loyalty_drawn.remove(cid)
            return pl.idx
    return None
