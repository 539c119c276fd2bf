"""Editions, optional-rule switches and named presets (ruling R1; §38; issue 5).

* ``edition``: ``"1981"`` (default, the English rules) or ``"errata"`` (every difference
  D1-D98 of class a-c (docs/rules-coverage.md) on top of it, ruling R1 (docs/rulings.md); the three
  systems of ruling R2 are absent).
* ``optional``: a list of switch names from :data:`OPTIONAL_RULES`, all off by default.  Each
  names the §38 optional rule it turns on.  A few exist in one edition only:
  ``shorter_b`` is 1981-only (D98: the errata edition dropped it because its §31.3-§31.4 make
  the deaths of nobles and ladies permanent anyway); ``marriage`` (D97) and
  ``seduction_failure_accused`` (D92) are new optional rules of the errata text only.
* presets: YAML files ``configs/presets/<name>.yaml`` holding ``edition`` and ``optional``;
  :func:`load_preset` reads them, ``make_config(preset=...)`` expands them.

Chapter code asks the game's :class:`~fandonia_env.engine.rules.ruleset.Ruleset` (``ruleset(state)``),
which answers every rule that differs between the editions or an optional switch under its
own name; ``opt(state, "clemency")`` and ``errata(state)`` stay for tests and tools.
"""

from __future__ import annotations

from typing import Any, Final

import yaml

from .compiled import ENGINE
from .errors import ConfigError as ConfigError

EDITIONS: Final[tuple[str, ...]] = ("1981", "errata")

#: switch name -> (rules reference, one-line description, editions in which it exists)
OPTIONAL_RULES: Final[dict[str, tuple[str, str, tuple[str, ...]]]] = {
    "foreign_support": ("§38 Gaining Foreign Support", "activity: win a country's Foreign Support card",
                        EDITIONS),
    "fandonian_support": ("§38 Gaining Fandonian Support", "activity: win Fandonian Support cards (a-g)",
                          EDITIONS),
    "emissaries": ("§38 Emissaries", "activity: the Minister of State or an Ambassador sends an emissary",
                   EDITIONS),
    "unresolved_problems": ("§38 Effects of Unresolved Political Problems",
                            "problems unresolved three turns running have effects a-g (errata: and h, D87)",
                            EDITIONS),
    "pc_advantages": ("§38 Beginning PC Advantages", "each player rolls on the PC Advantage Table at set-up",
                      EDITIONS),
    "romantic_intrigue": ("§38 Romantic Intrigue", "seducing male RCs, married characters, eloping, male "
                          "seducers (1-6)", EDITIONS),
    "counselor_powers": ("§38 Additional Monarch's Counselor Powers",
                         "a Monarch's Counselor may block one counsel a turn and modify problem rolls",
                         EDITIONS),
    "clemency": ("§38 Clemency", "a Monarch's Counselor may ask clemency after a trial", EDITIONS),
    "deliberate_incompetence": ("§38 Deliberate Incompetence",
                                "a Minister who lets a problem go unresolved risks discharge", EDITIONS),
    "abdication": ("§38 Abdication", "a FARC Monarch may abdicate", EDITIONS),
    "blackmail": ("§38 Blackmail", "blackmail instead of intriguing a card", EDITIONS),
    "sweet_charity": ("§38 Sweet Charity", "a player with no IP may roll on the Charity Table", EDITIONS),
    "funerals": ("§38 Funerals", "players may attend funerals and roll on the Funeral Table", EDITIONS),
    "shorter_a": ("§38 Shorter Game a", "start with 25 PP and 10 IP", EDITIONS),
    "shorter_b": ("§38 Shorter Game b", "killed characters (not PCs) leave the game for good", ("1981",)),
    "shorter_c": ("§38 Shorter Game c", "hand limit 15, twelve cards to begin", EDITIONS),
    "shorter_d": ("§38 Shorter Game d", "three activities per Player Turn", EDITIONS),
    "shorter_e": ("§38 Shorter Game e", "remove Alfred, Catherine, Almery and Phillip at the start",
                  EDITIONS),
    "marriage": ("ES §38 Matrimonio (D97)", "a married PC brings his spouse to four tables and rolls twice",
                 ("errata",)),
    "seduction_failure_accused": ("ES §38 Romantic Intrigue note (D92)",
                                  "a character who fails a seduction is accused of wrongdoing", ("errata",)),
}

SHORTER_GAME: Final[tuple[str, ...]] = ("shorter_a", "shorter_b", "shorter_c", "shorter_d", "shorter_e")

# from a module that is never compiled: a compiled module's __file__ names no real folder; inside
# the package, so an installed (not editable) copy has them too (configs/presets links to it)
PRESET_DIR: Final = ENGINE.parent / "presets"


def switches_for(edition: str) -> list[str]:
    """Every optional-rule switch that exists in ``edition``, in catalogue order."""
    return [k for k, v in OPTIONAL_RULES.items() if edition in v[2]]


def validate_optional(edition: str, opt: Any) -> list[str]:
    """Check an ``optional`` list against ``edition``; returns it in catalogue order."""
    allowed = switches_for(edition)
    if not isinstance(opt, (list, tuple)) or any(not isinstance(o, str) for o in opt):
        raise ConfigError(f"config field 'optional' must be a list of switch names, got {opt!r}; "
                          f"allowed in edition {edition!r}: {allowed}")
    bad = [o for o in opt if o not in allowed]
    if bad:
        where = {o: list(OPTIONAL_RULES[o][2]) for o in bad if o in OPTIONAL_RULES}
        extra = f" ({', '.join(f'{k} exists only in {v}' for k, v in where.items())})" if where else ""
        raise ConfigError(f"config field 'optional': unknown switch(es) {bad}{extra}; "
                          f"allowed in edition {edition!r}: {allowed}")
    if len(set(opt)) != len(opt):
        raise ConfigError(f"config field 'optional' names a switch twice: {list(opt)!r}")
    return [k for k in OPTIONAL_RULES if k in opt]


def preset_names() -> list[str]:
    """The names of the presets in ``configs/presets``."""
    if not PRESET_DIR.is_dir():
        return []
    return sorted(p.stem for p in PRESET_DIR.glob("*.yaml"))


def load_preset(name: str) -> dict[str, Any]:
    """Read preset ``name`` (``edition`` and ``optional``), validated."""
    names = preset_names()
    if name not in names:
        raise ConfigError(f"unknown preset {name!r}; valid presets: {names} (files in {PRESET_DIR})")
    doc = yaml.safe_load((PRESET_DIR / f"{name}.yaml").read_text()) or {}
    if not isinstance(doc, dict):
        raise ConfigError(f"preset {name!r} must be a mapping, got {type(doc).__name__}")
    unknown = set(doc) - {"edition", "optional", "description"}
    if unknown:
        raise ConfigError(f"preset {name!r}: unknown field(s) {sorted(unknown)}; allowed: "
                          "['description', 'edition', 'optional']")
    edition = doc.get("edition", "1981")
    if edition not in EDITIONS:
        raise ConfigError(f"preset {name!r}: edition must be one of {list(EDITIONS)}, got {edition!r}")
    optional = doc.get("optional") or []
    if optional == "all":
        optional = switches_for(edition)
    return {"edition": edition, "optional": validate_optional(edition, optional)}


def check_rules(cfg: dict[str, Any]) -> None:
    """``make_config``: check a config's ``edition``, put its ``optional`` list in catalogue order."""
    if cfg["edition"] not in EDITIONS:
        raise ConfigError(f"config field 'edition' must be one of {list(EDITIONS)}, got {cfg['edition']!r}")
    cfg["optional"] = validate_optional(cfg["edition"], cfg["optional"])


def opt(state: Any, name: str) -> bool:
    """Is optional rule ``name`` on in this game?"""
    assert name in OPTIONAL_RULES, f"unknown optional rule {name!r}"
    return name in state.config["optional"]


def errata(state: Any) -> bool:
    """Is this game played under the errata edition (ruling R1)?"""
    return state.config["edition"] == "errata"


def edition_of(config: dict[str, Any]) -> str:
    """The edition of a config (or of a view's ``rules``), for data look-ups outside the engine."""
    return config["edition"]
