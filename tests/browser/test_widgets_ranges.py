"""Widget ranges and axes come from the generated data, never from numbers typed in the JS:
each test reads the committed JSON, and a JSON patched in flight (as another build would write
it) must move the widget with it."""

from __future__ import annotations

import math

from browser_helpers import data, patch_json, set_range

from stacklib.config import CELLS
from stacklib.params import count_params

# --- §05 price: slider ranges from params.json ------------------------------------------------

def test_price_slider_ranges_come_from_the_data(web):
    sliders = data("data/params.json")["sliders"]
    assert sliders["num_layers"]["max"] == max(data("data/params.json")["vs_layers"]["num_layers"])
    w = web.widget("price")
    ranges = w.locator('input[type="range"]')
    for i, key in enumerate(("num_layers", "hidden_size", "input_size")):
        assert ranges.nth(i).get_attribute("min") == str(sliders[key]["min"])
        assert ranges.nth(i).get_attribute("max") == str(sliders[key]["max"])


def test_price_follows_patched_ranges(web):
    patch_json(web, "params.json", lambda d: d["sliders"].update(
        num_layers={"min": 1, "max": 5}, hidden_size={"min": 1, "max": 200},
        input_size={"min": 1, "max": 150}))
    w = web.widget("price")
    ranges = w.locator('input[type="range"]')
    assert [ranges.nth(i).get_attribute("max") for i in range(3)] == ["5", "200", "150"]
    for i in range(3):
        ranges.nth(i).focus()
        web.page.keyboard.press("End")
    assert [w.get_attribute(f"data-{k}") for k in ("layers", "hidden", "input")] == \
        ["5", "200", "150"]
    assert int(w.locator('[data-count="lstm"]').get_attribute("data-value")) == \
        count_params("lstm", 150, 200, 5)


# --- §09 vanishing: axis and ranges from the data ---------------------------------------------

def test_vanishing_axis_floor_holds_the_smallest_measured_value(web):
    runs = data("experiments/gradient_flow.json")["runs"]
    rel = {id(r): [v / r["last_step"][-1] for v in r["last_step"]] for r in runs}
    run = min(runs, key=lambda r: min(rel[id(r)]))
    low = min(rel[id(run)])
    floor = math.floor(math.log10(low))
    w = web.widget("vanishing")
    ticks = w.locator(".w-axes text").evaluate_all("ts => ts.map(t => t.textContent)")
    assert ticks[0] == f"1e{floor}", ticks
    set_range(w.locator('input[type="range"]').nth(1), run["depth"])
    w.get_by_role("checkbox", name="residual").set_checked("residual" in run["variant"])
    w.get_by_role("checkbox", name="layer norm").set_checked("layer_norm" in run["variant"])
    w.get_by_role("radio", name=CELLS[run["cell"]].label()).check()
    grid = {t: float(y) for t, y in w.locator(".w-axes").evaluate_all(
        "gs => gs.map(g => [g.textContent, g.querySelector('line').getAttribute('y1')])")}
    dot = float(w.locator("circle.w-meas").nth(rel[id(run)].index(low)).get_attribute("cy"))
    top = grid["1" if floor == -1 else f"1e{floor + 1}"]
    assert top < dot < grid[f"1e{floor}"]  # drawn where it is, not on a clamped line


def test_vanishing_slider_ranges_come_from_the_data(web):
    sliders = data("data/vanishing.json")["sliders"]
    w = web.widget("vanishing")
    gamma, depth = (w.locator('input[type="range"]').nth(i) for i in (0, 1))
    for key in ("min", "max", "step"):
        assert float(gamma.get_attribute(key)) == sliders["factor"][key]
    assert depth.get_attribute("max") == str(sliders["num_layers"]["max"])


def test_vanishing_follows_patched_ranges(web):
    patch_json(web, "vanishing.json", lambda d: d["sliders"].update(
        factor={"min": 0.1, "max": 2.0, "step": 0.1}, num_layers={"min": 1, "max": 6}))
    w = web.widget("vanishing")
    gamma, depth = (w.locator('input[type="range"]').nth(i) for i in (0, 1))
    gamma.focus()
    web.page.keyboard.press("ArrowLeft")
    assert w.get_attribute("data-factor") == "0.5"
    set_range(gamma, 7)
    set_range(depth, 99)
    assert (w.get_attribute("data-factor"), w.get_attribute("data-layers")) == ("2", "6")
