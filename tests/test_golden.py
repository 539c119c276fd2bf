"""Golden playthroughs for 2, 4 and 6 players (and the errata and 1981-all-optional presets), replayed and compared line by line
(decisions, legal choices, actions, digests of every player's view, log)."""

from __future__ import annotations

import json
import pathlib

import pytest

from fandonia_env.engine.face.playthrough import replay

FILES = sorted((pathlib.Path(__file__).parent / "golden").glob("playthrough_*.jsonl"))


def test_golden_files_exist_for_2_4_6_players_and_the_errata_and_all_optional_presets():
    names = {f.name.split("_")[1] for f in FILES}
    assert {"2p", "4p", "6p"} <= names
    presets = {json.loads(f.read_text().splitlines()[0])["config"]["edition"] for f in FILES}
    assert presets == {"1981", "errata"}
    assert any(f.stem.endswith("_1981-all-optional") for f in FILES)
    assert any(f.stem.endswith("_errata") for f in FILES)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_golden_playthrough_replays_identically(path):
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    again = replay(lines)
    for i, (want, got) in enumerate(zip(lines, again)):
        assert got == want, f"{path.name} line {i + 1} differs"
    assert len(again) == len(lines)
