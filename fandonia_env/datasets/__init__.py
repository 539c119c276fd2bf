"""Minari datasets of the nobles' games, and behaviour cloning from them (docs/datasets.md).

    python -m fandonia_env.datasets create --noble noble-rule-v1 --players 4 --episodes 1000 --preset errata --out data
    MINARI_DATASETS_PATH=data python -c "import minari; print(minari.load_dataset('fandonia/noble-rule-v1-4p-errata-v0'))"
    python -m fandonia_env.datasets check --dataset fandonia/noble-rule-v1-4p-errata-v0 --path data
    python -m fandonia_env.datasets bc --dataset fandonia/noble-rule-v1-4p-errata-v0 --path data --out runs/bc

``create`` writes through Minari's own ``DataCollector`` (``create.py``); ``check`` replays every episode and
holds its action masks to the engine's legal actions; ``bc`` trains the project's masked policy on a dataset
(``bc.py``, with the ``train`` extra).  Needs the ``datasets`` extra (``pip install "fandonia_env[datasets]"``).
"""

from fandonia_env.extras import require_extra

require_extra("datasets", "fandonia_env.datasets")  # one line (and exit 2 on a command line) without it

from .create import DECISION_KINDS, check_dataset, create_dataset, dataset_id_for, project_version  # noqa: E402

__all__ = ["DECISION_KINDS", "check_dataset", "create_dataset", "dataset_id_for", "project_version"]
