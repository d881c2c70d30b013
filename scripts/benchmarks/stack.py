"""The NumPy reference's speed as a ratio to torch.nn, measured side by side (not a test).

A 3-layer LSTM (input 300, hidden 256, T = 50 steps, float32) at B = 32 and B = 1: the forward
pass (torch.nn under ``torch.no_grad()``) and forward + backward (torch.nn with autograd,
stacklib.numpy with its hand-written BPTT), on the same weights and input. Every round runs the
two passes back to back, in alternating order, and keeps the ratio of their times: on a shared
machine absolute times swing by several times within seconds, the ratio of two neighbours far
less. The median ratio over rounds is printed, with the guard: the NumPy forward within 3x of
nn.LSTM.

    python -m scripts.benchmarks.stack                  # about a minute
    python -m scripts.benchmarks.stack --rounds 9 --batch 32
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

X, H, L = 300, 256, 3
GUARD = 3.0  # the NumPy forward may take at most this many times nn.LSTM's


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=15, help="rounds per pass (default 15)")
    p.add_argument("--batch", type=int, nargs="+", default=[32, 1], help="default: 32 1")
    p.add_argument("--seq-len", type=int, default=50, help="T (default 50)")
    return p.parse_args(argv)


def passes(B, T):
    """{pass: (stacklib.numpy's, torch.nn's)}: callables on one set of weights and input."""
    import torch

    from stacklib.numpy import StackedRNN

    torch.manual_seed(0)
    module = torch.nn.LSTM(X, H, L)
    stack = StackedRNN.from_torch(module)
    x, gy = torch.randn(T, B, X), torch.randn(T, B, H)
    xn, gyn = x.numpy(), gy.numpy()

    def torch_forward():
        with torch.no_grad():
            module(x)

    def torch_forward_backward():
        module.zero_grad()
        module(x)[0].backward(gy)

    return {"forward": (lambda: stack(xn), torch_forward),
            "forward+backward": (lambda: stack.backward(stack(xn), gyn),
                                 torch_forward_backward)}


def ratios_in_turns(ours, theirs, rounds: int) -> list[float]:
    """Per round, the time of ``ours`` over the time of ``theirs``, run back to back."""
    ours(), theirs()  # warm-up
    ratios = []
    for r in range(rounds):
        seconds = {}
        for name, fn in (("ours", ours), ("theirs", theirs))[:: 1 if r % 2 == 0 else -1]:
            start = time.perf_counter()
            fn()
            seconds[name] = time.perf_counter() - start
        ratios.append(seconds["ours"] / seconds["theirs"])
    return ratios


def report(name: str, B: int, ratios: list[float]) -> str:
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
    return (f"  {name:<17} B={B:<3d} {statistics.median(ratios):5.2f}x nn.LSTM "
            f"(quartiles {q[0]:.2f}-{q[2]:.2f}, {len(ratios)} rounds)")


def guard_line(forward_ratios: dict[int, float]) -> str:
    worst = max(forward_ratios.values())
    verdict = "met" if worst <= GUARD else "NOT met"
    at = ", ".join(f"B={B}: {r:.2f}x" for B, r in forward_ratios.items())
    return f"guard: stacklib.numpy forward within {GUARD:g}x of nn.LSTM at L={L}: {verdict} ({at})"


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    import numpy as np
    import torch

    print(f"numpy {np.__version__}, torch {torch.__version__} ({torch.get_num_threads()} "
          f"threads); LSTM L={L}, input {X}, hidden {H}, T={args.seq_len}, float32")
    print("stacklib.numpy time / torch.nn time, median over rounds run in turns:")
    forward = {}
    for B in args.batch:
        for name, (ours, theirs) in passes(B, args.seq_len).items():
            ratios = ratios_in_turns(ours, theirs, args.rounds)
            print(report(name, B, ratios), flush=True)
            if name == "forward":
                forward[B] = statistics.median(ratios)
    print(guard_line(forward))
    return 0


if __name__ == "__main__":
    sys.exit(main())
