"""Activities of §13.4 (titles, Monarch's Counselors, royal favor, henchmen, recruiting,
treachery, seduction, travel, drawing), §11 recruiting with Loyalty counters, §17
henchmen, §20 abroad, and the free actions §35.8 (buy PP), §14.2.1 (voluntary
discard), §14.5.20 (Extra Activity card) and §14.5.19 (Royal Alignment card).

Registered activities: ``acquire_title`` (§13.4.1), ``become_counselor`` (§13.4.3),
``court_favor`` (§13.4.4), ``create_henchman`` (§13.4.7), ``recruit`` (§13.4.13),
``recruit_treachery`` (§13.4.14), ``seduce`` (§13.4.15), ``travel`` (§13.4.18, §20),
``draw`` (§13.4.19).  Free actions: ``buy_pp``, ``discard``, ``play_extra_activity``,
``royal_alignment``.

Cross-chapter operation: ``release`` {cid} (see :func:`release_character`), which
returns a FAC/FARC to neutral; other chapters schedule it by name.

Readings chosen here (rules and rulings silent):

* Ruling R17 (PP and titles): a title may be bought for a FAC whatever his player's PP
  (§13.4.1 asks for IP only), as an office may be paid for (§6.1.1, §13.4.2); if the
  PP no longer cover the faction, the player gives up FACs/FARCs of his choice at once
  (``queries.pp_limit_watch``), before the next title is chosen.  The PC (and the PC's
  spouse) are exempt from the PP total (§35.6, A17).
* Reading (PP checks): "enough PPs to recruit" (§13.4.13-§13.4.15, §14.5.19) is
  checked on the Status the character will have inside the faction (a NRC's Status
  is no longer halved by a crisis once it is a FARC, §33.2.3).
* Reading (Status 8): a character with a fixed Status of 8 (§18.10, §31.7) is a Duke
  or Duchess and may take no further title.

Errata edition (issue 5, activities group): D52 (ES §17.2.4) a henchman courting a FARC no
longer keeps the FARC from becoming a NRC on the Royal Favor Table; D31 (ES §13.4.7) female
henchmen are allowed, as in the 1981 code (no sex restriction).  ES §13.4.20 bribery is in
``bribery.py``, the §38 optional activities in ``opt_activities.py``.
"""

from __future__ import annotations

from typing import Any

from ..core import registry
from ..core.actions import ID, NAME, NO, PASS, YES, action_char, char_action, suffix
from ..core.machine import ask, log, op, seq
from ..core.state import Character, GameState
from ..data.components import (
    ARCHBISHOP,
    CARD_TYPE_OF,
    CARD_TYPES,
    COUNTRIES,
    COUNTRY_NAMES,
    FANDONIA,
    MALE_TITLES,
    NEVER_ABROAD,
    NO_TITLE,
    NOBLES,
    OFFICES,
    ROYAL_ALIGNMENT_CARD,
    ROYALS,
    TITLE_NAMES,
)
from ..data.tables import ROYAL_FAVOR, lookup
from ..rules.queries import (
    abroad,
    can_spend,
    card_options,
    count_cards,
    discard,
    farcs,
    gain_ip,
    gain_pp,
    henchmen,
    name,
    owned_ids,
    pc,
    play_card,
    scan_memo,
    spend_ip,
    stuck_at_war,
    take_card,
)
from ..rules.rolls import modified_roll
from ..rules.rule_queries import pp_price
from ..rules.ruleset import ruleset
from ..rules.turn_steps import (
    blocked,
    break_engagement,
    can_hold,
    discard_options,
    discard_posts,
    do_draw,
    join_faction,
    seducer_out,
    use_intrigue_grant,
    waived,
)

# ---------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------


def _pc_or_facs(state: GameState, p: int) -> list[str]:
    """p's PC and FACs (not FARCs), alive (a list not to modify: once per open scan)."""
    memo = scan_memo(state)
    if memo is not None:
        out = memo.get(("pc_or_facs", p))
        if out is not None:
            return out
    chars = state.chars
    out = [cid for cid in owned_ids(state, p) if cid not in ROYALS and not chars[cid].dead]
    if memo is not None:
        memo[("pc_or_facs", p)] = out
    return out


def release_character(state: GameState, cid: str) -> None:
    """Return a FAC or FARC to neutral (NC/NRC): §35.5.1, §35.5.2, §11.3, §14.2.4-§14.2.5,
    §16.6, §17.4, §18.4.6.

    * the Loyalty counter goes back to the Loyalty counter container (§11.3, §35.5.1);
    * a Henchman card and a Monarch's Counselor card under it are discarded (§14.2.4,
      §17.4);
    * a FARC's Royal Alignment card is discarded (§14.2.5, §35.5.2) - removed from the
      game if the RC is dead (§31.2);
    * an Office Holder stays in office (§16.6, §35.5.1);
    * an accepted proposal is negated (§18.4.6).

    A PC can never be released; a usurping FARC Monarch stays a FARC for life
    (§36.6, ruling A59), so releasing him while he lives does nothing.  Marriage is
    left alone: a lost *married* FAC dies instead (§35.5.3), which is the caller's
    business.  It also serves a FAC/FARC who dies (§31.2, §31.4, §17.4): mark the
    character dead first and a Royal Alignment card is then removed from the game
    instead of discarded.  Other chapters schedule this as the operation ``release``
    {cid}.
    """
    c = state.chars[cid]
    if c.is_pc or c.owner is None:
        return
    if cid == state.monarch and not c.dead:
        log(state, f"{name(cid)} is a FARC Monarch for life and stays in the faction (§36.6, A59).")
        return
    c = state.wchar(cid)
    prev = c.owner
    if c.loyalty_counter and cid not in ROYALS and not c.consort:
        c.loyalty_counter = False
        state.loyalty_pool.append(cid)
    discard_posts(state, cid)
    if c.alignment_card is not None:
        card = c.alignment_card
        c.alignment_card = None
        if c.dead:
            state.removed.append(card)
        else:
            discard(state, card)
            log(state, f"{name(cid)}'s Royal Alignment card is discarded (§14.2.5).")
    break_engagement(state, cid)
    c.owner = None
    kind = "NRC" if cid in ROYALS else "NC"
    log(state, f"{name(cid)} leaves player {prev}'s faction and becomes a {kind}.")
    if c.hiding:  # ES §24.7 (D64): a NC may not hide (hiding.py)
        seq(state, *[(o, {"cid": cid}) for o in ruleset(state).nc_in_hiding_ops])


@op("release")
def op_release(state: GameState, cid: str) -> None:
    release_character(state, cid)


# ---------------------------------------------------------------------------
# Intrigue grant (§12.3.3, §14.5.7) and Treachery card (§13.4.14)
# ---------------------------------------------------------------------------


def _intrigue_ok(state: GameState, p: int, need_treachery: bool) -> bool:
    """May p perform an Intrigue-counter activity (and play a Treachery card)?

    The grant comes from an Intrigue counter or free intrigue (``pt["intrigue"]``) or
    from playing an 'Intrigue' card as if it were the counter (§14.5.7); a Treachery
    requirement is met by a 'Treachery' card or an 'Intrigue' card used as one
    (§14.5.7).  An 'Any Activity' counter waives both (§12.3.1, A42).
    """
    if waived(state):
        return True
    n_int = count_cards(state, p, "intrigue")
    if state.pt.get("intrigue", 0) > 0:
        spare = n_int
    elif n_int > 0:
        spare = n_int - 1
    else:
        return False
    if need_treachery:  # errata D45: an Intrigue card is never a Treachery card (crown group)
        return (spare > 0 and ruleset(state).intrigue_substitutes) or count_cards(state, p, "treachery") > 0
    return True


# ---------------------------------------------------------------------------
# §13.4.1 Acquire A Title
# ---------------------------------------------------------------------------


def _title_rank(state: GameState, cid: str) -> tuple[tuple[str, ...], int] | None:
    """(ladder, index of the present title) or None if the character has no ladder."""
    if cid not in NOBLES or cid in NO_TITLE:
        return None
    rs = ruleset(state)
    printed = rs.printed_title(cid, state.n)  # D2, D11: the title printed in the game's edition
    ladder = rs.female_titles if NOBLES[cid].female else MALE_TITLES  # D25: the edition's female ladder
    if printed not in ladder:
        return None
    c = state.chars[cid]
    idx = ladder.index(printed) + c.titles
    if c.fixed_status is not None:
        idx = len(ladder) - 1  # Reading: Status 8 = Duke/Duchess (§18.10, §31.7)
    return ladder, min(idx, len(ladder) - 1)


def title_cost(state: GameState, cid: str) -> int | None:
    """IP cost of cid's next title (Title Table, §13.4.1), or None if none is possible."""
    r = _title_rank(state, cid)
    if r is None:
        return None
    ladder, idx = r
    if idx >= len(ladder) - 1:
        return None
    return ruleset(state).title_cost[ladder[idx]]


def _title_candidates(state: GameState, p: int, first: bool = False) -> list[str]:
    """§13.4.1: PC or FAC below Duke/Duchess, not banished/hiding/imprisoned/stuck at war,
    not titled this turn, affordable in IP (the PP limit follows the rise, ruling R17).
    With ``first``, only the first (a legality check stops there)."""
    out: list[str] = []
    done = state.tstate.get("titled", [])
    for cid in _pc_or_facs(state, p):
        c = state.chars[cid]
        if c.banished or blocked(state, c) or cid in done:
            continue
        cost = title_cost(state, cid)
        if cost is None or not can_spend(state, p, cost):
            continue
        out.append(cid)
        if first:
            return out
    return out


def _legal_title(state: GameState, p: int) -> bool:
    return bool(_title_candidates(state, p, first=True))  # the first candidate will do


@op("act_title")
def act_title(state: GameState, p: int, first: bool = True) -> None:
    """§13.4.1: any number of characters, one title each, in one activity."""
    cands = _title_candidates(state, p)
    if not cands:
        return
    opts = [char_action(c) for c in cands] + ([] if first else [PASS])
    seq(state, ask(p, "title_character", opts, "act_title_pick", {"activity": "acquire_title"}, p=p))


@op("act_title_pick")
def act_title_pick(state: GameState, choice: int, p: int) -> None:
    if choice == PASS:
        return
    cid = action_char(choice)
    ladder, idx = _title_rank(state, cid)  # type: ignore[misc]
    cost = ruleset(state).title_cost[ladder[idx]]
    spend_ip(state, p, cost, f"a title for {name(cid)}")
    state.wchar(cid).titles += 1
    state.tstate.setdefault("titled", []).append(cid)
    log(state, f"{name(cid)} rises from {TITLE_NAMES[ladder[idx]]} to {TITLE_NAMES[ladder[idx + 1]]} "
               f"(Title Table: {cost} IP, Status +1).")
    seq(state, ("act_title", {"p": p, "first": False}))


# ---------------------------------------------------------------------------
# §13.4.3 / §14.5.3 Become A Monarch's Counselor
# ---------------------------------------------------------------------------


def _counselor_candidates(state: GameState, p: int) -> list[str]:
    """The ruleset's ``counselor_candidates_hook``: 1981 or the errata (D27, D29)."""
    return registry.HOOKS[ruleset(state).counselor_candidates_hook](state, p)


@registry.hook("counselor_candidates_es")
def counselor_candidates_es(state: GameState, p: int) -> list[str]:
    """ES §13.4.3, §14.5.6: PC or FAC, not an Office Holder, not already a Monarch's Counselor;
    a henchman may be one (D29), not a character imprisoned, banished or in hiding (D27)."""
    return [cid for cid in _pc_or_facs(state, p) if state.chars[cid].office is None
            and state.chars[cid].counselor_card is None and not _away_from_court(state.chars[cid])]


@registry.hook("counselor_candidates_1981")
def counselor_candidates_1981(state: GameState, p: int) -> list[str]:
    """§13.4.3, §14.5.3: PC or FAC, not an Office Holder, not a henchman (incl. the PC's spouse,
    §17.3), not already a Monarch's Counselor."""
    hm = henchmen(state, p)
    return [cid for cid in _pc_or_facs(state, p)
            if state.chars[cid].office is None and state.chars[cid].counselor_card is None
            and state.chars[cid].henchman_card is None and cid not in hm]


def _away_from_court(c: Character) -> bool:
    return c.imprisoned or c.banished or c.hiding


def _legal_counselor(state: GameState, p: int) -> bool:
    return count_cards(state, p, "monarchs_counselor") > 0 and bool(_counselor_candidates(state, p))


@op("act_counselor")
def act_counselor(state: GameState, p: int) -> None:
    opts = [char_action(c) for c in _counselor_candidates(state, p)]
    seq(state, ask(p, "counselor_character", opts, "act_counselor_pick", {"activity": "become_counselor"}, p=p))


@op("act_counselor_pick")
def act_counselor_pick(state: GameState, choice: int, p: int) -> None:
    cid = action_char(choice)
    card = take_card(state, p, "monarchs_counselor")
    state.wchar(cid).counselor_card = card
    log(state, f"player {p} plays a 'Monarch's Counselor' card: {name(cid)} becomes a Monarch's Counselor.")


# ---------------------------------------------------------------------------
# §13.4.4 Court The Favor Of A FARC; §17.2.4
# ---------------------------------------------------------------------------


def _farcs_alive(state: GameState, p: int) -> list[str]:
    """p's living FARCs, in ``state.chars`` order, less a FARC Monarch where he is out of romance."""
    chars = state.chars
    out = [cid for cid in farcs(state, p) if not chars[cid].dead]
    if state.monarch in out and ruleset(state).farc_monarch_out_of_romance:  # ES §36.10.5 (D83)
        out.remove(state.monarch)
    return out


def _courting_henchmen(state: GameState, p: int) -> list[str]:
    """Henchmen who may court (§17.2.4): free and not abroad (§17.6)."""
    out = []
    for h in henchmen(state, p):
        c = state.chars[h]
        if not (c.dead or c.banished or c.imprisoned or c.hiding or abroad(c)):
            out.append(h)
    return out


def _legal_favor(state: GameState, p: int) -> bool:
    return bool(_farcs_alive(state, p))


@op("act_favor")
def act_favor(state: GameState, p: int) -> None:
    """§13.4.4: choose the FARC (if more than one), then whether a henchman courts."""
    opts = [char_action(c) for c in _farcs_alive(state, p)]
    seq(state, ask(p, "favor_farc", opts, "act_favor_farc", {"activity": "court_favor"}, p=p))


@op("act_favor_farc")
def act_favor_farc(state: GameState, choice: int, p: int) -> None:
    farc = action_char(choice)
    if _courting_henchmen(state, p):
        seq(state, ask(p, "favor_through_henchman", [YES, NO], "act_favor_hm",
                       {"activity": "court_favor", "farc": farc}, p=p, farc=farc))
    else:
        _favor_roll(state, p, farc, None)


@op("act_favor_hm")
def act_favor_hm(state: GameState, choice: int, p: int, farc: str) -> None:
    if choice == NO:
        _favor_roll(state, p, farc, None)
        return
    opts = [char_action(h) for h in _courting_henchmen(state, p)]
    seq(state, ask(p, "favor_henchman", opts, "act_favor_hm_pick",
                   {"activity": "court_favor", "farc": farc}, p=p, farc=farc))


@op("act_favor_hm_pick")
def act_favor_hm_pick(state: GameState, choice: int, p: int, farc: str) -> None:
    _favor_roll(state, p, farc, action_char(choice))


def _favor_roll(state: GameState, p: int, farc: str, hm: str | None) -> None:
    """Royal Favor Table: Treachery -2 (one card, any player); Favor counter +5.

    Reading: the Favor counter's +5 (§12.3.5 "may add") is always to the player's
    advantage on this table and is applied automatically.
    """
    who = name(hm) + " (henchman)" if hm else name(pc(state, p).cid)
    log(state, f"player {p} courts the favor of {name(farc)} through {who}.")
    base = 5 if state.pt.get("favor") else 0
    if base:
        log(state, f"player {p}'s Favor counter adds +5 to the Royal Favor Table roll (§12.3.5).")
    spec = {
        "label": "Royal Favor Table",
        "dice": "2d",
        "base": base,
        "cards": [{"card": "treachery", "who": "any", "effect": -2, "max_total": 1}],
        "clamp": [ROYAL_FAVOR["lo"], ROYAL_FAVOR["hi"]],
        "then": "act_favor_result",
        "then_args": {"p": p, "farc": farc, "henchman": hm is not None},
    }
    seq(state, modified_roll(spec))


@op("act_favor_result")
def act_favor_result(state: GameState, roll: dict[str, Any], p: int, farc: str, henchman: bool) -> None:
    row = lookup(ROYAL_FAVOR, roll["total"])
    log(state, f"Royal Favor Table {roll['total']}: {row['text']}")
    if state.chars[farc].owner != p or state.chars[farc].dead:
        return
    if row.get("ip"):
        gain_ip(state, p, row["ip"], "Royal Favor Table")
    if "farc_becomes_nrc" in row["special"]:
        if henchman and not ruleset(state).henchman_courted_farc_may_become_nrc:  # D52: in the errata edition the FARC may become a NRC
            log(state, f"A henchman courted: {name(farc)} does not become a NRC (§17.2.4).")
        elif farc == state.monarch:
            log(state, f"{name(farc)} is a FARC Monarch for life (§36.6, A59): no effect.")
        else:
            release_character(state, farc)


# ---------------------------------------------------------------------------
# §13.4.7 / §14.5.6 / §17 Create A Henchman
# ---------------------------------------------------------------------------


def _henchman_candidates(state: GameState, p: int) -> list[str]:
    """FACs (not PC, not RCs) who are neither henchmen (incl. the PC's spouse, §17.3)
    nor Monarch's Counselors."""
    hm = henchmen(state, p)
    mc_ok = ruleset(state).counselor_may_be_henchman  # D29 (ES §13.4.7, §14.5.6): a Monarch's Counselor may be a henchman (counsel group)
    return [cid for cid in _pc_or_facs(state, p)
            if not state.chars[cid].is_pc and state.chars[cid].henchman_card is None
            and (mc_ok or state.chars[cid].counselor_card is None) and cid not in hm]


def _legal_henchman(state: GameState, p: int) -> bool:
    return count_cards(state, p, "henchman") > 0 and bool(_henchman_candidates(state, p))


@op("act_henchman")
def act_henchman(state: GameState, p: int) -> None:
    opts = [char_action(c) for c in _henchman_candidates(state, p)]
    seq(state, ask(p, "henchman_character", opts, "act_henchman_pick", {"activity": "create_henchman"}, p=p))


@op("act_henchman_pick")
def act_henchman_pick(state: GameState, choice: int, p: int) -> None:
    cid = action_char(choice)
    card = take_card(state, p, "henchman")
    state.wchar(cid).henchman_card = card
    log(state, f"player {p} plays a 'Henchman' card: {name(cid)} becomes a henchman.")


# ---------------------------------------------------------------------------
# §13.4.13 / §11 Recruit Characters
# ---------------------------------------------------------------------------


def _recruit_candidates(state: GameState, p: int, first: bool = False) -> list[str]:
    """NCs whose Loyalty counter p drew, not imprisoned/hiding/stuck at war (§13.4.13),
    not a consort (§18.10), affordable in PP (§35.4).

    Reading: §13.4.13 puts no restriction on a NC abroad (§20.6.4 and A36 concern
    seduction and treachery only), nor on a banished NC; both may be recruited.
    With ``first``, only the first (a legality check stops there)."""
    out: list[str] = []
    for cid in state.players[p].loyalty_drawn:
        c = state.chars[cid]
        if c.owner is not None or c.is_pc or c.consort or blocked(state, c):
            continue
        if can_hold(state, p, owners=[cid]):
            out.append(cid)
            if first:
                return out
    return out


def _legal_recruit(state: GameState, p: int) -> bool:
    return (bool(state.players[p].loyalty_drawn)
            and bool(_recruit_candidates(state, p, first=True)))


@op("act_recruit")
def act_recruit(state: GameState, p: int, first: bool = True) -> None:
    """§13.4.13: one activity recruits both drawn counters if the PP allow."""
    cands = _recruit_candidates(state, p)
    if not cands:
        return
    opts = [char_action(c) for c in cands] + ([] if first else [PASS])
    seq(state, ask(p, "recruit_character", opts, "act_recruit_pick", {"activity": "recruit"}, p=p))


@op("act_recruit_pick")
def act_recruit_pick(state: GameState, choice: int, p: int) -> None:
    if choice == PASS:
        return
    cid = action_char(choice)
    join_faction(state, p, cid)
    log(state, f"player {p} recruits {name(cid)} with his Loyalty counter: a FAC (§13.4.13).")
    seq(state, ("act_recruit", {"p": p, "first": False}))


# ---------------------------------------------------------------------------
# §13.4.14 Recruit A Character By Treachery
# ---------------------------------------------------------------------------


def _present_abroad(state: GameState, p: int, country: str) -> bool:
    """A36: p's PC or a henchman is abroad in ``country`` (alive, not imprisoned)."""
    for cid in [pc(state, p).cid] + henchmen(state, p):
        c = state.chars[cid]
        if not c.dead and not c.imprisoned and c.location == country:
            return True
    return False


def _treachery_targets(state: GameState, p: int, first: bool = False) -> list[str]:
    """EACs/EARCs (§13.4.14): not PCs, not imprisoned/hiding/stuck at war, not married
    (§18.7), not King George or Thomas, not a FARC Monarch (§36.10.5), abroad only if
    p's PC or a henchman is in the same country (A36), affordable in PP.

    Romantic Intrigue 2 (§38): married characters may be recruited too, with their spouse
    (``romantic_intrigue.married_joining``).
    With ``first``, only the first (a legality check stops there)."""
    out: list[str] = []
    married = ruleset(state).married_recruitment_hook  # §38 RI 2
    for cid, c in state.chars.items():
        if c.owner is None or c.owner == p or c.is_pc:
            continue
        joining: list[str] | None = [cid]
        if c.spouse is not None:
            if married is None:
                continue
            joining = registry.HOOKS[married](state, p, cid)
            if joining is None:
                continue
        if cid in ("george", "thomas") or cid == state.monarch or c.consort or blocked(state, c):
            continue
        if abroad(c) and not _present_abroad(state, p, c.location):
            continue
        if can_hold(state, p, owners=joining):  # type: ignore[arg-type]
            out.append(cid)
            if first:
                return out
    return out


def _legal_treachery(state: GameState, p: int) -> bool:
    return (_intrigue_ok(state, p, need_treachery=True)
            and bool(_treachery_targets(state, p, first=True)))


@op("act_treachery")
def act_treachery(state: GameState, p: int) -> None:
    opts = [char_action(c) for c in _treachery_targets(state, p)]
    seq(state, ask(p, "treachery_target", opts, "act_treachery_target", {"activity": "recruit_treachery"}, p=p))


@op("act_treachery_target")
def act_treachery_target(state: GameState, choice: int, p: int) -> None:
    cid = action_char(choice)
    use_intrigue_grant(state, p)
    if waived(state):
        _treachery_done(state, p, cid)
        return
    seq(state, ask(p, "treachery_card", card_options(state, p, "treachery"), "act_treachery_card",
                   {"activity": "recruit_treachery", "target": cid}, p=p, cid=cid))


@op("act_treachery_card")
def act_treachery_card(state: GameState, choice: int, p: int, cid: str) -> None:
    _, shown = play_card(state, p, choice)  # §14.2.3, §14.5.7
    log(state, f"player {p} plays {shown}.")
    _treachery_done(state, p, cid)


def _treachery_done(state: GameState, p: int, cid: str) -> None:
    married = ruleset(state).married_treachery_hook
    if married is not None and registry.HOOKS[married](state, p, cid):  # §38 Romantic Intrigue 2
        return
    prev = state.chars[cid].owner
    join_faction(state, p, cid)
    kind = "FARC" if cid in ROYALS else "FAC"
    log(state, f"player {p} recruits {name(cid)} from player {prev} by treachery: now his {kind} (§13.4.14).")


# ---------------------------------------------------------------------------
# §13.4.15 Seduce A Character
# ---------------------------------------------------------------------------


def _seducers(state: GameState, p: int) -> list[str]:
    """The hook of the game's ruleset: ``seducers_1981`` or, with Romantic Intrigue,
    ``romantic_intrigue.seducers``."""
    return registry.HOOKS[ruleset(state).seducers_hook](state, p)


@registry.hook("seducers_1981")
def seducers_1981(state: GameState, p: int) -> list[str]:
    """§13.4.15: female PC/FAC (cards 56-66), unmarried; female RCs never seduce.  Who may not
    seduce now is the Ruleset's ``seducer_out_hook`` (``turn_steps.seducer_out``): the dead; in the
    errata edition also one imprisoned, in hiding or stuck at war (D35).  In the 1981 edition she
    may seduce from prison or hiding (the English text limits only the target); the target must
    still be in her country (``seduce_targets_1981``)."""
    out = []
    for cid in _pc_or_facs(state, p):
        c = state.chars[cid]
        n = NOBLES.get(cid)
        if n is None or not n.female or n.seduction is None or c.spouse is not None or seducer_out(state, c):
            continue
        out.append(cid)
    return out


def _seduce_targets(state: GameState, p: int, seducer: str, first: bool = False) -> list[str]:
    """The hook of the game's ruleset: ``seduce_targets_1981`` or, with Romantic Intrigue,
    ``romantic_intrigue.seduce_targets`` (the targets, or only the first with ``first``)."""
    return registry.HOOKS[ruleset(state).seduce_targets_hook](state, p, seducer, first)


@registry.hook("seduce_targets_1981")
def seduce_targets_1981(state: GameState, p: int, seducer: str, first: bool = False) -> list[str]:
    """Male EAC or NC (not PCs, RCs, the Archbishop, married males, consorts), not
    imprisoned/hiding/stuck at war, in the seducer's country, affordable in PP.

    Reading (A36): a male abroad may be seduced only by a female abroad in the same
    country; and, as for proposals (§18.4.2), a female abroad seduces only a male in
    her own country - the two must be in the same place (errata D61 says so).
    """
    loc = state.chars[seducer].location
    out: list[str] = []
    for cid, n in NOBLES.items():
        c = state.chars[cid]
        if n.female or c.owner == p or c.is_pc or cid == ARCHBISHOP or c.spouse is not None:
            continue
        if c.consort or blocked(state, c) or c.location != loc:
            continue
        if can_hold(state, p, owners=[cid]):
            out.append(cid)
            if first:
                return out
    return out


def _seduction_pairs(state: GameState, p: int) -> dict[str, list[str]]:
    out = {}
    for s in _seducers(state, p):
        t = _seduce_targets(state, p, s)
        if t:
            out[s] = t
    return out


def _legal_seduce(state: GameState, p: int) -> bool:
    if not _intrigue_ok(state, p, need_treachery=False):
        return False
    # a seducer with a first target will do (``_seduction_pairs`` lists them all)
    return any(_seduce_targets(state, p, s, first=True) for s in _seducers(state, p))


@op("act_seduce")
def act_seduce(state: GameState, p: int) -> None:
    opts = [char_action(s) for s in _seduction_pairs(state, p)]
    seq(state, ask(p, "seducer", opts, "act_seduce_seducer", {"activity": "seduce"}, p=p))


@op("act_seduce_seducer")
def act_seduce_seducer(state: GameState, choice: int, p: int) -> None:
    s = action_char(choice)
    opts = [char_action(t) for t in _seduce_targets(state, p, s)]
    seq(state, ask(p, "seduce_target", opts, "act_seduce_target", {"activity": "seduce", "seducer": s},
                   p=p, seducer=s))


@op("act_seduce_target")
def act_seduce_target(state: GameState, choice: int, p: int, seducer: str) -> None:
    """One die; less than the Seduction Rating wins (A5: modified die).  Any player may
    negate with a 'Treachery' or an 'Informer' card before the roll (one card)."""
    target = action_char(choice)
    # the ruleset's seduction: this 1981 one, or ES §13.4.15 (D36, D37), §38 Romantic Intrigue, D92
    registry.HOOKS[ruleset(state).seduction_hook](state, p, seducer, target)


@registry.hook("seduce_1981")
def seduce_1981(state: GameState, p: int, seducer: str, target: str) -> None:
    """§13.4.15 (1981): one die; less than the Seduction Rating wins."""
    use_intrigue_grant(state, p)
    rating = NOBLES[seducer].seduction
    log(state, f"player {p}'s {name(seducer)} (Seduction Rating {rating}) attempts to seduce {name(target)}.")
    spec = {
        "label": "Seduction",
        "dice": "1d",
        "cards": [
            {"card": "treachery", "who": "any", "effect": "negate", "max_total": 1},
            {"card": "informer", "who": "any", "effect": "negate", "max_total": 1},
        ],
        "then": "act_seduce_result",
        "then_args": {"p": p, "seducer": seducer, "target": target},
    }
    seq(state, modified_roll(spec))


@op("act_seduce_result")
def act_seduce_result(state: GameState, roll: dict[str, Any], p: int, seducer: str, target: str) -> None:
    if roll["negated"]:
        log(state, "The seduction is negated: no effect.")
        return
    rating = NOBLES[seducer].seduction
    if roll["total"] < rating:
        was = state.chars[target].owner
        join_faction(state, p, target)
        src = "a NC" if was is None else f"player {was}'s EAC"
        log(state, f"Seduction succeeds ({roll['total']} < {rating}): {name(target)}, {src}, "
                   f"becomes player {p}'s FAC (§13.4.15).")
    else:
        log(state, f"Seduction fails ({roll['total']} is not less than {rating}): no effect.")


# ---------------------------------------------------------------------------
# §13.4.18 / §20 Travel
# ---------------------------------------------------------------------------


def _is_ambassador_or_wife(state: GameState, c: Character) -> bool:
    """§20.4: Ambassadors (and their wives) may not travel."""
    if c.office is not None and OFFICES[c.office].country:
        return True
    if c.spouse is not None:
        sp = state.chars[c.spouse]
        return sp.office is not None and OFFICES[sp.office].country is not None
    return False


def _destinations(state: GameState, c: Character) -> list[str]:
    """§13.4.18, §20.1: from Fandonia to any country not at war; from a country not at
    war back to Fandonia or (Reading: "to any other country") on to another country
    not at war."""
    if stuck_at_war(state, c):
        return []
    out = [] if c.location == FANDONIA else [FANDONIA]
    out += [k for k in COUNTRIES if k != c.location and k not in state.wars]
    return out


def _travellers(state: GameState, p: int, first: bool = False) -> list[str]:
    """PC and FACs (§13.4.18): not banished/imprisoned/hiding (§20.1), not 45/46/51/52/55
    (§20.7), not Ambassadors or their wives (§20.4), not a Minister who failed a
    problem (§20.3), not travelled already this turn (§20.1), with somewhere to go.
    With ``first``, only the first (a legality check stops there)."""
    out: list[str] = []
    for cid in _pc_or_facs(state, p):
        c = state.chars[cid]
        if c.banished or c.imprisoned or c.hiding or cid in NEVER_ABROAD or c.failed_problem:
            continue
        if c.travel_turn == state.turn or _is_ambassador_or_wife(state, c):
            continue
        if _destinations(state, c):
            out.append(cid)
            if first:
                return out
    return out


def _legal_travel(state: GameState, p: int) -> bool:
    return bool(_travellers(state, p, first=True))


@op("act_travel")
def act_travel(state: GameState, p: int, first: bool = True) -> None:
    """Any number of characters travel in one activity."""
    cands = _travellers(state, p)
    if not cands:
        return
    opts = [char_action(c) for c in cands] + ([] if first else [PASS])
    seq(state, ask(p, "travel_character", opts, "act_travel_pick", {"activity": "travel"}, p=p))


@op("act_travel_pick")
def act_travel_pick(state: GameState, choice: int, p: int) -> None:
    if choice == PASS:
        return
    cid = action_char(choice)
    opts = [ID[f"country_{k}"] for k in _destinations(state, state.chars[cid])]
    seq(state, ask(p, "travel_destination", opts, "act_travel_dest", {"activity": "travel", "cid": cid},
                   p=p, cid=cid))


@op("act_travel_dest")
def act_travel_dest(state: GameState, choice: int, p: int, cid: str) -> None:
    dest = suffix(choice, "country_")
    c = state.wchar(cid)
    src = c.location
    c.location = dest
    c.travel_turn = state.turn
    if dest == FANDONIA:
        log(state, f"{name(cid)} returns to Fandonia from {COUNTRY_NAMES[src]}.")
    else:
        log(state, f"{name(cid)} travels from {COUNTRY_NAMES[src]} to {COUNTRY_NAMES[dest]}.")
    back = ruleset(state).fandonia_return_ops if dest == FANDONIA else ()  # ES §20.8 (D62): hiding.py
    seq(state, *[(o, {"cid": cid}) for o in back], ("act_travel", {"p": p, "first": False}))


# ---------------------------------------------------------------------------
# §13.4.19 Draw A Counter Or Card
# ---------------------------------------------------------------------------


def _draw_options(state: GameState) -> list[int]:
    opts = []
    if state.loyalty_pool:  # §13.4.19: not if none are left
        opts.append(ID["draw_loyalty"])
    if state.opportunity_pool:
        opts.append(ID["draw_opportunity"])
    if state.deck or state.discard:
        opts.append(ID["draw_event"])
    return opts


def _legal_draw(state: GameState, p: int) -> bool:
    return can_spend(state, p, 1) and bool(_draw_options(state))


@op("act_draw")
def act_draw(state: GameState, p: int) -> None:
    seq(state, ask(p, "draw_choice", _draw_options(state), "act_draw_pick", {"activity": "draw"}, p=p))


@op("act_draw_pick")
def act_draw_pick(state: GameState, choice: int, p: int) -> None:
    """Pay One IP and draw; a 'Gout' or 'Duel' counter ends the activities (turn.do_draw)."""
    spend_ip(state, p, 1, "drawing a counter or card (§13.4.19)")
    do_draw(state, p, NAME[choice][len("draw_"):])


# ---------------------------------------------------------------------------
# Free actions
# ---------------------------------------------------------------------------


def _legal_buy_pp(state: GameState, p: int) -> bool:
    return can_spend(state, p, pp_price(state))  # §35.8, D81


@op("free_buy_pp")
def free_buy_pp(state: GameState, p: int) -> None:
    """§35.8: One PP for Five IP, as often as affordable; not an activity."""
    spend_ip(state, p, pp_price(state), "One PP (§35.8)")  # D81
    gain_pp(state, p, 1, "bought with IP")


def _legal_discard(state: GameState, p: int) -> bool:
    return len(state.players[p].hand) > count_cards(state, p, "dwtk")  # a card that is not DWTK (§14.2.8)


@op("free_discard")
def free_discard(state: GameState, p: int) -> None:
    """§14.2.1: voluntarily discard any card in hand but DOWN WITH THE KING (§14.2.8).
    Played Henchman/Monarch's Counselor cards are under characters, not in hand."""
    seq(state, ask(p, "voluntary_discard", discard_options(state, p), "free_discard_pick", {}, p=p))


@op("free_discard_pick")
def free_discard_pick(state: GameState, choice: int, p: int) -> None:
    """§14.2.2: a discarded card is shown to all players."""
    ctype = suffix(choice, "discard_")
    discard(state, take_card(state, p, ctype))
    log(state, f"player {p} discards '{CARD_TYPES[ctype].name}' (shown to all, §14.2.2).")


def _legal_extra(state: GameState, p: int) -> bool:
    """§14.5.20.  Reading: useless, so not offered, while the player is restricted to one
    activity (§13.1, §24.3, §29.2, §30.3) or may perform no more (Gout, Duel)."""
    pt = state.pt
    if pt.get("restricted") or pt.get("no_more") or pt.get("imprisoned"):
        return False
    return count_cards(state, p, "extra_activity") > 0


@op("free_extra_activity")
def free_extra_activity(state: GameState, p: int) -> None:
    discard(state, take_card(state, p, "extra_activity"))  # §14.2.3
    state.pt["extra"] = state.pt.get("extra", 0) + 1
    log(state, f"player {p} plays an 'Extra Activity' card: one extra activity this turn (§14.5.20).")


def _alignable(state: GameState, p: int) -> list[str]:
    """§14.5.19: Royal Alignment cards in p's hand whose RC is a living NRC other than
    the Monarch (Catherine not while George is Monarch), affordable in PP."""
    out = []
    for card in state.players[p].hand:
        t = CARD_TYPE_OF[card]
        if not t.startswith("ra_"):
            continue
        r = t[3:]
        c = state.chars[r]
        if c.dead or c.owner is not None or r == state.monarch:
            continue
        if r == "catherine" and state.monarch == "george":
            continue
        if can_hold(state, p, owners=[r]):
            out.append(r)
    return out


def _legal_alignment(state: GameState, p: int) -> bool:
    return bool(_alignable(state, p))


@op("free_alignment")
def free_alignment(state: GameState, p: int) -> None:
    opts = [ID[f"play_{ROYAL_ALIGNMENT_CARD[r]}"] for r in _alignable(state, p)]
    seq(state, ask(p, "royal_alignment", opts, "free_alignment_pick", {}, p=p))


@op("free_alignment_pick")
def free_alignment_pick(state: GameState, choice: int, p: int) -> None:
    """The NRC becomes a FARC placed on its card (§14.5.19); not an activity.

    A spouse of the RC now enjoys Status 8 (§18.10), which can raise another player's PP
    requirement: the PP limit check follows at once (``queries.pp_limit_watch``, ruling R17)."""
    r = suffix(choice, "play_ra_")
    card = take_card(state, p, f"ra_{r}")
    c = state.wchar(r)
    c.alignment_card = card
    c.owner = p
    log(state, f"player {p} plays the Royal Alignment card of {name(r)}: {name(r)} becomes his FARC (§14.5.19).")


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------

registry.activity("acquire_title", _legal_title, "act_title")
registry.activity("become_counselor", _legal_counselor, "act_counselor")
registry.activity("court_favor", _legal_favor, "act_favor")
registry.activity("create_henchman", _legal_henchman, "act_henchman")
registry.activity("recruit", _legal_recruit, "act_recruit")
registry.activity("recruit_treachery", _legal_treachery, "act_treachery")
registry.activity("seduce", _legal_seduce, "act_seduce")
registry.activity("travel", _legal_travel, "act_travel")
registry.activity("draw", _legal_draw, "act_draw")

registry.free_action("buy_pp", _legal_buy_pp, "free_buy_pp")
registry.free_action("discard", _legal_discard, "free_discard")
registry.free_action("play_extra_activity", _legal_extra, "free_extra_activity")
registry.free_action("royal_alignment", _legal_alignment, "free_alignment")
