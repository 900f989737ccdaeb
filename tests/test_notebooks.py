"""Every notebook in notebooks/ is stored without outputs and runs without error.

Each notebook is executed top to bottom with nbclient in a fresh kernel of
*this* interpreter (a kernelspec written to a temporary directory, so a
user-level ``python3`` kernel pointing elsewhere cannot be picked up), with
the working directory set to notebooks/ and matplotlib on the non-GUI Agg
backend. Any cell raising an error fails the test.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
KERNEL = "exactodds-test"
CELL_TIMEOUT = 600  # seconds per cell; a hang must fail, not block CI


def test_there_is_a_getting_started_notebook() -> None:
    assert ROOT / "notebooks" / "getting_started.ipynb" in NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_stored_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    dirty = [i for i, cell in enumerate(nb.cells)
             if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None)]
    assert not dirty, (f"{path.name}: cells {dirty} hold outputs; clear them before committing "
                       f"(jupyter nbconvert --clear-output --inplace {path.relative_to(ROOT)})")


@pytest.fixture(scope="module")
def kernel_manager_factory(tmp_path_factory: pytest.TempPathFactory):
    """Build kernel managers for a kernelspec running this very interpreter."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    kernels = tmp_path_factory.mktemp("kernels")
    spec_dir = kernels / KERNEL
    spec_dir.mkdir()
    pythonpath = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    (spec_dir / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "exactodds tests",
        "language": "python",
        "env": {"MPLBACKEND": "Agg", "PYTHONPATH": pythonpath},
    }))

    def make() -> KernelManager:
        specs = KernelSpecManager(kernel_dirs=[str(kernels)])
        return KernelManager(kernel_name=KERNEL, kernel_spec_manager=specs)

    return make


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_without_error(path: Path, kernel_manager_factory, monkeypatch) -> None:
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        km=kernel_manager_factory(),
        timeout=CELL_TIMEOUT,
        allow_errors=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as e:  # show the failing cell's error
        pytest.fail(f"{path.name}: a cell failed:\n{e}", pytrace=False)
