"""§08 walkthrough and the worked examples, held to the numbers the lecture states."""

import json
import re

import numpy as np
import pytest
import torch

from stacklib import cli
from stacklib.examples import gradient_path_growth, scalar_example
from stacklib.walkthrough import EXPECTED_Y, build_stack, walkthrough


def test_walkthrough_output_rounds_to_seed_values():
    w = walkthrough()
    assert tuple(round(v, 4) for v in w.y) == EXPECTED_Y == (0.7215, -0.0432)


def test_walkthrough_matches_torch_lstm():
    w = walkthrough()
    lstm = torch.nn.LSTM(1, 2, num_layers=2).double()
    lstm.load_state_dict({k: torch.tensor(v, dtype=torch.float64) for k, v in w.weights.items()})
    x = torch.tensor([[w.x_t]], dtype=torch.float64)
    hx = tuple(torch.tensor(s, dtype=torch.float64) for s in (w.h_prev, w.c_prev))
    y, _ = lstm(x, hx)
    np.testing.assert_allclose(y.detach().numpy()[0], w.y, atol=1e-12)


def expit(a):
    return 1.0 / (1.0 + np.exp(-a))


def test_steps_follow_climb_order_and_chain():
    w = walkthrough()
    keys = [(s.layer, s.key) for s in w.steps]
    per_layer = ["a_i", "a_f", "a_g", "a_o", "i", "f", "g", "o", "c", "h"]
    assert keys == [(1, k) for k in per_layer] + [(2, k) for k in per_layer] + [(0, "y")]
    for layer in (1, 2):
        v = {s.key: np.array(s.value) for s in w.layer_steps(layer - 1)}
        for gate in "ifo":
            np.testing.assert_allclose(v[gate], expit(v[f"a_{gate}"]), atol=1e-15)
        np.testing.assert_allclose(v["g"], np.tanh(v["a_g"]), atol=1e-15)
        c_prev = np.array(w.c_prev[layer - 1])
        np.testing.assert_allclose(v["c"], v["f"] * c_prev + v["i"] * v["g"], atol=1e-15)
        np.testing.assert_allclose(v["h"], v["o"] * np.tanh(v["c"]), atol=1e-15)
    assert w.steps[-1].value == w.layer_steps(1)[-1].value


def test_weights_are_one_decimal_numbers():
    for name, rows in walkthrough().weights.items():
        values = np.ravel(rows)
        np.testing.assert_allclose(values, np.round(values, 1), atol=1e-12, err_msg=name)


def test_float32_stack_agrees_to_fourth_decimal():
    w = walkthrough()
    states = (np.array(w.h_prev, np.float32), np.array(w.c_prev, np.float32))
    out = build_stack(np.float32)(np.array([[1.0]], np.float32), states)
    assert tuple(np.round(out.output[0].astype(float), 4)) == EXPECTED_Y


def test_scalar_example_exact():
    ex = scalar_example()
    assert ex["layer1"] == [2.0, 2.0, 4.0]
    assert ex["layer2"] == [2.0, 3.0, 5.5]


def test_gradient_path_growth():
    g = gradient_path_growth(32, 50, 3)
    assert g["shallow"]["recurrent_matrices"] == 1 and g["deep"]["recurrent_matrices"] == 3
    assert g["deep"]["recurrent_params"] == 3 * g["shallow"]["recurrent_params"] == 3 * 32 * 32
    assert g["shallow"]["jacobians_per_path"] == 50 and g["deep"]["jacobians_per_path"] == 52
    assert g["deep"]["paths_to_first_input"] == 1275  # C(51, 2)
    for depth in ("shallow", "deep"):  # both vanish by many orders of magnitude over 50 steps
        assert g[depth]["grad_norm_first_step_bottom"] < 1e-6 * g[depth]["grad_norm_last_step_top"]


def test_cli_params_prints_both_conventions(capsys):
    assert cli.main(["params", "--cell", "lstm", "--layers", "1", "--hidden", "512",
                     "--input", "300"]) == 0
    out = capsys.readouterr().out
    assert "1,665,024" in out and "1,667,072" in out


def test_cli_walkthrough_ends_with_y(capsys):
    assert cli.main(["walkthrough"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]  # the top layer's state, rounded
    assert re.findall(r"-?\d+\.\d+", last) == [f"{v:.4f}" for v in walkthrough().y]
    assert cli.main(["walkthrough", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["y"][0] == pytest.approx(0.7215, abs=5e-5)


def test_cli_reports_bad_arguments(capsys):
    assert cli.main(["params", "--hidden", "0"]) == 2
    assert "hidden_size" in capsys.readouterr().err
