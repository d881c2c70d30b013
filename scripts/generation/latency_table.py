"""§10's measured latency table, from the trained experiments' latency.json.

generated/partials/latency.md  inference time of 3 narrow layers vs 1 layer of the same width
                               (the ×L claim) and vs 1 wide layer of about the same parameter
                               count (the head-to-head table's comparison), each ratio beside
                               the ratio of the multiply-adds the two do
"""

from __future__ import annotations

from scripts.generation.markdown import NBSP, fmt_num, header_comment, md_table
from scripts.generation.write import Output

DATA = ["docs/generated/experiments/latency.json"]
DIGITS = 2  # milliseconds and ratios as the table shows them


def counted(run: dict) -> dict[str, float]:
    """The multiply-add ratios behind a run's two measured ratios (LSTM stacks)."""
    from stacklib.params import multiply_adds

    h, d = run["hidden"], run["input_size"]
    deep = multiply_adds("lstm", d, h["deep"], run["layers_deep"])
    return {"narrow1": deep / multiply_adds("lstm", d, h["narrow1"], 1),
            "wide": deep / multiply_adds("lstm", d, h["wide"], 1)}


def _latency(result: dict) -> str:
    d = DIGITS
    rows = []
    for run in result["runs"]:
        h = run["hidden"]
        scale = "the depth-vs-width sizes" if run["scale"] == "seed" else "the trained sizes"
        rows.append([
            f"{scale}: D = {run['input_size']}, T = {run['seq_len']}, B = {run['batch']}",
            f"{fmt_num(run['ms']['narrow1'], d)} ms (1×{h['narrow1']})",
            f"{fmt_num(run['ms']['deep'], d)} ms ({run['layers_deep']}×{h['deep']})",
            f"{fmt_num(run['ms']['wide'], d)} ms (1×{h['wide']})",
            f"×{fmt_num(run['ratio_deep_narrow1'], d)} (×{fmt_num(counted(run)['narrow1'], d)})",
            f"×{fmt_num(run['ratio_deep_wide'], d)} (×{fmt_num(counted(run)['wide'], d)})",
        ])
    table = md_table(["LSTM forward pass", "1 layer, same width", "deep & narrow",
                      "shallow & wide", "deep ÷ same width (multiply-adds)",
                      "deep ÷ wide (multiply-adds)"], rows)
    cfg = result["config"]
    threads = f"{cfg['threads']} thread" + ("" if cfg["threads"] == 1 else "s")
    note = (f"\nMedian of {cfg['rounds']} rounds{NBSP}×{NBSP}{cfg['reps']} repetitions, timed in "
            f"turns in one process with {threads}, `torch.nn.LSTM`, CPU "
            "(`stacklib.experiments.latency`). In parentheses, the same ratio of multiply-adds "
            "per step (every weight used once, `stacklib.params.param_breakdown`). Times vary "
            "from machine to machine, and so do the ratios wherever they differ from the "
            "multiply-adds'.\n")
    return header_comment(__name__) + table + note


def run(out: Output) -> None:
    out.text("generated/partials/latency.md", _latency(out.read_json(DATA[0])))
