"""Marriage as the chapters share it (§18): engagements still valid, the wedding's PP rule,
marrying two characters.  Vocabulary: the romance chapter and Romantic Intrigue (§38) import
these, never each other.
"""

from __future__ import annotations

from ..core import registry
from ..core.state import GameState
from .queries import pp_required
from .ruleset import ruleset


def engaged_valid(state: GameState, cid: str) -> bool:
    """An accepted proposal still stands (§18.4.6): both alive, engaged to each other,
    and both still in the same player's faction."""
    c = state.chars[cid]
    other = c.engaged_to
    if other is None:
        return False
    o = state.chars[other]
    return (o.engaged_to == cid and not c.dead and not o.dead and c.owner is not None
            and c.owner == o.owner)


def proposal_locked(state: GameState, cid: str) -> bool:
    """Does an engagement keep ``cid`` out of another proposal?  The Ruleset's
    ``proposal_lock_hook``: never in the 1981 edition, while it stands in the errata one (D56)."""
    locked: bool = registry.HOOKS[ruleset(state).proposal_lock_hook](state, cid)
    return locked


@registry.hook("no_engagement_lock")
def no_engagement_lock(state: GameState, cid: str) -> bool:
    """§18.4 (1981): the English text lets an engaged character take part in another proposal (the
    errata-only note under ruling R19); an accepted one then replaces the engagement
    (``romance._engage``)."""
    return False


@registry.hook("engagement_lock_d56")
def engagement_lock_d56(state: GameState, cid: str) -> bool:
    """D56 (ES §18.4.6): once a proposal is accepted neither character may propose or be proposed
    to again until it is negated."""
    return engaged_valid(state, cid)


def marry(state: GameState, a: str, b: str) -> None:
    for x in (a, b):
        c = state.chars[x]
        if c.spouse is not None:  # a dead former spouse (§18.6)
            ex = state.chars[c.spouse]
            if ex.spouse == x:
                state.wchar(c.spouse).spouse = None
    ca, cb = state.wchar(a), state.wchar(b)
    ca.spouse, cb.spouse = b, a
    ca.engaged_to = cb.engaged_to = None


def wedding_pp_ok(state: GameState, p: int, a: str, b: str) -> bool:
    """§18.3: enough PP if the marriage raises the Status his faction must cover
    (§18.9, §18.10, A18), evaluated on a temporary change of plain data."""
    before = pp_required(state, p)
    ids = {a, b, state.chars[a].spouse, state.chars[b].spouse} - {None}
    saved = {x: (state.chars[x].spouse, state.chars[x].engaged_to, state.chars[x].fixed_status) for x in ids}  # type: ignore[index]
    try:
        marry(state, a, b)
        after = pp_required(state, p)
    finally:
        for x, (sp, en, fs) in saved.items():
            c = state.wchar(x)  # type: ignore[arg-type]
            c.spouse, c.engaged_to, c.fixed_status = sp, en, fs
    return after <= before or state.players[p].pp >= after
