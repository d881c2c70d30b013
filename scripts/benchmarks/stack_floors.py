"""Helpers of ``bench_stack.py``: thread pinning, timing in turns, FLOP counts, GEMM floors, the
table.

Imported only after ``bench_stack.py`` has settled the process environment (OpenBLAS variables,
thread counts), because NumPy's BLAS reads them when it is loaded.
"""

from __future__ import annotations

import time

import numpy as np
import torch

GATES = {"rnn": 1, "gru": 3, "lstm": 4}


def pin_threads(n):
    """Both BLAS pools at ``n`` threads: torch explicitly, NumPy's through threadpoolctl."""
    torch.set_num_threads(n)
    try:
        from threadpoolctl import threadpool_info, threadpool_limits
    except ImportError:
        return None, f"threadpoolctl not installed: NumPy BLAS via OPENBLAS_NUM_THREADS={n}"
    limiter = threadpool_limits(limits=n, user_api="blas")  # kept alive by the caller
    pools = [f"{p['internal_api']} {p.get('version') or ''} {p.get('architecture') or ''}"
             f"({p['num_threads']} thr)".replace("  ", " ") for p in threadpool_info()]
    return limiter, "threadpoolctl: " + "; ".join(pools)


def stack_flops(cell, B, L, T, x, h):
    """GEMM flops of one forward pass: 2*T*B*G*H*(in+H) per layer."""
    G = GATES[cell]
    return sum(2 * T * B * G * h * ((x if k == 0 else h) + h) for k in range(L))


def time_in_turns(competitors, groups, *, budget_s, min_reps, max_reps, warmup=2, settle_s=0.0):
    """Time every competitor once per round; return per-round seconds, aligned by round.

    ``groups`` lists names that are compared with each other (e.g. torch.nn forward and NumPy
    forward): they run back to back, in an order that rotates from round to round, so a burst
    of load from a neighbour hits both alike and their per-round ratio stays meaningful.
    ``settle_s``: an untimed busy pause before each timed call, so that the previous
    competitor's idle worker threads (which spin for a while before sleeping) have stopped
    competing for the cores; busy, because after a sleep the first milliseconds run slower.
    """
    names = [n for g in groups for n in g]
    for _ in range(warmup):
        for name in names:
            competitors[name]()
    t0 = time.perf_counter()
    for name in names:
        competitors[name]()
    round_s = max(time.perf_counter() - t0, 1e-6)
    reps = int(min(max_reps, max(min_reps, budget_s / round_s)))
    samples = {name: [] for name in names}
    for r in range(reps):
        k = r % len(groups)
        for group in groups[k:] + groups[:k]:
            j = r % len(group)
            for name in group[j:] + group[:j]:
                settle = time.perf_counter() + settle_s
                while time.perf_counter() < settle:  # busy: a sleeping vCPU wakes up slowly
                    pass
                t = time.perf_counter()
                competitors[name]()
                samples[name].append(time.perf_counter() - t)
    return samples, reps


def gemm_competitors(T, B, h, G):
    """A float32 GEMM shaped like a hoisted input projection (T*B, in+H) @ (in+H, G*H).

    The row count is padded up to at least 1024 so that it also measures a *peak* at B=1.
    """
    m, k, n = max(T * B, 1024), 2 * h, max(G, 4) * h
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    out = np.empty((m, n), np.float32)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    tout = torch.empty(m, n)
    comps = {"gemm numpy": lambda: np.matmul(a, b, out=out),
             "gemm torch": lambda: torch.matmul(ta, tb, out=tout)}
    return comps, 2.0 * m * k * n


def lstm_gemm_floor(np_stack, xn, backward=False, blas="numpy"):
    """The NumPy LSTM's matrix products alone, on preallocated buffers (no elementwise work, no
    allocation): the floor BLAS sets for stacklib.numpy on this machine. The forward's products;
    with ``backward``, also the backward's: per step dh_{t-1} = W_hh^T dg_t, then per layer
    dW_ih = dG X, dW_hh = dG H_prev (bias: a row sum, not a product) and dX = dG^T W_ih.

    ``blas="torch"`` runs the very same products, same shapes and memory layouts, through
    ``torch.matmul`` (MKL) instead of NumPy's OpenBLAS: the two rows side by side show how much
    of the gap to torch.nn is the BLAS library's, not stacklib's."""
    T, B, _ = xn.shape
    rng = np.random.default_rng(0)
    fwd, bwd = [], []  # (a, b, out) of every product, in call order
    for k in np_stack.kernels():
        (G, K), (_, n_in), hid = k.w.shape, k.w_ih.shape, k.w_hh.shape[1]
        f32 = lambda *shape: rng.standard_normal(shape).astype(np.float32)  # noqa: E731
        z, g, dg, carry, d2 = (f32(T + 1, K, B), np.empty((G, B), np.float32), f32(T, G, B),
                               np.empty((hid, B), np.float32), f32(G, T * B))
        if B > 1:  # one [W_ih | b | W_hh] GEMM per step, into one step's buffer (grad=False)
            fwd += [(k.w, z[t], g) for t in range(T)]
        else:  # hoisted input GEMM, then one GEMV per step
            fwd.append((z[:T, : k.wx.shape[1], 0], k.wx.T, np.empty((T, G), np.float32)))
            fwd += [(z[t, : k.wh_t.shape[0], 0], k.wh_t, g[:, 0]) for t in range(T)]
        steps = [(k.w_hh_t, dg[t], carry) if B > 1 else (dg[t, :, 0], k.w_hh, carry[:, 0])
                 for t in range(T - 1, -1, -1)]
        bwd[:0] = [*steps, (d2, f32(T * B, n_in), np.empty((G, n_in), np.float32)),
                   (d2, f32(T * B, hid), np.empty((G, hid), np.float32)),
                   (d2.T, k.w_ih, np.empty((T * B, n_in), np.float32))]  # top layer first
    calls = fwd + bwd if backward else fwd
    outputs = [out for _, _, out in calls]
    if blas == "torch":
        # same memory; a vector as a 1-row matrix (torch resizes a vector out= of vector @ matrix)
        calls = [tuple(torch.from_numpy(a if a.ndim == 2 else a[None]) for a in c) for c in calls]
        mm = torch.matmul
    else:
        mm = np.matmul

    def run():
        for a, b, out in calls:
            mm(a, b, out=out)
    run.outputs = outputs  # NumPy arrays, for tests: what each product wrote
    return run


def format_table(rows):
    head = ("cell", "B", "L", "implementation", "pass", "ms", "x nn", "GFLOP/s", "% peak")
    body = [(r["cell"], str(r["B"]), str(r["L"]), r["impl"], r["pass"], f"{r['ms']:.2f}",
             "—" if r["ratio"] is None else f"{r['ratio']:.2f}", f"{r['gflops']:.1f}",
             f"{r['pct']:.0f}") for r in rows]
    widths = [max(len(c[i]) for c in [head, *body]) for i in range(len(head))]
    lines = []
    for n, cells in enumerate([head, *body]):
        lines.append("  ".join(c.rjust(w) if i in (1, 2) or i >= 5 else c.ljust(w)
                               for i, (c, w) in enumerate(zip(cells, widths, strict=True))))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
