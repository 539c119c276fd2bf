"""The Node.js example front end (examples/play_with_bot.mjs) plays a whole game on the real server,
its seat's moves chosen by the stdio bot."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from fandonia_env.serve.client import Client, ServerProcess  # noqa: E402

NODE = shutil.which("node")
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "play_with_bot.mjs"


@pytest.mark.skipif(NODE is None, reason="node (Node.js >= 18) is not installed: the example client cannot run")
@pytest.mark.parametrize("agent", ["noble-rule-v1", None])
def test_node_example_plays_a_game_on_the_server(tmp_path, agent):
    with ServerProcess(str(tmp_path / "g.sqlite3")) as srv:
        cmd = [NODE, str(EXAMPLE), "--server", srv.url, "--players", "3", "--seed", "4", "--max-turns", "2"]
        if agent:
            cmd += ["--agent", agent, "--python", sys.executable]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        res = json.loads(out.stdout.strip().splitlines()[-1])
        assert res["status"] == "over" and res["actions"] > 0
        rp = Client(srv.url).replay(res["game_id"])
        assert sum(1 for a in rp["actions"] if a["seat"] == 0) == res["actions"]
        assert rp["result"] == res["result"]
