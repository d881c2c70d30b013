"""code_lab.ipynb (in docs/): the §11 code lab as a self-contained notebook, executed here.

The cells are the code_lab/*.py files themselves: first shared_weights.py (the §08 weights,
written out), then each tab minus its `from shared_weights import` line, so the downloaded
notebook needs only numpy, torch and keras — not this repository. It is executed once, here,
and committed with its outputs: the site shows them without starting a kernel (so a preview
needs no torch). Deterministic: fixed cell ids, no timings, outputs that print rounded values
only.
"""

from __future__ import annotations

import ast
import tempfile

from scripts.generation.cache import ROOT
from scripts.generation.write import Output

DATA = ["code_lab/*.py"]
LAB = ROOT / "code_lab"
# (file, heading, sentence). Headings stay plain text: mkdocs-jupyter's table of contents drops
# inline code from its anchors while nbconvert keeps it in the heading ids.
TABS = (("pytorch", "PyTorch: depth is one argument",
         "`torch.nn.LSTM(..., num_layers=2)` builds the whole stack and runs every step."),
        ("keras", "Keras: layers wired one into the next",
         "Layer 1 says `return_sequences=True` because layer 2 reads its output at every step; "
         "the weights are PyTorch's, transposed, with the two biases added into one."),
        ("numpy", "NumPy: the loops written out",
         "A loop over time, and inside it the climb: a loop over layers. PyTorch and Keras run "
         "each layer over the whole sequence, then the next; both orders respect the same "
         "dependencies, so the numbers agree."))

INTRO = r"""# Code lab: a stacked LSTM three ways

One stack, three frameworks, **one shared set of weights**: the two-layer LSTM of the
hand-computed step (input size 1, hidden size 2). Each section builds the stack its own way and
runs the same short sequence from the same starting states, so each layer hands its memory
$(h, c)$ from one step to the next. Each prints `output`, the top layer's $h_t^{[2]}$ at every
step (its first row is the hand-computed $y_t$), then `h_n` and `c_n`, every layer's state after
the last step, one row per layer.

$$
h_t^{[l]} = \mathrm{Cell}^{[l]}\left(h_t^{[l-1]},\; h_{t-1}^{[l]}\right), \qquad h_t^{[0]} = x_t
$$

[Download this notebook](code_lab.ipynb) and run it with `numpy`, `torch` and `keras` installed.
"""

SETUP_MD = r"""## The shared weights

PyTorch's names, shapes and gate order $(i, f, g, o)$: the eight rows of each matrix are
i1 i2 f1 f2 g1 g2 o1 o2 (gate, unit), and `bias_hh` is zero, so `bias_ih` is the one bias the
hand computation adds. Then the input sequence, each layer's starting state, and `show`, which
prints every result the same way. On the site this is `code_lab/shared_weights.py`, the file
every tab imports.
"""

CHECK_MD = r"""## Do the three agree?

They should, to floating-point precision: the same weights, the same inputs, the same function.
The first step is the one computed by hand.
"""

CHECK = """\
for name, other in (("Keras", output_keras), ("NumPy", output_numpy)):
    print(f"PyTorch and {name} agree to 1e-6:",
          np.allclose(output_pytorch, other, rtol=0, atol=1e-6))
print("y_t of the first step =", output_numpy[0].round(4).tolist())
"""


def _body(name: str) -> list[str]:
    """The lines of code_lab/<name>.py after its docstring, without `from shared_weights`."""
    source = (LAB / f"{name}.py").read_text(encoding="utf-8")
    lines = source.splitlines()
    first = ast.parse(source).body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        lines = lines[first.end_lineno:]
    return [line for line in lines if not line.startswith("from shared_weights")]


def lab_body(name: str) -> str:
    """A tab's cell: code_lab/<name>_lab.py as the page shows it, minus the shared import."""
    body = "\n".join(_body(f"{name}_lab")).strip("\n")
    return body + f"\noutput_{name} = output  # kept for the comparison below\n"


def setup_source() -> str:
    """The first cell: code_lab/shared_weights.py as the page shows it, minus its docstring."""
    return "\n".join(_body("shared_weights")).strip("\n") + "\n"


def build_notebook():
    import nbformat

    v4 = nbformat.v4
    cells = [v4.new_markdown_cell(INTRO.strip(), id="intro"),
             v4.new_markdown_cell(SETUP_MD.strip(), id="setup-md"),
             v4.new_code_cell(setup_source().strip(), id="setup")]
    for name, title, sentence in TABS:
        cells.append(v4.new_markdown_cell(f"## {title}\n\n{sentence}", id=f"{name}-md"))
        cells.append(v4.new_code_cell(lab_body(name).strip(), id=name))
    cells += [v4.new_markdown_cell(CHECK_MD.strip(), id="check-md"),
              v4.new_code_cell(CHECK.strip(), id="check")]
    nb = v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    })
    nbformat.validate(nb)
    return nb


def execute(nb):
    """Run every cell in a fresh kernel (in an empty folder: the notebook needs no file)."""
    from nbclient import NotebookClient

    with tempfile.TemporaryDirectory(prefix="code-lab-") as folder:
        NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=False,
                       record_timing=False, resources={"metadata": {"path": folder}}).execute()
    return nb


def run(out: Output) -> None:
    import nbformat

    out.text("code_lab.ipynb", nbformat.writes(execute(build_notebook())))
