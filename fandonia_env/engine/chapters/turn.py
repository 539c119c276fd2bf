"""Setup (§3), the sequence of play (§4), first player (§5), Player Turns (§10),
Loyalty and Opportunity counters (§11, §12), the activity budget (§13.1) and the
end of the Player Turn (hand limit, §14.2.1).

The phases of a game turn are operations pushed in order by ``new_turn``:
``first_player`` → ``offices_phase`` (§6) → ``problems_phase`` (§7) →
``crown_phase`` (§8) → ``support_bonus`` (§32.2) → one ``player_turn`` per player
in player order → ``end_of_turn`` (the registered end-of-turn hooks, then the
next turn).  A frame ``end_of_turn`` always sits under the turn's other frames so
that ``machine.abort_turn`` (mourning, §9.4) can cut the turn short.

Errata edition and §38 switches handled here (see ``docs/rules-coverage.md``): the
errata PC deck (D10/A22, D11), the errata Opportunity counters (D6), Beginning PC Advantages,
Shorter Game a, c, d, e and Sweet Charity.

Reading: the PC Advantage rolls are made after the whole set-up, as decisions of the
machine; an office chosen there displaces the NC dealt to it, who stays a NC in Fandonia.
Reading: results 6 and 7 of the PC Advantage Table give +5 IP and +10 PP over the usual
start (also with Shorter Game a).
Reading: with Shorter Game e the four removed RCs count as dead (A4); their Royal
Alignment cards are removed from the game; King George is unmarried.
Reading: Sweet Charity is offered after the other start-of-turn steps.

Ruling R14 (R10): a forced set of discards is not a decision.  ``forced_discards`` finds it
(the hand limit §14.2.1 here, the mourning discards §9.4 in ``crown.py``): a player who must
give up ``n`` cards and holds no more than ``n`` that may be discarded, or only cards of one
type, discards them at once (``discard_forced``); a real choice is asked card by card.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

from ..core import chance, registry
from ..core.actions import ACTIVITIES as ACTIVITY_TEXTS
from ..core.actions import ID, NAME, NO, PASS, YES, act, describe
from ..core.machine import ask, log, op, seq
from ..core.records import DecisionContext, mark_restricted, was_restricted
from ..core.rng import RNG
from ..core.state import Character, GameState, Player
from ..data.components import (
    CARD_IDS,
    CARD_TYPE_OF,
    CARD_TYPES,
    LOYALTY_IDS,
    NOBLE_IDS,
    NOBLES,
    NON_MONARCH_OFFICES,
    OFFICE_ELIGIBLE,
    OFFICES,
    ROYAL_ALIGNMENT_CARD,
    ROYAL_IDS,
)
from ..data.tables import CHARITY, HAND_LIMIT, PC_ADVANTAGE, PRESTIGE_TABLE_KEYS, PRESTIGE_TABLES, lookup
from ..rules.queries import (
    can_spend,
    close_scan,
    discard,
    gain_ip,
    gain_pp,
    is_female,
    lose_pp,
    name,
    open_scan,
    pc,
    spend_ip,
    stuck_at_war,
    take_card,
)
from ..rules.ruleset import ruleset
from ..rules.turn_steps import (
    activities_left,
    discard_forced,
    discard_options,
    do_draw,
    forced_discards,
    place_ambassador,
    restricted,
)


def hand_limit(state: GameState) -> int:
    """§14.2.1: twelve cards, fifteen with Shorter Game c."""
    return ruleset(state).hand_limit


# ---------------------------------------------------------------------------
# §3 Prepare for play
# ---------------------------------------------------------------------------


def setup(config: dict[str, Any]) -> GameState:
    """Build the opening position (§3) and run to the first decision."""

    n = config["players"]
    rng = RNG(config["seed"])
    chars = {cid: Character(cid) for cid in NOBLE_IDS + ROYAL_IDS}
    state = GameState(config=config, players=[], chars=chars, rng=rng)
    rs = ruleset(state)
    # §3.1 PCs
    # D10/D11, ruling R3/A22: errata 3-6 players deal from 11-44 and 56-66
    pcdeck = list(rs.pc_deck(n))
    chance.shuffle(state, pcdeck, "the PCs dealt (§3.1)")
    for i in range(n):
        cid = pcdeck[i]
        state.players.append(Player(idx=i, pc=cid))
        c = state.wchar(cid)
        c.owner = i
        c.is_pc = True
        c.loyalty_counter = True  # §3.11
    # §3.3 beginning Office Holders from 11-44 minus the PCs
    holders = [c for c in OFFICE_ELIGIBLE if chars[c].owner is None]
    chance.shuffle(state, holders, "the beginning Office Holders (§3.3)")
    for office, cid in zip(NON_MONARCH_OFFICES, holders):
        state.wchar(cid).office = office
        place_ambassador(state, cid)
    # §3.5 King George on the Monarch office, Queen Catherine beside him
    state.wchar("george").office = "monarch"
    state.wchar("george").spouse = "catherine"
    state.wchar("catherine").spouse = "george"
    state.monarch = "george"
    _shorter_e(state)  # §38 Shorter Game e (no RC is removed without it)
    # §3.8 IP and PP
    sg = rs.start_ip_pp  # §3.8, §38 Shorter Game a
    for pl in state.players:
        pl.ip, pl.pp = sg
    # §3.9 Event cards: one DWTK each, the rest removed; shuffle and deal nine
    dwtk = [c for c in CARD_IDS if CARD_TYPE_OF[c] == "dwtk"]
    for i, pl in enumerate(state.players):
        pl.hand.append(dwtk[i])
    state.removed.extend(dwtk[n:])
    deck = [c for c in CARD_IDS if CARD_TYPE_OF[c] != "dwtk"]
    gone = {ROYAL_ALIGNMENT_CARD[r] for r in rs.rcs_removed_at_start}  # their Royal Alignment cards leave (§31.2)
    state.removed.extend(c for c in deck if CARD_TYPE_OF[c] in gone)
    deck = [c for c in deck if CARD_TYPE_OF[c] not in gone]
    chance.shuffle(state, deck, "the Event pile (§3.9)")
    state.deck = deck
    for _ in range(rs.start_cards):  # §3.9, §38 Shorter Game c
        for pl in state.players:
            pl.hand.append(chance.draw(state, "event", "the starting hands dealt (§3.9)"))  # type: ignore[arg-type]
    # §3.10 Monarch's Support
    state.support = chance.dice_sum(state, "Monarch's Support (§3.10)") * 10
    # §3.11 counters
    state.loyalty_pool = [cid for cid in LOYALTY_IDS if not chars[cid].is_pc]
    state.opportunity_pool = list(rs.opportunity_ids)  # D6: the edition's counter mix
    log(state, f"Setup: {n} players. " + "; ".join(
        f"player {pl.idx}'s PC is {name(pl.pc)}" for pl in state.players) + ".")
    log(state, f"The Monarch's Support starts at {state.support}.")
    for office, cid in zip(NON_MONARCH_OFFICES, holders):
        log(state, f"{name(cid)} is {OFFICES[office].name}.")
    if rs.rcs_removed_at_start:
        log(state, "Shorter Game: " + ", ".join(name(r) for r in rs.rcs_removed_at_start)
            + " are removed from the game (§38).")
    seq(state, *[(o, {}) for o in rs.setup_ops], ("new_turn", {}))  # §38 Beginning PC Advantages
    return state


# ---------------------------------------------------------------------------
# §4 Sequence of play, §5 first player
# ---------------------------------------------------------------------------

PHASES: Final = ("offices_phase", "problems_phase", "crown_phase", "support_bonus")


@op("new_turn")
def new_turn(state: GameState) -> None:
    limit = state.config.get("max_turns")
    if limit is not None and state.turn >= limit:
        state.over = True
        state.result = "truncated"
        state.phase = "over"
        log(state, f"The game is stopped after {state.turn} turns (turn limit).")
        return
    for pl in state.players:
        if restricted(state, pl.idx):
            pl.restricted_turn = state.turn  # §13.1, ruling R19: the turn ends with the PC away
    state.turn += 1
    state.tstate = {"ip_start": {str(pl.idx): pl.ip for pl in state.players}}
    state.crown = None
    state.problems_at_start = bool(state.problems)
    log(state, f"=== Turn {state.turn} ===")
    steps: list[tuple[str, dict[str, Any]] | None] = [("first_player", {})]
    steps += [(ph, {}) for ph in PHASES]
    steps.append(("player_turns", {}))
    seq(state, *steps, ("end_of_turn", {}))


@op("first_player")
def first_player(state: GameState) -> None:
    """§5: every player rolls a dice count; the highest is first (ties reroll, A7)."""
    state.phase = "first_player"
    contenders = list(range(state.n))
    while True:
        rolls = {p: chance.dice_count(state, f"player {p}'s first-player roll (§5)") for p in contenders}
        best = max(rolls.values())
        log(state, "First player rolls: " + ", ".join(f"player {p} {r}" for p, r in rolls.items()) + ".")
        contenders = [p for p, r in rolls.items() if r == best]
        if len(contenders) == 1:
            break
    fp = contenders[0]
    state.first_player = fp
    state.order = [(fp + i) % state.n for i in range(state.n)]
    log(state, f"Player {fp} is the first player.")


@op("player_turns")
def player_turns(state: GameState) -> None:
    state.phase = "player_turns"
    seq(state, *[("player_turn", {"p": p}) for p in state.order])


# ---------------------------------------------------------------------------
# §10 Player Turn
# ---------------------------------------------------------------------------


@op("player_turn")
def player_turn(state: GameState, p: int) -> None:
    pl = state.players[p]
    state.active = None
    if pl.lost_turns > 0:
        pl.lost_turns -= 1
        log(state, f"Player {p} loses his Player Turn.")
        return
    c = pc(state, p)
    if c.dead:
        log(state, f"Player {p}'s PC is face-down: no Player Turn.")
        return
    if stuck_at_war(state, c):
        log(state, f"Player {p}'s PC is stuck in a country at war: he loses his Player Turn (§7.10.3).")
        return
    state.active = p
    state.phase = "player_turn"
    state.pt = {
        "player": p,
        "done": [],
        "extra": 0,
        "no_more": False,
        # §13.1, ruling R19: one activity while the PC is away now, was away earlier in this game
        # turn, or ended the last one away (he returned to a normal situation in this turn)
        "restricted": (restricted(state, p) or was_restricted(state.tstate, p)
                       or pl.restricted_turn == state.turn - 1),
        "imprisoned": c.imprisoned,
        "any_activity": 0,
        "intrigue": 0,
        "scandal": 0,
        "favor": False,
        "waiver": False,
        "bought_mod": False,
        "proposals": [],
        "counselled": False,
        "free": [],
        "free_used": 0,
    }
    if restricted(state, p):
        # §13.1: remember that the PC was not in a normal situation during this turn
        mark_restricted(state.tstate, p)
    log(state, f"--- Player {p}'s turn ---")
    seq(state, ("turn_start_hooks", {"p": p}), ("turn_draws", {"p": p}), ("turn_main", {"p": p}),
        ("turn_counsel", {"p": p}), ("end_player_turn", {"p": p}))


@op("turn_start_hooks")
def turn_start_hooks(state: GameState, p: int) -> None:
    seq(state, *[(h, {"p": p}) for h in registry.TURN_START],
        *[(h, {"p": p}) for h in ruleset(state).turn_start_ops])  # §38 Sweet Charity


@op("turn_counsel")
def turn_counsel(state: GameState, p: int) -> None:
    """§10 third step, §15: counsel the Monarch, unless the PC died during the turn (§31.5)."""
    if state.active == p and not pc(state, p).dead:
        seq(state, ("counsel_step", {"p": p}))


@op("turn_draws")
def turn_draws(state: GameState, p: int) -> None:
    """§10: draw one Loyalty counter, one Opportunity counter and one Event card; a PC
    hiding or banished draws one of the three, an imprisoned PC an Opportunity counter
    or an Event card (§24.3, §29.2, §30.2, ruling A46).  Nothing if the PC died at the
    start of the turn (a prison death, §30.10, §31.5)."""
    c = pc(state, p)
    if c.dead or state.active != p:
        return
    if c.imprisoned:
        opts = [ID["draw_opportunity"], ID["draw_event"]]
    elif c.hiding or c.banished:
        opts = [ID["draw_loyalty"], ID["draw_opportunity"], ID["draw_event"]]
    else:
        do_draw(state, p, "loyalty")
        do_draw(state, p, "opportunity")
        do_draw(state, p, "event")
        return
    seq(state, ask(p, "choose_draw", opts, "turn_draw_choice", {"why": "restricted draw"}, p=p))


@op("turn_draw_choice")
def turn_draw_choice(state: GameState, choice: int, p: int) -> None:
    do_draw(state, p, NAME[choice][len("draw_"):])


    # "free_counsel" (errata, D7/ES §12.3.9): no effect on drawing; the Counsel phase
    # (counsel.py) looks for it in ``opportunity_drawn``; it goes back at the end of the turn.


def _free_ok(state: GameState, p: int, key: str) -> bool:
    """A free additional activity granted this turn (T1.14.11 note 3: a Prestige Table's
    free intrigue): performed without its counter or card (the waiver), outside the activity
    budget, but not twice in a turn (§13.1), not after 'no more activities', and never as a
    second activity of a restricted PC (§24.3, §29.2)."""
    pt = state.pt
    if key not in pt.get("free", ()) or key in pt["done"] or pt["no_more"]:
        return False
    if pt["restricted"] and len(pt["done"]) >= 1:
        return False
    if pt["imprisoned"] and key not in registry.IMPRISONED_SET:
        return False
    pt["waiver"] = True
    try:
        return registry.ACTIVITIES[key].legal(state, p)
    finally:
        pt["waiver"] = False


def activity_options(state: GameState, p: int) -> list[int]:
    prev = open_scan(state)  # the legality checks below share one scan of the characters
    try:
        return _activity_options(state, p)
    finally:
        close_scan(state, prev)


def _activity_options(state: GameState, p: int) -> list[int]:
    pt = state.pt
    opts: list[int] = [ID[f"act_{k}"] for k in dict.fromkeys(pt.get("free", ())) if _free_ok(state, p, k)]
    if activities_left(state) > 0:
        done = pt["done"]
        imprisoned = pt["imprisoned"]
        any_activity = pt["any_activity"] > 0
        for key, aid, legal, any_ok, prison_ok in registry.ACTIVITY_ROWS:
            if key in done or aid in opts:
                continue  # §13.1: not the same activity twice in a turn
            if imprisoned and not prison_ok:
                continue
            if legal(state, p):
                opts.append(aid)
            elif any_activity and any_ok:
                pt["waiver"] = True
                try:
                    ok = legal(state, p)
                finally:
                    pt["waiver"] = False
                if ok:
                    opts.append(aid)
    for aid, legal in registry.FREE_ACTION_ROWS:
        if legal(state, p):
            opts.append(aid)
    return opts


@op("turn_main")
def turn_main(state: GameState, p: int) -> None:
    """§13: the player picks activities and free actions until he passes."""
    if state.active != p or pc(state, p).dead:
        return  # the turn was cut short (PC died during it)
    opts = activity_options(state, p)
    if not opts:
        return
    opts.sort()  # in increasing order (PASS is id 0): ``ask`` then keeps them as they are
    seq(state, ask(p, "turn_main", [PASS] + opts, "turn_main_choice",
                   {"activities_left": activities_left(state), "done": list(state.pt["done"])}, p=p))


@op("turn_main_choice")
def turn_main_choice(state: GameState, choice: int, p: int) -> None:
    if choice == PASS:
        return
    nm = NAME[choice]
    if nm.startswith("act_"):
        key = nm[4:]
        a = registry.ACTIVITIES[key]
        pt = state.pt
        if _free_ok(state, p, key):  # a free grant is used first: it costs nothing
            pt["free"].remove(key)
            pt["free_used"] = pt.get("free_used", 0) + 1
            log(state, f"Player {p} uses his free '{act_label(key)}' activity (T1.14.11 note 3).")
            _start_activity(state, p, key, waiver=True, counter=False)
            return
        normal_ok = a.legal(state, p)
        waiver_ok = False
        if pt["any_activity"] > 0 and key in registry.ANY_ACTIVITY_SET:
            pt["waiver"] = True
            waiver_ok = a.legal(state, p)
            pt["waiver"] = False
        if normal_ok and waiver_ok:
            seq(state, ask(p, "use_any_activity", [YES, NO], "turn_use_any",
                           {"activity": key}, p=p, key=key))
            return
        _start_activity(state, p, key, waiver=not normal_ok)
        return
    key = nm[5:]
    seq(state, (registry.FREE_ACTIONS[key].start, {"p": p}), ("turn_main", {"p": p}))


@op("turn_use_any")
def turn_use_any(state: GameState, choice: int, p: int, key: str) -> None:
    _start_activity(state, p, key, waiver=(choice == YES))


def _start_activity(state: GameState, p: int, key: str, waiver: bool, counter: bool = True) -> None:
    pt = state.pt
    pt["done"].append(key)
    pt["waiver"] = waiver
    if waiver and counter:
        pt["any_activity"] -= 1
        log(state, f"Player {p} uses an 'Any Activity' counter.")
    log(state, f"Player {p} performs the activity: {act_label(key)}.")
    seq(state, (registry.ACTIVITIES[key].start, {"p": p}), ("activity_done", {}), ("turn_main", {"p": p}))


@op("activity_done")
def activity_done(state: GameState) -> None:
    """After each activity the waiver ends.  (The PP limit needs no step here: it is held after
    every step of the game, ``queries.pp_limit_watch``, ruling R17.)"""
    if state.pt:
        state.pt["waiver"] = False


@cache  # a pure function of the activity key (the catalogue's words)
def act_label(key: str) -> str:

    return (dict(ACTIVITY_TEXTS).get(key) or describe(ID[f"act_{key}"])).split(" (")[0]  # issue 5


# ---------------------------------------------------------------------------
# End of the Player Turn: hand limit (§14.2.1), counters returned (§11.2, §12.2)
# ---------------------------------------------------------------------------


@op("end_player_turn")
def end_player_turn(state: GameState, p: int) -> None:
    pl = state.players[p]
    over = len(pl.hand) - hand_limit(state)
    if over > 0:
        forced = forced_discards(state, p, over)
        if forced is not None:  # ruling R14: no choice, no decision
            discard_forced(state, p, forced, "hand limit")
        else:
            seq(state, ask(p, "hand_limit_discard", discard_options(state, p), "hand_limit_choice",
                           {"over": over}, p=p),
                ("end_player_turn", {"p": p}))
            return
    # §11.2, §12.2: counters drawn this turn go back
    state.loyalty_pool.extend(pl.loyalty_drawn)
    pl.loyalty_drawn = []
    state.opportunity_pool.extend(pl.opportunity_drawn)
    pl.opportunity_drawn = []
    pl.free_counsel = False
    state.active = None
    state.pt = {}


@op("hand_limit_choice")
def hand_limit_choice(state: GameState, choice: int, p: int) -> None:

    ctype = NAME[choice][len("discard_"):]
    card = take_card(state, p, ctype)
    discard(state, card)
    log(state, f"Player {p} discards '{CARD_TYPES[ctype].name}' (hand limit).")


# ---------------------------------------------------------------------------
# End of the game turn
# ---------------------------------------------------------------------------


@op("end_of_turn")
def end_of_turn(state: GameState) -> None:
    state.phase = "end_of_turn"
    state.active = None
    for pl in state.players:  # safety: nothing drawn survives the turn
        state.loyalty_pool.extend(pl.loyalty_drawn)
        pl.loyalty_drawn = []
        state.opportunity_pool.extend(pl.opportunity_drawn)
        pl.opportunity_drawn = []
        pl.free_counsel = False
    # §14.2.1: a Player Turn cut short (mourning, §9.4) still ends with the hand limit
    lim = hand_limit(state)
    over = [("end_player_turn", {"p": pl.idx}) for pl in state.players if len(pl.hand) > lim]
    seq(state, *over, *[(name_, {}) for name_ in registry.END_OF_TURN], ("new_turn", {}))


@op("builder_halt")
def builder_halt(state: GameState) -> None:
    seq(state, ask(state.first_player, "halt", [PASS, YES], "builder_halted"))


@op("builder_halted")
def builder_halted(state: GameState, choice: int) -> None:
    seq(state, ("builder_halt", {}))


# ---------------------------------------------------------------------------
# §38 optional rules of set-up and of the start of a Player Turn
# ---------------------------------------------------------------------------


def _shorter_e(state: GameState) -> None:
    """§38 Shorter Game e (ES d): Alfred, Queen Catherine, Almery and Phillip are removed at
    the beginning.  Reading (A4): they count as dead RCs (removed from the game, §31.2), so
    succession, Royal Death and every RC choice skip them; their Royal Alignment cards leave
    the game with them (done in ``setup``); King George is then unmarried (and, as ever, may
    not remarry, §18.5)."""
    for r in ruleset(state).rcs_removed_at_start:
        c = state.wchar(r)
        c.dead = True
        if c.spouse is not None:
            state.wchar(c.spouse).spouse = None
            c.spouse = None


@op("pc_advantages")
def pc_advantages(state: GameState) -> None:
    """§38 Beginning PC Advantages: after the PCs are dealt, each player in turn, from the
    player whose PC has the lowest ID and going clockwise (increasing player index, §5),
    rolls a dice sum on the PC Advantage Table (tables-and-differences §1.16).

    Reading: the rolls are made once the whole set-up (§3.1-§3.11) is done, so that a
    player's choices are decisions like any other; a PC placed in an office displaces the
    NC dealt to it by §3.3, who stays a NC in Fandonia (the office pile)."""
    state.phase = "setup"
    low = min(range(state.n), key=lambda p: int(state.players[p].pc))
    seq(state, *[("pc_advantage_roll", {"p": (low + i) % state.n}) for i in range(state.n)])


@op("pc_advantage_roll")
def pc_advantage_roll(state: GameState, p: int) -> None:
    pl = state.players[p]
    while True:
        a, b = chance.roll(state, 2, "PC Advantage Table")
        row = lookup(PC_ADVANTAGE, a + b)
        log(state, f"PC Advantage Table: player {p} rolls {a + b} ({a}+{b}): {row['text']}.")
        if row.get("choose_office") and is_female(pl.pc):
            log(state, f"Player {p}'s PC is female (she may hold no office): he rolls again (§38).")
            continue
        break
    for table, mod in row.get("table_mods", {}).items():
        if table == "court_ball":
            pl.ball_mod += mod
            log(state, f"Player {p}'s Court Ball modifier becomes {pl.ball_mod:+d}.")
        else:
            pl.prestige_mods[table] = pl.prestige_mods.get(table, 0) + mod
            log(state, f"Player {p}'s {PRESTIGE_TABLES[table]['name']} modifier becomes "
                       f"{pl.prestige_mods[table]:+d}.")
    if row.get("start_ip"):
        # Reading: the advantage is the difference to the usual start (+5 IP), kept with Shorter Game a
        gain_ip(state, p, row["start_ip"] - 2, "PC Advantage Table")
    if row.get("start_pp"):
        gain_pp(state, p, row["start_pp"] - 10, "PC Advantage Table")  # +10 PP, same reading
    if row.get("choose_prestige_mod"):
        female = is_female(pl.pc)
        opts = [ID[f"prestige_{k}"] for k in PRESTIGE_TABLE_KEYS if not (female and k == "sporting")]
        seq(state, ask(p, "pc_advantage_table", opts, "pc_advantage_table_pick",
                       {"table": "pc_advantage"}, p=p, mod=row["choose_prestige_mod"]))
    if row.get("choose_office"):
        opts = [ID[f"office_{o}"] for o in NON_MONARCH_OFFICES
                if not any(c.office == o and c.is_pc for c in state.chars.values())]
        seq(state, ask(p, "pc_advantage_office", opts + [PASS], "pc_advantage_office_pick",
                       {"table": "pc_advantage"}, p=p))


@op("pc_advantage_table_pick")
def pc_advantage_table_pick(state: GameState, choice: int, p: int, mod: int) -> None:
    table = NAME[choice][len("prestige_"):]
    pl = state.players[p]
    pl.prestige_mods[table] = pl.prestige_mods.get(table, 0) + mod
    log(state, f"Player {p} takes {mod:+d} on the {PRESTIGE_TABLES[table]['name']} "
               f"(now {pl.prestige_mods[table]:+d}).")


@op("pc_advantage_office_pick")
def pc_advantage_office_pick(state: GameState, choice: int, p: int) -> None:
    if choice == PASS:
        log(state, f"Player {p} leaves his PC out of office.")
        return
    office = NAME[choice][len("office_"):]
    c = pc(state, p)
    for other in state.chars.values():
        if other.office == office:
            other = state.wchar(other.cid)
            other.office = None
            other.location = "fandonia"  # an ambassador comes home (§20.4)
            log(state, f"{name(other.cid)} gives up the office of {OFFICES[office].name}.")
    c = state.wchar(c.cid)
    c.office = office
    place_ambassador(state, c.cid)
    log(state, f"Player {p} places his PC {name(c.cid)} in the office of {OFFICES[office].name} "
               "(PC Advantage Table).")


@op("sweet_charity")
def sweet_charity(state: GameState, p: int) -> None:
    """§38 Sweet Charity: at the beginning of his Player Turn a player with no IP may roll
    a dice sum on the Charity Table; this is not an activity (a yes/no decision).
    Reading: it comes after the other start-of-turn steps (a PC who dies in prison has no
    Player Turn left to beg in)."""
    if state.active != p or pc(state, p).dead or state.players[p].ip != 0:
        return
    seq(state, ask(p, "sweet_charity", [YES, NO], "sweet_charity_choice", {"table": "charity"}, p=p))


@op("sweet_charity_choice")
def sweet_charity_choice(state: GameState, choice: int, p: int) -> None:
    if choice != YES:
        return
    a, b = chance.roll(state, 2, "Charity Table")
    row = lookup(CHARITY, a + b)
    log(state, f"Charity Table: player {p} rolls {a + b} ({a}+{b}): {row['text']}")
    if row["pp"] < 0:
        lose_pp(state, p, -row["pp"], "Charity Table")  # the PP limit check follows (R15)
    if row["ip"] > 0:
        gain_ip(state, p, row["ip"], "Charity Table")


# -- a few utilities chapter modules share -----------------------------------


def noble_ids() -> tuple[str, ...]:
    return tuple(NOBLES)


def yes_no(state: GameState, p: int, kind: str, then: str, ctx: DecisionContext | None = None, **kw: Any):
    """A yes/no decision step."""
    return ask(p, kind, [YES, NO], then, ctx, **kw)


__all__ = ["setup", "yes_no", "act", "HAND_LIMIT", "can_spend", "spend_ip"]
