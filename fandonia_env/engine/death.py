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
* ``justice_prison_deaths`` {p} (a ``turn.START_HOOKS`` entry): the prison death
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
"""

from __future__ import annotations

from . import registry, turn
from .actions import ID, NAME
from .data.components import CARD_TYPE_OF, CARD_TYPES, FANDONIA, ROYAL_ALIGNMENT_CARD, ROYALS
from .machine import ask, log, op, seq
from .queries import ROYAL_SPOUSE_STATUS, dice_sum, discard, lose_ip, lose_pp, name, stuck_at_war, take_card
from .state import GameState

#: §31.5: cards a player whose PC dies must discard.
PC_DEATH_DISCARDS = 5


# ---------------------------------------------------------------------------
# Small shared steps
# ---------------------------------------------------------------------------


def vacate_step(state: GameState, cid: str) -> tuple[str, dict] | None:
    """The step that makes ``cid`` leave his office (§16.4, §24.4, §29.3, §30.4, §31.3),
    through the offices chapter's ``discharge``."""
    c = state.chars[cid]
    if c.office is None or c.office == "monarch":
        return None
    return ("discharge", {"cid": cid})


def _break_engagement(state: GameState, cid: str) -> None:
    """§18.4.6: an accepted proposal is negated when one of the two dies."""
    c = state.chars[cid]
    if c.engaged_to is not None:
        other = state.chars[c.engaged_to]
        if other.engaged_to == cid:
            other.engaged_to = None
        log(state, f"The engagement of {name(cid)} and {name(c.engaged_to)} is broken (§18.4.6).")
        c.engaged_to = None


def _widow(state: GameState, cid: str) -> None:
    """Unmarry the dead ``cid``'s spouse (§18.6, §31.7)."""
    c = state.chars[cid]
    sp = c.spouse
    if sp is None:
        return
    s = state.chars[sp]
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


def set_situation(c, location: str = FANDONIA, *, imprisoned: bool = False,
                  awaiting_execution: bool = False, banished: bool = False, wrongdoer: bool = False) -> None:
    """Put a character in one situation, clearing every other situation marker (a new
    sentence, §28.6, or a normal situation)."""
    c.location = location
    c.hiding = False
    c.banished = banished
    c.imprisoned = imprisoned
    c.awaiting_execution = awaiting_execution
    c.wrongdoer = wrongdoer
    c.situation_turns = 0
    c.escaped = False
    c.pending_justice = None
    c.suicide = False


def _clear_situation(c) -> None:
    set_situation(c)
    c.failed_problem = False


# ---------------------------------------------------------------------------
# §31 kill
# ---------------------------------------------------------------------------


@op("kill")
def kill(state: GameState, cid: str, cause: str = "") -> None:
    """§31: the death of ``cid`` (``cause`` for the log; ``"usurpation"`` matters)."""
    c = state.chars[cid]
    why = f" ({cause})" if cause else ""
    if cid in ROYALS:
        _kill_royal(state, cid, cause, why)
    elif c.dead:
        log(state, f"{name(cid)}'s card is face-down: he cannot die again (§31.5).")
    elif c.is_pc:
        _kill_pc(state, cid, why)
    else:
        _kill_noble(state, cid, why)


def _remove_alignment_card(state: GameState, rc: str) -> None:
    """§31.2, §14.5.19: the dead RC's Royal Alignment card leaves the game, wherever it is."""
    ctype = ROYAL_ALIGNMENT_CARD.get(rc)
    if ctype is None:
        return
    c = state.chars[rc]
    if c.alignment_card is not None:
        state.removed.append(c.alignment_card)
        c.alignment_card = None
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


def _kill_royal(state: GameState, cid: str, cause: str, why: str) -> None:
    c = state.chars[cid]
    if c.dead:
        return
    if cid == "thomas":
        if cause != "usurpation":
            log(state, "Thomas (the Pretender) can only die in a usurpation attempt (§31.2): no effect.")
            return
        c.owner = None
        log(state, "Thomas (the Pretender) dies in the usurpation but is not removed: he becomes a NRC again (§31.2).")
        return
    was_monarch = cid == state.monarch
    log(state, f"{name(cid)} dies{why}; the card is removed from the game (§31.2).")
    c.dead = True
    c.owner = None
    _remove_alignment_card(state, cid)
    _widow(state, cid)
    _break_engagement(state, cid)
    steps: list = []
    steps.append(("check_draw", {}))
    if was_monarch and cause != "usurpation":
        log(state, f"The Monarch, {name(cid)}, is dead and must be succeeded (§31.1).")
        steps.append(("succession", {}))
    seq(state, *steps)


def _kill_noble(state: GameState, cid: str, why: str) -> None:
    """§31.3, §31.4: the heir takes the card's place in a normal neutral situation."""
    c = state.chars[cid]
    owner = c.owner
    log(state, f"{name(cid)} dies{why}. His/her heir is now in the game (§31.3, §31.4).")
    vac = vacate_step(state, cid)
    _widow(state, cid)
    _break_engagement(state, cid)
    _clear_situation(c)
    c.titles = 0
    c.fixed_status = None
    c.banned = False
    c.consort = False
    steps: list = [vac]
    if owner is not None:
        steps.append(("release", {"cid": cid}))
    else:
        _release_local(state, cid)
    seq(state, *steps)


def _release_local(state: GameState, cid: str) -> None:
    """Return a character to the pile: cards discarded (§31.4, §17.4), Loyalty counter
    back in the container (§35.5.1).  For NCs (a FAC goes through ``release``), e.g. a
    former consort whose Loyalty counter still lies on the card (§18.10)."""
    c = state.chars[cid]
    for attr, what in (("henchman_card", "Henchman"), ("counselor_card", "Monarch's Counselor")):
        card = getattr(c, attr)
        if card is not None:
            discard(state, card)
            setattr(c, attr, None)
            log(state, f"{name(cid)}'s '{what}' card is discarded (§31.4).")
    if c.loyalty_counter and not c.is_pc:
        c.loyalty_counter = False
        state.loyalty_pool.append(cid)
    c.owner = None


def _kill_pc(state: GameState, cid: str, why: str) -> None:
    """§31.5 (A47): the PC's card is turned face-down until the second turn after."""
    c = state.chars[cid]
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
        state.chars[sp].spouse = None
        log(state, f"{name(sp)} stays in player {p}'s faction as a FAC and now counts towards the PP total (§31.5).")
    _break_engagement(state, cid)
    _clear_situation(c)
    c.titles = 0
    c.fixed_status = None
    c.banned = False
    c.dead = True
    pl.pc_dead_turn = state.turn
    seq(state, vac, ("justice_death_discard", {"p": p, "left": PC_DEATH_DISCARDS}),
        ("pp_check_all", {}))


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
    r = dice_sum(state)
    dies = r >= 11
    log(state, f"Prison death roll for {name(cid)} (player {roller} rolls): {r} - "
               f"{'11-12, the character dies in prison' if dies else 'survives'} (§30.10).")
    return dies


@op("justice_end_of_turn")
def justice_end_of_turn(state: GameState) -> None:
    # §31.5, A47: a PC who died in turn N is face-up again for turn N+2
    for pl in state.players:
        c = state.chars[pl.pc]
        if c.dead and pl.pc_dead_turn <= state.turn - 1:
            c.dead = False
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
            if _prison_death_roll(state, cid, state.first_player):
                deaths.append(("kill", {"cid": cid, "cause": "died in prison"}))
    seq(state, *deaths, ("justice_end_of_turn_tail", {}))


@op("justice_end_of_turn_tail")
def justice_end_of_turn_tail(state: GameState) -> None:
    steps: list = []
    for cid, c in state.chars.items():
        if c.dead:
            continue
        if c.banished or c.imprisoned:
            c.situation_turns += 1
        elif c.pending_justice is not None and not stuck_at_war(state, c):
            code = c.pending_justice
            c.pending_justice = None
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
    for cid, c in state.chars.items():
        if c.owner == p and c.imprisoned and not c.dead and c.situation_turns >= 1:
            if _prison_death_roll(state, cid, p):
                steps.append(("kill", {"cid": cid, "cause": "died in prison"}))
    seq(state, *steps)


registry.end_of_turn(20, "justice_end_of_turn")
if "justice_prison_deaths" not in turn.START_HOOKS:
    turn.START_HOOKS.append("justice_prison_deaths")
