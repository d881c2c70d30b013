"""Linear probes: what a set of states holds, read by a linear model fitted on one set of
positions and scored on another.

Both probes standardise the states with the fitting set's mean and spread, so that one penalty
weighs every unit alike. A multinomial logistic regression (L-BFGS, L2 penalty ``l2`` on the
weights) predicts a class; a ridge regression (penalty ``ridge``) predicts a number. The toy
experiments' probes (``stacklib.experiments.probes``) and the character models'
(``stacklib.charlm.probes``) are both fitted here.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

Predict = Callable[[np.ndarray], np.ndarray]


def _standardiser(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mean and spread of each unit of x (N, H); the spread never 0."""
    return x.mean(0), x.std(0) + 1e-6


def fit_logistic(x: np.ndarray, y: np.ndarray, n_classes: int, l2: float,
                 max_iter: int) -> Predict:
    """A multinomial logistic regression of the classes y (N,) on x (N, H); returns
    predict(z), the class of each row of z."""
    mu, sd = _standardiser(x)
    xt = torch.from_numpy((x - mu) / sd).float()
    yt = torch.from_numpy(np.asarray(y, np.int64))
    w = torch.zeros(x.shape[1], n_classes, requires_grad=True)
    b = torch.zeros(n_classes, requires_grad=True)
    opt = torch.optim.LBFGS([w, b], max_iter=max_iter, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(xt @ w + b, yt) + l2 * (w * w).sum()
        loss.backward()
        return loss

    opt.step(closure)
    w_, b_ = w.detach().numpy(), b.detach().numpy()
    return lambda z: (((z - mu) / sd) @ w_ + b_).argmax(1)


def fit_ridge(x: np.ndarray, y: np.ndarray, ridge: float) -> Predict:
    """A ridge regression of the numbers y (N,) on x (N, H), in float64; returns predict(z)."""
    mu, sd = _standardiser(x.astype(np.float64))
    a = (x.astype(np.float64) - mu) / sd
    n, d = a.shape
    w = np.linalg.solve(a.T @ a / n + ridge * np.eye(d), a.T @ (y - y.mean()) / n)
    return lambda z: ((z.astype(np.float64) - mu) / sd) @ w + y.mean()


def r_squared(y: np.ndarray, predicted: np.ndarray) -> float:
    """The share of y's spread about its own mean that ``predicted`` explains (<= 1)."""
    return float(1 - np.sum((y - predicted) ** 2) / np.sum((y - y.mean()) ** 2))
