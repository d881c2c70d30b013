"""The results the lecture's prose types, computed by stacklib: generated/data/prose_numbers.json.

``REGISTRY`` maps each literal result string typed in ``docs/*.md`` (outside code fences,
inline code and snippet lines) to the pages that state it and a function that computes it with
stacklib. The generator writes, per literal, stacklib's value and the pages; the prose test
(tests/test_prose_numbers.py, which needs no torch: `make check-docs` runs it) holds the pages
to it: every literal equals its value and still appears on its pages, and every other number in
the prose is on the test's short allowlist of non-results. To change a result, change stacklib
(or its configuration), then the prose and this registry, and regenerate.
"""

from __future__ import annotations

from collections.abc import Callable

from scripts.generation import charlm_facts as facts
from scripts.generation.write import Output
from scripts.study.plan import SHAPES
from scripts.study.summary import LATE_WINDOW
from scripts.study.tuned import Search
from scripts.study.tuned_summary import NEAR_BEST
from scripts.study.verdict import EQUIVALENCE_LEVEL, LEVEL, MARGIN
from stacklib.params import count_params, param_breakdown

DATA = ["docs/generated/experiments/depth_data.json", *facts.DATA]
OUTPUT = "generated/data/prose_numbers.json"
HOME, TESTBEDS, BLUEPRINT, CELLS, LIVE, LAYERS, HAND, VANISH, VERDICT, DATA_PAGE, SUMMARY, QUIZ = (
    "index.md", "01-testbeds.md", "03-blueprint.md", "05-cell-flavors.md", "06-live-stack.md",
    "06b-shakespeare-layers.md", "08-hand-computed.md", "09-vanishing-paths.md", "10-verdict.md",
    "10b-depth-and-data.md", "12-summary.md", "13-mastery-check.md",
)
WIDE, RESIDUAL, PLAIN3, _ = SHAPES
# Sutskever, Vinyals & Le (2014) report their translation model's size: a literature figure.
SUTSKEVER_PARAMS = 384e6
# The toy study's results, read once per run through its Output (which allows only DATA files).
_TRAINED: dict = {}


def _read(rel: str):
    if rel not in _TRAINED:
        _TRAINED[rel] = _TRAINED["out"].read_json(rel)
    return _TRAINED[rel]


# ---------------------------------------------------------------- formatting helpers
def _all(*literals: str) -> str:
    """One literal that the prose types for several results: their common literal, or all of
    them (which the prose test then reports as changed)."""
    return literals[0] if len(set(literals)) == 1 else " / ".join(literals)


def _dec3(v: float) -> str:
    return f"{v:.3f}"


def _int(v: int) -> str:
    return f"{v:,}"


def _dec4(v: float) -> str:
    return f"{v:.4f}"


def _num(v: float) -> str:
    """2.0 -> "2", 5.5 -> "5.5" (the scalar example's exact values)."""
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def _seq(values) -> str:
    return ", ".join(_num(v) for v in values)


def _keras(cell, x, h, layers):
    return count_params(cell, x, h, layers, framework="keras")


def _torch(cell, x, h, layers):
    return count_params(cell, x, h, layers, framework="torch")


def _layer(cell, x, h, layers, k, field, framework="torch"):
    return getattr(param_breakdown(cell, x, h, layers, framework)[k - 1], field)


def _walk_y(i: int) -> float:
    from stacklib.walkthrough import walkthrough

    return walkthrough().y[i]


def _scalar(key: str):
    from stacklib.examples import scalar_example

    return scalar_example()[key]


def _gradient_flow(key: str):
    from stacklib.lecture import GRADIENT_FLOW

    return GRADIENT_FLOW[key]


def _growth(depth: str, key: str) -> int:
    from stacklib.examples import gradient_path_growth

    return gradient_path_growth(hidden_size=32, seq_len=50, num_layers=3)[depth][key]


def _growth_slope(layer: int) -> str:
    from stacklib.examples import growth_tanh_slopes

    return f"{growth_tanh_slopes(hidden_size=32, seq_len=50, num_layers=3)[layer - 1]:.2f}"


def _depth_data_passes(size: str) -> str:
    """Passes over the smallest or largest §10 training set in the fixed step budget."""
    data = _read("docs/generated/experiments/depth_data.json")
    base, n = data["config"]["base"], (min if size == "smallest" else max)(data["sizes"])
    passes = base["steps"] * base["batch_size"] / n
    return f"{float(f'{passes:.2g}'):g}"


def _depth_data_size(size: str) -> str:
    data = _read("docs/generated/experiments/depth_data.json")
    return _int((min if size == "smallest" else max)(data["sizes"]))


def _toy_factor(i: int) -> str:
    from stacklib.lecture import GRADIENT_MODEL

    return f"{GRADIENT_MODEL['factors'][i]:.2f}"


# ---------------------------------------------------------------- the registry
# literal as typed in the prose (ASCII hyphen-minus; the scanner maps U+2212 to it)
#   -> (pages that state it, function computing the same literal from stacklib)
REGISTRY: dict[str, tuple[tuple[str, ...], Callable[[], str]]] = {
    # §10 depth vs width: LSTM, input 300, 1x512 vs 3x256, both conventions
    "1,665,024": ((VERDICT, QUIZ), lambda: _int(_keras("lstm", 300, 512, 1))),
    "1,620,992": ((VERDICT, QUIZ), lambda: _int(_keras("lstm", 300, 256, 3))),
    "1,667,072": ((VERDICT, QUIZ), lambda: _int(_torch("lstm", 300, 512, 1))),
    "1,624,064": ((VERDICT,), lambda: _int(_torch("lstm", 300, 256, 3))),
    "2,048": ((QUIZ,), lambda: _int(_torch("lstm", 300, 512, 1) - _keras("lstm", 300, 512, 1))),
    # §05 price at the defaults L=3, H=128, D=100
    "381,952": ((CELLS, QUIZ), lambda: _int(_torch("lstm", 100, 128, 3))),
    "380,416": ((CELLS,), lambda: _int(_keras("lstm", 100, 128, 3))),
    "117,760": ((CELLS, QUIZ), lambda: _int(_torch("lstm", 100, 128, 1))),
    "132,096": ((CELLS, QUIZ), lambda: _int(_layer("lstm", 100, 128, 3, 2, "total"))),
    "99,072": ((CELLS,), lambda: _int(_layer("gru", 100, 128, 3, 2, "total"))),
    "33,024": ((CELLS,), lambda: _int(_layer("rnn", 100, 128, 3, 2, "total"))),
    "51,200": ((CELLS,), lambda: _int(_layer("lstm", 100, 128, 3, 1, "input_weights"))),
    "65,536": ((CELLS,), lambda: _int(_layer("lstm", 100, 128, 3, 2, "input_weights"))),
    # §08 hand-computed two-layer LSTM step
    "0.7215": ((HAND, QUIZ), lambda: _dec4(_walk_y(0))),
    "-0.0432": ((HAND, QUIZ), lambda: _dec4(_walk_y(1))),
    # §03 warm-up (recalled in §08): the scalar example
    "2, 1, 3": ((BLUEPRINT, HAND, QUIZ), lambda: _seq(_scalar("inputs"))),
    "2, 2, 4": ((BLUEPRINT, HAND, QUIZ), lambda: _seq(_scalar("layer1"))),
    "2, 3, 5.5": ((BLUEPRINT, HAND, QUIZ), lambda: _seq(_scalar("layer2"))),
    "5.5": ((BLUEPRINT, HAND, QUIZ), lambda: _num(_scalar("layer2")[-1])),
    "0.5": ((BLUEPRINT, QUIZ), lambda: _num(_scalar("w_rec"))),
    # §09 the measured panels: the sequence length of the stacks measured at initialisation
    "20": ((VANISH,), lambda: str(_gradient_flow("seq_len"))),
    # §09 the growth example: hidden size 32, 50 steps, 1 vs 3 layers (tanh RNN)
    "1,024": ((VANISH,), lambda: _int(_growth("shallow", "recurrent_params"))),
    "3,072": ((VANISH,), lambda: _int(_growth("deep", "recurrent_params"))),
    "52": ((VANISH,), lambda: _int(_growth("deep", "jacobians_per_path"))),
    "1,275": ((VANISH,), lambda: _int(_growth("deep", "paths_to_first_input"))),
    # §09 why the stack's gradient is not the smaller one: mean tanh slope per layer
    "0.74": ((VANISH,), lambda: _growth_slope(1)),
    "0.88": ((VANISH,), lambda: _growth_slope(2)),
    "0.92": ((VANISH,), lambda: _growth_slope(3)),
    # §10 depth x data design: passes over the smallest set in the fixed budget, largest set
    "190": ((DATA_PAGE,), lambda: _depth_data_passes("smallest")),
    "3,000": ((DATA_PAGE,), lambda: _depth_data_size("largest")),
    # the Shakespeare study (§06 timescales, §09 eight layers, §10 budget and data)
    "200": ((LIVE,), lambda: str(facts.timescale_config().context)),
    "1,500": ((VANISH,), lambda: _int(facts.plan_constant("SHORT_STEPS"))),
    "25": ((VANISH,), lambda: str(facts.deep_grad_every())),
    "64": ((VERDICT,), lambda: str(facts.one_recipe_base().model.embed_size)),
    "8": ((VANISH, HOME), lambda: str(facts.deep_layers())),
    "6,000": ((VANISH, VERDICT, DATA_PAGE), lambda: _int(facts.one_recipe_base().train.max_steps)),
    "0.11": ((VERDICT,), lambda: facts.late_gap_bound(min)),
    "0.15": ((VERDICT,), lambda: facts.late_gap_bound(max)),
    "5,000": ((VERDICT,), lambda: _int(facts.last_budget_swap())),
    "31,250": ((DATA_PAGE,), lambda: _int(facts.plan_constant("DATA_SIZES")[0])),
    "125,000": ((DATA_PAGE,), lambda: _int(facts.plan_constant("DATA_SIZES")[1])),
    "3.9": ((DATA_PAGE,), lambda: f"{len(facts.corpus().train.text) / 1e6:.1f}"),
    "3.3": ((DATA_PAGE,), lambda: f"{facts.data_params_ratio():.1f}"),
    # §01: the one rule that compares two models (scripts/study/verdict.py), stated where defined
    # and where a page names a level
    "95": ((TESTBEDS, LAYERS, VERDICT, DATA_PAGE), lambda: f"{100 * LEVEL:.0f}"),
    "90": ((TESTBEDS, VANISH), lambda: f"{100 * EQUIVALENCE_LEVEL:.0f}"),
    # ... the margin of equivalence
    "0.025": ((TESTBEDS, VERDICT), lambda: f"{MARGIN:g}"),
    # §10 "More layers, same width": two plain layers against one, with its 95 % interval
    "0.081": ((VERDICT,), lambda: _dec3(-facts.plain_two_vs_one().diff)),
    "-0.170": ((VERDICT,), lambda: _dec3(facts.plain_two_vs_one().ci95[0])),
    # §10 "Four budgets, one recipe": depth against width across budgets; the residual stack's
    # differences from the wide layer, lowest and highest, and its trend per doubling
    "-0.026": ((VERDICT,), lambda: _dec3(min(facts.scale_gaps(RESIDUAL)))),
    "0.003": ((VERDICT,), lambda: _dec3(max(facts.scale_gaps(RESIDUAL)))),
    "-0.004": ((VERDICT,), lambda: _dec3(facts.residual_trend()["ci95"][0])),
    "0.026": ((VERDICT,), lambda: _dec3(facts.residual_trend()["ci95"][1])),
    "0.011": ((VERDICT,), lambda: _dec3(facts.residual_trend()["per_doubling"])),
    "0.14": ((VERDICT,), lambda: f"{min(facts.scale_gaps(PLAIN3)):.2f}"),
    "0.17": ((VERDICT,), lambda: f"{max(facts.scale_gaps(PLAIN3)):.2f}"),
    "500": ((VERDICT,), lambda: f"{round(SUTSKEVER_PARAMS / facts.largest_model(), -2):.0f}"),
    "1,000": ((VERDICT,), lambda: _int(LATE_WINDOW)),
    # the last 1,000 steps' gain below the reference budget
    "0.032": ((VERDICT,), lambda: facts.late_gain_below(1.0)),
    "12,000": ((VERDICT,), lambda: _int(max(facts.plan_constant("SCALE_STEPS").values()))),
    "7,750": ((VERDICT,), lambda: _int(facts.largest_budget_last_stop())),
    # the top of two plain layers' interval; the larger of the residual and wide layers' gains
    # past the usual cap
    "0.009": ((VERDICT,), lambda: _dec3(facts.plain_two_vs_one().ci95[1])),
    "0.001": ((VERDICT,), lambda: max(facts.scale_gain_past_cap(RESIDUAL),
                                      facts.scale_gain_past_cap(WIDE), key=float)),
    # §10 "The search": how close to its best a rate must come (also, at twice the budget,
    # what the rule's dropout gained the residual stack on validation)
    "0.03": ((VERDICT,), lambda: _all(f"{NEAR_BEST:g}",
                                      f"{-facts.check_dropout_cost('x2', RESIDUAL):.2f}")),
    # ... how long stage A2's runs were, and the dropout its rates were chosen with
    "4,000": ((VERDICT,), lambda: _int(Search().a2_steps)),
    # ... and how much dropout the rule adds per doubling of the budget
    "0.1": ((VERDICT,), lambda: _all(f"{Search().probe_dropout:g}",
                                     f"{Search().dropout_per_doubling:g}")),
    # the tuned study at the reference budget (§10 "Each shape tuned"): the residual stack's
    # lead over the wide layer; the plain stack's difference
    "0.019": ((VERDICT,), lambda: _dec3(-facts.tuned_versus_wide(RESIDUAL)["diff"])),
    "0.116": ((VERDICT,), lambda: _dec3(facts.tuned_versus_wide(PLAIN3)["diff"])),
    "0.142": ((VERDICT,), lambda: _dec3(facts.scale_versus_wide(1.0, PLAIN3)["diff"])),
    # ... and across the budgets shown: the residual stack's lead at a quarter of the budget (its
    # largest), and its trend per doubling with the 95 % interval
    "0.036": ((VERDICT, SUMMARY),
              lambda: _dec3(-min(b["versus_wide"][RESIDUAL]["diff"]
                                 for b in facts.tuned_verdict()["budgets"]))),
    "0.005": ((VERDICT,), lambda: _dec3(facts.tuned_trend()["per_doubling"])),
    "-0.006": ((VERDICT,), lambda: _dec3(facts.tuned_trend()["ci95"][0])),
    "0.015": ((VERDICT,), lambda: _dec3(facts.tuned_trend()["ci95"][1])),
    # ... the check at a quarter of the budget: the residual stack's carried rate against its
    # neighbours (also, at twice the budget, what the rule's dropout cost the wide layer on
    # validation), and how close its other rates scored
    "0.04": ((VERDICT,), lambda: _all(facts.check_misfit("x0.25", RESIDUAL)[0],
                                      f"{facts.check_dropout_cost('x2', WIDE):.2f}")),
    "0.013": ((VERDICT,), lambda: facts.check_misfit("x0.25", RESIDUAL)[1]),
    # ... each shape's test bpc, one recipe against tuned; the plain stack's and the wide
    # layer's training bpc, tuned
    "2.157": ((VERDICT,), lambda: _dec3(facts.one_recipe_final(WIDE)["test_bpc"]["mean"])),
    "2.159": ((VERDICT,), lambda: _dec3(facts.tuned_final(WIDE)["test_bpc"]["mean"])),
    "2.146": ((VERDICT,), lambda: _dec3(facts.one_recipe_final(RESIDUAL)["test_bpc"]["mean"])),
    "2.140": ((VERDICT,), lambda: _dec3(facts.tuned_final(RESIDUAL)["test_bpc"]["mean"])),
    "1.97": ((VERDICT,), lambda: f"{facts.tuned_final(PLAIN3)['train_bpc']['mean']:.2f}"),
    "1.83": ((VERDICT,), lambda: f"{facts.tuned_final(WIDE)['train_bpc']['mean']:.2f}"),
    # §09 "Eight layers, trained to the end": 10⁻¹² and Adam's ε = 10⁻⁸
    "-12": ((VANISH,), facts.plain_deep_layer1_ceiling),
    "-8": ((VANISH,), facts.adam_eps_exponent),
    # §13 exercise E5: the toy model's largest figure factor (its answer is generated)
    "0.90": ((QUIZ,), lambda: _toy_factor(-1)),
}


def run(out: Output) -> None:
    _TRAINED.clear()
    _TRAINED["out"] = out
    facts.read_through(out)
    out.json(OUTPUT, {literal: {"pages": list(pages), "value": compute()}
                      for literal, (pages, compute) in sorted(REGISTRY.items())})
