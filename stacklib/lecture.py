"""The lecture's parameters in one place: the examples' sizes, the §08 weights, the widgets'
ranges and the trained experiments' models and grids.

The generators (scripts/generation/), the worked examples (stacklib.examples,
stacklib.walkthrough) and the experiments' default configs (stacklib.experiments) all read them
from here, so a page, its figure, its widget and the test that ties them use one value. Plain
data: no imports, nothing computed but the cases spelled out from the shapes above them.
"""

# §03 warm-up: a scalar two-layer linear RNN (no bias) reading three inputs.
SCALAR_INPUTS = (2.0, 1.0, 3.0)
SCALAR_W_REC = 0.5  # recurrent weight, both layers
SCALAR_W_IN = 1.0  # input weight, both layers

# §05 pricing: the cells priced, the tables' sizes, which are the price widget's defaults (with
# the cell it opens on), and its slider ranges.
PRICE_CELLS = ("rnn", "gru", "lstm")
PRICE_DEFAULTS = {"num_layers": 3, "hidden_size": 128, "input_size": 100, "cell": "lstm"}
PRICE_MAX_LAYERS = 8
PRICE_MAX_SIZE = 1024  # the largest hidden and input size the sliders offer

# §08 hand-computed step: one timestep of a two-layer LSTM, input size 1, hidden size 2, in
# PyTorch's names and gate order (i, f, g, o), two rows (units) per gate. One-decimal weights,
# found by a seeded search for an output that rounds to WALKTHROUGH_Y; bias_hh is zero, so
# bias_ih is the single bias a reader adds (the one Keras would hold).
WALKTHROUGH_X_T = 1.0
WALKTHROUGH_H_PREV = ((0.3, -0.2), (0.1, 0.4))  # h_{t-1}^[1], h_{t-1}^[2]
WALKTHROUGH_C_PREV = ((0.5, -0.4), (1.4, -1.5))  # c_{t-1}^[1], c_{t-1}^[2]
WALKTHROUGH_WEIGHTS = {  # rows: i1 i2 f1 f2 g1 g2 o1 o2 (gate, unit)
    "weight_ih_l0": ((0.6,), (-0.4,), (-0.7,), (-0.3,), (-0.1,), (0.5,), (-0.1,), (-0.7,)),
    "weight_hh_l0": ((-0.3, 0.2), (0.5, 0.4), (0.8, -0.5), (0.6, -0.8),
                     (0.1, -0.4), (-0.5, 0.3), (-0.3, 0.1), (-0.4, -0.6)),
    "bias_ih_l0": (0.4, -0.1, 0.3, 0.3, 0.8, -0.1, -0.5, 0.2),
    "weight_ih_l1": ((0.2, -0.6), (0.6, 0.0), (0.7, -0.2), (-0.3, -0.3),
                     (-0.6, -0.6), (0.8, 0.0), (-0.8, -0.3), (-0.5, 0.8)),
    "weight_hh_l1": ((0.0, 0.1), (-0.6, 0.4), (-0.2, -0.6), (0.6, -0.5),
                     (0.3, 0.3), (0.0, -0.2), (0.8, 0.0), (-0.7, -0.4)),
    "bias_ih_l1": (0.5, 0.0, 0.0, -0.6, 1.0, 0.8, 2.0, 0.6),
}
WALKTHROUGH_Y = (0.7215, -0.0432)  # the output the lecture states, to four decimals

# §09: how paths multiply with depth (tanh RNN layers), and the toy model of the gradient that
# reaches layer l, g[l] = factor^(L - l), with the widget's factor slider.
GROWTH = {"hidden_size": 32, "seq_len": 50, "num_layers": 3}
GRADIENT_MODEL = {"factor": 0.60, "num_layers": 4, "max_layers": 8, "factors": (0.3, 0.6, 0.9)}
GRADIENT_FACTOR_SLIDER = {"min": 0.05, "max": 1.0, "step": 0.05}
GRADIENT_WIDGET_CELL = "lstm"  # the measured stack §09's widget opens on

# §10 depth vs width: one parameter budget spent on one wide layer or three narrow ones
# (the head-to-head table, its figure, the verdict widget, the quiz, the latency timing).
DEPTH_VS_WIDTH = {"cell": "lstm", "input_size": 300, "wide": (1, 512), "deep": (3, 256)}

# The trained toy experiments (stacklib.experiments): TrainConfig fields of their models ...
HERO_STACK = {"num_layers": 3, "hidden_size": 32, "embed_size": 24, "steps": 1500,
              "batch_size": 64, "lr": 0.005, "curve_every": 100, "stop_at": 0.99}
LIVE_STACK = {"num_layers": 2, "hidden_size": 16, "embed_size": 16, "steps": 1500,
              "batch_size": 64, "lr": 0.01, "curve_every": 100, "stop_at": 0.99}
DEPTH_DATA_MODEL = {"num_layers": 1, "hidden_size": 32, "embed_size": 24, "steps": 300,
                    "batch_size": 32, "lr": 0.01, "residual": True}
# ... and their grids.
SEEDS = (0, 1, 2)  # every trained configuration, and the gradient measurements
DEPTH_DATA_DEPTHS = (1, 2, 3, 4)
DEPTH_DATA_SIZES = (50, 150, 400, 1000, 3000)  # training sentences
GRADIENT_FLOW = {"depths": (1, 2, 3, 4, 5, 6, 7, 8), "grid_depths": (4, 8), "seq_len": 20,
                 "hidden_size": 32, "input_size": 32, "batch": 16}
# Latency cases (scale, input size, deep hidden, deep layers, wide hidden or 0 = matched,
# batch, sequence length): the trained hero stack's shapes, then §10's, each at B = 1 and 32.
LATENCY_CASES = (
    *(("trained", HERO_STACK["embed_size"], HERO_STACK["hidden_size"], HERO_STACK["num_layers"],
       0, batch, 10) for batch in (1, 32)),
    *(("seed", DEPTH_VS_WIDTH["input_size"], DEPTH_VS_WIDTH["deep"][1], DEPTH_VS_WIDTH["deep"][0],
       DEPTH_VS_WIDTH["wide"][1], batch, 50) for batch in (1, 32)),
)
