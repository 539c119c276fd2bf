"""Dice odds from the tables (2d6 sums): the risk of a Prestige roll, the odds of an assassination.

Part of ``fandonia_env.words`` (``fandonia_env.wording`` re-exports the public names).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..engine.data.tables import (
    ASSASSINATION,
    PRESTIGE_TABLES,
)

#: what the module offers the rest of the package (``fandonia_env.words`` re-exports it)
__all__ = [
    "RISKY_RESULTS", "assassination_odds", "p_2d6", "prestige_mod", "prestige_risk", "table_row"
]

# ---------------------------------------------------------------------------
# Dice odds from the tables (2d6 sums)
# ---------------------------------------------------------------------------

RISKY_RESULTS: Final = frozenset({"duel", "scandal", "wrongdoing", "hearing", "trial"})


_2D6: Final = {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)}


def p_2d6(ok: Callable[[int], bool], mod: int = 0, lo: int = 2, hi: int = 12) -> float:
    return sum(p for s, p in _2D6.items() if ok(min(hi, max(lo, s + mod))))


def table_row(table: dict[str, Any], total: int) -> dict[str, Any]:
    for r_lo, r_hi, row in table["rows"]:
        if r_lo <= total <= r_hi:
            return row  # type: ignore[no-any-return]
    return {}


def prestige_risk(table: str, mod: int) -> float:
    """P(a Prestige Table roll with modifier ``mod`` ends in a duel, scandal, accusation, hearing or trial)."""
    T = PRESTIGE_TABLES[table]
    return p_2d6(lambda t: bool(RISKY_RESULTS & set(table_row(T, t).get("special", ()))), mod, T["lo"], T["hi"])


def assassination_odds(target_is_monarch: bool = False, extra_cards: int = 0) -> float:
    """P(success) on the Assassination Table before any card of the others (Monarch target -1,
    each extra Assassination card +2)."""
    mod = (-1 if target_is_monarch else 0) + 2 * extra_cards
    return p_2d6(lambda t: bool(table_row(ASSASSINATION, t).get("success")), mod,
                  ASSASSINATION["lo"], ASSASSINATION["hi"])


def prestige_mod(view: dict[str, Any], table: str) -> int:
    me = view["me"]
    own = int(view["players"][me]["prestige_mods"].get(table, 0))
    ts = view.get("turn_state") or {}
    if ts.get("bought_mod") and not ts.get("bought_used") and own < 2:
        own += 1
    return own
