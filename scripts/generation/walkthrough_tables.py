"""§08 hand-computed step: tables of every intermediate, from stacklib.walkthrough.

generated/partials/walkthrough_state.md    the input and the previous states
generated/partials/walkthrough_weights.md  every weight per layer
generated/partials/walkthrough_layer1.md   layer 1's intermediates in climb order
generated/partials/walkthrough_layer2.md   layer 2's
generated/partials/walkthrough_output.md   the output y_t
generated/data/walkthrough.json            Walkthrough.to_dict() for the climb widget
"""

from __future__ import annotations

from scripts.generation.markdown import fmt_num, header_comment, md_table
from scripts.generation.write import Output
from stacklib.config import CELLS


def vec(values) -> str:
    if isinstance(values, int | float):
        return fmt_num(values)
    return "[" + ", ".join(fmt_num(v) for v in values) + "]"


def short(v: float) -> str:
    """Weights and inputs as typed: 0.6, −0.3, 1.0 (up to four decimals, at least one)."""
    text = f"{v:.4f}".rstrip("0")
    return fmt_num(float(text + "0" if text.endswith(".") else text), len(text.split(".")[1]) or 1)


def svec(values) -> str:
    if isinstance(values, int | float):
        return short(values)
    return "[" + ", ".join(short(v) for v in values) + "]"


def tex(s: str) -> str:
    """Inline math for a table cell ('|' would split the cell)."""
    return "$" + s.replace("|", r"\vert ") + "$"


def _steps_table(steps: list[dict], start: int) -> str:
    rows = []
    for n, step in enumerate(steps, start=start):
        rows.append([n, step["label"], tex(step["symbol"]), tex(step["formula"]),
                     f"`{vec(step['value'])}`"])
    return md_table(["#", "Step", "Quantity", "Formula", "Value"], rows, "rllll")


def _state_md(w: dict) -> str:
    L = w["num_layers"]
    lines = [header_comment(__name__).rstrip("\n") + "\n"]
    state_rows = [["input", tex("x_t"), f"`{svec(w['x_t'])}`"]]
    for k in range(L):
        lay = k + 1
        for name, key in (("h", "h_prev"), ("c", "c_prev")):
            state_rows.append([f"layer {lay}", tex(f"{name}_{{t-1}}^{{[{lay}]}}"),
                               f"`{svec(w[key][k])}`"])
    return "\n".join([*lines, md_table(["Where", "Quantity", "Value"], state_rows, "lll")])


def _weights_md(w: dict) -> str:
    H, L = w["hidden_size"], w["num_layers"]
    lines = [header_comment(__name__).rstrip("\n") + "\n"]
    for k in range(L):
        lay = k + 1
        wi, wh = w["weights"][f"weight_ih_l{k}"], w["weights"][f"weight_hh_l{k}"]
        bi, bh = w["weights"][f"bias_ih_l{k}"], w["weights"][f"bias_hh_l{k}"]
        fan_in = len(wi[0])
        rows = []
        for r in range(len(wi)):
            gate, unit = CELLS["lstm"].gate_names[r // H], r % H + 1
            rows.append([f"{gate} · unit {unit}", f"`{svec(wi[r])}`", f"`{svec(wh[r])}`",
                         f"`{short(bi[r])}`", f"`{short(bh[r])}`"])
        src = "x_t" if lay == 1 else f"h_t^{{[{lay - 1}]}}"
        lines.append(f"**Layer {lay}** — reads {tex(src)} (fan-in {fan_in}) and its own "
                     f"{tex(f'h_{{t-1}}^{{[{lay}]}}')}; gate blocks in PyTorch's order "
                     "(i, f, g, o), one row per hidden unit; gate $i$'s rows are "
                     f"{tex(f'W_{{ii}}^{{[{lay}]}}')} in {tex(f'W_{{ih}}^{{[{lay}]}}')} and "
                     f"{tex(f'W_{{hi}}^{{[{lay}]}}')} in {tex(f'W_{{hh}}^{{[{lay}]}}')} "
                     "(named as in §05).\n")
        lines.append(md_table(
            ["Gate row", tex(f"W_{{ih}}^{{[{lay}]}}"), tex(f"W_{{hh}}^{{[{lay}]}}"),
             tex(f"b_{{ih}}^{{[{lay}]}}"), tex(f"b_{{hh}}^{{[{lay}]}}")], rows, "lllll"))
        lines.append("")
    return "\n".join(lines)


def _split(w: dict) -> tuple[dict[int, list[dict]], list[dict]]:
    by_layer: dict[int, list[dict]] = {}
    output = []
    for step in w["steps"]:
        layer = step.get("layer")
        if step.get("key") == "y" or not layer or layer > w["num_layers"]:
            output.append(step)
        else:
            by_layer.setdefault(int(layer), []).append(step)
    return by_layer, output


def run(out: Output) -> None:
    from stacklib.walkthrough import walkthrough

    w = walkthrough().to_dict()
    by_layer, output = _split(w)
    out.text("generated/partials/walkthrough_state.md", _state_md(w))
    out.text("generated/partials/walkthrough_weights.md", _weights_md(w))
    n = 1
    for layer in sorted(by_layer):
        text = header_comment(__name__) + _steps_table(by_layer[layer], n)
        n += len(by_layer[layer])
        out.text(f"generated/partials/walkthrough_layer{layer}.md", text)
    y = w["y"]
    out_text = header_comment(__name__)
    if output:
        out_text += _steps_table(output, n) + "\n"
    out_text += (f"Only the top layer emits: $y_t = h_t^{{[{w['num_layers']}]}}$ "
                 f"= `{vec(y)}` (rounded to four decimals).\n")
    out.text("generated/partials/walkthrough_output.md", out_text)
    out.json("generated/data/walkthrough.json", w)
