"""The Shakespeare study's tables and its summary data, for the pages that make each claim.

generated/partials/shakespeare_setup.md       the corpus (provenance, licence, split by play,
                                              baselines) and how every model was trained
generated/partials/shakespeare_depth.md       depth at width 128, plain and residual
generated/partials/shakespeare_budget.md      depth vs width at one parameter budget
generated/partials/shakespeare_latency.md     time per generated character and per training
                                              step beside the multiply-adds per character, at
                                              one width and at one budget
generated/partials/shakespeare_data.md        depth x training-set size, trained to convergence
generated/partials/shakespeare_samples.md     a sample of every depth, open (seed 0's; from two
                                              layers up, the residual stack's), and the rest in
                                              content tabs the print leaves out
generated/data/shakespeare.json               the summary (scripts.study.summary) the pages'
                                              numbers are checked against

and the tables on how the stacks train (shakespeare_dynamics_tables).
"""

from __future__ import annotations

from scripts.generation import shakespeare_records
from scripts.generation.markdown import MINUS, NBSP, PM, fmt_int, header_comment, md_table
from scripts.generation.shakespeare_dynamics_tables import (
    bottom_md,
    deep_md,
    lr_md,
    timescale_seeds_md,
    timescales_md,
)
from scripts.generation.shakespeare_records import bpc, shape
from scripts.generation.write import Output

DATA = shakespeare_records.DATA


def play_title(name: str) -> str:
    """"much-ado-about-nothing" -> "Much Ado About Nothing", "richard-ii" -> "Richard II"."""
    numerals = {"i", "ii", "iii", "iv", "v", "vi", "viii"}
    return " ".join(w.upper() if w in numerals else w.capitalize() for w in name.split("-"))


def setup_md(corpus, base, licence: str, install: str) -> str:
    from scripts.study.plan import SEEDS

    rows = [[side, len(split.names), fmt_int(len(split.text)),
             ", ".join(map(play_title, split.names)) if len(split.names) < 8
             else "every other play"]
            for side, split in (("training", corpus.train), ("validation", corpus.validation),
                                ("test", corpus.test))]
    m, t = base.model, base.train
    return (header_comment(__name__)
            + md_table(["Split", "Plays", "Characters", "Which"], rows, "lrrl")
            + f"\n**Corpus.** {licence}, installed with `{install}` and read from disk, never "
            f"downloaded. {len(corpus.vocab)} distinct characters. A model that guesses "
            f"uniformly scores {corpus.uniform_bits():.2f} bits per character on the test "
            f"plays; one that knows only how often each character occurs (the training plays' "
            f"unigram frequencies) scores {corpus.unigram_bits():.2f}.\n\n"
            f"**Models and training.** A {m.embed_size}-dimensional character embedding, a "
            f"stack of LSTM layers, and a linear readout over the {len(corpus.vocab)} "
            f"characters. Adam at a learning rate of {t.lr:g}, batches of {t.batch_size} "
            f"streams of {t.seq_len} characters with each stream's state carried from one "
            f"chunk to the next (truncated backpropagation through time), gradient norm clipped "
            f"at {t.clip:g}. Every {t.eval_every} steps the model is scored on the "
            f"validation plays; a score without a new best halves the learning rate, "
            f"{t.patience} in a row end training, and the best weights are kept; at most "
            f"{fmt_int(t.max_steps)} steps. Every configuration is trained with "
            f"{len(SEEDS)} seeds ({', '.join(map(str, SEEDS))}); tables give the "
            f"mean{PM}sample standard deviation of the seeds' values. "
            "Two models are compared by the one rule of "
            "[§01](01-testbeds.md#not-resolved), from each seed's score. "
            f"Scores are bits per character (bpc) on the "
            "test plays: lower is better.\n")


def trained_rows(configs: list[dict]) -> list[list]:
    return [[shape(c), fmt_int(c["params"]), bpc(c["test_bpc"]), bpc(c["train_bpc"]),
             fmt_int(round(sum(c["steps"]) / len(c["steps"]))),
             f"{c['epochs']['mean']:.1f}"]
            for c in configs]


TRAINED = ["Layers × width", "Parameters", "Test bpc", "Training bpc", "Steps", "Passes"]


def depth_md(s: dict) -> str:
    order = sorted(s["depth"].values(), key=lambda c: (c["residual"], c["layers"]))
    return (header_comment(__name__) + md_table(TRAINED, trained_rows(order))
            + "\n*Training bpc* is scored on the first test-sized stretch of the training "
            "plays; *passes*: characters read in training over the training text's length.\n")


def timed(ms: float, baseline: float, unit: str = "ms") -> str:
    """A value and its ratio to the baseline model's."""
    return f"{ms:.3g}{NBSP}{unit} (×{ms / baseline:.2f})".replace(f"{NBSP} (", " (")


def budget_md(s: dict, base) -> str:
    from stacklib.params import count_params

    ref = s["budget"][s["reference"]]

    def stack(c):
        return count_params("lstm", base.model.embed_size, c["hidden"], c["layers"])

    rows = [[shape(c), fmt_int(stack(c)),
             f"{100 * (stack(c) / stack(ref) - 1):+.1f}{NBSP}%".replace("-", MINUS),
             fmt_int(c["params"]), bpc(c["test_bpc"])]
            for c in s["budget"].values()]
    return (header_comment(__name__)
            + md_table(["Layers × width", "LSTM parameters", f"vs {shape(ref)}",
                        "Whole model", "Test bpc"], rows)
            + "\nLSTM parameters by `stacklib.params.count_params` (PyTorch's convention, two "
              "bias vectors per layer); *whole model* adds the embedding and the readout.\n")


def multiply_adds(cfg: dict, base) -> int:
    """Multiply-adds per generated character: every LSTM weight and every readout weight is
    used once (biases and the embedding lookup left out)."""
    from stacklib.params import multiply_adds as stack_multiply_adds

    model = base.model
    return (stack_multiply_adds(model.cell, model.embed_size, cfg["hidden"], cfg["layers"])
            + cfg["hidden"] * model.vocab_size)


def latency_groups(s: dict) -> dict[str, list[str]]:
    """The timed models in two comparisons, one layer first in each: the same width (the
    depth group's plain stacks) and the same budget (the budget group)."""
    width = sorted((n for n, c in s["depth"].items() if not c["residual"]),
                   key=lambda n: s["depth"][n]["layers"])
    return {"same width": width, "same budget": list(s["budget"])}


def latency_md(s: dict, base, timing: dict) -> str:
    configs = {**s["depth"], **s["budget"]}
    ms = timing["ms"]
    rows = []
    for group, names in latency_groups(s).items():
        one = names[0]
        for i, name in enumerate(names):
            c = configs[name]
            rows.append([group if i == 0 else "", shape(c),
                         f"{fmt_int(multiply_adds(c, base))} "
                         f"(×{multiply_adds(c, base) / multiply_adds(configs[one], base):.2f})",
                         *(timed(ms[name][task], ms[one][task])
                           for task in ("char_latency_ms", "train_step_ms"))])
    cfg = timing["config"]
    return (header_comment(__name__)
            + md_table(["Comparison", "Layers × width", "Multiply-adds per character",
                        "Latency per generated character", "Training step"], rows, "llrrr")
            + "\nRatios to the comparison's one-layer model. Multiply-adds: every weight of "
              "the LSTM layers and of the readout is used once per character "
              "(`stacklib.params.param_breakdown`; biases and the embedding lookup left out). "
              f"Times: median of {cfg['rounds']} rounds in which every model was timed in turn, "
              f"one thread; a training step on {cfg['batch_size']}×{cfg['seq_len']} characters; "
              "latency generating one character at a time. The milliseconds hold only for the "
              "machine that measured them.\n")


def data_md(s: dict, base, all_chars: int) -> str:
    t = base.train
    full = {c["layers"]: c for c in s["depth"].values() if not c["residual"]}
    sizes = sorted({c["train_chars"] for c in s["data"].values()})
    depths = sorted({c["layers"] for c in s["data"].values()})
    cells = {(c["layers"], c["train_chars"]): c for c in s["data"].values()}
    rows = []   # one per training-set size and depth: a size's depths in adjacent rows
    for n in [*sizes, None]:
        for L in depths:
            c = cells[(L, n)] if n else full[L]
            gap = c["test_bpc"]["mean"] - c["train_bpc"]["mean"]
            early = sum(c["early"])
            layers = f"{L}{NBSP}layer{'s' if L > 1 else ''}"
            size = fmt_int(n) if n else f"{fmt_int(all_chars)} (all)"
            rows.append([f"{size}: {layers}" if L == depths[0] else layers,
                         bpc(c["train_bpc"], 2), bpc(c["test_bpc"], 2), f"{gap:.2f}",
                         f"{c['epochs']['mean']:.0f}", f"{early} of {len(c['stopped'])}"])
    # Six columns: Material gives every column at least 5rem, and a seventh overflowed the
    # article at 1366 px.
    header = ["Training characters: layers", "Training bpc", "Test bpc", "Gap", "Passes",
              "Stopped early"]
    capped = [(g, halved) for c in [*cells.values(), *(full[L] for L in depths)]
              for g, halved, early in zip(c["late_gain"], c["lr_halvings"], c["early"],
                                          strict=True) if not early]
    return (header_comment(__name__) + md_table(header, rows)
            + f"\nWidth {base.model.hidden_size}, plain stacks. Every run trained until "
              f"{t.patience} validation scores in a row brought no new best (the smaller "
              f"sets are scored about once a pass), or for at most {fmt_int(t.max_steps)} "
              "steps. *Stopped early* counts the seeds that stopped before the step cap because "
              "validation no longer improved. Those that reached the cap had "
              f"improved their best validation bpc by at most {max(g for g, _ in capped):.3f} "
              "in their last 1,000 steps, their learning rate halved at least "
              f"{min(h for _, h in capped)} times by then. The last two rows are the depth "
              "table's runs.\n")


def _sample_block(prompt: str, text: str, indent: str) -> str:
    lines = (prompt + text).splitlines()
    return (f"{indent}```text\n" + "".join(f"{indent}{line}\n" for line in lines)
            + f"{indent}```")


def samples_md(s: dict, prompt: str, temperature: float) -> str:
    """Seed 0's sample of one shape per depth, open: the single layer, then the residual
    stacks (the deep shapes that train); then a tab per shape with its other samples, on screen
    only (class screen-only: the printed lecture keeps the open ones)."""
    shapes = sorted(s["depth"].values(), key=lambda c: (c["layers"], not c["residual"]))
    shown = [next(c for c in shapes if c["layers"] == L and (c["residual"] or L == 1))
             for L in sorted({c["layers"] for c in shapes})]
    seed = shown[0]["seeds"][0]
    open_ = "\n\n".join(f"**{shape(c)}**\n\n" + _sample_block(prompt, c["samples"][0], "")
                         for c in shown)
    tabs = []
    for c in sorted(shapes, key=lambda c: (c["residual"], c["layers"])):
        rest = [(k, text) for k, text in zip(c["seeds"], c["samples"], strict=True)
                if c not in shown or k != seed]
        tabs.append(f'=== "{shape(c)}"\n\n' + "\n\n".join(
            f"    Seed {k}\n    {{ .figure-note }}\n\n" + _sample_block(prompt, text, " " * 4)
            for k, text in rest) + "\n")
    length = len(shown[0]["samples"][0])
    return (header_comment(__name__) + open_
            + f"\n\nEach model continues the prompt `{prompt.strip()}` for {length} characters, "
              f"sampling at temperature {temperature:g}; above, the models trained with seed "
              f"{seed}. The tabs hold the plain stacks' samples and the other seeds', and every "
              "run's sample is in its record (`docs/generated/experiments/shakespeare/`).\n"
              "{ .figure-note }\n"
              '\n<div class="screen-only" markdown>\n\n' + "\n".join(tabs) + "\n</div>\n")


def run(out: Output) -> None:
    from scripts.study.plan import describe_config
    from stacklib.corpus import INSTALL, LICENCE, shakespeare

    study = shakespeare_records.load(out)
    s, base, describe = study.summary, study.base, describe_config()
    corpus = shakespeare()
    partials = {"setup": setup_md(corpus, base, LICENCE, INSTALL), "depth": depth_md(s),
                "budget": budget_md(s, base), "latency": latency_md(s, base, study.timing),
                "bottom": bottom_md(s), "timescale_seeds": timescale_seeds_md(s),
                "data": data_md(s, base, len(corpus.train.text)),
                "timescales": timescales_md(s), "deep": deep_md(s, base), "lr": lr_md(s, base),
                "samples": samples_md(s, describe.prompt, describe.temperature)}
    for name, text in partials.items():
        out.text(f"generated/partials/shakespeare_{name}.md", text)
    out.json("generated/data/shakespeare.json", {**s, "timing": study.timing["ms"]})
