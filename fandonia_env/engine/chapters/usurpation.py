"""§34 IPs, §35 PPs (the PP limit), §36 Usurpation, §37 Victory and the draw.

What lives here
---------------
* op ``pp_check_all`` (§35.4-§35.5, A17, rulings R15-R17): every player, in player order, whose PP
  total is below ``queries.pp_required`` loses FACs/FARCs of his choice until he is within his limit.
  Every PP loss schedules it at once (``queries.lose_pp``, ruling R15), whatever its source; so does
  every step of the game that leaves a player short with someone to give up, whatever raised the
  Status total (``queries.pp_limit_watch``, run by the machine after each step, ruling R17).
* free action ``usurp`` (§36.1-§36.9, §36.12-§36.13; rulings A9, A13-A16, A53, A59).
* free action ``farc_pardon`` (§36.10.4, ruling A51); §36.11 (lost Player Turn) in ``victory_check``.
* end-of-turn hook ``victory_check`` (priority 90; §37, ruling A48) and op ``check_draw``
  (§37, ruling A4, R11).

§34 itself (IP floors, Famine, crisis spending) is enforced by the shared primitives of
``queries.py`` (``gain_ip/lose_ip/ip_spendable/can_spend/spend_ip``); §35.1-§35.3 and §35.6 by
``gain_pp/lose_pp/pp_required``; §35.8 (buying PP) is the ``buy_pp`` free action of the
activities chapter.  §36.10.1-§36.10.3 and §36.10.5 belong to the chapters that
own intriguing, counseling, problems and treachery.

Readings (where the rules and rulings are silent)
-------------------------------------------------
* Reading (§35.5): the player picks one FAC/FARC at a time (``char_<id>``) among those that
  count toward his limit (not his PC, not his living PC's spouse, A17), and is asked again until he
  is within the limit; he may pick any of them, even one worth more than the shortfall.  A FARC
  Monarch is never offered (A59): in the 1981 edition his Status counts toward the limit all the same
  (ruling R16), so the player gives up others; if none is left he stays short.  A FAC who is married
  (to anyone alive) dies (§35.5.3, ``kill`` with cause ``"pp_limit"``); any other lost FAC or FARC is
  released to neutral (``release``).  Who may be given up is ``queries.pp_candidates``.
* Reading (§36.1, §36.13): a usurpation is a free action (not an activity) that a player may
  start at any point of his own Player Turn when his FARC is not already Monarch.  No explicit
  once-per-turn limit is needed: a failure kills his PC (his turn ends) and a success makes his
  FARC the Monarch (he cannot usurp his own Monarch).  Any number of players may usurp in the
  same game turn (§36.13).
* Reading (§36.2-§36.3, §36.12): the FARC used must be free (not banished, imprisoned, in hiding
  or stuck in a country at war): a character who does not count in a usurpation cannot take
  the throne.  A player with a FARC other than Jane may not use Thomas (§36.3), so if none of
  his FARCs (other than Jane) is free he cannot usurp.  A player whose only FARC is Jane, or who
  has none, uses Thomas; when Thomas is the (FARC) Monarch he uses "another pretender" (§36.8).
* Reading (§36.4, §36.8): the usurper establishes his whole rating first (chooses his Support
  cards, then the dice are rolled); then the Monarch's side is established.  With a FARC
  Monarch, the defending player sees the usurper's rating before choosing his Support cards.
  The Support-card values are rolled for every played card, including those already in front
  of the player from earlier usurpations (A16: committed cards are added to every later rating
  and rerolled each time).
* Reading (§36.4.2, §36.8.2): a PC (or any character) that is face-down/dead, banished,
  imprisoned, in hiding or stuck at war adds nothing (§36.12, A47).  "Married" means having a
  living spouse.
* Reading (§14.5.2, A53): the value of a Support card rises with a FAC condition when the
  player using it owns that character (in any situation); the Foreign Support cards rise when
  the named Ambassador is that player's PC or FAC; Famine is ``state.crown == "famine"``; the
  unrest conditions are the unresolved problems in ``state.problems``.  The war cap (Army 1dx4,
  §7.10.5) holds while Fandonia is at war with any country or a Foreign War problem is
  unresolved; the Pirates cap (Navy 1dx2, §7.11) while Pirates is unresolved; both override
  every boost (A53).
* Reading (§36.5, A9, A14): the first player rolls the Monarch's and Catherine's Usurpation
  Values, or the next non-usurping player in player order if the first player is the usurper;
  with a FARC Monarch the defending player rolls (§36.8).
* Reading (§36.6-§36.9): on success the new Monarch takes the office before the old one is
  killed (``kill``, cause ``"usurpation"``, so no succession, §9.4 last sentence).  When Thomas
  reigns and is usurped by "another pretender", the card stays on the throne and only changes
  hands (Thomas is never removed, §31.2).  On a failure with Thomas, Thomas simply stays an
  NRC (A15).  "Loses all his Support cards that have been played" (§36.7, §36.9) includes the
  cards already in front of him from earlier usurpations.
* Reading (§36.10.4, A51): the FARC Monarch's player, during his own Player Turn, for free and
  any number of times, picks one of his PC/FACs who is banished, imprisoned or a wrongdoer
  (hiding or not, an escaped prisoner included), or banned from Court Balls; that character is
  returned to a normal situation exactly as by a 'Pardon' card ("by pardoning them": the
  justice chapter's ``restore``, §13.4.5, §24.9, §29.8 - a banished character comes home to
  Fandonia unless he is stuck in a country at war, a pending suicide is called off) and any
  Court Ball ban is lifted.
* Reading (§37, A4): "the last RC who can succeed to the throne" means the RCs of the order of
  succession (§9.2) other than the reigning Monarch; when none of them is alive the game is a
  draw, whoever reigns (A4: a usurping Thomas on the throne after all nine are dead is a draw).
  ``victory_check`` also runs this test at the end of every turn as a safety net.
  Why: a reigning Monarch cannot "succeed to the throne" he holds, and §37 names the death of
  the last RC who *can succeed*, apart from "all RCs are dead"; A4's "(no RC left who can
  succeed)" describes the same state.  The alternative ("the last RC of the line, the reigning
  Monarch included") differs only while that last RC reigns: under an NRC Monarch nobody can
  win any more (every other alignable RC is dead, Jane may not usurp and Thomas' usurpation
  kills the last RC, which is a draw under both readings and A4), so the draw is only
  brought forward; under a usurping FARC Monarch it would let his reign run to a win.
* Reading (§36.11): a FARC Monarch who dies otherwise than by a usurpation (which replaces the
  reign record at once) is found dead by ``victory_check`` at the end of the turn of his death,
  and his player then loses his next Player Turn (``Player.lost_turns``).  A death of the FARC
  Monarch always ends the turn (mourning, §9.4), so that next Player Turn is in the next turn;
  if the player's PC is face-down then too, the two losses overlap.

Errata edition (ruling R1) and optional rules (§38), each behind its switch
---------------------------------------------------------------------------
* D80 (ES §33.4, A53): while the government is in crisis every Support card is worth its
  boosted (maximum) printed value; the war cap on Army and the Pirates cap on Navy still win.
* D84 (ES §36.10.6, A34): a FARC Monarch does not count against his player's PP total
  (``Ruleset.farc_monarch_outside_pp_total``, read by ``queries.pp_required``; in the 1981 edition
  he counts, ruling R16); when the FARC takes the throne by usurpation the player receives 10 PP
  and 10 IP, once.
* free action ``abdicate`` (switch ``abdication``, §38 Abdication): the player with a FARC
  Monarch abdicates; the FARC becomes a NRC (his Royal Alignment card is discarded) and the
  next-in-line succeeds; the player loses nothing.
  Reading: "at anytime" is read as a free action at any point of his own Player Turn (the
  engine has no out-of-turn windows); any number of times is moot (he then has no FARC
  Monarch).
  Reading: the next-in-line is the first living RC of the order of succession (§9.2),
  the abdicating RC included.  If it is another RC, that RC succeeds by the full §9
  procedure (``succession``: §9.4 applies "when a new RC succeeds": his Royal Alignment card
  removed, Support re-established, Office Holders discharged, mourning discards, the turn
  ends, next turn's Crown result Court Ball).  If it is the abdicating RC himself, no new RC
  succeeds: he simply stays on the throne as a NRC Monarch and his Royal Alignment card is
  removed from the game (§9.4: a Monarch can never be a FARC); nothing else happens.  The
  record of the usurper's reign (§37) ends at once; the player does not lose a Player Turn
  (§36.11 is about a death).
"""

from __future__ import annotations

from typing import Any, Final

from ..core import chance, registry
from ..core.actions import ID, NAME, PASS, action_char, char_action
from ..core.machine import ask, log, op, seq
from ..core.state import GameState
from ..data.components import CARD_TYPE_OF, CARD_TYPES, FANDONIA, ROYALS, SUCCESSION
from ..data.tables import SUPPORT_VALUES, monarch_support_value
from ..rules.queries import (
    discard,
    gain_ip,
    gain_pp,
    monarch_owner,
    name,
    player_order,
    pp_candidates,
    pp_required,
    pp_required_all,
    take_card,
)
from ..rules.rule_queries import (
    CATHERINE_BONUS,
    MARRIED_MONARCH_BONUS,
    faction_value,
    halve_uv,
    jane_halves,
    married,
    neutral_value,
    support_multiplier,
    thomas_uv,
    usurpers,
)
from ..rules.ruleset import ruleset
from ..rules.situation import d93_pardonable, is_wrongdoer, restore

# Support-card values and the static parts of both ratings are rule queries shared with the
# agents (``rule_queries``: they answer on a state or a player's view); this chapter rolls them.
VICTORY_TURNS: Final = 3  # §37, A48


# ---------------------------------------------------------------------------
# Rolls (§36.3)
# ---------------------------------------------------------------------------


def roll_royal_uv(state: GameState, cid: str, who: int) -> int:
    """Roll an RC's Usurpation Value (§36.3): dice x multiplier; Anne/Alfred 1d; Thomas 1/2d up."""
    r = ROYALS[cid]
    if cid == "thomas":
        d = chance.d6(state, "Thomas' Usurpation Value (§36.3)")
        v = thomas_uv(d)
        log(state, f"Player {who} rolls Thomas' Usurpation Value: half of {d}, rounded up = {v}.")
        return v
    if r.uv_dice == 0:
        raise AssertionError(f"{cid} has no Usurpation Value")
    dice = chance.roll(state, r.uv_dice, f"{cid}'s Usurpation Value (§36.3)")
    v = sum(dice) * r.uv_mult
    mult = f"x{r.uv_mult}" if r.uv_mult != 1 else ""
    shown = f"({'+'.join(map(str, dice))})" if len(dice) > 1 else str(dice[0])
    log(state, f"Player {who} rolls {r.name}'s Usurpation Value ({r.uv_dice}d{mult}): {shown}{mult} = {v}.")
    return v


def roll_support_cards(state: GameState, p: int) -> int:
    """Roll the Usurpation Values of all Support cards in front of player p (§36.4.4, A16)."""
    total = 0
    for card in sorted(state.players[p].in_front):
        ctype = CARD_TYPE_OF[card]
        if ctype not in SUPPORT_VALUES:
            continue
        mult, why = support_multiplier(state, p, ctype)
        d = chance.d6(state, "Support card's Usurpation Value (§36.4.4)")
        total += d * mult
        log(state, f"Player {p}'s '{CARD_TYPES[ctype].name}' card: 1dx{mult} ({why}): {d}x{mult} = {d * mult}.")
    return total


def _usurp_legal(state: GameState, p: int) -> bool:
    if state.over:
        return False
    return bool(usurpers(state, p))


def _support_options(state: GameState, p: int) -> list[int]:
    types = {CARD_TYPE_OF[c] for c in state.players[p].hand}
    return sorted(ID[f"play_{t}"] for t in types if t in SUPPORT_VALUES)


@op("usurp_start")
def usurp_start(state: GameState, p: int) -> None:
    """§36.1-§36.2: choose the FARC (or Thomas) for the attempt."""
    cands = usurpers(state, p)
    if not cands:
        return
    seq(state, ask(p, "usurp_farc", [char_action(c) for c in cands], "usurp_farc_chosen",
                   {"activity": "usurp"}, p=p))


@op("usurp_farc_chosen")
def usurp_farc_chosen(state: GameState, choice: int, p: int) -> None:
    cid = action_char(choice)
    mon = state.monarch
    other = " (another pretender, §36.8)" if cid == "thomas" and mon == "thomas" else ""
    log(state, f"Player {p} attempts to usurp the throne of {name(mon)} with {name(cid)}{other} (§36).")
    seq(state, ("usurp_cards", {"p": p, "cid": cid}))


@op("usurp_cards")
def usurp_cards(state: GameState, p: int, cid: str) -> None:
    """§36.4.4: the usurper plays any of his Support cards, one at a time, then passes."""
    opts = _support_options(state, p)
    if not opts:
        seq(state, ("usurp_rate", {"p": p, "cid": cid}))
        return
    seq(state, ask(p, "usurp_support", opts + [PASS], "usurp_card_chosen",
                   {"activity": "usurp", "usurper": cid, "side": "usurper"}, p=p, cid=cid))


@op("usurp_card_chosen")
def usurp_card_chosen(state: GameState, choice: int, p: int, cid: str) -> None:
    if choice == PASS:
        seq(state, ("usurp_rate", {"p": p, "cid": cid}))
        return
    _play_support(state, p, NAME[choice][len("play_"):])
    seq(state, ("usurp_cards", {"p": p, "cid": cid}))


def _play_support(state: GameState, p: int, ctype: str) -> None:
    card = take_card(state, p, ctype)
    state.players[p].in_front.append(card)  # played cards lie in front of him (§14.5.2)
    log(state, f"Player {p} plays a '{CARD_TYPES[ctype].name}' card for the usurpation.")


@op("usurp_rate")
def usurp_rate(state: GameState, p: int, cid: str) -> None:
    """§36.4: the usurper's Usurpation Rating."""
    uv = roll_royal_uv(state, cid, p)
    pc_val, others = faction_value(state, p, cid)
    cards = roll_support_cards(state, p)
    rating = uv + pc_val + others + cards
    log(state, f"Player {p}'s Usurpation Rating: {name(cid)}'s Usurpation Value {uv} + PC {pc_val} "
               f"+ FACs and other FARCs {others} + Support cards {cards} = {rating} (§36.4).")
    q = monarch_owner(state)
    if q is not None and q != p:
        seq(state, ("usurp_defend_cards", {"p": p, "cid": cid, "rating": rating, "q": q}))
        return
    _monarch_rating_nrc(state, p, cid, rating)


def _monarch_roller(state: GameState, p: int) -> int:
    """A9: the first player, or the next non-usurping player in player order."""
    order = player_order(state)
    if state.first_player in order:
        i = order.index(state.first_player)
        order = order[i:] + order[:i]
    for x in order:
        if x != p:
            return x
    return state.first_player


def _monarch_rating_nrc(state: GameState, p: int, cid: str, rating: int) -> None:
    """§36.5: the (NRC) Monarch's Usurpation Rating."""
    mon = state.monarch
    roller = _monarch_roller(state, p)
    uv = roll_royal_uv(state, mon, roller)
    if jane_halves(state, p):
        log(state, f"The usurper has Jane as a FARC: {name(mon)}'s Usurpation Value is halved to {halve_uv(uv)} (§36.5.1).")
        uv = halve_uv(uv)
    neutrals = neutral_value(state, cid)
    extra = 0
    if mon == "george":
        if not state.chars["catherine"].dead:
            extra = roll_royal_uv(state, "catherine", roller) + CATHERINE_BONUS
            log(state, f"Queen Catherine is alive: her Usurpation Value plus 10 adds {extra} (§36.5.3).")
    elif married(state, mon):
        extra = MARRIED_MONARCH_BONUS
        log(state, f"{name(mon)} is married: +10 (§36.5.3).")
    sv = monarch_support_value(state.support)
    m_rating = uv + neutrals + extra + sv
    log(state, f"The Monarch's Usurpation Rating: Usurpation Value {uv} + NCs and NRCs {neutrals} + {extra} "
               f"+ Monarch's Support {state.support} -> {sv:+d} = {m_rating} (§36.5).")
    _resolve(state, p, cid, rating, m_rating, None)


@op("usurp_defend_cards")
def usurp_defend_cards(state: GameState, p: int, cid: str, rating: int, q: int) -> None:
    """§36.8.4: the player with the FARC Monarch may play Support cards from his hand."""
    opts = _support_options(state, q)
    if not opts:
        seq(state, ("usurp_defend_rate", {"p": p, "cid": cid, "rating": rating, "q": q}))
        return
    seq(state, ask(q, "usurp_support", opts + [PASS], "usurp_defend_card_chosen",
                   {"activity": "usurp", "usurper": cid, "side": "monarch", "rating": rating},
                   p=p, cid=cid, rating=rating, q=q))


@op("usurp_defend_card_chosen")
def usurp_defend_card_chosen(state: GameState, choice: int, p: int, cid: str, rating: int, q: int) -> None:
    if choice == PASS:
        seq(state, ("usurp_defend_rate", {"p": p, "cid": cid, "rating": rating, "q": q}))
        return
    _play_support(state, q, NAME[choice][len("play_"):])
    seq(state, ("usurp_defend_cards", {"p": p, "cid": cid, "rating": rating, "q": q}))


@op("usurp_defend_rate")
def usurp_defend_rate(state: GameState, p: int, cid: str, rating: int, q: int) -> None:
    """§36.8: the FARC Monarch's Usurpation Rating, established by his player."""
    mon = state.monarch
    uv = roll_royal_uv(state, mon, q)
    if jane_halves(state, p):
        log(state, f"The usurper has Jane as a FARC: {name(mon)}'s Usurpation Value is halved to {halve_uv(uv)} (§36.8.1).")
        uv = halve_uv(uv)
    if married(state, mon):
        uv += MARRIED_MONARCH_BONUS
        log(state, f"{name(mon)} is married: +10 (§36.8.1).")
    pc_val, others = faction_value(state, q, mon)
    cards = roll_support_cards(state, q)
    sv = monarch_support_value(state.support)
    m_rating = uv + pc_val + others + cards + sv
    log(state, f"The FARC Monarch's Usurpation Rating (player {q}): Usurpation Value {uv} + PC {pc_val} "
               f"+ FACs and other FARCs {others} + Support cards {cards} + Monarch's Support "
               f"{state.support} -> {sv:+d} = {m_rating} (§36.8).")
    _resolve(state, p, cid, rating, m_rating, q)


def _discard_in_front(state: GameState, p: int) -> None:
    pl = state.players[p]
    if pl.in_front:
        log(state, f"Player {p} loses the Support cards he had played: "
                   + ", ".join(f"'{CARD_TYPES[CARD_TYPE_OF[c]].name}'" for c in sorted(pl.in_front)) + ".")
    state.discard.extend(pl.in_front)
    pl.in_front = []


def _resolve(state: GameState, p: int, cid: str, rating: int, m_rating: int, q: int | None) -> None:
    if rating > m_rating:
        _success(state, p, cid, rating, m_rating, q)
    else:
        _failure(state, p, cid, rating, m_rating)


def _success(state: GameState, p: int, cid: str, rating: int, m_rating: int, q: int | None) -> None:
    """§36.6, §36.9."""
    old = state.monarch
    log(state, f"The usurpation succeeds ({rating} > {m_rating}): {name(old)} is killed and {name(cid)} "
               f"takes the throne as player {p}'s FARC for life (§36.6).")
    steps: list[tuple[str, dict[str, Any]]] = []
    if old == cid:  # Thomas usurped by another pretender: the card only changes hands (§36.8, §31.2)
        log(state, "The reigning pretender is killed; another pretender (Thomas) takes his place.")
    else:
        state.wchar(old).office = None
        steps.append(("kill", {"cid": old, "cause": "usurpation"}))
    new = state.wchar(cid)
    new.owner = p
    new.office = "monarch"
    state.monarch = cid
    if q is not None:  # §36.9: the FARC Monarch's player loses his PC and his played cards
        _discard_in_front(state, q)
        qpc = state.players[q].pc
        if not state.chars[qpc].dead:
            steps.append(("kill", {"cid": qpc, "cause": "usurpation"}))
    state.support = chance.dice_sum(state, "Monarch's Support re-established (§32.4)") * 10
    log(state, f"The Monarch's Support is reestablished at {state.support} (§32.4); no Office Holders are "
               f"discharged and no cards discarded; the turn continues.")
    if "court_ball" not in state.forced_crown:  # one Court Ball, however many causes (A10 i)
        state.forced_crown.append("court_ball")
    log(state, "Next turn's Crown Events result will automatically be 'Court Ball' (§36.6).")
    state.reign = {"player": p, "cid": cid, "since": state.turn}
    bonus = ruleset(state).farc_monarch_bonus
    if bonus:  # D84, A34: once, when the FARC becomes Monarch
        gain_pp(state, p, bonus, "FARC Monarch bonus, ES §36.10.6")
        gain_ip(state, p, bonus, "FARC Monarch bonus, ES §36.10.6")
    seq(state, *steps)  # the PP limit check follows the Status he now counts (R16) at once (R17)


def _failure(state: GameState, p: int, cid: str, rating: int, m_rating: int) -> None:
    """§36.7, A15: the usurper's PC and the FARC used are killed, the played cards discarded."""
    log(state, f"The usurpation fails ({rating} is not higher than {m_rating}): player {p}'s PC "
               f"{'dies; Thomas remains an NRC' if cid == 'thomas' else 'and ' + name(cid) + ' are killed'} (§36.7).")
    _discard_in_front(state, p)
    steps: list[tuple[str, dict[str, Any]]] = []
    if cid != "thomas":
        steps.append(("kill", {"cid": cid, "cause": "usurpation"}))
    steps.append(("kill", {"cid": state.players[p].pc, "cause": "usurpation"}))
    seq(state, *steps)


# ---------------------------------------------------------------------------
# §36.10.4 FARC Monarch's pardon and lifting of bans (A51)
# ---------------------------------------------------------------------------


def _pardon_targets(state: GameState, p: int) -> list[str]:
    out = []
    for cid, c in state.chars.items():
        if (c.owner != p and not d93_pardonable(state, c)) or c.dead or cid in ROYALS:  # ES D93: clemency.py
            continue
        if is_wrongdoer(c) or c.banned:
            out.append(cid)
    return out


def _farc_pardon_legal(state: GameState, p: int) -> bool:
    if monarch_owner(state) != p:
        return False
    return bool(_pardon_targets(state, p))


@op("farc_pardon_start")
def farc_pardon_start(state: GameState, p: int) -> None:
    targets = _pardon_targets(state, p)
    if not targets:
        return
    seq(state, ask(p, "farc_pardon", [char_action(c) for c in targets], "farc_pardon_chosen",
                   {"activity": "farc_pardon"}, p=p))


@op("farc_pardon_chosen")
def farc_pardon_chosen(state: GameState, choice: int, p: int) -> None:
    cid = action_char(choice)
    c = state.wchar(cid)
    what = []
    if c.banished:
        what.append("banishment")
    if c.imprisoned:
        what.append("imprisonment")
    if is_wrongdoer(c) and not (c.banished or c.imprisoned):
        what.append("wrongdoing" + (" (in hiding)" if c.hiding else ""))
    if is_wrongdoer(c):
        restore(state, cid)  # the same return to a normal situation as a Pardon (§13.4.5)
    if c.banned and c.owner == p:  # D93 pardons of others lift no ban
        c.banned = False
        what.append("Court Ball ban")
    where = "" if c.location == FANDONIA else f"; {name(cid)} is abroad"
    log(state, f"Player {p}'s FARC Monarch pardons {name(cid)} ({', '.join(what)}): "
               f"back to a normal situation (§36.10.4){where}.")


# ---------------------------------------------------------------------------
# §35 PP limit and buying PP
# ---------------------------------------------------------------------------


@op("pp_check_all")
def pp_check_all(state: GameState) -> None:
    """§35.5: every player over his PP limit loses FACs/FARCs, in player order."""
    order = player_order(state)
    need = pp_required_all(state)
    steps = [("pp_check_player", {"p": p, "lost": []}) for p in order if state.players[p].pp < need[p]]
    if steps:
        seq(state, *steps)


@op("pp_check_player")
def pp_check_player(state: GameState, p: int, lost: list[str]) -> None:
    pl = state.players[p]
    need = pp_required(state, p)
    if pl.pp >= need:
        return
    cands = [c for c in pp_candidates(state, p) if c not in lost]
    if not cands:
        return
    log(state, f"Player {p} has {pl.pp} PP but his FACs and FARCs need {need}: he must lose characters (§35.5).")
    seq(state, ask(p, "pp_limit_lose", [char_action(c) for c in cands], "pp_lose_chosen",
                   {"pp": pl.pp, "required": need}, p=p, lost=lost))


@op("pp_lose_chosen")
def pp_lose_chosen(state: GameState, choice: int, p: int, lost: list[str]) -> None:
    cid = action_char(choice)
    if cid not in ROYALS and married(state, cid):
        log(state, f"Player {p} loses {name(cid)}, who is married: he dies (§35.5.3).")
        step = ("kill", {"cid": cid, "cause": "pp_limit"})
    else:
        kind = "FARC" if cid in ROYALS else "FAC"
        log(state, f"Player {p} loses his {kind} {name(cid)} (PP limit, §35.5.1-§35.5.2).")
        step = ("release", {"cid": cid})
    seq(state, step, ("pp_check_player", {"p": p, "lost": lost + [cid]}))


# ---------------------------------------------------------------------------
# §37 Victory and the draw
# ---------------------------------------------------------------------------


def reign_valid(state: GameState) -> bool:
    r = state.reign
    if not r:
        return False
    c = state.chars.get(r.get("cid", ""))
    return c is not None and r["cid"] == state.monarch and c.owner == r["player"] and not c.dead


def draw_reached(state: GameState) -> bool:
    """§37, A4: no RC left alive who can succeed to the throne."""
    return not any(not state.chars[r].dead for r in SUCCESSION if r != state.monarch)


def _declare_draw(state: GameState) -> None:
    state.over = True
    state.result = "draw"
    state.winner = None
    state.phase = "over"
    log(state, "No Royal Character who can succeed to the throne is left alive: the game ends in a draw (§37).")


@op("check_draw")
def check_draw(state: GameState) -> None:
    if not state.over and draw_reached(state):
        _declare_draw(state)


@op("victory_check")
def victory_check(state: GameState) -> None:
    """§37, A48: three full turns after the turn the FARC took the throne, its player wins."""
    if state.over:
        return
    if state.reign and not reign_valid(state):
        r = state.reign
        log(state, "The usurping FARC no longer reigns: the count toward victory is reset (§37).")
        if state.chars[r["cid"]].dead:
            state.players[r["player"]].lost_turns += 1
            log(state, f"Player {r['player']}'s FARC Monarch has died: he loses his next Player Turn (§36.11).")
        state.reign = {}
    if state.reign:
        r = state.reign
        full = state.turn - r["since"]
        if full >= VICTORY_TURNS:
            state.over = True
            state.result = "win"
            state.winner = r["player"]
            state.phase = "over"
            log(state, f"{name(r['cid'])} has reigned as player {r['player']}'s FARC for three full turns: "
                       f"player {r['player']} wins the game (§37).")
            return
        log(state, f"{name(r['cid'])} has reigned as player {r['player']}'s FARC for {full} full turn(s) (§37).")
    if draw_reached(state):
        _declare_draw(state)


# ---------------------------------------------------------------------------
# §38 Abdication (switch ``abdication``)
# ---------------------------------------------------------------------------


def _abdicate_legal(state: GameState, p: int) -> bool:
    if not ruleset(state).abdication or state.over:
        return False
    return monarch_owner(state) == p and state.active == p


@op("abdicate_start")
def abdicate_start(state: GameState, p: int) -> None:
    """§38 Abdication: the FARC Monarch becomes a NRC; the next-in-line succeeds."""
    mon = state.monarch
    c = state.chars[mon]
    if c.owner != p:
        return
    c = state.wchar(mon)
    log(state, f"Player {p}'s FARC Monarch {name(mon)} abdicates and becomes a NRC; player {p} loses "
               f"nothing (§38 Abdication).")
    c.owner = None
    state.reign = {}
    heir = next((rc for rc in SUCCESSION if not state.chars[rc].dead), None)
    if heir == mon:
        if c.alignment_card is not None:
            state.removed.append(c.alignment_card)
            c.alignment_card = None
            log(state, f"{name(mon)}'s Royal Alignment card is permanently removed from the game (§9.4).")
        log(state, f"{name(mon)} is the next-in-line and stays on the throne as a NRC Monarch (§38 Abdication).")
        return
    if c.alignment_card is not None:
        discard(state, c.alignment_card)  # a FARC becoming a NRC (§14.2.5)
        c.alignment_card = None
        log(state, f"{name(mon)}'s Royal Alignment card is discarded (§14.2.5).")
    seq(state, ("succession", {}))


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------

registry.free_action("usurp", _usurp_legal, "usurp_start")
registry.free_action("farc_pardon", _farc_pardon_legal, "farc_pardon_start")
registry.free_action("abdicate", _abdicate_legal, "abdicate_start")
