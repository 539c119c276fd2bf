"""scripts/screenshots.py: one screenshot of the play page per decision kind, made from a saved game whose
pending decision is of that kind (reached as tests/test_wording.py reaches it) and started on the real server.

Here it runs for a sample of rare kinds into a temporary directory, in real headless Chromium (Debian's
`chromium` driven by Playwright): each page shows the decision for the deciding seat, its question and options
in plain words (no snake_case word, no `rel:`, no bare `§`), without script errors, and its PNG is written.
A kind the script cannot reach is reported and makes it exit non-zero."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx")

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "screenshots.py"
# rare kinds: three met in the random games (a usurpation's Support cards, losing PP over the limit, choosing the
# victim of an assassination), a bribe's amount, and one from a builder position (the marriage rule, D97)
SAMPLE = ["usurp_support", "pp_limit_lose", "assassination_target", "bribe_amount", "marriage_spouse"]


@pytest.fixture(scope="module")
def screenshots():
    spec = importlib.util.spec_from_file_location("fandonia_screenshots", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # (its dataclasses look their module up)
    try:
        spec.loader.exec_module(mod)
        yield mod
    finally:
        sys.modules.pop(spec.name, None)


def test_every_engine_kind_is_known_to_the_script(screenshots):
    kinds = screenshots.all_kinds()
    assert len(kinds) == 100 and {"halt", "turn_main", "usurp_support"} <= set(kinds) and "other" not in kinds


def test_a_kind_without_a_screenshot_is_reported_and_fails_the_run(screenshots, monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(screenshots, "positions", lambda kinds: ({}, {k: ["never met (test)"] for k in kinds}))
    assert screenshots.main(["--kinds", "halt", "--out", str(tmp_path)]) == 1
    assert "NOT RENDERED halt: never met (test)" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        screenshots.main(["--kinds", "no_such_kind", "--out", str(tmp_path)])


def test_rare_kinds_are_rendered_in_plain_words(screenshots, tmp_path):
    if shutil.which("chromium") is None and shutil.which("chromium-browser") is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium; .ci/run installs it)")
    pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    shots, missing = screenshots.render(SAMPLE, str(tmp_path), log=lambda line: None)
    assert not missing, missing
    assert sorted(shots) == sorted(SAMPLE)
    raw = screenshots.RAW
    for kind, s in shots.items():
        assert s.failed is None and not s.errors, (kind, s.failed, s.errors)
        assert s.png == str(tmp_path / f"decision-{kind}.png")
        data = Path(s.png).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(data[16:20], "big") == 1400, kind
        assert len(s.prompt.split()) >= 3, (kind, s.prompt)  # a sentence
        assert f"you are Player {s.seat} " in s.who, (kind, s.seat, s.who)  # the deciding seat's page
        assert s.options, kind
        for text in [s.prompt, s.text, *s.options]:
            assert not raw.search(text), (kind, raw.search(text).group(0), text)
        assert s.raw == []
