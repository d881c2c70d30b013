"""code_lab.ipynb (in docs/): the §11 code lab as a self-contained notebook, executed here.

The cells are the three code_lab/*.py files themselves, minus their `from shared_weights import`
line: a first cell defines the same names with the §08 weights written out as literals, so the
downloaded notebook needs only numpy, torch and keras — not this repository. It is executed once,
here, and committed with its outputs: the site shows them without starting a kernel (so a
preview needs no torch). Deterministic: fixed cell ids, no timings, outputs that print rounded
values only.
"""

from __future__ import annotations

import ast
import pprint
import tempfile

from scripts.generation.cache import ROOT
from scripts.generation.write import Output

DATA = ["code_lab/*.py"]
LAB = ROOT / "code_lab"
# (file, heading, sentence). Headings stay plain text: mkdocs-jupyter's table of contents drops
# inline code from its anchors while nbconvert keeps it in the heading ids.
TABS = (("pytorch", "PyTorch: depth is one argument",
         "`torch.nn.LSTM(..., num_layers=2)` builds the whole stack."),
        ("keras", "Keras: a list of layers",
         "Every layer below the top says `return_sequences=True`, so the next one gets a "
         "sequence to read."),
        ("numpy", "NumPy: the loops both frameworks hide",
         "A loop over time, and inside it the climb: a loop over layers."))

INTRO = r"""# Code lab: a stacked LSTM three ways

One stack, three frameworks, **one shared set of weights**: the two-layer LSTM of the
hand-computed step (input size 1, hidden size 2). Each section builds the stack its own way,
runs the same single timestep $x_t$ from the same previous states, and prints the output
$y_t = h_t^{[2]}$, the output sequence and the final states $(h_n, c_n)$ — one row per layer.

$$
h_t^{[l]} = \mathrm{Cell}^{[l]}\left(h_t^{[l-1]},\; h_{t-1}^{[l]}\right), \qquad h_t^{[0]} = x_t
$$

[Download this notebook](code_lab.ipynb) and run it with `numpy`, `torch` and `keras` installed.
"""

SETUP_MD = r"""## The shared weights

PyTorch's names, shapes and gate order $(i, f, g, o)$; `show` prints every result the same way.
"""

CHECK_MD = r"""## Do the three agree?

They should, to floating-point precision: the same weights, the same input, the same function.
The NumPy tab also reproduces the hand-computed $y_t$ to the fourth decimal.
"""

CHECK = """\
for name, other in (("Keras", y_keras), ("NumPy", y_numpy)):
    print(f"PyTorch and {name} agree to 1e-6:", np.allclose(y_pytorch, other, rtol=0, atol=1e-6))
print("y_t =", np.round(y_numpy, 4))
"""


def _strip_noqa(line: str) -> str:
    return line.split("  # noqa")[0] if "  # noqa" in line else line


def lab_body(name: str) -> str:
    """A lab file without its docstring and its `from shared_weights import ...` line."""
    source = (LAB / f"{name}_lab.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    lines = source.splitlines()
    first = tree.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        lines = lines[first.end_lineno:]
    body = [_strip_noqa(line) for line in lines if not line.startswith("from shared_weights")]
    return "\n".join(body).strip("\n") + f"\ny_{name} = y  # kept for the comparison below\n"


def show_source() -> str:
    """The `show` helper of code_lab/shared_weights.py, verbatim."""
    source = (LAB / "shared_weights.py").read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == "show":
            return ast.get_source_segment(source, node)
    raise RuntimeError("code_lab/shared_weights.py defines no show()")


def setup_source() -> str:
    from stacklib.walkthrough import walkthrough

    w = walkthrough().to_dict()
    def entry(name, value) -> str:
        text = pprint.pformat(value, width=92 - len(name), compact=True)
        return f"    {name!r}: " + text.replace("\n", "\n" + " " * (len(name) + 8)) + ","

    weights = "\n".join(entry(name, value) for name, value in w["weights"].items())
    return (
        "import numpy as np\n\n"
        f"INPUT_SIZE, HIDDEN_SIZE, NUM_LAYERS = {w['input_size']}, {w['hidden_size']}, "
        f"{w['num_layers']}\n"
        "WEIGHTS = {name: np.array(value, dtype=np.float64) for name, value in {\n"
        f"{weights}\n}}.items()}}\n"
        f"X = np.array([[{w['x_t']!r}]])  # (T=1, input_size): one timestep\n"
        f"H0 = np.array({[list(v) for v in w['h_prev']]!r})  # (num_layers, hidden): h_(t-1)\n"
        f"C0 = np.array({[list(v) for v in w['c_prev']]!r})  # (num_layers, hidden): c_(t-1)\n"
        "\n\n" + show_source() + "\n"
    )


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
