/* §10 Shakespeare learning curves: validation bpc against training step, for 1-4 layers of 128,
   plain or residual (data-view="depth"), or for 1-4 layers at one parameter budget
   (data-view="budget"); the mean with the seeds' range or one seed's curve, and every shown
   model's numbers at a chosen step (generated/data/shakespeare_curves.json). #seed=N and
   #step=S open at seed N and at the evaluation step nearest S. */
StackWidgets.register("curves", {
  title: "Learning curves on Shakespeare",
  data: ["generated/data/shakespeare_curves.json", "generated/data/layer_colours.json"],
  uses: ["controls"],
  mount(ctx, data, { ramps }) {
    const { h, svg, formatFixed, formatInt, intInRange, hashParam, layerColour, radioGroup,
      slider, table, uniqueId } = StackWidgets;
    const budget = ctx.el.dataset.view === "budget";
    const { steps, models } = data[budget ? "budget" : "depth"];
    const { seeds, bpc_axis: [low, high] } = data;
    const lastStep = steps[steps.length - 1];

    const X0 = 40, WIDTH = 282, TOP = 8, HEIGHT = 160; // the plot's box in the 340 x 200 viewBox
    const xOf = (step) => X0 + (WIDTH * step) / lastStep;
    const yOf = (bpc) => TOP + (HEIGHT * (high - bpc)) / (high - low);

    /** The index of the evaluation step nearest `target`. */
    const nearestStep = (target) => {
      const distance = (step) => Math.abs(step - target);
      const nearest = steps.reduce((best, step) => (distance(step) < distance(best) ? step
        : best));
      return steps.indexOf(nearest);
    };
    const MEAN = -1; // state.seed: the mean and the seeds' range, not one seed
    const state = {
      residual: false,
      layers: new Set(models.map((m) => m.layers)),
      // a seed outside the list is clamped to its ends
      seed: seeds.indexOf(intInRange(hashParam("seed"), seeds[0], seeds[seeds.length - 1])),
      at: nearestStep(intInRange(hashParam("step"), steps[0], lastStep, lastStep)),
    };
    const showingMean = () => state.seed === MEAN;

    // --- one model ------------------------------------------------------------------------

    // Residual stacks are drawn beside the plain single layer, dashed, as in the figure.
    const dashed = (m) => state.residual && !m.residual;
    const name = (m) => {
      if (budget) return `${m.layers}\u00a0×\u00a0${m.hidden}`;
      const layers = `${m.layers} layer${m.layers > 1 ? "s" : ""}`;
      return dashed(m) ? `${layers} (plain)` : layers;
    };
    // 1-4 layers on the ramp of a 4-layer stack, as the static figures colour them
    const colour = (m) => ({ style: `--layer-color:${layerColour(ramps, 4, m.layers - 1)}` });
    const line = (m, points) => svg("polyline.w-series", { points,
      "stroke-dasharray": dashed(m) ? "6 4" : null });
    const swatch = (m) => svg("svg", { width: 20, height: 8, "aria-hidden": "true", ...colour(m) },
      line(m, "1,4 19,4"));

    /** Validation bpc of model m at evaluation k (mean or the chosen seed); null once stopped. */
    const value = (m, k) => (showingMean() ? m.mean : m.val_bpc[state.seed])[k];
    const testValue = (m) => (showingMean() ? m.test_mean : m.test_bpc[state.seed]);
    /** The seeds' lowest (pick = Math.min) or highest value at evaluation k; null if none. */
    const seedsAt = (m, k, pick) => {
      const scored = m.val_bpc.map((seedValues) => seedValues[k]).filter((v) => v != null);
      return scored.length ? pick(...scored) : null;
    };
    const valueText = (m, k) => (value(m, k) == null ? "stopped" : formatFixed(value(m, k), 3));
    /** "x,y" of every scored evaluation of f(k); a seed stops only at its end, so what is left
        is one line. */
    const coords = (f) => steps.flatMap((step, k) => (f(k) == null ? []
      : [`${xOf(step)},${yOf(f(k))}`]));

    // --- the chart --------------------------------------------------------------------------

    const clip = uniqueId("clip");
    const plot = svg("g", { "clip-path": `url(#${clip})` }); // what lies above the axis is cut
    const gridCount = Math.floor((high - low) / 0.2 + 1e-9) + 1; // a line every 0.2 bpc
    const gridLines = Array.from({ length: gridCount }, (_, k) => low + 0.2 * k).map((bpc) =>
      svg("g.w-axes",
        svg("line", { x1: X0, x2: X0 + WIDTH, y1: yOf(bpc), y2: yOf(bpc) }),
        svg("text.w-yl", { x: X0 - 4, y: yOf(bpc) + 4 }, bpc.toFixed(1))));
    const stepLabels = [0, 1, 2, 3].map((k) => (k * lastStep) / 3).map((step) =>
      svg("text.w-xl", { x: xOf(step), y: TOP + HEIGHT + 14 }, formatInt(step)));
    const chart = svg("svg.w-chart", { viewBox: "0 0 340 200", role: "img" },
      svg("clipPath", { id: clip },
        svg("rect", { x: X0 - 5, y: TOP, width: WIDTH + 10, height: HEIGHT + 5 })),
      gridLines, stepLabels,
      svg("text.w-xl", { x: X0 + WIDTH / 2, y: 198 }, "training step"),
      plot);

    /** Model m's curve, with the seeds' band when the mean is shown and a dot at evaluation k. */
    const drawModel = (m, k) => svg("g", colour(m),
      showingMean() && svg("polygon.w-band", { points: [
        ...coords((j) => seedsAt(m, j, Math.max)),
        ...coords((j) => seedsAt(m, j, Math.min)).reverse()].join(" ") }),
      line(m, coords((j) => value(m, j)).join(" ")),
      value(m, k) != null && svg("circle.w-series", { cx: xOf(steps[k]), cy: yOf(value(m, k)),
        r: 3.5 }));

    // --- the table and the summary ----------------------------------------------------------

    const tbody = h("tbody");
    const grid = table("", [budget ? "Model" : "Layers", "Parameters", "Validation bpc",
      "Test bpc"], tbody);
    grid.classList.add("w-curves");
    const summary = h("p.w-status", { "aria-live": "polite" });

    const row = (m, k) => {
      const range = showingMean() && ` (${formatFixed(seedsAt(m, k, Math.min), 3)}–` +
        `${formatFixed(seedsAt(m, k, Math.max), 3)})`;
      return h("tr", { "data-model": m.name },
        h("td", swatch(m), " ", name(m)),
        h("td", formatInt(m.params)),
        h("td", { "data-key": "val", "data-value": value(m, k) ?? "" }, valueText(m, k), range),
        h("td", { "data-key": "test", "data-value": testValue(m),
          text: formatFixed(testValue(m), 3) }));
    };

    const show = () => {
      const shown = models.filter((m) => state.layers.has(m.layers) && (budget ||
        m.residual === state.residual || (state.residual && m.layers === 1)));
      const k = state.at;
      const x = xOf(steps[k]);
      plot.replaceChildren(
        svg("line.w-meas", { x1: x, x2: x, y1: TOP, y2: TOP + HEIGHT, "stroke-dasharray": "2 3" }),
        ...shown.map((m) => drawModel(m, k)));
      const which = showingMean() ? `mean of seeds ${seeds.join(", ")}`
        : `seed ${seeds[state.seed]}`;
      const names = shown.map(name).join(", ") || "no model chosen";
      chart.ariaLabel = `Validation bits per character against training step, ${which}: ${names}`;
      grid.caption.textContent = `At step ${formatInt(steps[k])}, ${which}` +
        (showingMean() ? " (their range)" : "");
      tbody.replaceChildren(...shown.map((m) => row(m, k)));
      const values = shown.map((m) => `${name(m)} ${valueText(m, k)}`).join(", ");
      summary.textContent = `At step ${formatInt(steps[k])}, ${showingMean() ? "mean" : which}: ` +
        `${values || "no model chosen"}.`;
      Object.assign(ctx.el.dataset, {
        step: steps[k],
        seed: showingMean() ? "mean" : seeds[state.seed],
        stacks: state.residual ? "residual" : "plain",
        shown: shown.map((m) => m.name).join(" "),
      });
    };
    /** A control's handler: apply the change, then redraw. */
    const redraw = (change) => (input) => {
      change(input);
      show();
    };

    // --- the controls -----------------------------------------------------------------------

    const stacksChoice = !budget && radioGroup("Stacks", [["plain", "plain"],
      ["residual", "residual"]], "plain", redraw((v) => { state.residual = v === "residual"; }));
    const modelToggles = h("fieldset.w-seg", h("legend", "Models"),
      [...state.layers].map((layers) => {
        const m = models.find((n) => n.layers === layers && !n.residual);
        const toggle = (event) => {
          if (event.target.checked) state.layers.add(layers);
          else state.layers.delete(layers);
        };
        return h("label", h("input", { type: "checkbox", checked: true, onchange: redraw(toggle) }),
          h("span", swatch(m), " ", name(m)));
      }));
    const seedChoice = radioGroup("Seeds", [[MEAN, "mean"], ...seeds.map((s, j) => [j,
      `seed ${s}`])], state.seed, redraw((j) => { state.seed = Number(j); }));
    const stepSlider = slider("Training step", { min: 0, max: steps.length - 1,
      value: state.at }, (k) => formatInt(steps[k]), redraw((k) => { state.at = k; }));
    const caption = "Validation bits per character while training; line: mean over the " +
      "seeds, band: their range" + (budget ? "." : "; dashed: one plain layer, for reference.");

    ctx.ui.setAttribute("aria-label", budget ? "Learning curves at one parameter budget"
      : "Learning curves, one to four layers of 128");
    ctx.ui.append(
      h("div.w-controls", stacksChoice, modelToggles, seedChoice, stepSlider),
      h("div.w-split", h("div", chart, h("p.w-caption", caption)), h("div.w-scroll", grid)),
      summary);
    show();
  },
});
