"""Romantic Intrigue (§38, optional ``romantic_intrigue``), the seduction rules of the errata
edition (ES §13.4.15: D35-D37, A33, D61), the errata-only optional rules
``seduction_failure_accused`` (D92) and ``marriage`` (ES "MATRIMONIO", D97).

Seductions (the ``seduce`` activity of ``activities.py`` hands over to this module when
the errata edition or Romantic Intrigue is on; the 1981 default never comes here):

* ``base`` - §13.4.15: a female PC/FAC (56-66) seduces a male EAC/NC: 1d less than her
  Seduction Rating wins; any player may negate with a Treachery or an Informer card.
  Errata: a successfully seduced NC gets its Loyalty counter (D37, ``join_faction`` already
  does it); on a natural 6 (A5) the female "lets herself be conquered by love" and becomes
  an EAC of the target's owner if his PP allow, else she stays (D36, A33: only when the
  target was an EAC; against an NC a 6 is simply a failure).
* ``jane`` - RI 1a: Jane as a FARC seduces a male NRC/EARC: 2d sum greater than the RC's
  Status wins (FARC), otherwise no effect.
* ``rc`` - RI 1b: a female PC/FAC seduces a male NRC/EARC: 1d + her Seduction Rating
  greater than the RC's Status wins (FARC); equal: nothing; less: she is accused of
  wrongdoing.  Errata: a seduced NRC's Royal Alignment card is taken from wherever it is
  and placed under it (D88).
* ``male`` - RI 4: the male PC or a male FAC who is a henchman seduces a female NC/EAC:
  1d greater than her Status wins (FAC), otherwise he is accused.  1981: "Female RCs may
  not be seduced"; errata (D90): that sentence is gone, so female NRCs/EARCs may be
  seduced too (FARC).
* RI 5: married male EACs may be seduced by ``base``, married female EACs by ``male``;
  success: the EAC's owner shows his whole Event card hand to the seducing player (a
  private log line); failure: the seducer is accused.  RI 6: a married female may seduce
  by ``base``; a roll equal to or above her rating: she is accused.
* Negation: 1981 - Treachery/Informer only where §13.4.15's procedure is used (``base``);
  errata (D91) - a Treachery card also negates RI 1a, 1b and 4.
* RI closing paragraph: targets banished, imprisoned, in hiding or stuck at war are
  never seduced or recruited; abroad only by a seducer in the same country.  The Monarch
  and his spouse are never seduced (errata text, D90), nor are George and Thomas (RI 1c).
* ``seduction_failure_accused`` (D92): every character whose seduction fails (not when
  negated) is accused of wrongdoing.

The ``Ruleset`` names what the edition and the switches do (issue 29): the targets
(``seduce_targets_hook``: RI 4, or D90), the cards negating RI 1a, 1b and 4
(``ri_seduction_negating_cards``, D91), what follows a failed §13.4.15 seduction
(``seduction_failure_hooks``: RI 6, RI 5, D36) and a successful one
(``seduction_success_hooks``: D37, D88, RI 5), each a hook of this module.

RI 2 (married characters recruited by treachery, §13.4.14): both spouses join; then a
card window (``rolls.modified_roll`` with ``dice: "none"``) lets the other players negate
it: 1981 with a Treachery or an Informer card, errata with a Treachery card only (D89).
RI 3 (eloping) is in ``romance.propose_result`` -> operation ``ri_elope_offer``.

Marriage (D97): a married PC whose spouse can come along (alive, free, in the PC's
country; at a Court Ball: attending) may bring her/him when rolling on the Court Ball,
Fashion, Socializing and Patronage Tables and then rolls twice (hooks in
``prestige.prestige_pick`` and ``crown.court_ball_next``).

Readings:

* Reading (RI seducers): Jane seduces only through 1a; a married male may seduce under
  RI 4 (only RI 6 speaks of married seducers, and only of females); "a male PC or FAC who
  is a henchman" is the PC or a male FAC henchman.  Who may not seduce now is the
  Ruleset's ``seducer_out_hook``: in the 1981 edition only the dead (neither §13.4.15 nor
  the Romantic Intrigue text limits the seducer's situation: the errata-only note under
  ruling R19); in the errata edition also one imprisoned, in hiding or stuck at war (D35
  for females, the same limits for the others).  The target must still be in the
  seducer's country (RI closing paragraph), so one stuck at war seduces nobody.
* Reading (RC targets): an RC target must be unmarried or widowed (§13.4.15 excludes
  married characters and RI 5 extends only to married EACs); the consort is never a
  target.  In 1981 the reigning Monarch and his spouse are excluded too, by analogy with
  §14.5.19 (a Royal Alignment card is never played on the Monarch, nor on Catherine while
  George reigns): the errata text says so outright.  "His spouse" includes the noble
  spouse of a usurping FARC Monarch, who stays a FAC (no consort) and would otherwise be
  a married EAC open to RI 5.
* Reading (married): a character is married while his spouse lives (§18.6: a widow(er) may
  remarry).
* Reading (RI 2): the target must meet §13.4.14 and the RI closing paragraph; the spouse
  follows wherever he is, but a spouse who is a PC, King George, Thomas or the Monarch
  cannot change sides, so such a marriage cannot be recruited; the PP must cover both.
  A spouse who already belongs to the recruiting player (his own PC included) stays; only
  the target joins.
* Reading (D36 on a PC): a PC never changes sides; a seducing PC who rolls a 6 stays.
* Reading (D92): a natural 6 backfire is also a failure, so with D92 the female is both
  handed over and accused.  A negated seduction did not fail: no accusation.
* Reading (D88): applies to every NRC seduced (the sentence is general); a card that has
  been removed from the game stays removed.
* Reading (eloping, RI 3): offered on a natural 6 (A5) of the proposal die when the pair
  could marry at a wedding except for the place: neither imprisoned nor in hiding and the
  PP cover a Status rise (§18.3); the Romance Table roll that follows is optional, costs
  nothing, uses the player's modifier and is a roll in his own Player Turn (A44, A62).
* Reading (marriage, D97): the player decides before rolling whether the spouse comes
  along; if so the second roll follows the first (after any Roll Again), with the
  player's modifier as it then stands (a bought +1 is used once).  The table's cost is
  paid once.  The second roll is made only if the spouse is still along then (the PC
  alive and married to her/him, the spouse alive, free and in the PC's country): the
  first roll's duel, scandal or accusation may have ended that.  At a Court Ball the second roll is made only if the PC and spouse both still
  attend.  A wedding guest's Socializing roll is not a consultation of the table (A62) and
  gets no second roll.
"""

from __future__ import annotations

from typing import Any, Final

from ..core import registry
from ..core.actions import NO, YES
from ..core.machine import ask, log, op, seq
from ..core.state import Character, Frame, GameState
from ..data.components import ARCHBISHOP, CARD_TYPE_OF, CARD_TYPES, NOBLES, ROYAL_ALIGNMENT_CARD, ROYALS
from ..data.tables import PRESTIGE_TABLES
from ..rules.court import attends
from ..rules.marriage import engaged_valid, marry, wedding_pp_ok
from ..rules.queries import henchmen, is_female, name, pc, status
from ..rules.rolls import modified_roll
from ..rules.ruleset import ruleset
from ..rules.turn_steps import blocked, can_hold, join_faction, seducer_out, use_intrigue_grant

RI: Final = "romantic_intrigue"
NEVER_SEDUCED: Final = frozenset({"george", "thomas"})  # RI 1c
MARRIAGE_TABLES: Final = frozenset({"fashion", "socializing", "patronage"})  # D97 (and the Court Ball)
_MODE_RULE: Final = {"base": "§13.4.15", "jane": "§38 Romantic Intrigue 1a", "rc": "§38 Romantic Intrigue 1b",
              "male": "§38 Romantic Intrigue 4"}


def living_spouse(state: GameState, cid: str) -> str | None:
    sp = state.chars[cid].spouse
    return sp if sp is not None and not state.chars[sp].dead else None


def _unavailable(state: GameState, c: Character) -> bool:
    """RI closing paragraph: dead, banished, imprisoned, in hiding or stuck at war."""
    return blocked(state, c) or c.banished


def _monarch_or_spouse(state: GameState, cid: str) -> bool:
    m = state.monarch
    return cid == m or state.chars[cid].consort or (m is not None and state.chars[m].spouse == cid)


# ---------------------------------------------------------------------------
# Who seduces whom (Romantic Intrigue on)
# ---------------------------------------------------------------------------


def _kind(cid: str) -> str:
    if cid == "jane":
        return "jane"
    return "female" if is_female(cid) else "male"


@registry.hook("ri_seducers")
def seducers(state: GameState, p: int) -> list[str]:
    """§13.4.15 and RI 1a, 1b, 4, 6 (see the module's readings)."""
    out = []
    pcid = state.players[p].pc
    hm: set[str] | None = None
    for cid, c in state.chars.items():
        if c.owner != p or seducer_out(state, c):  # D35 in the errata edition only
            continue
        if cid == "jane":
            out.append(cid)
            continue
        if cid in ROYALS:
            continue
        n = NOBLES[cid]
        if n.female:
            if n.seduction is not None:
                out.append(cid)
            continue
        if hm is None:
            hm = set(henchmen(state, p))
        if cid == pcid or cid in hm:
            out.append(cid)
    return out


@registry.hook("ri_seduce_targets")
def seduce_targets(state: GameState, p: int, seducer: str, first: bool = False) -> list[str]:
    """The targets ``seducer`` may seduce for p, in order (only the first with ``first``); 1981
    RI 4: "Female RCs may not be seduced"."""
    return _targets(state, p, seducer, first, female_rcs=False)


@registry.hook("ri_seduce_targets_d90")
def seduce_targets_d90(state: GameState, p: int, seducer: str, first: bool = False) -> list[str]:
    """As :func:`seduce_targets`, the errata's RI 4 (D90): a male seducer may seduce a female
    NRC/EARC too."""
    return _targets(state, p, seducer, first, female_rcs=True)


def _targets(state: GameState, p: int, seducer: str, first: bool, female_rcs: bool) -> list[str]:
    kind = _kind(seducer)
    loc = state.chars[seducer].location
    out = []
    for cid, c in state.chars.items():
        if c.owner == p or c.is_pc or c.consort or c.location != loc or _unavailable(state, c):
            continue
        rc = cid in ROYALS
        fem = is_female(cid)
        if kind == "male":
            if not fem or (rc and not female_rcs):  # RI 4; D90
                continue
        elif fem or (kind == "jane" and not rc):
            continue
        if _monarch_or_spouse(state, cid):  # D90 / reading: also a usurper's noble spouse
            continue
        if rc:
            if cid in NEVER_SEDUCED or living_spouse(state, cid):
                continue
        else:
            if cid == ARCHBISHOP:
                continue
            if living_spouse(state, cid) is not None and c.owner is None:
                continue  # RI 5: married EACs only
        if can_hold(state, p, owners=[cid]):
            out.append(cid)
            if first:
                return out
    return out


def _mode(seducer: str, target: str) -> str:
    kind = _kind(seducer)
    if kind == "female":
        return "rc" if target in ROYALS else "base"
    return kind


# ---------------------------------------------------------------------------
# The seduction roll
# ---------------------------------------------------------------------------


@registry.hook("ri_seduce_start")
def seduce_start(state: GameState, p: int, seducer: str, target: str) -> None:
    """Hook of ``activities.act_seduce_target`` in the errata edition or with RI on
    (``Ruleset.seduction_hook``)."""
    use_intrigue_grant(state, p)
    mode = _mode(seducer, target)
    rule = _MODE_RULE[mode]
    if mode == "base":
        rating = NOBLES[seducer].seduction
        log(state, f"player {p}'s {name(seducer)} (Seduction Rating {rating}) attempts to seduce "
                   f"{name(target)} ({rule}).")
        cards = [{"card": "treachery", "who": "any", "effect": "negate", "max_total": 1},
                 {"card": "informer", "who": "any", "effect": "negate", "max_total": 1}]
        spec: dict[str, Any] = {"label": "Seduction", "dice": "1d"}
    else:
        log(state, f"player {p}'s {name(seducer)} attempts to seduce {name(target)} "
                   f"(Status {status(state, target)}) ({rule}).")
        cards = [{"card": k, "who": "any", "effect": "negate", "max_total": 1}
                 for k in ruleset(state).ri_seduction_negating_cards]  # 1981: none; D91: Treachery
        spec = {"label": f"Seduction ({rule})", "dice": "2d" if mode == "jane" else "1d"}
        if mode == "rc":
            spec["base"] = NOBLES[seducer].seduction
            log(state, f"  {name(seducer)}'s Seduction Rating {spec['base']} is added to the die.")
    spec.update({"cards": cards, "then": "ri_seduce_result",
                 "then_args": {"p": p, "seducer": seducer, "target": target, "mode": mode}})
    seq(state, modified_roll(spec))


@op("ri_seduce_result")
def ri_seduce_result(state: GameState, roll: dict[str, Any], p: int, seducer: str, target: str,
                     mode: str) -> None:
    if roll["negated"]:
        log(state, "The seduction is negated: no effect.")
        return
    t = roll["total"]
    c = state.chars[target]
    was = c.owner
    married_eac = was is not None and living_spouse(state, target) is not None  # RI 5
    accused = False
    if mode == "base":
        rating = NOBLES[seducer].seduction
        success = t < rating
        if success:
            log(state, f"Seduction succeeds ({t} < {rating}) (§13.4.15).")
        else:
            log(state, f"Seduction fails ({t} is not less than {rating}).")
            for h in ruleset(state).seduction_failure_hooks:  # RI 6, RI 5, D36: each says if he is accused
                if registry.HOOKS[h](state, p, seducer, target, roll, was, married_eac):
                    accused = True
    else:
        st = status(state, target)
        success = t > st
        rule = _MODE_RULE[mode]
        if success:
            log(state, f"Seduction succeeds ({t} > Status {st}) ({rule}).")
        elif mode == "male" or (mode == "rc" and t < st):
            log(state, f"Seduction fails ({t} against Status {st}): {name(seducer)} is accused of "
                       f"wrongdoing ({rule}).")
            accused = True
        else:
            log(state, f"Seduction fails ({t} against Status {st}): no effect ({rule}).")
    if success:
        _seduced(state, p, target)
        for h in ruleset(state).seduction_success_hooks:  # D37, D88, RI 5
            registry.HOOKS[h](state, p, target, was, married_eac)
        return
    if not accused and ruleset(state).seduction_failure_accused:
        log(state, f"{name(seducer)} failed a seduction and is accused of wrongdoing "
                   "(ES §38 Romantic Intrigue note, D92).")
        accused = True
    if accused:
        seq(state, ("accuse", {"cid": seducer, "why": f"a failed seduction of {name(target)}"}))


def _seduced(state: GameState, p: int, target: str) -> None:
    c = state.chars[target]
    was = c.owner
    rc = target in ROYALS
    join_faction(state, p, target)
    src = ("a NRC" if rc else "a NC") if was is None else f"player {was}'s {'EARC' if rc else 'EAC'}"
    log(state, f"{name(target)}, {src}, becomes player {p}'s {'FARC' if rc else 'FAC'}.")


# What follows a failed §13.4.15 seduction (``Ruleset.seduction_failure_hooks``, in this order):
# ``(state, p, seducer, target, roll, was, married_eac) -> accused``; ``was``: the target's owner.


@registry.hook("ri6_married_seductress")
def ri6_married_seductress(state: GameState, p: int, seducer: str, target: str, roll: dict[str, Any],
                           was: int | None, married_eac: bool) -> bool:
    """§38 Romantic Intrigue 6: a married female whose seduction fails is accused."""
    if living_spouse(state, seducer) is None:
        return False
    log(state, f"{name(seducer)} is married: she is accused of wrongdoing (§38 Romantic Intrigue 6).")
    return True


@registry.hook("ri5_married_eac")
def ri5_married_eac(state: GameState, p: int, seducer: str, target: str, roll: dict[str, Any],
                    was: int | None, married_eac: bool) -> bool:
    """§38 Romantic Intrigue 5: who fails to seduce a married EAC is accused."""
    if not married_eac:
        return False
    log(state, f"{name(target)} is a married EAC: the seducer is accused (§38 Romantic Intrigue 5).")
    return True


@registry.hook("d36_seductress_conquered")
def d36_seductress_conquered(state: GameState, p: int, seducer: str, target: str, roll: dict[str, Any],
                             was: int | None, married_eac: bool) -> bool:
    """ES §13.4.15 (D36, A33): on a natural 6 the female is conquered by love (:func:`_backfire`);
    nobody is accused for it."""
    if roll["natural"] == 6:
        _backfire(state, p, seducer, was)
    return False


# What follows a successful seduction (``Ruleset.seduction_success_hooks``, in this order):
# ``(state, p, target, was, married_eac)``; ``was``: the target's owner before.


@registry.hook("d37_loyalty_counter")
def d37_loyalty_counter(state: GameState, p: int, target: str, was: int | None, married_eac: bool) -> None:
    """ES §13.4.15 (D37): a seduced NC gets its Loyalty counter (``join_faction`` places it)."""
    if was is None and target not in ROYALS:
        log(state, f"{name(target)}'s Loyalty counter is placed on the card (ES §13.4.15, D37).")


@registry.hook("d88_alignment_card")
def d88_alignment_card(state: GameState, p: int, target: str, was: int | None, married_eac: bool) -> None:
    """ES §38 Romantic Intrigue 1b (D88): a seduced NRC takes his Royal Alignment card."""
    if was is None and target in ROYALS:
        _take_alignment_card(state, target)


@registry.hook("ri5_hand_shown")
def ri5_hand_shown(state: GameState, p: int, target: str, was: int | None, married_eac: bool) -> None:
    """§38 Romantic Intrigue 5: the owner of a married EAC seduced shows his hand to the seducer's player."""
    if married_eac and was is not None:
        _show_hand(state, was, p)


def _backfire(state: GameState, p: int, seducer: str, q: int | None) -> None:
    """ES §13.4.15 (D36, A33): a natural 6 - the female becomes the opponent's EAC."""
    if q is None:
        log(state, "A 6 against a NC: simply a failure (ES §13.4.15, A33).")
        return
    c = state.chars[seducer]
    if c.is_pc:
        log(state, f"A 6: {name(seducer)} is a PC and cannot change sides (ES §13.4.15).")
        return
    if can_hold(state, q, owners=[seducer]):
        join_faction(state, q, seducer)
        log(state, f"A 6: {name(seducer)} is conquered by love and goes over to player {q}: she is now "
                   f"player {p}'s EAC (ES §13.4.15, D36, A33).")
    else:
        log(state, f"A 6: {name(seducer)} is conquered by love, but player {q} has not enough PP: "
                   f"she stays player {p}'s FAC (ES §13.4.15, D36).")


def _show_hand(state: GameState, q: int, p: int) -> None:
    hand = state.players[q].hand
    log(state, f"Player {q} shows his whole Event card hand to player {p} (§38 Romantic Intrigue 5).")
    shown = ", ".join(CARD_TYPES[CARD_TYPE_OF[x]].name for x in hand) or "no cards"
    log(state, f"Player {q}'s hand: {shown}.", to=p)


def _take_alignment_card(state: GameState, rc: str) -> None:
    """D88: the seduced NRC's Royal Alignment card is obtained wherever it is."""
    ctype = ROYAL_ALIGNMENT_CARD.get(rc)
    if ctype is None:
        return
    card = next(x for x, t in CARD_TYPE_OF.items() if t == ctype)
    places: list[tuple[list[str], str]] = [(state.deck, "the Event pile"), (state.discard, "the discards")]
    places += [(pl.hand, f"player {pl.idx}'s hand") for pl in state.players]
    places += [(pl.in_front, f"in front of player {pl.idx}") for pl in state.players]
    for lst, where in places:
        if card in lst:
            lst.remove(card)
            state.wchar(rc).alignment_card = card
            log(state, f"{name(rc)}'s Royal Alignment card is taken from {where} and placed under "
                       f"{name(rc)} (ES §38 Romantic Intrigue 1b, D88).")
            return
    log(state, f"{name(rc)}'s Royal Alignment card is out of the game (D88: nothing to take).")


# ---------------------------------------------------------------------------
# RI 2: married characters recruited by treachery
# ---------------------------------------------------------------------------


@registry.hook("ri_married_joining")
def married_joining(state: GameState, p: int, cid: str) -> list[str] | None:
    """The characters who would join p if ``cid`` (married) were recruited by treachery (RI 2),
    or None if the marriage cannot be recruited."""
    c = state.chars[cid]
    if c.banished:
        return None  # RI closing paragraph
    sp = living_spouse(state, cid)
    if sp is None:
        return [cid]
    s = state.chars[sp]
    if s.owner == p:
        return [cid]  # the spouse is already his (even his own PC)
    if s.is_pc or sp in NEVER_SEDUCED or sp == state.monarch:
        return None
    return [cid, sp]


@registry.hook("ri_married_treachery")
def married_treachery(state: GameState, p: int, cid: str) -> bool:
    """RI 2 hook for ``activities._treachery_done``: True when this module takes over."""
    if living_spouse(state, cid) is None:
        return False
    others = [q for q in range(state.n) if q != p]
    cards = [{"card": "treachery", "who": others, "effect": "negate", "max_total": 1}]
    informer = ruleset(state).informer_negates_married_treachery  # D89
    if informer:
        cards.append({"card": "informer", "who": others, "effect": "negate", "max_total": 1})
    log(state, f"{name(cid)} is married to {name(state.chars[cid].spouse)}: both would join player {p}; "  # type: ignore[arg-type]
               f"the other players may negate it with a 'Treachery'"
               f"{' or an Informer' if informer else ''} card (§38 Romantic Intrigue 2).")
    seq(state, modified_roll({"label": "recruitment of a married character by treachery", "dice": "none",
                              "cards": cards, "then": "ri_married_treachery", "then_args": {"p": p, "cid": cid}}))
    return True


@op("ri_married_treachery")
def ri_married_treachery(state: GameState, roll: dict[str, Any], p: int, cid: str) -> None:
    if roll["negated"]:
        log(state, f"The recruitment of {name(cid)} by treachery is negated: no effect (§38 Romantic Intrigue 2).")
        return
    sp = living_spouse(state, cid)
    for x in [cid] + ([sp] if sp is not None else []):
        c = state.chars[x]
        if c.owner == p:
            continue
        prev = c.owner
        join_faction(state, p, x)
        kind = "FARC" if x in ROYALS else "FAC"
        src = "a neutral" if prev is None else f"player {prev}'s"
        log(state, f"player {p} recruits {name(x)} ({src}) by treachery: now his {kind} "
                   "(§13.4.14, §38 Romantic Intrigue 2).")


# ---------------------------------------------------------------------------
# RI 3: eloping
# ---------------------------------------------------------------------------


def _prestige_roll(p: int, table: str, mod: int) -> tuple[str, dict[str, Any]]:
    """A roll on a Prestige Table resolved by the Prestige chapter's ``prestige_result``."""
    T = PRESTIGE_TABLES[table]
    return modified_roll({"label": f"player {p}'s {T['name']} Table", "dice": "2d", "base": mod,
                          "clamp": [T["lo"], T["hi"]], "then": "prestige_result",
                          "then_args": {"p": p, "table": table, "mod": mod, "own": True}})


@op("ri_elope_offer")
def ri_elope_offer(state: GameState, p: int, a: str, b: str) -> None:

    ca, cb = state.chars[a], state.chars[b]
    if not engaged_valid(state, a) or ca.engaged_to != b:
        return
    if any(x.imprisoned or x.hiding for x in (ca, cb)) or not wedding_pp_ok(state, p, a, b):
        log(state, "A 6: the couple cannot elope now (imprisoned, in hiding or not enough PP).")
        return
    seq(state, ask(p, "ri_elope", [YES, NO], "ri_elope_pick",
                   {"rule": "§38 Romantic Intrigue 3", "proposer": a, "proposee": b}, p=p, a=a, b=b))


@op("ri_elope_pick")
def ri_elope_pick(state: GameState, choice: int, p: int, a: str, b: str) -> None:
    if choice != YES:
        log(state, f"Player {p} does not have {name(a)} and {name(b)} elope.")
        return

    marry(state, a, b)
    log(state, f"{name(a)} and {name(b)} elope and are married without a wedding (§38 Romantic Intrigue 3).")
    pcid = state.players[p].pc
    if a in ROYALS or b in ROYALS:
        other = b if a in ROYALS else a
        log(state, f"{name(other)} enjoys a Status Rating of 8 while married to a FARC (§18.10).")
    if pcid in (a, b):
        sp = b if pcid == a else a
        log(state, f"{name(sp)}, spouse of player {p}'s PC, is automatically a henchman (§18.8).")
    seq(state, ask(p, "ri_elope_romance", [YES, NO], "ri_elope_romance",
                   {"rule": "§38 Romantic Intrigue 3", "table": "romance"}, p=p))


@op("ri_elope_romance")
def ri_elope_romance(state: GameState, choice: int, p: int) -> None:
    if choice != YES:
        return
    mod = state.players[p].prestige_mods.get("romance", 0)
    log(state, f"Player {p} consults the Romance Table after the elopement; this is not an activity "
               "(§38 Romantic Intrigue 3).")
    seq(state, _prestige_roll(p, "romance", mod))


# ---------------------------------------------------------------------------
# Marriage (ES optional rule, D97)
# ---------------------------------------------------------------------------


def _spouse_along(state: GameState, p: int) -> str | None:
    c = pc(state, p)
    sp = living_spouse(state, c.cid)
    if sp is None or c.dead:
        return None
    s = state.chars[sp]
    if s.imprisoned or s.hiding or s.banished or s.location != c.location:
        return None
    return sp


@registry.hook("marriage_prestige")
def marriage_prestige(state: GameState, p: int, table: str, mod: int) -> bool:
    """Hook in ``prestige.prestige_pick`` (``Ruleset.prestige_marriage_hook``, D97 on): True when
    this module schedules the roll(s)."""
    if table not in MARRIAGE_TABLES:
        return False
    sp = _spouse_along(state, p)
    if sp is None:
        return False
    seq(state, ask(p, "marriage_spouse", [YES, NO], "marriage_prestige_pick",
                   {"rule": "ES §38 Matrimonio (D97)", "table": table, "spouse": sp}, p=p, table=table, mod=mod))
    return True


@op("marriage_prestige_pick")
def marriage_prestige_pick(state: GameState, choice: int, p: int, table: str, mod: int) -> None:
    second = None
    if choice == YES:
        sp = state.chars[pc(state, p).cid].spouse
        log(state, f"Player {p} brings {name(sp)}, his PC's spouse, along: he will roll twice on the "  # type: ignore[arg-type]
                   f"{PRESTIGE_TABLES[table]['name']} Table (ES §38 Matrimonio, D97).")
        second = ("marriage_prestige_second", {"p": p, "table": table, "spouse": sp})
    seq(state, _prestige_roll(p, table, mod), second)


@op("marriage_prestige_second")
def marriage_prestige_second(state: GameState, p: int, table: str, spouse: str | None = None) -> None:
    if spouse is not None and _spouse_along(state, p) != spouse:
        log(state, f"Player {p}'s PC and {name(spouse)} are no longer together and free: no second roll on "
                   f"the {PRESTIGE_TABLES[table]['name']} Table (D97).")
        return
    mod = state.players[p].prestige_mods.get(table, 0)
    log(state, f"Player {p}'s second roll on the {PRESTIGE_TABLES[table]['name']} Table, for the PC's spouse "
               "(ES §38 Matrimonio, D97).")
    seq(state, _prestige_roll(p, table, mod))


@registry.hook("marriage_ball")
def marriage_ball(state: GameState, p: int, attendees: list[str]) -> Frame | None:
    """Hook in ``crown.court_ball_next`` (``Ruleset.court_ball_marriage_hook``, D97 on): the step
    replacing the Court Ball roll, or None."""
    sp = living_spouse(state, pc(state, p).cid)
    if sp is None or sp not in attendees or not attends(state, sp):
        return None
    return ask(p, "marriage_spouse", [YES, NO], "marriage_ball_pick",
               {"rule": "ES §38 Matrimonio (D97)", "table": "court_ball", "spouse": sp}, p=p, attendees=attendees)


@op("marriage_ball_pick")
def marriage_ball_pick(state: GameState, choice: int, p: int, attendees: list[str]) -> None:
    second = None
    if choice == YES:
        log(state, f"Player {p} brings his PC's spouse along: he will roll twice on the Court Ball Table "
                   "(ES §38 Matrimonio, D97).")
        second = ("marriage_ball_second", {"p": p, "attendees": attendees})
    seq(state, ("court_ball_roll", {"p": p, "attendees": attendees}), second)


@op("marriage_ball_second")
def marriage_ball_second(state: GameState, p: int, attendees: list[str]) -> None:
    c = pc(state, p)
    sp = living_spouse(state, c.cid)
    if sp is None or not (attends(state, c.cid) and attends(state, sp)):
        log(state, f"Player {p}'s PC or spouse no longer attends the Court Ball: no second roll (D97).")
        return
    log(state, f"Player {p}'s second roll on the Court Ball Table, for the PC's spouse (ES §38 Matrimonio, D97).")
    seq(state, ("court_ball_roll", {"p": p, "attendees": attendees}))
