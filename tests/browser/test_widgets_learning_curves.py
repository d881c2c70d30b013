"""§10's live learning curves (javascripts/curves.js): both views mount with every model at the
last step, the controls (stacks, models, seed, step) change the chart's table and its spoken
summary to the generated numbers, the keyboard drives them, a URL fragment is clamped, and a
seed that stopped early shows as stopped, not as a number."""

from __future__ import annotations

import re

import pytest
from browser_helpers import PAGES, data, patch_json, set_range, shown

CURVES = "shakespeare_curves.json"


def curves(web, view: str, fragment: str = ""):
    web.goto(PAGES["curves"] + fragment)
    w = web.page.locator(f'.widget[data-widget="curves"][data-view="{view}"]')
    assert w.get_attribute("data-widget-state") == "live"
    return w


def table(w) -> dict[str, tuple[str, str, str]]:
    """model -> (validation value, test value, validation text) as the table shows them."""
    rows = {}
    for row in w.locator(".w-table tbody tr").all():
        cell = {key: row.locator(f'td[data-key="{key}"]') for key in ("val", "test")}
        rows[row.get_attribute("data-model")] = (cell["val"].get_attribute("data-value"),
                                                 cell["test"].get_attribute("data-value"),
                                                 shown(cell["val"]))
    return rows


def assert_table_shows(w, models: list[dict], seed: int | None, k: int) -> None:
    """Every model of `models` at step index k: the mean (seed None) or seed `seed`."""
    rows = table(w)
    assert list(rows) == [m["name"] for m in models]
    for m in models:
        val, test, _ = rows[m["name"]]
        want = m["mean"][k] if seed is None else m["val_bpc"][seed][k]
        assert float(val) == pytest.approx(want, abs=1e-9), m["name"]
        want = m["test_mean"] if seed is None else m["test_bpc"][seed]
        assert float(test) == pytest.approx(want, abs=1e-9), m["name"]


@pytest.mark.parametrize("view", ["depth", "budget"])
def test_every_model_at_the_last_step(web, view):
    w = curves(web, view)
    group = data(f"data/{CURVES}")[view]
    models = [m for m in group["models"] if not m["residual"]]
    assert w.get_attribute("data-step") == str(group["steps"][-1])
    assert w.get_attribute("data-seed") == "mean"
    assert_table_shows(w, models, None, -1)
    first = models[0]
    low, high = min(s[-1] for s in first["val_bpc"]), max(s[-1] for s in first["val_bpc"])
    assert f"({low:.3f}–{high:.3f})" in table(w)[first["name"]][2]  # the seeds' range
    assert w.locator("polygon.w-band").count() == len(models)


def test_stacks_models_seed_and_step_change_the_table(web):
    w = curves(web, "depth")
    group = data(f"data/{CURVES}")["depth"]
    w.locator("label").filter(has_text="residual").click()
    residual = [m for m in group["models"] if m["residual"] or m["layers"] == 1]
    assert w.get_attribute("data-stacks") == "residual"
    assert_table_shows(w, residual, None, -1)
    w.get_by_role("checkbox", name="3 layers").uncheck()  # the plain stack's label names it
    residual = [m for m in residual if m["layers"] != 3]
    w.locator("label").filter(has_text="seed 1").click()
    set_range(w.get_by_role("slider", name="Training step"), 3)
    assert w.get_attribute("data-step") == str(group["steps"][3])
    assert_table_shows(w, residual, 1, 3)
    assert w.locator("polygon.w-band").count() == 0  # one seed: its curve, no band
    said = shown(w.locator(".w-status"))  # the step, then each model's value, as in the table
    assert f"{group['steps'][3]:,}" in said
    assert re.findall(r"\d\.\d{3}", said) == [f"{m['val_bpc'][1][3]:.3f}" for m in residual]
    assert w.locator(".w-status").get_attribute("aria-live") == "polite"


def test_keyboard(web):
    w = curves(web, "budget")
    steps = data(f"data/{CURVES}")["budget"]["steps"]
    w.get_by_role("slider", name="Training step").focus()
    web.press(w, "data-step", [("Home", str(steps[0])), ("ArrowRight", str(steps[1])),
                               ("End", str(steps[-1]))])
    w.get_by_role("radio", name="mean").focus()
    web.press(w, "data-seed", [("ArrowRight", "0"), ("ArrowRight", "1")])
    box = w.get_by_role("checkbox").first
    box.focus()
    web.page.keyboard.press("Space")
    assert not box.is_checked() and "L1-h268" not in w.get_attribute("data-shown")


@pytest.mark.parametrize(("fragment", "seed", "step"), [
    ("#seed=9&step=99999", "2", 10**9), ("#seed=-3&step=260", "0", 250),
    ("#seed=1&step=3100", "1", 3000), ("#seed=mean&step=x", "mean", 10**9),
])
def test_url_fragment_is_clamped(web, fragment, seed, step):
    steps = data(f"data/{CURVES}")["budget"]["steps"]
    want = min(steps, key=lambda s: abs(s - step))
    for view in ("depth", "budget"):
        w = curves(web, view, fragment) if view == "depth" else web.page.locator(
            '.widget[data-widget="curves"][data-view="budget"]')
        assert (w.get_attribute("data-seed"), w.get_attribute("data-step")) == (seed, str(want))


def test_a_seed_that_stopped_early_reads_stopped(web):
    def stop_early(body):
        body["budget"]["models"][0]["val_bpc"][2][-1] = None

    patch_json(web, CURVES, stop_early)
    w = curves(web, "budget", "#seed=2")
    name = data(f"data/{CURVES}")["budget"]["models"][0]["name"]
    rows = table(w)
    val, _, text = rows[name]
    assert val == "" and not re.search(r"\d", text)  # no number for the stopped seed
    said = shown(w.locator(".w-status"))  # the other models' values, none for the stopped one
    assert len(re.findall(r"\d\.\d{3}", said)) == len(rows) - 1
