"""stacklib.linear_probes: the one logistic and the one ridge probe, fitted on one set of
positions and scored on another."""

from __future__ import annotations

import numpy as np
import pytest

from stacklib.linear_probes import fit_logistic, fit_ridge, r_squared


@pytest.fixture
def states():
    rng = np.random.default_rng(0)
    return rng.standard_normal((4000, 8)), rng.standard_normal(4000)


def test_the_ridge_probe_reads_a_linear_count_and_not_noise(states):
    x, noise = states
    y = 2 * x[:, 0] - x[:, 3]
    assert r_squared(y[3000:], fit_ridge(x[:3000], y[:3000], 1e-3)(x[3000:])) > 0.999
    assert r_squared(noise[3000:], fit_ridge(x[:3000], noise[:3000], 1e-3)(x[3000:])) < 0.01
    assert r_squared(y, np.full_like(y, y.mean())) == 0.0        # the mean explains nothing


def test_the_logistic_probe_separates_what_a_line_separates(states):
    x, noise = states
    labels = np.argmax(x[:, :3], axis=1)
    predict = fit_logistic(x[:3000], labels[:3000], 3, l2=1e-3, max_iter=100)
    assert np.mean(predict(x[3000:]) == labels[3000:]) > 0.95
    chance = fit_logistic(x[:3000], (noise[:3000] > 0).astype(np.int64), 2, 1e-3, 100)
    assert abs(np.mean(chance(x[3000:]) == (noise[3000:] > 0)) - 0.5) < 0.05


def test_probes_standardise_each_unit_by_the_fitting_positions(states):
    """A unit measured on another scale or offset is the same unit to a probe."""
    x, _ = states
    y = 2 * x[:, 0] - x[:, 3]
    labels = np.argmax(x[:, :3], axis=1)
    scaled = x * np.array([1000.0, 1, 1, 0.001, 1, 1, 1, 1]) + 50.0
    np.testing.assert_allclose(fit_ridge(scaled[:3000], y[:3000], 1e-3)(scaled[3000:]),
                               fit_ridge(x[:3000], y[:3000], 1e-3)(x[3000:]), atol=1e-4)
    same = fit_logistic(x[:3000], labels[:3000], 3, 1e-3, 100)(x[3000:])
    assert np.mean(fit_logistic(scaled[:3000], labels[:3000], 3, 1e-3, 100)(scaled[3000:])
                   == same) > 0.99
