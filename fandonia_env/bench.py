"""Speed benchmark of the engine and the PettingZoo env, single process, one core.

The code lives in ``fandonia_env.apps.bench``; this module keeps the old import path
and ``python -m fandonia_env.bench``.
"""

from .apps.bench import (
    COLUMNS,
    bench_aec,
    bench_clone_json,
    bench_engine,
    machine,
    main,
    markdown,
    memory_per_env,
    midgame_positions,
    run_bench,
    table,
)

__all__ = [
    "COLUMNS", "bench_aec", "bench_clone_json", "bench_engine", "machine", "main", "markdown", "memory_per_env",
    "midgame_positions", "run_bench", "table",
]

if __name__ == "__main__":
    raise SystemExit(main())
