"""§23 Wrongdoing: the accusation (``accuse``), the way into the justice chapters.

The justice chapters (one ``justice.py`` until issue 12):

* ``wrongdoing``     §23 wrongdoing: the accusation
* ``trials``         §26 hearings, §27 interrogation, §28 trials, §29 banishment, §30 imprisonment
* ``hiding``         §24 hiding, §25 extradition (errata ES §25, ES §20.8), Escape (§13.4.10)
* ``assassination``  §21 assassination, §22 scandal
* ``clemency``       Pardon (§13.4.5), Amnesty (§13.4.6), §38 Clemency (ES D93)

§31 (death) and the end-of-turn bookkeeping live in ``death.py``.  The readings these chapters take
are in docs/rulings.md ("Justice (§21-§30)"; errata ones under "Errata edition", Clemency under
"Optional rules (§38)").

Cross-chapter operation (docs/engine.md): ``accuse`` {cid, dwtk, why, bribe}.

Who is a wrongdoer (§23.5, §24.10, §29.7, §30.8): ``Character.wrongdoer`` is set
when a character is sent to a hearing, an interrogation or a trial, and stays set
while he is banished, imprisoned or an escaped prisoner; a pardon, an amnesty, an
innocent verdict or death clears it.  Further accusations, hearings and trials
ordered against a wrongdoer by other rules are ignored (§24.10, §29.7, §30.8).

What the justice chapters share lives below them, in the rules vocabulary (no chapter imports
another): ``rules/situation.py`` has ``is_wrongdoer``, ``living_abroad`` (ES §20.8),
``extraditable_es`` (ES §25.1, §25.12; also asked by ``counsel``), ``restore`` (back to a normal
situation), ``imprison`` (§30.4), ``d93_pardonable`` and for rolls ``card_entry``, ``country_ids``,
``CLAMP``.
"""

from __future__ import annotations

from ..core import chance
from ..core.machine import log, op, seq
from ..core.state import GameState
from ..data.components import ROYALS
from ..rules.queries import actor_for, name, status, stuck_at_war
from ..rules.situation import is_wrongdoer

# ---------------------------------------------------------------------------
# §23 Wrongdoing
# ---------------------------------------------------------------------------


@op("accuse")
def accuse(state: GameState, cid: str, dwtk: bool = False, why: str = "", bribe: int = 0) -> None:
    """§23.2-§23.4: one die (DOWN WITH THE KING +2, nothing else): < Status innocent;
    otherwise, or on a natural 6 (A5), to a hearing.  ``bribe``: errata ES §13.4.20 (D42,
    D43, A27 iii) adds the bribe to this roll and to the hearing roll (bribery.py)."""
    c = state.chars[cid]
    w = f" ({why})" if why else ""
    if cid in ROYALS:
        log(state, f"{name(cid)} is a RC and may never be accused of wrongdoing (§23.4).")
        return
    if c.dead:
        return
    if is_wrongdoer(c):
        log(state, f"{name(cid)} is already a wrongdoer: the accusation{w} is ignored (§24.10, §29.7, §30.8).")
        return
    if stuck_at_war(state, c):
        if c.pending_justice is None:
            state.wchar(cid).pending_justice = "accuse_dwtk" if dwtk else "accuse"
        log(state, f"{name(cid)} is accused of wrongdoing{w} but is stuck in a country at war: the accusation "
                   "waits until the war is over (§7.10.1, A61).")
        return
    roller = actor_for(state, cid)
    n = chance.d6(state, "accusation of wrongdoing (§23)")
    total = n + 2 if dwtk else n
    st = status(state, cid)
    mod = " +2 (DOWN WITH THE KING)" if dwtk else ""
    if bribe:  # errata ES §13.4.20 (bribery.py)
        total += bribe
        mod += f" +{bribe} (the bribe, ES §13.4.20)"
    if n == 6 or total >= st:
        if bribe:  # the bribe also modifies the hearing roll (ES §13.4.20)
            state.misc.setdefault("bribe_hearing", {})[cid] = bribe
        why6 = "a 6" if n == 6 else f"not less than Status {st}"
        log(state, f"{name(cid)} is accused of wrongdoing{w}: player {roller} rolls {n}{mod} = {total}, "
                   f"{why6}: sent to a hearing (§23.2).")
        seq(state, ("hearing", {"cid": cid}))
    else:
        log(state, f"{name(cid)} is accused of wrongdoing{w}: player {roller} rolls {n}{mod} = {total}, "
                   f"less than Status {st}: found innocent (§23.2).")
