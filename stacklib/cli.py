"""Command line: ``python -m stacklib params …`` and ``python -m stacklib walkthrough``."""

from __future__ import annotations

import argparse
import json
import sys

from stacklib.config import CELLS
from stacklib.params import count_params, param_breakdown


def _params(args) -> str:
    kind = CELLS[args.cell]
    lines = [f"{kind.title}: L={args.layers}, h={args.hidden}, x={args.input}", ""]
    conventions = (("keras", "Keras (one bias per gate block; GRU reset_after: two)"),
                   ("torch", "PyTorch (bias_ih + bias_hh per gate block)"))
    for framework, note in conventions[0 if kind.keras else 1:]:  # Keras' only if it has it
        total = count_params(args.cell, args.input, args.hidden, args.layers, framework)
        lines.append(f"{note}: {total:,}")
        lines.append(f"  {'layer':>5} {'fan-in':>7} {'input W':>12} {'recurrent W':>12} "
                     f"{'biases':>8} {'total':>12}")
        for r in param_breakdown(args.cell, args.input, args.hidden, args.layers, framework):
            lines.append(f"  {r.layer:>5} {r.fan_in:>7} {r.input_weights:>12,} "
                         f"{r.recurrent_weights:>12,} {r.biases:>8,} {r.total:>12,}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _fmt(values) -> str:
    return "[" + ", ".join(f"{v:.4f}" for v in values) + "]"


def _walkthrough(args) -> str:
    from stacklib.walkthrough import walkthrough

    w = walkthrough()
    if args.json:
        return json.dumps(w.to_dict(), indent=2) + "\n"
    lines = [f"One timestep of a 2-layer LSTM (hidden 2, input 1), x_t = {w.x_t}"]
    for k in range(w.num_layers):
        lines.append(f"\nLayer {k + 1}: h_prev = {_fmt(w.h_prev[k])}, c_prev = {_fmt(w.c_prev[k])}")
        for s in w.layer_steps(k):
            lines.append(f"  {s.key:>4}  {s.label:<28} {_fmt(s.value)}")
    lines.append(f"\ny_t = h_t^[2] = {_fmt(w.y)}")
    return "\n".join(lines) + "\n"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m stacklib",
                                     description="Deep & stacked RNNs, computed.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("params", help="price a stack in both conventions, layer by layer")
    p.add_argument("--cell", choices=tuple(CELLS), default="lstm")
    p.add_argument("--layers", type=int, default=3)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--input", type=int, default=100)
    p.set_defaults(run=_params)
    w = sub.add_parser("walkthrough", help="the lecture's hand-computed 2-layer LSTM step")
    w.add_argument("--json", action="store_true", help="every intermediate as JSON")
    w.set_defaults(run=_walkthrough)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        sys.stdout.write(args.run(args))
    except (TypeError, ValueError) as err:
        sys.stderr.write(f"error: {err}\n")
        return 2
    return 0
