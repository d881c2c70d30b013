"""§01's account of the synthetic agreement language, and what one layer already does on it.

generated/partials/testbed_agreement.md  what the language has (from stacklib.data), a few of its
                                         training sentences, and the single wide layer's held-out
                                         agreement (experiments/depth_width.json, the run §10's
                                         same-budget table shows beside the deep stack)
"""

from __future__ import annotations

from scripts.generation.markdown import NBSP, PM, fmt_int, header_comment, md_table
from scripts.generation.write import Output
from scripts.study import toy

DATA = ["docs/generated/experiments/depth_width.json"]
EXAMPLES = 4  # training sentences shown


def _words(pairs) -> str:
    return ", ".join(f"{a}/{b}" for a, b in pairs)


def language_md() -> str:
    from stacklib import data

    nouns, verbs = data.NOUNS, (*data.TRANSITIVE, *data.INTRANSITIVE)
    words = len(data.VOCAB) - len(data.SPECIALS)
    examples = {data.parse(p).pair for p in data.PROBES}
    share = round(100 * len(data.heldout_pairs() - examples) / len(nouns) ** 2)
    rows = [
        ["Nouns", f"{len(nouns)}, each singular and plural: {_words(nouns[:3])}, …"],
        ["Verbs", f"{len(data.TRANSITIVE)} transitive and {len(data.INTRANSITIVE)} intransitive, "
                  f"each in both numbers ({_words(verbs[:2])}, …), and *is*/*are*"],
        ["Other words", f"*the*, *a*, *that*, {len(data.PREPOSITIONS)} prepositions, "
                        f"{len(data.ADJECTIVES)} adjectives, the full stop"],
        ["Vocabulary", f"{words} words"],
        ["Between subject and verb", "none, one or two modifiers: a prepositional phrase "
                                     "(*to the cabinet*) or a relative clause "
                                     "(*that the critics admire*)"],
        ["Held out", "every sentence whose subject and first attractor form one of about "
                     f"{share}{NBSP}% of the noun pairs, and the pairs of the lecture's two "
                     "example sentences"],
    ]
    train, _ = data.make_splits()
    examples = "\n".join(f"- *{s.text}*" for s in train[:EXAMPLES])
    return (md_table(["The agreement language", ""], rows, "ll")
            + f"\nThe first {EXAMPLES} training sentences (`stacklib.data.make_splits`):\n\n"
            + examples + "\n")


def one_layer_md(depth_width: dict) -> str:
    # The wide layer is the deep arm's job with one layer at its budget's width: same embedding.
    cfg, wide = depth_width["config"]["deep"], depth_width["training"]["wide"]
    pct, mismatch = (f"{100 * a['mean']:.1f}{PM}{100 * a['sd']:.1f}{NBSP}%"
                     for a in toy.agreement(wide).values())
    steps = ", ".join(fmt_int(s) for s in wide["steps_to_90"])
    header = ["One LSTM layer", "held-out agreement", "at mismatched attractors",
              "steps to 90 %, per seed"]
    rows = [[f"{wide['layers']}{NBSP}×{NBSP}{wide['hidden']}", pct, mismatch, steps]]
    note = (f"A next-word model with word vectors of size {cfg['embed_size']}, trained "
            f"{len(depth_width['config']['seeds'])} times from different seeds; mean{PM}standard "
            "deviation over the seeds. Agreement is scored at the main verb of held-out "
            "sentences. These are the runs of §10's same-budget table.")
    return md_table(header, rows, "lrrr") + "\n" + note + "\n"


def run(out: Output) -> None:
    body = language_md() + "\n" + one_layer_md(out.read_json(DATA[0]))
    out.text("generated/partials/testbed_agreement.md", header_comment(__name__) + body)
