"""The lecture's worked examples and §09's toy gradient model, from stacklib.examples.

generated/partials/scalar_example.md  t, x_t, layer 1, layer 2 of the scalar two-layer warm-up
generated/partials/growth.md          1 vs 3 layers, H = 32, T = 50: matrices, paths, gradient norm
generated/data/gradient_model.json    §09's toy model: rho^[l] = factor^(L-l) without residual
generated/data/examples.json          both worked examples as numbers
"""

from __future__ import annotations

from scripts.generation.markdown import fmt_int, fmt_sci, header_comment, md_table
from scripts.generation.write import Output
from stacklib.lecture import GRADIENT_MODEL, GROWTH


def num(v: float) -> str:
    """2.0 -> '2', 5.5 -> '5.5' (the worked example's own notation)."""
    return f"{v:g}".replace("-", "\u2212")


def scalar_md(ex: dict) -> str:
    rows = [[t, num(x), num(a), num(b)] for t, (x, a, b)
            in enumerate(zip(ex["inputs"], ex["layer1"], ex["layer2"], strict=True), start=1)]
    header = ["$t$", "input $x_t$", r"layer 1: $h_t^{[1]} = 0.5\,h_{t-1}^{[1]} + x_t$",
              r"layer 2: $h_t^{[2]} = 0.5\,h_{t-1}^{[2]} + h_t^{[1]}$"]
    note = (f"Recurrent weight {num(ex['w_rec'])}, input weight {num(ex['w_in'])}, "
            "$h_0 = 0$ in both layers, computed by `stacklib.examples.scalar_example()`.")
    return header_comment(__name__) + md_table(header, rows, "cccc") + "\n" + note + "\n"


def growth_md(g: dict) -> str:
    s, d = g["shallow"], g["deep"]
    H, T = g["hidden_size"], g["seq_len"]

    rows = [
        ["Recurrent weight matrices", s["recurrent_matrices"], d["recurrent_matrices"]],
        ["Recurrent weights (hidden-to-hidden)", fmt_int(s["recurrent_params"]),
         fmt_int(d["recurrent_params"])],
        ["Jacobians on a path from the last output to $x_1$", s["jacobians_per_path"],
         d["jacobians_per_path"]],
        ["Distinct such paths (where the steps down a layer fall among the steps back in time)",
         fmt_int(s["paths_to_first_input"]), fmt_int(d["paths_to_first_input"])],
        [r"Gradient norm reaching $h_1^{[1]}$ (unit norm injected at $y_T$)",
         fmt_sci(s["grad_norm_first_step_bottom"]), fmt_sci(d["grad_norm_first_step_bottom"])],
    ]
    header = ["", f"1 layer (H = {H}, T = {T})", f"{d['num_layers']} layers (H = {H}, T = {T})"]
    note = ("Computed by `stacklib.examples.gradient_path_growth()`: tanh RNN layers at PyTorch's "
            "default initialisation, one sequence of standard-normal inputs; the gradient norm "
            "comes from stacklib's NumPy backward pass.")
    text = header_comment(__name__) + md_table(header, rows, "lrr") + "\n" + note + "\n"
    return text


def gradient_model() -> dict:
    cfg = GRADIENT_MODEL
    layers = list(range(1, cfg["max_layers"] + 1))
    L, a = cfg["num_layers"], cfg["factor"]
    return {
        "factor": a,
        "num_layers": L,
        "model": "rho[l] = factor**(L - l) without residual; 1 along the identity path with it",
        "at_defaults": {"layer": list(range(1, L + 1)),
                        "plain": [a ** (L - layer) for layer in range(1, L + 1)],
                        "residual": [1.0] * L},
        "bottom_vs_depth": {"num_layers": layers,
                            **{f"{f:.2f}": [f ** (n - 1) for n in layers]
                               for f in cfg["factors"]}},
    }


def run(out: Output) -> None:
    from stacklib.examples import gradient_path_growth, scalar_example

    ex = scalar_example()
    growth = gradient_path_growth(**GROWTH)
    out.text("generated/partials/scalar_example.md", scalar_md(ex))
    out.text("generated/partials/growth.md", growth_md(growth))
    out.json("generated/data/gradient_model.json", gradient_model())
    out.json("generated/data/examples.json", {"scalar": ex, "growth": growth})
