"""The Ruleset (issue 12 item 1): one frozen, cached ``Ruleset`` per (edition, optional
switches) answers every rule that differs between the editions or that a switch turns on;
chapter code asks it, never ``errata()``/``opt()`` nor ``config["edition"]``/``config["optional"]``."""

from __future__ import annotations

import ast
import dataclasses
import pathlib
import re

import pytest
from helpers import empty_handed, seduce

from fandonia_env.engine.chapters.activities import title_cost
from fandonia_env.engine.chapters.turn import hand_limit
from fandonia_env.engine.core import registry  # noqa: F401  (every chapter's hooks registered)
from fandonia_env.engine.core.options import OPTIONAL_RULES, load_preset, preset_names, switches_for
from fandonia_env.engine.face.builder import Position
from fandonia_env.engine.face.game import make_config, player_view
from fandonia_env.engine.rules.queries import personal_status
from fandonia_env.engine.rules.rule_queries import pp_price
from fandonia_env.engine.rules.ruleset import IDENTITY, Ruleset, ruleset, ruleset_for

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENGINE = ROOT / "fandonia_env" / "engine"
SOURCE = (ENGINE / "rules" / "ruleset.py").read_text()

#: the modules that may ask ``errata()``/``opt()`` and read the config's rules
ALLOWED = {"ruleset.py", "options.py"}
#: calls that choose by edition or switch (``edition_of``: only the data look-ups kept for
#: code outside the engine, in data/components.py)
FORBIDDEN_CALLS = {"errata", "opt", "edition_of"}
CONFIG_NAMES = {"config", "cfg"}
RULE_KEYS = {"edition", "optional"}

#: every attribute that differs between the 1981 and the errata edition (no switch on)
EDITION_RULES = {
    "opportunity_ids", "pc_deck_3_to_6", "status_overrides", "title_overrides", "two_player_female",
    "female_titles", "title_cost", "counselor_card_status", "illegal_cards", "intrigue_substitutes",
    "famine_boosted_support", "pp_price", "foreign_support_values", "famine_support_cards",
    "crisis_boosts_support", "counselor_may_be_henchman", "counselor_card_lost_away_from_court",
    "henchman_courted_farc_may_become_nrc", "farc_monarch_out_of_romance", "blackmail_dwtk_redrawn", "bribery",
    "seduction_hook", "seduction_six_backfires", "seduced_nc_loyalty_counter", "seduced_nrc_takes_alignment_card",
    "male_seducers_may_seduce_female_rcs", "treachery_negates_ri_seductions", "informer_negates_married_treachery",
    "anne_proposal_penalty", "automatic_proposal_at_once", "wedding_host_rolls", "no_problem_bonus",
    "no_problem_bonus_crown_events", "war_expels_from_country", "unresolved_problems_effect_h",
    "government_dissolution", "wrongdoer_abroad_no_office", "banned_pc_court_ball_pp", "court_ball_free_counsel_min",
    "farc_monarch_bonus", "farc_monarch_outside_pp_total", "counsel_in_crisis", "crown_problem_tables_counselled",
    "henchmen_counsel", "free_counsel_counter", "nc_may_not_hide", "wrongdoers_live_abroad", "fugitive_flees_between_countries",
    "fugitive_fate_remembered", "es_extradition", "extraditable_hook", "banishment_impossible_imprisons", "prison_death_bought_off",
    "death_without_heir", "heirs_kept", "funeral_grave_loses_pp",
}
#: issue 29: the procedures (hooks) and tables the editions choose in the justice, counsel, problems and
#: office code
EDITION_RULES |= {
    "no_problem_bonus_hook", "war_expulsion_hook", "stuck_minister_hook", "recalled_from_war",
    "unresolved_problem_effects", "counselor_leaves_court_hook", "open_tables_hook", "stand_ins_hook",
    "counsel_extraditable_hook", "funeral_table", "prison_death_hook", "escape_kind_hook", "escaped_hook",
    "extradite_hook", "unhideable_hook", "unhidden_wrongdoer_hook", "abroad_turn_start_hook",
}
#: issue 29: the procedures (hooks, operations) and values the editions choose in the activities,
#: bribery, optional activities, crown, romance and Romantic Intrigue code
EDITION_RULES |= {
    "take_bribe_legal_hook", "offer_bribe_legal_hook", "blackmail_dwtk_hook", "nc_in_hiding_ops",
    "counselor_candidates_hook", "fandonia_return_ops", "guest_auto_proposal_hook",
    "ri_seduction_negating_cards", "seduction_success_hooks", "seduction_failure_hooks",
}
#: issue 45 (the errata-only note under ruling R19): restrictions of the Spanish text alone
EDITION_RULES |= {"seducer_out_hook", "proposal_lock_hook"}  # D35, D56


# ---------------------------------------------------------------------------
# The source scan
# ---------------------------------------------------------------------------


def _is_config(node: ast.AST) -> bool:
    """``config``, ``cfg``, ``state.config``, ``self.state.config``..."""
    if isinstance(node, ast.Name):
        return node.id in CONFIG_NAMES
    return isinstance(node, ast.Attribute) and node.attr in CONFIG_NAMES


def _key(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def rule_reads(source: str, filename: str = "<module>") -> list[str]:
    """Every ``errata(...)``/``opt(...)``/``edition_of(...)`` call (also as ``options.opt``) and
    every ``config["edition"]``/``config["optional"]`` (or ``.get``) read in ``source``;
    comments and strings do not count."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Call):
            f = node.func
            fname = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if fname in FORBIDDEN_CALLS:
                out.append((node.lineno, f"{fname}()"))
            if (isinstance(f, ast.Attribute) and f.attr == "get" and _is_config(f.value) and node.args
                    and _key(node.args[0]) in RULE_KEYS):
                out.append((node.lineno, f"config.get({_key(node.args[0])!r})"))
        elif isinstance(node, ast.Subscript) and _is_config(node.value) and _key(node.slice) in RULE_KEYS:
            out.append((node.lineno, f"config[{_key(node.slice)!r}]"))
    return [f"{filename}:{line} {what}" for line, what in sorted(out)]


def test_scan_finds_every_kind_of_rule_read_and_ignores_text():
    fake = '''
"""A chapter that says errata(state) and opt(state, "x") in its docstring."""
from .options import errata, opt
from . import options

def f(state, config):
    # errata(state) in a comment
    a = errata(state)
    b = opt(state, "clemency") or options.opt(state, "funerals")
    c = state.config["edition"] == "errata"
    d = "blackmail" in state.config["optional"]
    e = config.get("edition")
    g = state.config["players"], state.rules["edition"]
    return "opt(state, 'x')", a, b, c, d, e, g
'''
    assert rule_reads(fake, "fake.py") == [
        "fake.py:8 errata()", "fake.py:9 opt()", "fake.py:9 opt()", "fake.py:10 config['edition']",
        "fake.py:11 config['optional']", "fake.py:12 config.get('edition')",
    ]


def test_no_chapter_asks_errata_opt_or_the_config_rules():
    """Only ruleset.py and options.py decide from the edition and the switches; the data
    modules keep only the look-ups ``edition_of`` serves to code outside the engine."""
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name in ALLOWED:
            continue
        hits = rule_reads(path.read_text(), str(path.relative_to(ROOT)))
        if path.name == "components.py":
            hits = [h for h in hits if not h.endswith("edition_of()")]
        found += hits
    assert found == []


# ---------------------------------------------------------------------------
# Built, cached, frozen, documented
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_has_a_cached_frozen_hashable_ruleset(preset):
    cfg = make_config(preset=preset)
    rs = Ruleset.for_config(cfg)
    assert Ruleset.for_config(make_config(preset=preset, seed=9)) is rs  # cached
    assert rs.edition == cfg["edition"] and rs.optional == tuple(cfg["optional"])
    assert load_preset(preset)["edition"] == rs.edition
    hash(rs)
    assert {rs: 1}[Ruleset.for_config(dict(cfg))] == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        rs.clemency = True  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        rs.extra = 1  # type: ignore[attr-defined]  (slots)
    for attr in ("seducers_hook", "seduce_targets_hook", "seduction_hook", "married_recruitment_hook",
                 "married_treachery_hook", "court_ball_marriage_hook", "prestige_marriage_hook",
                 "extraditable_hook"):
        name = getattr(rs, attr)
        assert name is None or callable(registry.HOOKS.get(name)), (attr, name)


def test_a_game_asks_the_ruleset_of_its_config():
    pos = Position(players=3, seed=1, preset="errata")
    assert ruleset(pos.state) is Ruleset.for_config(pos.state.config) is ruleset_for("errata", [])
    view = player_view(pos.state, 0)
    assert ruleset_for(view["rules"]["edition"], view["rules"]["optional"]) is ruleset(pos.state)


def test_a_config_changed_in_place_gets_its_new_ruleset():
    """``ruleset(state)`` remembers its last answer; a config edited in place (tests do) is not
    answered from that memory."""
    pos = Position(players=3, seed=1, preset="errata")
    st = pos.state
    assert ruleset(st) is ruleset_for("errata", [])
    st.config["optional"].append("emissaries")
    assert ruleset(st) is ruleset_for("errata", ["emissaries"])
    st.config["edition"] = "1981"
    assert ruleset(st) is ruleset_for("1981", ["emissaries"])
    st.config["optional"].clear()
    assert ruleset(st) is ruleset_for("1981", [])


def _field_comments() -> dict[str, str]:
    """attribute -> the comment on its line in ruleset.py."""
    out = {}
    for line in SOURCE.splitlines():
        m = re.match(r"    (\w+): [^=]+?(?:= field\(hash=False\))?\s+#\s*(.+)$", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def test_every_attribute_is_documented_with_its_rule():
    """A comment naming the rule (§, errata D-number, ruling R/A) on every attribute."""
    comments = _field_comments()
    names = [f.name for f in dataclasses.fields(Ruleset)]
    assert set(names) == set(comments), sorted(set(names) ^ set(comments))
    for name in names:
        if name not in IDENTITY:
            assert re.search(r"§|\bD\d+|\bR\d+|\bA\d+|RI \d", comments[name]), (name, comments[name])


def test_the_editions_differ_exactly_in_the_edition_rules():
    a, b = ruleset_for("1981", []), ruleset_for("errata", [])
    differ = {k for k, v in a.rules().items() if b.rules()[k] != v}
    assert differ == EDITION_RULES
    comments = _field_comments()
    for k in EDITION_RULES:  # documented with the errata item or ruling
        assert re.search(r"\bD\d+|ES §|\bR\d+|\bA\d+", comments[k]), (k, comments[k])


@pytest.mark.parametrize("edition", ["1981", "errata"])
def test_every_switch_changes_something_and_only_its_own_rules(edition):
    """Each optional switch of the edition is asked somewhere (its ruleset differs), and the
    attributes it changes are documented as §38 rules."""
    base = ruleset_for(edition, []).rules()
    comments = _field_comments()
    for sw in switches_for(edition):
        on = ruleset_for(edition, [sw]).rules()
        changed = {k for k in base if base[k] != on[k]}
        assert changed, sw
        for k in changed:
            assert "§38" in comments[k] or k.endswith("_hook"), (sw, k)
    assert set(switches_for("1981")) | set(switches_for("errata")) == set(OPTIONAL_RULES)


# ---------------------------------------------------------------------------
# The difference shows in a game
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition, bonus", [("1981", 5), ("errata", 10)])
def test_no_problem_bonus_by_edition(edition, bonus):
    """§32.2: +5 with no political problems; ES §7.9 (D13, D14): +10 on a Court Ball result."""
    pos = Position(players=3, seed=1, edition=edition)
    st = pos.state
    st.problems.clear()
    st.problems_at_start, st.crown, st.support = False, "court_ball", 60
    pos.run("support_bonus")
    assert st.support == 60 + bonus == 60 + ruleset(st).no_problem_bonus


@pytest.mark.parametrize("edition, status, price", [("1981", 3, 5), ("errata", 1, 2)])
def test_printed_status_title_cost_and_pp_price_by_edition(edition, status, price):
    """D2: 66 is a Lady S1 in the errata (1981: S3); D25: her next step is a Baronesa (2 IP)
    where 1981 makes her a Duchess (3 IP); D81: one PP for two IP (1981: five)."""
    st = Position(players=3, seed=1, edition=edition).state
    st.wchar("66").titles = 0
    assert personal_status(st, "66") == status
    assert title_cost(st, "66") == ruleset(st).title_cost["lady"]
    assert ruleset(st).title_cost["lady"] == (2 if edition == "errata" else 3)
    assert pp_price(st) == price


@pytest.mark.parametrize("optional, limit, dealt", [([], 12, 9), (["shorter_c"], 15, 12)])
def test_shorter_game_c_hand_limit_and_starting_hand(optional, limit, dealt):
    st = Position(players=3, seed=1, optional=optional).state
    assert hand_limit(st) == limit
    assert all(len(pl.hand) == dealt + 1 for pl in st.players)  # and the DOWN WITH THE KING card


@pytest.mark.parametrize("edition", ["1981", "errata"])
def test_seduction_runs_the_procedure_the_ruleset_names(edition, monkeypatch):
    """The ``act_seduce_target`` operation hands the seduction to the ruleset's hook: the 1981
    §13.4.15 procedure or the errata one (``romantic_intrigue.seduce_start``)."""
    calls = []
    name = ruleset_for(edition, []).seduction_hook
    assert name == {"1981": "seduce_1981", "errata": "ri_seduce_start"}[edition]
    monkeypatch.setitem(registry.HOOKS, name, lambda state, p, s, t: calls.append((p, s, t)))
    pos = empty_handed(3, 1, edition=edition)
    g = seduce(pos, 0, "56", "21")
    assert calls == [(0, "56", "21")]
    assert g.decision()["kind"] == "halt"
