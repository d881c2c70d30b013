"""§13 mastery check: the answer key, numbers computed by stacklib.

generated/data/quiz.json            per question: the answer (a choice letter or a computed
                                    number), the numbers an explanation quotes, and the stacklib
                                    call behind them
generated/partials/quiz_answers.md  the answer key for the print/PDF appendix
generated/partials/exercise_answers.md  answers to the predict-then-run exercises (counts from
                                    stacklib, the §10 results from experiments/depth_data.json)

The questions themselves are prose (docs/13-mastery-check.md); tests/site/test_elements.py checks
that the page's answer letters match CHOICES, tests/test_prose_numbers.py its numbers.
"""

from __future__ import annotations

from scripts.generation.markdown import NBSP, fmt_int, fmt_num, header_comment, md_table
from scripts.generation.write import Output
from stacklib.lecture import DEPTH_VS_WIDTH, GRADIENT_MODEL, PRICE_DEFAULTS
from stacklib.params import bidirectional_params

DATA = ["docs/generated/experiments/depth_data.json"]
CHOICES = {"q1": "B", "q2": "A", "q6": "B", "q8": "C"}  # letters of multiple-choice answers


def quiz_data() -> dict:
    from stacklib.examples import scalar_example
    from stacklib.params import count_params, param_breakdown
    from stacklib.walkthrough import walkthrough

    # Q3 prices §05's default stack; Q4 and Q8 the two shapes of §10's budget.
    d = PRICE_DEFAULTS
    q3 = ("lstm", d["input_size"], d["hidden_size"], d["num_layers"])
    x = DEPTH_VS_WIDTH["input_size"]
    (wide_layers, wide), (deep_layers, deep) = DEPTH_VS_WIDTH["wide"], DEPTH_VS_WIDTH["deep"]
    keras_wide = count_params("lstm", x, wide, wide_layers, framework="keras")
    torch_wide = count_params("lstm", x, wide, wide_layers)
    ex = scalar_example()
    y = [round(v, 4) for v in walkthrough().y]
    gm = GRADIENT_MODEL
    return {
        "q1": {"answer": CHOICES["q1"]},
        "q2": {"answer": CHOICES["q2"]},
        "q3": {"answer": count_params(*q3), "layers": [r.total for r in param_breakdown(*q3)],
               "source": 'stacklib.params.count_params("lstm", {}, {}, {})'.format(*q3[1:])},
        "q4": {"answer": torch_wide - keras_wide, "keras": keras_wide, "torch": torch_wide,
               "source": f'stacklib.params.count_params("lstm", {x}, {wide}, {wide_layers}, '
                         'framework=...)'},
        "q5": {"answer": ex["layer2"][-1], "layer1": ex["layer1"], "layer2": ex["layer2"],
               "source": "stacklib.examples.scalar_example()"},
        "q6": {"answer": CHOICES["q6"], "y": y, "source": "stacklib.walkthrough.walkthrough().y"},
        "q7": {"answer": "factor**(L-1)", "factor": gm["factor"], "num_layers": gm["num_layers"],
               "at_defaults": gm["factor"] ** (gm["num_layers"] - 1)},
        "q8": {"answer": CHOICES["q8"], "wide_keras": keras_wide,
               "deep_keras": count_params("lstm", x, deep, deep_layers, framework="keras")},
        "q9": {"answer": "return_sequences=True"},
        "q10": {"answer": "held-out error stalls or rises; for the loss the gap widens"},
    }


def answers_md(q: dict) -> str:
    y = "[" + ", ".join(fmt_num(v) for v in q["q6"]["y"]) + "]"
    rows = [
        ["Q1", f"**{q['q1']['answer']}** — depth adds computation per timestep, not a longer past",
         "—"],
        ["Q2", f"**{q['q2']['answer']}** — $h_t^{{[1]}}$ (below, same $t$) and $h_{{t-1}}^{{[2]}}$",
         "—"],
        ["Q3", f"**{fmt_int(q['q3']['answer'])}** = {fmt_int(q['q3']['layers'][0])} + 2 · "
               f"{fmt_int(q['q3']['layers'][1])}", f"`{q['q3']['source']}`"],
        ["Q4", f"**{fmt_int(q['q4']['answer'])}** = {fmt_int(q['q4']['torch'])} − "
               f"{fmt_int(q['q4']['keras'])}: PyTorch's second bias vector",
         f"`{q['q4']['source']}`"],
        ["Q5", f"**{q['q5']['answer']:g}** (layer 1: "
               + ", ".join(f"{v:g}" for v in q["q5"]["layer1"]) + "; layer 2: "
               + ", ".join(f"{v:g}" for v in q["q5"]["layer2"]) + ")",
         f"`{q['q5']['source']}`"],
        ["Q6", f"**{q['q6']['answer']}** — $y_t = h_t^{{[2]}}$ = {y}", f"`{q['q6']['source']}`"],
        ["Q7", rf"**$\gamma^{{L-1}}$** without residual (at §09's defaults, "
               rf"$\gamma$ = {q['q7']['factor']:.2f} and $L$ = {q['q7']['num_layers']}: "
               rf"{q['q7']['factor']:.2f}<sup>{q['q7']['num_layers'] - 1}</sup> = "
               rf"{q['q7']['at_defaults']:.3f}); "
               "the identity path keeps 1 with it", "toy model of §09"],
        ["Q8", f"**{q['q8']['answer']}** — the temporal receptive field "
               f"({fmt_int(q['q8']['wide_keras'])} vs {fmt_int(q['q8']['deep_keras'])} "
               "parameters, Keras)", "`stacklib.params.count_params`"],
        ["Q9", "The second layer gets no sequence: set `return_sequences=True` below the top",
         "—"],
        ["Q10", "Held-out error stalls or rises; for the loss the gap widens with depth",
         "§10 figure"],
    ]
    return header_comment(__name__) + md_table(["", "Answer", "Computed by"], rows, "lll")


def exercise_rows(depth_data: dict) -> list[list[str]]:
    """The §13 exercises' answers: [exercise, answer, computed by]."""
    from stacklib.params import count_params, param_breakdown

    # E1's stack is Q3's (§05's defaults), with a batch of 5; E2's rival is §10's deep shape.
    D, H, L = (PRICE_DEFAULTS[k] for k in ("input_size", "hidden_size", "num_layers"))
    T, B = 7, 5  # E1's sequence: 7 steps, a batch of 5
    x, (deep_layers, deep) = DEPTH_VS_WIDTH["input_size"], DEPTH_VS_WIDTH["deep"]
    lstm3, lstm4 = count_params("lstm", D, H, L), count_params("lstm", D, H, L + 1)
    upper = param_breakdown("lstm", D, H, L + 1)[-1].total
    budget, tripled = count_params("lstm", x, deep, deep_layers), deep_layers * deep
    width = min(range(1, 4 * deep), key=lambda h: abs(count_params("lstm", x, h, 1) - budget))
    gru, rnn = count_params("gru", D, H, L), count_params("rnn", D, H, L)
    factor = GRADIENT_MODEL["factors"][-1]
    quiet = next(n for n in range(1, 100) if factor ** (n - 1) < 0.5)
    rows = [
        ["E1", f"**{fmt_int(lstm4)}** = {fmt_int(lstm3)} + {fmt_int(upper)}: every layer above "
               f"the first costs the same, since it reads a state of width {H}; `h_n` becomes "
               f"({L + 1}, {B}, {H}), one row per layer",
         f'`stacklib.params.count_params("lstm", {D}, {H}, {L + 1})`'],
        ["E2", f"**{width} units** ({fmt_int(count_params('lstm', x, width, 1))} against "
               f"{fmt_int(budget)}), not {tripled}: the stack's cost grows only with $L$, a "
               "layer's with $H^2$ (its recurrent weights) and with $H$ (its input weights). "
               f"Were it $H^2$ alone, {deep_layers} times the budget would buy "
               f"√{deep_layers}{NBSP}≈{NBSP}{deep_layers ** 0.5:.1f} times the width; the input "
               f"term, linear in $H$, pushes that to {width / deep:.1f} "
               f"({tripled} units would cost {fmt_int(count_params('lstm', x, tripled, 1))})",
         "`stacklib.params.count_params`, searched over widths"],
        ["E3", f"**GRU {fmt_int(gru)}, RNN {fmt_int(rnn)}** — three and one blocks of the same "
               f"shapes instead of four, so exactly ¾ and ¼ of {fmt_int(lstm3)}",
         f'`stacklib.params.count_params("gru", {D}, {H}, {L})`, and `"rnn"`'],
        ["E4", "Layer 2's weights change only layer 2's state and $y_t$; layer 1's numbers stay, "
               "since nothing flows down in the forward pass. A new $x_t$ changes everything: it "
               "enters layer 1, and layer 2 hears of it through $h_t^{[1]}$", "—"],
        ["E5", f"**$L$ = {quiet}** — {fmt_num(factor, 2)}<sup>{quiet - 1}</sup> = "
               f"{factor ** (quiet - 1):.3f}, while {fmt_num(factor, 2)}<sup>{quiet - 2}</sup> "
               f"= {factor ** (quiet - 2):.3f}", "toy model of §09"],
    ]
    # E7: E1's stack read both ways (each direction above layer 1 reads 2H numbers).
    one_direction = bidirectional_params("lstm", D, H, L)
    e7 = ["E7", f"**{fmt_int(2 * sum(one_direction))}** = 2 · ({fmt_int(one_direction[0])} + "
                f"{L - 1} · {fmt_int(one_direction[1])}): each direction of layer 1 costs what "
                f"layer 1 did, but each direction above reads both states below, {2 * H} wide. "
                f"`out` becomes ({T}, {B}, {2 * H}), `h_n` ({2 * L}, {B}, {H}): two rows per "
                "layer, forward then backward",
          "`stacklib.params.bidirectional_params` checked against "
          "`torch.nn.LSTM(bidirectional=True)`"]
    if depth_data:
        s, small = depth_data["summary"], 0  # index of the smallest training set
        first, last = depth_data["depths"].index(1), depth_data["depths"].index(4)
        loss = [s["heldout_loss"]["mean"][d][small] for d in (first, last)]
        err = [s["heldout_error"]["mean"][d][small] for d in (first, last)]
        rows.append(["E6", "**Loss above, agreement error about the same** — held-out loss "
                           f"{fmt_num(loss[1], 2)} against {fmt_num(loss[0], 2)} nats/word on "
                           f"{depth_data['sizes'][small]} sentences; agreement error "
                           f"{fmt_num(err[1], 2)} against {fmt_num(err[0], 2)}, near chance",
                     "`stacklib.experiments.depth_data` (mean over seeds)"])
    rows.append(e7)
    return rows


def exercises_md(rows: list[list[str]]) -> str:
    return header_comment(__name__) + md_table(["", "Answer", "Computed by"], rows, "lll")


def run(out: Output) -> None:
    q = quiz_data()
    out.json("generated/data/quiz.json", q)
    out.text("generated/partials/quiz_answers.md", answers_md(q))
    out.text("generated/partials/exercise_answers.md",
             exercises_md(exercise_rows(out.read_json(DATA[0]))))
