"""docs/training.md and docs/benchmarks.md are references that say what is true now; the history of
attempts and sessions lives in docs/history/ (issue 29)."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"
REFERENCES = ("training.md", "benchmarks.md")
JOURNALS = ("history/training-journal.md", "history/benchmarks-journal.md")
MAX_LINES = 400

# ](target) or ](target#anchor) or ](target "title"); the target stops at whitespace, '#' or ')'
_LINK = re.compile(r"\]\(\s*<?([^)\s#>]*)[^)]*\)")


def relative_link_targets(text: str) -> list[str]:
    """The file part of every relative markdown link (no http(s)/mailto links, no pure #anchors)."""
    return [t for t in _LINK.findall(text) if t and not re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", t)]


def too_long(text: str, limit: int = MAX_LINES) -> bool:
    return len(text.splitlines()) > limit


def test_reference_docs_stay_short_and_history_is_kept() -> None:
    for name in REFERENCES:
        text = (DOCS / name).read_text(encoding="utf-8")
        n = len(text.splitlines())
        assert n <= MAX_LINES, (
            f"docs/{name} has {n} lines (at most {MAX_LINES}): it is a reference of what is true now; "
            f"move the history to docs/{JOURNALS[REFERENCES.index(name)]}")
    for name in JOURNALS:
        assert (DOCS / name).is_file(), f"docs/{name} is missing"

    pages = [DOCS / n for n in REFERENCES] + sorted((DOCS / "history").glob("*.md"))
    broken = []
    for page in pages:
        for target in relative_link_targets(page.read_text(encoding="utf-8")):
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(DOCS.parent)}: ]({target})")
    assert not broken, "relative links to missing files:\n" + "\n".join(broken)

    # the check itself: one line past the limit fails, and links are read as intended
    assert too_long("x\n" * (MAX_LINES + 1)) and not too_long("x\n" * MAX_LINES)
    assert relative_link_targets(
        "[a](../x.png) [b](y.md#sec) [c](https://e.org/z) [d](#here) ![e](f.png \"t\")"
    ) == ["../x.png", "y.md", "f.png"]
