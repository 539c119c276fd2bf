"""Checks of fandonia_env.engine.data.tables against tables-and-differences.md §1."""

from __future__ import annotations

import pytest

from fandonia_env.engine.data import tables as T


def _covered(table: dict) -> list[int]:
    out: list[int] = []
    for lo, hi, row in table["rows"]:
        assert lo <= hi
        assert isinstance(row["text"], str) and row["text"]
        out.extend(range(lo, hi + 1))
    return out


@pytest.mark.parametrize("key", sorted(T.DICE_TABLES))
def test_every_dice_table_covers_its_range_exactly_once(key: str) -> None:
    table = T.DICE_TABLES[key]
    expected = list(range(2, 13)) if table["dice"] == "2d_sum" else list(range(1, 7))
    assert (table["lo"], table["hi"]) == (expected[0], expected[-1])
    assert _covered(table) == expected


def test_all_2d_tables_registered() -> None:
    two_d = {k for k, t in T.DICE_TABLES.items() if t["dice"] == "2d_sum"}
    assert {"crown_events", "court_ball", "assassination", "scandal", "royal_favor", "interrogation",
            "trial", "political_problems", "foreign_war", "counseling_results", "pc_advantage",
            "clemency", "charity", "funeral"} <= two_d
    assert {f"prestige_{k}" for k in T.PRESTIGE_TABLE_KEYS} <= two_d


def test_lookup_clamps_per_ruling_a6() -> None:
    assert T.lookup(T.TRIAL, -7)["verdict"] == "not_guilty"
    assert T.lookup(T.TRIAL, 1)["verdict"] == "not_guilty"
    assert T.lookup(T.TRIAL, 17)["verdict"] == "executed"
    assert T.lookup(T.ASSASSINATION, 0)["text"].endswith("Goes To Trial.")
    assert T.lookup(T.ASSASSINATION, 20)["success"] is True
    assert T.lookup(T.EMISSARY, 9)["success"] is True
    assert T.lookup(T.EMISSARY, -1)["success"] is False
    # bare rows tuple works too
    assert T.lookup(T.COUNSELING_RESULTS["rows"], 14)["accepted"] is True
    assert T.lookup(T.COUNSELING_RESULTS, 1)["pp"] == -5


def test_effect_codes_are_all_documented() -> None:
    for key, table in T.DICE_TABLES.items():
        for _, _, row in table["rows"]:
            for code in row.get("special", ()):
                assert code in T.EFFECT_CODES, (key, code)
            if "extra_activities" in row.get("special", ()):
                assert row["extra_activities"] in (2, 3)
    for t in T.COUNSELING_TABLES.values():
        for c in t["counsels"]:
            assert c["effect"]["code"] in T.COUNSEL_EFFECT_CODES
    for code in T.PRESTIGE_RESULT_NOTES:
        assert code.startswith("_") or code in T.EFFECT_CODES


def test_identifier_sets() -> None:
    assert len(T.OFFICES) == 13
    assert len(T.COUNTRIES) == 5
    assert len(T.PROBLEM_KEYS) == 10
    assert len(T.ROYAL_KEYS) == 11
    assert sorted(T.DICE_COUNTS) == sorted({10 * r + w for r in range(1, 7) for w in range(1, 7)})
    assert len(T.DICE_COUNTS) == 36


# --- 1.1 Crown Events -------------------------------------------------------

def test_crown_events_rows() -> None:
    ev = {s: T.lookup(T.CROWN_EVENTS, s)["event"] for s in range(2, 13)}
    assert ev == {2: "royal_death", 3: "royal_death", 4: "famine", 5: "intrigue", 6: "court_ball",
                  7: "political_problems", 8: "political_problems", 9: "political_problems",
                  10: "political_problems", 11: "scandal", 12: "plague"}
    assert T.lookup(T.CROWN_EVENTS, 7)["problems"] == 2
    assert T.lookup(T.CROWN_EVENTS, 10)["problems"] == 1


# --- 1.2 Title --------------------------------------------------------------

def test_title_table() -> None:
    costs = {(r["from"], r["to"]): r["cost_ip"] for r in T.TITLE_TABLE}
    assert costs == {("sir", "knight"): 2, ("knight", "earl"): 3, ("earl", "lord"): 4,
                     ("lord", "duke"): 5, ("lady", "duchess"): 3}
    assert all(r["status"] == 1 for r in T.TITLE_TABLE)
    assert [r["cost_ip"] for r in T.TITLE_TABLE_ERRATA_FEMALE] == [2, 3, 4, 5]
    assert set(T.TITLE_NOT_ALLOWED) == {45, 46, 51, 52, 53, 54, 55}


# --- 1.3 Court Ball ---------------------------------------------------------

def test_court_ball_rows() -> None:
    cb = T.COURT_BALL
    assert T.lookup(cb, 8)["pp"] == 1 and T.lookup(cb, 8)["mod"] == 1
    assert "free_counsel" in T.lookup(cb, 8)["special"]
    assert [T.lookup(cb, s)["pp"] for s in range(2, 13)] == [0, 0, 0, -1, 0, 0, 1, 2, 3, 4, 5]
    assert [T.lookup(cb, s)["mod"] for s in range(2, 13)] == [0] * 6 + [1, 1, 1, 1, 2]
    assert "wrongdoing" in T.lookup(cb, 2)["special"]
    assert "duel" in T.lookup(cb, 3)["special"]
    assert "scandal" in T.lookup(cb, 4)["special"]
    for s in (2, 3, 4):
        assert "banned_from_court_ball" in T.lookup(cb, s)["special"]
    for s in range(5, 8):
        assert "free_counsel" not in T.lookup(cb, s)["special"]
    assert cb["max_modifier"] == 2


# --- 1.4 - 1.8 ---------------------------------------------------------------

def test_assassination_rows() -> None:
    a = T.ASSASSINATION
    assert T.lookup(a, 2)["special"] == ("trial",)
    assert T.lookup(a, 3)["special"] == ("hearing",)
    assert T.lookup(a, 4)["special"] == ("wrongdoing",)
    for s in range(5, 9):
        assert T.lookup(a, s)["success"] is False and T.lookup(a, s)["caught"] is False
    assert T.lookup(a, 9) == {**T.lookup(a, 9), "success": True, "caught": True}
    assert T.lookup(a, 10)["success"] and not T.lookup(a, 12)["caught"]


def test_scandal_rows() -> None:
    s = T.SCANDAL
    assert T.lookup(s, 2)["special"] == ("trial",)
    assert T.lookup(s, 3)["special"] == ("hearing",)
    assert T.lookup(s, 4)["special"] == ("lose_half_pp", "wrongdoing")
    assert T.lookup(s, 5)["special"] == ("lose_half_ip", "wrongdoing")
    assert T.lookup(s, 6)["special"] == ("wrongdoing",)
    assert all(T.lookup(s, v)["special"] == ("no_effect",) for v in range(7, 11))
    assert T.lookup(s, 11)["only_if_exposed"] and T.lookup(s, 12)["only_if_exposed"]


def test_royal_favor_rows() -> None:
    rf = T.ROYAL_FAVOR
    assert [T.lookup(rf, v)["ip"] for v in range(2, 13)] == [0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 3]
    assert T.lookup(rf, 3)["special"] == ("farc_becomes_nrc",)


def test_interrogation_rows() -> None:
    it = T.INTERROGATION
    assert [T.lookup(it, v)["trial_mod"] for v in range(2, 13)] == [0] * 5 + [1, 2] + [0] * 4
    assert T.lookup(it, 4)["special"] == ("pc_accused",)
    assert T.lookup(it, 6)["special"] == ("character_dies",)


def test_trial_rows() -> None:
    v = [T.lookup(T.TRIAL, s)["verdict"] for s in range(2, 13)]
    assert v == ["not_guilty"] * 2 + ["banished"] * 2 + ["imprisoned"] * 4 + ["awaiting_execution"] * 2 + [
        "executed"]


# --- 1.9 Political problems ------------------------------------------------

def test_political_problems() -> None:
    probs = [T.lookup(T.POLITICAL_PROBLEMS, s)["problem"] for s in range(2, 13)]
    assert probs == ["banking_crisis", "economic_crisis", "international_incident", "foreign_war",
                     "foreign_war", "treason_trials", "pirates", "townsmen_unrest", "peasant_unrest",
                     "agriculture_crisis", "natural_disaster"]
    assert set(T.PROBLEMS) == set(T.PROBLEM_KEYS)
    resolving = {k: p["resolving_office"] for k, p in T.PROBLEMS.items()}
    assert resolving == {
        "banking_crisis": "minister_of_treasury", "economic_crisis": "minister_of_treasury",
        "international_incident": "minister_of_state", "foreign_war": "minister_of_army",
        "treason_trials": "minister_of_justice", "pirates": "minister_of_navy",
        "townsmen_unrest": "high_minister", "peasant_unrest": "high_minister",
        "agriculture_crisis": "minister_of_trade", "natural_disaster": "minister_of_trade"}
    nd = T.PROBLEMS["natural_disaster"]
    assert nd["modifying_offices"] == () and nd["modifying_characters"] == ()  # ruling R6
    assert set(T.PROBLEMS["treason_trials"]["modifying_characters"]) == {55, 52, 46, 51}
    assert T.PROBLEMS["banking_crisis"]["modifying_characters"] == (45,)
    assert set(T.PROBLEMS["international_incident"]["modifying_offices"]) == {"minister_of_state"} | set(
        T.AMBASSADORS)
    for p in T.PROBLEMS.values():
        assert p["resolving_office"] in T.OFFICES
        assert set(p["modifying_offices"]) <= set(T.OFFICES)
        assert all(11 <= c <= 66 for c in p["modifying_characters"])


# --- 1.10 Usurpation --------------------------------------------------------

def test_monarch_support_value() -> None:
    expected = {0: -25, 5: 0, 25: 0, 30: 10, 65: 10, 70: 20, 95: 20, 100: 30, 115: 30, 120: 40}
    for s, v in expected.items():
        assert T.monarch_support_value(s) == v
    for lo, hi, val in T.MONARCH_SUPPORT_BANDS:
        for s in range(lo, hi + 1, 5):
            assert T.monarch_support_value(s) == val


# --- 1.11 Foreign War -------------------------------------------------------

def test_foreign_war_rows_and_symmetry() -> None:
    fw = {s: set(T.lookup(T.FOREIGN_WAR, s)["countries"]) for s in range(2, 13)}
    allc = set(T.COUNTRIES)
    assert fw[2] == fw[7] == fw[12] == allc
    assert fw[3] == {"sandarkan", "besyzan"} and fw[11] == {"epalin", "besyzan"}
    assert fw[4] == {"cronos", "besyzan"} and fw[10] == {"city_states", "besyzan"}
    assert fw[5] == {"sandarkan"} and fw[9] == {"epalin"}
    assert fw[6] == {"cronos"} and fw[8] == {"city_states"}


# --- 1.12 Succession / death numbers ---------------------------------------

def test_succession_and_death_numbers() -> None:
    assert T.SUCCESSION_ORDER == ("george", "alan", "anne", "john", "edward", "phillip", "almery",
                                  "catherine", "alfred")
    all_counts = [c for cs in T.ROYAL_DEATH_NUMBERS.values() for c in cs]
    assert sorted(all_counts) == sorted(T.DICE_COUNTS)
    assert len(all_counts) == 36
    assert T.ROYAL_DEATH[55] == "george" and T.ROYAL_DEATH[66] == "george"
    assert T.ROYAL_DEATH[11] == "catherine" and T.ROYAL_DEATH[46] == "john"
    assert "thomas" not in T.ROYAL_DEATH_NUMBERS and "jane" not in T.ROYAL_DEATH_NUMBERS


# --- 1.13 Counseling results ------------------------------------------------

def test_counseling_results() -> None:
    cr = T.COUNSELING_RESULTS
    assert T.lookup(cr, 2)["pp"] == -5 and "lose_office" in T.lookup(cr, 2)["special"]
    assert T.lookup(cr, 4)["pp"] == 0 and "lose_office" in T.lookup(cr, 4)["special"]
    assert T.lookup(cr, 5)["pp"] == 1 and not T.lookup(cr, 8)["accepted"]
    assert T.lookup(cr, 9)["pp"] == 2 and T.lookup(cr, 9)["accepted"]


# --- 1.14 Prestige ----------------------------------------------------------

def test_prestige_tables_exist() -> None:
    assert tuple(T.PRESTIGE_TABLES) == T.PRESTIGE_TABLE_KEYS
    costs = {k: t["cost_ip"] for k, t in T.PRESTIGE_TABLES.items()}
    assert costs == {"literary": 0, "fashion": 0, "craft": 0, "romance": 0, "socializing": 1,
                     "patronage": 2, "carousing": 0, "sporting": 0, "gambling": 0, "business": 3}
    assert T.PRESTIGE_TABLES["sporting"]["male_only"] is True
    assert sum(t["male_only"] for t in T.PRESTIGE_TABLES.values()) == 1
    for t in T.PRESTIGE_TABLES.values():
        for _, _, row in t["rows"]:
            assert -2 <= row["mod"] <= 2
            assert row["confidence"] in ("clean", "H", "M", "L")


def _col(key: str, field: str) -> list:
    return [T.lookup(T.PRESTIGE_TABLES[key], s)[field] for s in range(2, 13)]


def test_prestige_clean_modifier_columns() -> None:
    assert _col("fashion", "mod") == [-2, -1, -1, 0, 1, 1, 1, 1, 1, 1, 1]
    assert _col("craft", "mod") == [-2, -1, -1, -1, 0, 0, 0, 1, 1, 2, 2]
    assert _col("romance", "mod") == [-2, -2, -2, 0, 0, 0, 0, 1, 1, 1, 1]
    assert _col("sporting", "mod") == [-2, -2, -2, -2, -2, 0, 0, 0, 1, 1, 1]
    assert _col("business", "mod") == [-2, -1, -1, -1, -1, 0, 1, 1, 1, 2, 2]


def test_prestige_inferred_modifier_columns_ruling_r5() -> None:
    assert _col("literary", "mod") == [-1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]
    assert _col("socializing", "mod") == [-2, -2, -1, 0, 0, 0, 0, 0, 0, 1, 1]
    assert _col("patronage", "mod") == [-2, -2, -1, -1, -1, 0, 1, 1, 1, 1, 1]
    assert _col("carousing", "mod") == [-2, -2, -2, -2, -2, 0, 0, 0, 1, 1, 1]
    assert _col("gambling", "mod") == [-2, -2, -1, 0, 0, 0, 0, 1, 1, 1, 1]


def test_prestige_points() -> None:
    assert _col("fashion", "pp") == [0, -2, -1, 0, 1, 1, 2, 2, 3, 4, 5]
    assert _col("sporting", "pp") == [0] * 6 + [10, 10, 15, 20, 25]
    assert _col("business", "ip") == [0, 0, 0, 0, 0, 0, 10, 15, 20, 25, 25]
    assert _col("patronage", "pp")[:10] == [0, 0, -20, -10, -5, 0, 10, 10, 20, 25]
    assert _col("gambling", "ip") == [0, 0, 0, 0, 0, 2, 2, 3, 4, 5, 10]
    assert _col("craft", "pp") == [0, -10, -5, 0, 0, 0, 1, 2, 3, 5, 10]
    assert _col("craft", "ip") == [0, 0, 0, 0, 0, 0, 1, 2, 3, 5, 10]
    assert _col("socializing", "ip") == [0] * 7 + [1, 2, 0, 5]


def test_prestige_specials() -> None:
    P = T.PRESTIGE_TABLES
    assert "roll_again" in T.lookup(P["literary"], 5)["special"]
    assert "roll_again" in T.lookup(P["craft"], 7)["special"]
    assert "roll_again" in T.lookup(P["gambling"], 6)["special"]
    assert "auto_proposal" in T.lookup(P["romance"], 6)["special"]
    assert "intrigue_card" in T.lookup(P["carousing"], 7)["special"]
    assert T.lookup(P["patronage"], 7)["extra_activities"] == 3
    assert T.lookup(P["carousing"], 8)["extra_activities"] == 2
    assert "any_activity" in T.lookup(P["carousing"], 10)["special"]
    assert "double_ip" in T.lookup(P["carousing"], 11)["special"]
    assert "double_pp" in T.lookup(P["patronage"], 12)["special"]
    assert set(T.lookup(P["business"], 3)["special"]) == {"lose_all_pp", "lose_all_ip"}
    assert "trial" in T.lookup(P["carousing"], 2)["special"]
    assert "hearing" in T.lookup(P["business"], 2)["special"]
    # notes 2, 5, 6: no effect / duel / scandal end the player's activities
    for key, s in (("sporting", 7), ("romance", 2), ("fashion", 2), ("craft", 6)):
        assert "lose_remaining_activities" in T.lookup(P[key], s)["special"]
    assert "lose_remaining_activities" not in T.lookup(P["sporting"], 2)["special"]  # wrongdoing
    notes = T.PRESTIGE_RESULT_NOTES
    assert notes["roll_again"]["optional"] and not notes["roll_again"]["ends_activities"]
    assert notes["duel"]["ends_activities"] and notes["scandal"]["ends_activities"]
    assert notes["no_effect"]["ends_activities"] and notes["trial"]["designate"]


# --- 1.15 Counseling tables -------------------------------------------------

def test_counseling_tables_exist() -> None:
    assert len(T.COUNSELING_TABLES) == 13  # ruling R7
    assert set(T.COUNSELING_TABLES) == set(T.COUNSELING_TABLE_KEYS)
    assert set(T.COUNSELING_TABLE_KEYS) == {"court_ball", "intrigue", "scandal"} | set(T.PROBLEM_KEYS)
    for t in T.COUNSELING_TABLES.values():
        assert [c["id"] for c in t["counsels"]] == [1, 2, 3, 4]
        for c in t["counsels"]:
            assert set(c["modifying_offices"]) <= set(T.OFFICES)
            assert all(isinstance(x, int) and 11 <= x <= 66 for x in c["modifying_characters"])


def test_counseling_spot_checks() -> None:
    C = T.COUNSELING_TABLES
    cb = C["court_ball"]["counsels"]
    assert cb[0]["effect"] == {"code": "gain_pp", "amount": 2} and cb[0]["pp_reward"] == 2
    assert cb[1]["effect"] == {"code": "force_crown_event", "event": "court_ball"}
    assert all(c["modifying_offices"] == () and c["modifying_characters"] == () for c in cb)
    intr = C["intrigue"]["counsels"]
    assert intr[1]["effect"]["office"] == "amb_besyzan"
    assert set(intr[0]["modifying_characters"]) == {46, 51}
    bc4 = C["banking_crisis"]["counsels"][3]
    assert bc4["effect"]["code"] == "players_lose_half_ip" and bc4["effect"]["min_ip"] == 5
    assert set(bc4["modifying_offices"]) == {"minister_of_treasury", "high_minister", "minister_of_justice"}
    assert bc4["modifying_characters"] == (52,)
    ii2 = C["international_incident"]["counsels"][1]
    assert ii2["modified_by_stated_ambassador"] is True
    pir = C["pirates"]["counsels"]
    assert pir[0]["effect"] == {"code": "discharge_minister", "office": "minister_of_navy"}
    assert pir[3]["effect"]["cards"] == ("navy_support",)
    assert set(pir[1]["modifying_offices"]) == {"minister_of_state", "minister_of_navy", "minister_of_treasury"}
    nd = C["natural_disaster"]["counsels"]
    assert nd[1]["effect"] == {"code": "players_lose_ip", "min_ip": 5, "amount": 2}
    assert nd[2]["modifying_offices"] == () and nd[3]["modifying_characters"] == ()
    ag3 = C["agriculture_crisis"]["counsels"][2]
    assert ag3["effect"]["code"] == "wrongdoing" and ag3["modifying_offices"] == ()
    fw4 = C["foreign_war"]["counsels"][3]
    assert fw4["effect"]["foreign_support"] == "at_war" and "army_support" in fw4["effect"]["cards"]
    # duplicate counsels share modifier sets (T1.15)
    assert C["intrigue"]["counsels"][3]["modifying_offices"] == C["treason_trials"]["counsels"][1][
        "modifying_offices"]
    assert C["economic_crisis"]["counsels"][1]["effect"] == C["natural_disaster"]["counsels"][0]["effect"]


# --- 1.16 Optional tables ---------------------------------------------------

def test_optional_tables() -> None:
    fs = T.FOREIGN_SUPPORT
    for n, lo in fs["success_min"].items():
        for die in range(1, 7):
            assert fs["grid"][die][n - 1] == (die >= lo)
    assert T.lookup(T.FANDONIAN_SUPPORT, 5)["success"] is False
    assert T.lookup(T.FANDONIAN_SUPPORT, 6)["success"] is True
    assert T.lookup(T.EMISSARY, 2)["success"] is False and T.lookup(T.EMISSARY, 3)["success"] is True
    assert T.lookup(T.PC_ADVANTAGE, 4)["table_mods"] == {"literary": 2, "court_ball": 2}
    assert T.lookup(T.PC_ADVANTAGE, 6)["start_ip"] == 7
    assert T.lookup(T.PC_ADVANTAGE, 7)["start_pp"] == 20
    assert T.lookup(T.PC_ADVANTAGE, 8)["choose_office"] is True
    assert [T.lookup(T.CLEMENCY, s)["verdict"] for s in (2, 4, 6, 8, 11)] == [
        "executed", "imprisoned", "no_effect", "new_trial", "pardoned"]
    assert [T.lookup(T.CHARITY, s)["pp"] for s in (2, 5)] == [-5, -5]
    assert [T.lookup(T.CHARITY, s)["ip"] for s in (8, 11, 12)] == [1, 2, 2]
    assert T.lookup(T.FUNERAL, 5)["ip"] == -1 and "errata" in T.lookup(T.FUNERAL, 5)
    assert [T.lookup(T.FUNERAL, s)["pp"] for s in range(2, 13)] == [0, -2, -1, 0, 0, 0, 1, 1, 2, 3, 4]
    assert set(T.FANDONIAN_SUPPORT_ELIGIBILITY) <= set(T.SUPPORT_CARD_KEYS)


def test_unresolved_problem_effects() -> None:
    u = T.UNRESOLVED_PROBLEM_EFFECTS
    assert set(u) <= set(T.PROBLEM_KEYS)
    assert u["agriculture_crisis"]["event"] == "famine"
    assert u["natural_disaster"]["event"] == "plague"
    assert u["international_incident"]["problem"] == "foreign_war"
    assert u["townsmen_unrest"]["problem"] == "peasant_unrest"
    assert u["treason_trials"]["edition"] == "errata"
    assert T.UNRESOLVED_PROBLEM_TURNS == 3


# --- 1.18 - 1.20 -------------------------------------------------------------

def test_activities_events_procedures() -> None:
    assert [a["n"] for a in T.ACTIVITIES_CHART] == list(range(1, 20))
    assert len({a["key"] for a in T.ACTIVITIES_CHART}) == 19
    assert T.ACTIVITIES_CHART[16]["rule"] == "§13.4.17"
    assert [e["n"] for e in T.EVENT_CARDS_CHART] == list(range(1, 21))
    illegal = {e["key"] for e in T.EVENT_CARDS_CHART if e["illegal_1981"]}
    assert illegal == {"down_with_the_king", "assassination", "treachery", "intrigue"}
    # T1.20's table has 33 rows although T0 speaks of "32 dice procedures".
    assert len(T.DICE_PROCEDURES) == 33
    assert len({d["key"] for d in T.DICE_PROCEDURES}) == 33
