"""docs/actions.md and docs/observation.md are generated from the code and current."""

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_actions_doc_is_generated_from_the_catalogue():
    spec = importlib.util.spec_from_file_location("make_docs", ROOT / "scripts" / "make_docs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert (ROOT / "docs" / "actions.md").read_text() == mod.actions_md(), \
        "docs/actions.md is stale: run python scripts/make_docs.py"
    assert (ROOT / "docs" / "observation.md").read_text() == mod.observation_md(), \
        "docs/observation.md is stale: run python scripts/make_docs.py"
