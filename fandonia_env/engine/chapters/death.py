"""§31 Execution & Death, and the end-of-turn justice bookkeeping.

Operations:

* ``kill`` {cid, cause}: the death of any character (§31).  RCs are removed from
  the game with their Royal Alignment card (§31.2); Thomas dies only in a
  usurpation and then returns as a NRC; a NC or FAC is replaced by his heir, who
  returns to the pile in a normal neutral situation (§31.3, §31.4); a PC's card
  is turned face-down and his player pays the price of §31.5.  The Monarch's
  death schedules ``succession`` (§31.1, §9) unless ``cause == "usurpation"``
  (§36.6, §36.9); ``succession`` ends a Player Turn at once (A10 iii).
* ``justice_end_of_turn`` (registered with ``registry.end_of_turn``): PCs dead
  since two turns are turned face-up (§31.5, A47); then, in ID order (A10 vi),
  executions of characters awaiting execution sentenced in an earlier turn
  (§28.6.4, §31.6), suicides (§29.9, §30.10) and NC prison deaths (§30.10); then
  the turn counters of banished and imprisoned characters go up, and proceedings
  frozen by a war that has ended resume (§7.10.1, A61).
* ``justice_prison_deaths`` {p} (a ``registry.TURN_START`` entry): the prison death
  rolls of player p's imprisoned PC and FACs at the start of his Player Turn
  (§30.10).

Bookkeeping kept on the character (``Character.situation_turns``):

* while banished or imprisoned: the number of game turns ended since the
  sentence (0 in the turn of the sentence).  So "executed at the end of the
  next turn" (§31.6) is "at an end of turn with situation_turns >= 1", "from the
  second turn imprisoned" (§30.10) is "situation_turns >= 1", and "three turns or
  more" (§29.9, §30.10) is "situation_turns >= 3" (the sentence turn counts).
* ``Character.escaped``: an escaped prisoner in hiding (§24.10, §30.6); he is
  imprisoned again when he returns to Fandonia or is extradited.  (An escaped
  prisoner awaiting execution keeps ``awaiting_execution`` instead, §31.6.)
* ``Character.pending_justice`` ("accuse", "accuse_dwtk", "hearing", "trial"): a
  proceeding suspended because the character is stuck in a country at war
  (§7.10.1, A61), resumed at the end of the turn in which that war has ended.

Readings:

* Reading: a PC dead in turn N is skipped in N and N+1 because his card is
  face-down (``turn.player_turn`` skips a dead PC), so ``Player.lost_turns`` is not
  used for §31.5 (it would cost a third turn); the card is turned face-up at the end
  of N+1 (A47).
* Reading: the PC/FAC prison death roll is made only when his player has a Player
  Turn (§30.10 "at the beginning of his Player Turn").
* Reading: the Status 8 of §31.7 is for a non-RC widow(er); a RC widow(er) keeps
  his own Status.  A non-RC King/Queen consort whose Monarch dies becomes a NC with
  Status 8 and the Loyalty counter goes back to the container (§18.10).
* Reading: heirs (§31.3-§31.5) start unmarried, untitled, in Fandonia and in a
  normal situation.

Errata edition and optional rules (issue 5)
-------------------------------------------

* D77 (ES §31.3, A32): in the errata edition a NC or FAC among 11-44 and 56-66 who
  dies is permanently removed from the game: no heir; ``Character.dead`` stays True
  for good (as for a dead RC), his office becomes vacant (``discharge``), a Henchman
  or Monarch's Counselor card under him is discarded, his engagement is broken and
  his spouse widowed (§31.7), and his Loyalty counter leaves the game too, wherever it
  was (on the card, in the container, or among the counters a player drew this turn:
  that player is told privately).  Removed characters are listed, in the order of
  their deaths, in ``state.misc["death_removed"]``; that list is where their Loyalty
  counters live for the invariants (``invariants.check``).  A32's consequences: the
  Office Holder pile can run dry and then an office stays vacant (the random fill of
  §6.1.2 only rerolls while some eligible character exists, A3); an empty Loyalty
  container gives One IP (§11.4); dice counts naming a removed character are rerolled
  (A3); a PC's spouse who dies is removed; PCs themselves still get heirs (ES §31.5).
* D78 (ES §31.4): only the functionaries 45-55 ("44 al 55" is a typo) still go back
  to the Non-Office Holder pile with their Loyalty counter returned and an heir in
  play: exactly the 1981 procedure.
* ``shorter_b`` (§38 Shorter Game b, 1981 only, D98): every character killed except a
  PC is permanently removed, by the same machinery as D77, functionaries included.
  RCs keep §31.2 (they are removed anyway).  Reading: Thomas keeps §31.2 too (he dies
  only in a usurpation and then returns as a NRC: the specific rule, and he stands for
  "many different characters").  Reading: "killed" covers every death of the ``kill``
  operation (executions, prison deaths, suicides, duels, plague...), since §31 treats
  all deaths alike.
* ``funerals`` (§38 Funerals; ES "FUNERALES"): after each death (of any character:
  RC, PC, FAC, NC, Thomas in a usurpation included; not the "no effect" calls of a
  face-down PC or of Thomas outside a usurpation) every player, in player order, is
  asked whether he attends (decision ``funeral_attend``, ``yes``/``no``; not an
  activity, no IP cost); then the attendees roll 2d on the Funeral Table in player
  order (T1.16; no card modifies it).  In the errata edition row 5 is "lose 1 PP"
  instead of One IP (D95); the other ES wording differences are class (d) (D96).
  Reading: the funeral is held once the deceased's office is vacated (and a dead
  FAC's heir is neutral again, 1981), before the other consequences still pending (a
  dead PC's discards, the PP check, §37 draw check, succession), so that a succession
  that ends the game turn (§9.4 mourning) cannot cancel it.
  Reading: the player attends with his PC, so a player whose PC is face-down (§31.5:
  "may not take part in any action of the game, for gains or losses"), imprisoned,
  banished, in hiding, stuck at war or abroad cannot attend (the same test as a
  wedding guest, §13.4.16).  A player may attend the funeral of his own FAC.
  Reading: row 2 ("Roll On Scandal Table") makes the attending player's PC the object
  of the scandal (``scandal`` with no exposer): the Funeral Table does not list a
  henchman, so §17.2.5/§17.5 leave it to the PC.  PP lost at a funeral is checked
  against the PP limit at once, as every PP loss is (``queries.lose_pp``, §35.5, ruling R15).
"""

from __future__ import annotations

from typing import Final

from ..core import chance, registry
from ..core.actions import ID, NAME, NO, YES
from ..core.machine import ask, log, op, seq
from ..core.state import Character, GameState
from ..data.components import CARD_TYPE_OF, CARD_TYPES, ROYAL_ALIGNMENT_CARD, ROYALS
from ..data.tables import lookup
from ..rules.court import vacate_step
from ..rules.queries import (
    ROYAL_SPOUSE_STATUS,
    abroad,
    discard,
    free,
    gain_ip,
    gain_pp,
    lose_ip,
    lose_pp,
    name,
    owned_ids,
    player_order,
    pull_loyalty_counter,
    stuck_at_war,
    take_card,
)
from ..rules.ruleset import ruleset
from ..rules.situation import set_situation

#: §31.5: cards a player whose PC dies must discard.
PC_DEATH_DISCARDS: Final = 5

#: ``state.misc`` key: the characters permanently removed (D77, shorter_b), in order.
REMOVED_KEY: Final = "death_removed"


# ---------------------------------------------------------------------------
# Small shared steps
# ---------------------------------------------------------------------------


def _break_engagement(state: GameState, cid: str) -> None:
    """§18.4.6: an accepted proposal is negated when one of the two dies."""
    c = state.chars[cid]
    if c.engaged_to is not None:
        c = state.wchar(cid)
        other = state.chars[c.engaged_to]  # type: ignore[index]
        if other.engaged_to == cid:
            state.wchar(c.engaged_to).engaged_to = None  # type: ignore[arg-type]
        log(state, f"The engagement of {name(cid)} and {name(c.engaged_to)} is broken (§18.4.6).")  # type: ignore[arg-type]
        c.engaged_to = None


def _widow(state: GameState, cid: str) -> None:
    """Unmarry the dead ``cid``'s spouse (§18.6, §31.7)."""
    c = state.chars[cid]
    sp = c.spouse
    if sp is None:
        return
    c = state.wchar(cid)
    s = state.wchar(sp)
    c.spouse = None
    s.spouse = None
    if cid in ROYALS and sp not in ROYALS:
        # §31.7, §18.10: the widow(er) of a RC is a Duke/Duchess with Status 8
        s.fixed_status = ROYAL_SPOUSE_STATUS
        log(state, f"{name(sp)}, widow(er) of a RC, becomes a Duke/Duchess with Status 8 (§31.7).")
        if s.consort:
            # §18.10: the King/Queen becomes a NC; the Loyalty counter goes back
            s.consort = False
            s.owner = None
            if s.loyalty_counter and not s.is_pc:
                s.loyalty_counter = False
                state.loyalty_pool.append(sp)
            log(state, f"{name(sp)} is no longer King/Queen and becomes a NC (§18.10).")
    else:
        log(state, f"{name(sp)} is widowed and may remarry (§31.7).")


def _clear_situation(c: Character) -> None:
    """What any death clears on the card (§31.3-§31.5): situation, failed problem, titles, fixed Status, ban."""
    set_situation(c)
    c.failed_problem = False
    c.titles = 0
    c.fixed_status = None
    c.banned = False


# ---------------------------------------------------------------------------
# §31 kill
# ---------------------------------------------------------------------------


@op("kill")
def kill(state: GameState, cid: str, cause: str = "") -> None:
    """§31: the death of ``cid`` (``cause`` for the log; ``"usurpation"`` matters)."""
    c = state.chars[cid]
    why = f" ({cause})" if cause else ""
    # §38 Funerals: held once the office is vacated, before the other consequences
    fun = ("death_funeral", {"cid": cid, "i": 0, "attending": []}) if ruleset(state).funerals else None
    if cid in ROYALS:
        _kill_royal(state, cid, cause, why, fun)
    elif c.dead:
        if c.is_pc:
            log(state, f"{name(cid)}'s card is face-down: he cannot die again (§31.5).")
        else:
            log(state, f"{name(cid)} has been removed from the game: no effect.")
    elif c.is_pc:
        _kill_pc(state, cid, why, fun)
    elif removed_for_good(state, cid):
        _remove_noble(state, cid, why, fun)
    else:
        _kill_noble(state, cid, why, fun)


def removed_for_good(state: GameState, cid: str) -> bool:
    """Does the death of the non-royal, non-PC ``cid`` remove him from the game?
    Errata ES §31.3 (D77): 11-44 and 56-66; ``shorter_b`` (1981, D98): everyone."""
    rs = ruleset(state)
    return rs.death_without_heir is not None and cid not in rs.heirs_kept


def removed_characters(state: GameState) -> list[str]:
    """The characters permanently removed from the game (D77, shorter_b)."""
    return list(state.misc.get(REMOVED_KEY, ()))


def _remove_alignment_card(state: GameState, rc: str) -> None:
    """§31.2, §14.5.19: the dead RC's Royal Alignment card leaves the game, wherever it is."""
    ctype = ROYAL_ALIGNMENT_CARD.get(rc)
    if ctype is None:
        return
    c = state.chars[rc]
    if c.alignment_card is not None:
        state.removed.append(c.alignment_card)
        state.wchar(rc).alignment_card = None
        log(state, f"{name(rc)}'s Royal Alignment card is removed from the game (§31.2).")
        return
    for src in (state.deck, state.discard):
        for card in src:
            if CARD_TYPE_OF[card] == ctype:
                src.remove(card)
                state.removed.append(card)
                log(state, f"{name(rc)}'s Royal Alignment card is removed from the game (§31.2).")
                return
    for pl in state.players:
        for card in pl.hand:
            if CARD_TYPE_OF[card] == ctype:
                pl.hand.remove(card)
                state.removed.append(card)
                log(state, f"{name(rc)}'s Royal Alignment card is removed from the game (§31.2).")
                log(state, f"Your '{CARD_TYPES[ctype].name}' card is removed from the game.", to=pl.idx)
                return


def _kill_royal(state: GameState, cid: str, cause: str, why: str, fun: tuple | None = None) -> None:
    c = state.wchar(cid)
    if c.dead:
        return
    if cid == "thomas":
        if cause != "usurpation":
            log(state, "Thomas (the Pretender) can only die in a usurpation attempt (§31.2): no effect.")
            return
        c.owner = None
        log(state, "Thomas (the Pretender) dies in the usurpation but is not removed: he becomes a NRC again (§31.2).")
        seq(state, fun)
        return
    was_monarch = cid == state.monarch
    log(state, f"{name(cid)} dies{why}; the card is removed from the game (§31.2).")
    c.dead = True
    c.owner = None
    _remove_alignment_card(state, cid)
    _widow(state, cid)
    _break_engagement(state, cid)
    steps: list = [fun]
    steps.append(("check_draw", {}))
    if was_monarch and cause != "usurpation":
        log(state, f"The Monarch, {name(cid)}, is dead and must be succeeded (§31.1).")
        steps.append(("succession", {}))
    seq(state, *steps)


def _clear_card(state: GameState, cid: str) -> tuple[str, dict] | None:
    """What a noble's death clears on his card (§31.3, §31.4; ES §31.3): spouse, engagement,
    situation, titles, fixed Status, ban, consort; returns the step vacating his office."""
    c = state.wchar(cid)
    vac = vacate_step(state, cid)
    _widow(state, cid)
    _break_engagement(state, cid)
    _clear_situation(c)
    c.consort = False
    return vac


def _kill_noble(state: GameState, cid: str, why: str, fun: tuple | None = None) -> None:
    """§31.3, §31.4: the heir takes the card's place in a normal neutral situation."""
    c = state.chars[cid]
    owner = c.owner
    log(state, f"{name(cid)} dies{why}. His/her heir is now in the game (§31.3, §31.4).")
    vac = _clear_card(state, cid)
    steps: list = [vac]
    if owner is not None:
        steps.append(("release", {"cid": cid}))
    else:
        _release_local(state, cid)
    steps.append(fun)
    seq(state, *steps)


def _remove_noble(state: GameState, cid: str, why: str, fun: tuple | None = None) -> None:
    """ES §31.3 (D77, A32) / §38 Shorter Game b: the character leaves the game for good,
    with his Loyalty counter; office vacant, Henchman/Monarch's Counselor card discarded."""
    c = state.wchar(cid)
    rule = ruleset(state).death_without_heir
    log(state, f"{name(cid)} dies{why} and is permanently removed from the game with his/her "
               f"Loyalty counter: there is no heir ({rule}).")
    vac = _clear_card(state, cid)
    _discard_cards(state, cid, rule)
    _remove_loyalty_counter(state, cid)
    c.owner = None
    c.dead = True
    seq(state, vac, fun)


def _remove_loyalty_counter(state: GameState, cid: str) -> None:
    """Take ``cid``'s Loyalty counter out of the game, wherever it is (D77); the list
    ``state.misc[REMOVED_KEY]`` is its place from now on (invariants)."""
    c = state.chars[cid]
    if c.loyalty_counter:
        state.wchar(cid).loyalty_counter = False
    else:
        drawer = pull_loyalty_counter(state, cid)
        if drawer is not None:
            log(state, f"The Loyalty counter {cid} you drew ({name(cid)}) is removed from the game.", to=drawer)
    state.misc.setdefault(REMOVED_KEY, []).append(cid)


def _discard_cards(state: GameState, cid: str, rule: str | None) -> None:
    """A dead character's Henchman and Monarch's Counselor cards are discarded."""
    c = state.wchar(cid)
    for attr, what in (("henchman_card", "Henchman"), ("counselor_card", "Monarch's Counselor")):
        card = getattr(c, attr)
        if card is not None:
            discard(state, card)
            setattr(c, attr, None)
            log(state, f"{name(cid)}'s '{what}' card is discarded ({rule}).")


def _release_local(state: GameState, cid: str) -> None:
    """Return a character to the pile: cards discarded (§31.4, §17.4), Loyalty counter
    back in the container (§35.5.1).  For NCs (a FAC goes through ``release``), e.g. a
    former consort whose Loyalty counter still lies on the card (§18.10)."""
    c = state.wchar(cid)
    _discard_cards(state, cid, "§31.4")
    if c.loyalty_counter and not c.is_pc:
        c.loyalty_counter = False
        state.loyalty_pool.append(cid)
    c.owner = None


def _kill_pc(state: GameState, cid: str, why: str, fun: tuple | None = None) -> None:
    """§31.5 (A47): the PC's card is turned face-down until the second turn after."""
    c = state.wchar(cid)
    p = c.owner
    assert p is not None
    pl = state.players[p]
    log(state, f"Player {p}'s PC {name(cid)} dies{why}: the card is turned face-down (§31.5).")
    lose_pp(state, p, pl.pp // 2, "PC's death, half rounded down")
    lose_ip(state, p, pl.ip // 2, "PC's death, half rounded down")
    pl.prestige_mods = {}
    pl.ball_mod = 0
    vac = vacate_step(state, cid)
    if c.counselor_card is not None:
        discard(state, c.counselor_card)
        c.counselor_card = None
        log(state, f"{name(cid)} loses the Monarch's Counselor position (§31.5).")
    sp = c.spouse
    if sp is not None:
        c.spouse = None
        state.wchar(sp).spouse = None
        log(state, f"{name(sp)} stays in player {p}'s faction as a FAC and now counts towards the PP total (§31.5).")
    _break_engagement(state, cid)
    _clear_situation(c)
    c.dead = True
    pl.pc_dead_turn = state.turn
    # the half PP lost has scheduled the PP limit check (R15); when he lost nothing but the former
    # spouse now counts (§31.5), the check follows that rise at once (R17, queries.pp_limit_watch)
    seq(state, vac, fun, ("justice_death_discard", {"p": p, "left": PC_DEATH_DISCARDS}))


@op("justice_death_discard")
def justice_death_discard(state: GameState, p: int, left: int) -> None:
    """§31.5: discard five Event cards, never the DOWN WITH THE KING card (§14.2.8, A39)."""
    hand = state.players[p].hand
    others = [c for c in hand if CARD_TYPE_OF[c] != "dwtk"]
    if left <= 0 or not others:
        return
    if len(others) <= left:
        for card in others:
            hand.remove(card)
            discard(state, card)
        log(state, f"Player {p} discards {len(others)} Event card(s) (§31.5).")
        log(state, "You discard " + ", ".join(f"'{CARD_TYPES[CARD_TYPE_OF[x]].name}'" for x in others) + ".", to=p)
        return
    opts = sorted({ID[f"discard_{CARD_TYPE_OF[x]}"] for x in others})
    seq(state, ask(p, "death_discard", opts, "justice_death_discard_choice", {"left": left}, p=p, left=left))


@op("justice_death_discard_choice")
def justice_death_discard_choice(state: GameState, choice: int, p: int, left: int) -> None:
    ctype = NAME[choice][len("discard_"):]
    discard(state, take_card(state, p, ctype))
    log(state, f"Player {p} discards an Event card (§31.5).")
    log(state, f"You discard '{CARD_TYPES[ctype].name}'.", to=p)
    seq(state, ("justice_death_discard", {"p": p, "left": left - 1}))


# ---------------------------------------------------------------------------
# End of all Player Turns (§29.9, §30.10, §31.5, §31.6; A10 vi)
# ---------------------------------------------------------------------------


def _prison_death_roll(state: GameState, cid: str, roller: int) -> bool:
    """§30.10: 2d, 11-12 dies."""
    r = chance.dice_sum(state, "prison death roll (§30.10)")
    dies = r >= 11
    log(state, f"Prison death roll for {name(cid)} (player {roller} rolls): {r} - "
               f"{'11-12, the character dies in prison' if dies else 'survives'} (§30.10).")
    return dies


@registry.hook("prison_death_1981")
def _prison_death_1981(state: GameState, cid: str, roller: int) -> tuple[str, dict] | None:
    """§30.10: the roll is made at once; the death step, or None."""
    if _prison_death_roll(state, cid, roller):
        return ("kill", {"cid": cid, "cause": "died in prison"})
    return None


@registry.hook("prison_death_d76")
def _prison_death_d76(state: GameState, cid: str, roller: int) -> tuple[str, dict] | None:
    """ES §30.10 (D76): the players may first pay One IP for -2 (``trials.justice_es_prison_death``)."""
    return ("justice_es_prison_death", {"cid": cid, "roller": roller})


@op("justice_end_of_turn")
def justice_end_of_turn(state: GameState) -> None:
    # §31.5, A47: a PC who died in turn N is face-up again for turn N+2
    for pl in state.players:
        c = state.chars[pl.pc]
        if c.dead and pl.pc_dead_turn <= state.turn - 1:
            state.wchar(pl.pc).dead = False
            log(state, f"Player {pl.idx}'s PC card is turned face-up again: the heir of {name(pl.pc)} "
                       "is in the game (§31.5).")
    deaths: list = []
    for cid, c in state.chars.items():  # ID order (A10 vi)
        if c.dead:
            continue
        if c.imprisoned and c.awaiting_execution and c.situation_turns >= 1:
            log(state, f"{name(cid)} is executed (awaiting execution since last turn, §31.6).")
            deaths.append(("kill", {"cid": cid, "cause": "execution"}))
        elif c.suicide and (c.banished or c.imprisoned):
            log(state, f"{name(cid)} commits suicide (§29.9, §30.10).")
            deaths.append(("kill", {"cid": cid, "cause": "suicide"}))
        elif c.imprisoned and c.owner is None and c.situation_turns >= 1:
            death = registry.HOOKS[ruleset(state).prison_death_hook](state, cid, state.first_player)  # §30.10, D76
            if death is not None:
                deaths.append(death)
    seq(state, *deaths, ("justice_end_of_turn_tail", {}))


@op("justice_end_of_turn_tail")
def justice_end_of_turn_tail(state: GameState) -> None:
    steps: list = []
    for cid, c in state.chars.items():
        if c.dead:
            continue
        if c.banished or c.imprisoned:
            state.wchar(cid).situation_turns += 1
        elif c.pending_justice is not None and not stuck_at_war(state, c):
            code = c.pending_justice
            state.wchar(cid).pending_justice = None
            log(state, f"The war is over: the proceedings against {name(cid)} resume (§7.10.1, A61).")
            if code in ("accuse", "accuse_dwtk"):
                steps.append(("accuse", {"cid": cid, "dwtk": code == "accuse_dwtk", "why": "resumed"}))
            elif code == "hearing":
                steps.append(("hearing", {"cid": cid, "resumed": True}))
            else:
                steps.append(("to_trial", {"cid": cid, "resumed": True}))
    seq(state, *steps)


@op("justice_prison_deaths")
def justice_prison_deaths(state: GameState, p: int) -> None:
    """§30.10: the player rolls for his imprisoned PC and FACs at the start of his Player Turn."""
    steps = []
    for cid in owned_ids(state, p):  # p's characters, in ``state.chars`` order
        c = state.chars[cid]
        if c.imprisoned and not c.dead and c.situation_turns >= 1:
            death = registry.HOOKS[ruleset(state).prison_death_hook](state, cid, p)  # §30.10, D76
            if death is not None:
                steps.append(death)
    seq(state, *steps)


# ---------------------------------------------------------------------------
# §38 Funerals (optional rule ``funerals``; D95)
# ---------------------------------------------------------------------------


def _may_attend(state: GameState, q: int) -> bool:
    """Reading: the player attends with his PC, who must be face-up, free and in Fandonia."""
    c = state.chars[state.players[q].pc]
    return free(state, c) and not abroad(c)


@op("death_funeral")
def death_funeral(state: GameState, cid: str, i: int, attending: list[int]) -> None:
    """§38 Funerals: every player, in player order, may attend (not an activity, no IP)."""
    order = player_order(state)
    if i == 0:
        log(state, f"The funeral of {name(cid)} is held: every player may attend (§38 Funerals).")
    while i < len(order):
        q = order[i]
        if _may_attend(state, q):
            seq(state, ask(q, "funeral_attend", [YES, NO], "death_funeral_attend",
                           {"rule": "§38", "deceased": cid}, cid=cid, i=i, attending=attending))
            return
        i += 1
    if not attending:
        log(state, f"Nobody attends the funeral of {name(cid)}.")
    seq(state, *[("death_funeral_roll", {"p": q, "cid": cid}) for q in attending])


@op("death_funeral_attend")
def death_funeral_attend(state: GameState, choice: int, cid: str, i: int, attending: list[int]) -> None:
    q = player_order(state)[i]
    if choice == YES:
        attending = attending + [q]
        log(state, f"Player {q} attends the funeral of {name(cid)} (§38 Funerals).")
    else:
        log(state, f"Player {q} does not attend the funeral of {name(cid)}.")
    seq(state, ("death_funeral", {"cid": cid, "i": i + 1, "attending": attending}))


@op("death_funeral_roll")
def death_funeral_roll(state: GameState, p: int, cid: str) -> None:
    """The Funeral Table (T1.16): 2d, no modifiers; the errata edition's table has D95."""
    r = chance.dice_sum(state, "Funeral Table")
    row = lookup(ruleset(state).funeral_table, r)
    pp, ip, text = row["pp"], row["ip"], row["text"]
    log(state, f"Player {p} rolls {r} on the Funeral Table at the funeral of {name(cid)}: {text}")
    why = "Funeral Table"
    if pp > 0:
        gain_pp(state, p, pp, why)
    if ip > 0:
        gain_ip(state, p, ip, why)
    if pp < 0:
        lose_pp(state, p, -pp, why)
    if ip < 0:
        lose_ip(state, p, -ip, why)
    if "scandal" in row["special"]:
        seq(state, ("scandal", {"cid": state.players[p].pc, "why": "Funeral Table"}))
