"""Parameter pricing against both frameworks and the seed's depth-vs-width numbers."""

import pytest

from stacklib.config import torch_nn_class
from stacklib.params import count_params, language_model_params, param_breakdown


@pytest.mark.parametrize(("cell", "x", "h", "num_layers"), [  # every cell and depth 1..4
    ("rnn", 1, 2, 1), ("gru", 100, 128, 2), ("lstm", 7, 3, 3), ("rnn", 7, 3, 4),
    ("gru", 1, 2, 3), ("lstm", 100, 128, 4)])
def test_torch_convention_equals_numel(cell, x, h, num_layers):
    module = torch_nn_class(cell)(x, h, num_layers=num_layers)
    assert count_params(cell, x, h, num_layers) == sum(p.numel() for p in module.parameters())


@pytest.mark.parametrize(("cell", "layers", "residual"), [("lstm", 3, True), ("gru", 1, False)])
def test_a_language_models_count_is_its_numel(cell, layers, residual):
    """Embedding, stack and readout: every parameter stacklib.lm's model holds."""
    from stacklib.lm.model import LM, LMConfig, parameter_count

    model = LM(LMConfig.of(77, embed_size=16, hidden_size=24, num_layers=layers, cell=cell,
                           residual=residual))
    assert language_model_params(77, 16, 24, layers, cell) == parameter_count(model)


def test_breakdown_shows_fan_in_jump():
    for cell in ("rnn", "gru", "lstm"):
        rows = param_breakdown(cell, 100, 128, 3)
        assert [r.fan_in for r in rows] == [100, 128, 128]
        assert rows[0].total != rows[1].total and rows[1].total == rows[2].total
        for r in rows:
            assert r.total == r.input_weights + r.recurrent_weights + r.biases, cell


def test_seed_depth_vs_width_counts():
    # The seed's head-to-head table (one-bias Keras convention) and PyTorch's beside it.
    assert count_params("lstm", 300, 512, 1, framework="keras") == 1_665_024
    assert count_params("lstm", 300, 256, 3, framework="keras") == 1_620_992
    assert count_params("lstm", 300, 512, 1) == 1_667_072
    assert count_params("lstm", 300, 256, 3) == 1_624_064


def test_keras_gru_keeps_two_biases():
    one_layer = param_breakdown("gru", 10, 4, 1, framework="keras")[0]
    assert one_layer.biases == 2 * 3 * 4


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(cell="cnn"), ValueError, "cell"),
        (dict(num_layers=0), ValueError, "num_layers"),
        (dict(hidden_size=0), ValueError, "hidden_size"),
        (dict(input_size=-3), ValueError, "input_size"),
        (dict(num_layers=2.5), TypeError, "num_layers"),
        (dict(framework="jax"), ValueError, "framework"),
        (dict(framework=None), TypeError, "framework"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    args = dict(cell="lstm", input_size=3, hidden_size=4, num_layers=2) | kwargs
    with pytest.raises(error, match=match):
        count_params(**args)
