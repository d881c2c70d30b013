/* §10 Shakespeare learning curves: validation bpc against training step, for 1-4 layers of 128,
   plain or residual (data-view="depth"), or for 1-4 layers at one parameter budget
   (data-view="budget"); the mean with the seeds' range or one seed's curve, and every shown
   model's numbers at a chosen step (generated/data/shakespeare_curves.json). #seed=N and
   #step=S open at seed N and at the evaluation step nearest S. */
StackWidgets.register("curves", {
  title: "Learning curves on Shakespeare",
  data: ["generated/data/shakespeare_curves.json"],
  uses: ["controls"],
  mount(ctx, data) {
    const { h, svg, formatFixed, formatInt, intInRange, hashParam, radioGroup, slider, table,
      uniqueId } = StackWidgets;
    const budget = ctx.el.dataset.view === "budget";
    const { steps, models } = data[budget ? "budget" : "depth"];
    const { seeds, bpc_axis: [low, high] } = data;
    const last = steps[steps.length - 1];
    // Layer L of 4 on teal -> sky -> violet, as the static figures colour it.
    const COLOURS = ["var(--lamp-1)", "color-mix(in srgb,var(--lamp-1) 33.3%,var(--lamp-2))",
      "color-mix(in srgb,var(--lamp-2) 66.7%,var(--lamp-3))", "var(--lamp-3)"];
    const X0 = 40, W = 282, TOP = 8, H = 160; // the plot's box in the 340 x 200 viewBox
    const xOf = (step) => X0 + (W * step) / last;
    const yOf = (v) => TOP + (H * (high - v)) / (high - low);
    const near = intInRange(hashParam("step"), steps[0], last, last);
    const state = { residual: false, layers: new Set(models.map((m) => m.layers)),
      // -1: the mean and the seeds' range; a seed outside the list is clamped to its ends
      seed: seeds.indexOf(intInRange(hashParam("seed"), seeds[0], seeds[seeds.length - 1])),
      at: steps.indexOf(steps.reduce((a, s) => (Math.abs(s - near) < Math.abs(a - near) ? s
        : a))) };

    // Residual stacks are drawn beside the plain single layer, dashed, as in the figure.
    const dashed = (m) => state.residual && !m.residual;
    const name = (m) => (budget ? `${m.layers}\u00a0×\u00a0${m.hidden}`
      : `${m.layers} layer${m.layers > 1 ? "s" : ""}${dashed(m) ? " (plain)" : ""}`);
    const colour = (m) => ({ style: `--layer-color:${COLOURS[m.layers - 1]}` });
    const line = (m, points) => svg("polyline.w-series", { points,
      "stroke-dasharray": dashed(m) ? "6 4" : null });
    const swatch = (m) => svg("svg", { width: 20, height: 8, "aria-hidden": "true", ...colour(m) },
      line(m, "1,4 19,4"));
    const value = (m, k) => (state.seed < 0 ? m.mean : m.val_bpc[state.seed])[k];
    const test = (m) => (state.seed < 0 ? m.test_mean : m.test_bpc[state.seed]);
    const seedsAt = (m, k, pick) => { // the seeds' lowest or highest; null if none was scored
      const scored = m.val_bpc.map((s) => s[k]).filter((v) => v != null);
      return scored.length ? pick(...scored) : null;
    };
    const valueText = (m, k) => (value(m, k) == null ? "stopped" : formatFixed(value(m, k), 3));
    // "x,y" per scored step; a seed stops only at its end, so what is left is one line.
    const coords = (f) => steps.flatMap((s, j) => (f(j) == null ? []
      : [`${xOf(s)},${yOf(f(j))}`]));

    const clip = uniqueId("clip");
    const plot = svg("g", { "clip-path": `url(#${clip})` }); // what lies above the axis is cut
    const chart = svg("svg.w-chart", { viewBox: "0 0 340 200", role: "img" }, svg("clipPath",
      { id: clip }, svg("rect", { x: X0 - 5, y: TOP, width: W + 10, height: H + 5 })),
      Array.from({ length: Math.floor((high - low) / 0.2 + 1e-9) + 1 }, (_, k) => low + 0.2 * k)
        .map((v) => svg("g.w-axes", svg("line", { x1: X0, x2: X0 + W, y1: yOf(v), y2: yOf(v) }),
          svg("text.w-yl", { x: X0 - 4, y: yOf(v) + 4 }, v.toFixed(1)))),
      [0, 1, 2, 3].map((k) => svg("text.w-xl", { x: xOf((k * last) / 3), y: TOP + H + 14 },
        formatInt((k * last) / 3))),
      svg("text.w-xl", { x: X0 + W / 2, y: 198 }, "training step"), plot);
    const tbody = h("tbody");
    const grid = table("", [budget ? "Model" : "Layers", "Parameters", "Validation bpc",
      "Test bpc"], tbody);
    grid.classList.add("w-curves");
    const summary = h("p.w-status", { "aria-live": "polite" });

    const show = () => {
      const shown = models.filter((m) => state.layers.has(m.layers) && (budget ||
        m.residual === state.residual || (state.residual && m.layers === 1)));
      const k = state.at;
      const x = xOf(steps[k]);
      const mean = state.seed < 0;
      plot.replaceChildren(svg("line.w-meas", { x1: x, x2: x, y1: TOP, y2: TOP + H,
        "stroke-dasharray": "2 3" }), ...shown.map((m) => svg("g", colour(m),
        mean && svg("polygon.w-band", { points: [...coords((j) => seedsAt(m, j, Math.max)),
          ...coords((j) => seedsAt(m, j, Math.min)).reverse()].join(" ") }),
        line(m, coords((j) => value(m, j)).join(" ")),
        value(m, k) != null && svg("circle.w-series", { cx: x, cy: yOf(value(m, k)), r: 3.5 }))));
      const which = mean ? `mean of seeds ${seeds.join(", ")}` : `seed ${seeds[state.seed]}`;
      chart.ariaLabel = `Validation bits per character against training step, ${which}: ` +
        (shown.map(name).join(", ") || "no model chosen");
      grid.caption.textContent = `At step ${formatInt(steps[k])}, ${which}` +
        (mean ? " (their range)" : "");
      tbody.replaceChildren(...shown.map((m) => h("tr", { "data-model": m.name },
        h("td", swatch(m), " ", name(m)), h("td", formatInt(m.params)),
        h("td", { "data-key": "val", "data-value": value(m, k) ?? "" }, valueText(m, k),
          mean && ` (${formatFixed(seedsAt(m, k, Math.min), 3)}–` +
            `${formatFixed(seedsAt(m, k, Math.max), 3)})`),
        h("td", { "data-key": "test", "data-value": test(m), text: formatFixed(test(m), 3) }))));
      summary.textContent = `At step ${formatInt(steps[k])}, ${mean ? "mean" : which}: ` +
        (shown.map((m) => `${name(m)} ${valueText(m, k)}`).join(", ") || "no model chosen") + ".";
      Object.assign(ctx.el.dataset, { step: steps[k], seed: mean ? "mean" : seeds[state.seed],
        stacks: state.residual ? "residual" : "plain", shown: shown.map((m) => m.name).join(" ") });
    };
    const redraw = (change) => (v) => {
      change(v);
      show();
    };

    ctx.ui.setAttribute("aria-label", budget ? "Learning curves at one parameter budget"
      : "Learning curves, one to four layers of 128");
    ctx.ui.append(h("div.w-controls",
      !budget && radioGroup("Stacks", [["plain", "plain"], ["residual", "residual"]], "plain",
        redraw((v) => { state.residual = v === "residual"; })),
      h("fieldset.w-seg", h("legend", "Models"), [...state.layers].map((layers) => {
        const m = models.find((n) => n.layers === layers && !n.residual);
        const toggle = (event) => state.layers[event.target.checked ? "add" : "delete"](layers);
        return h("label", h("input", { type: "checkbox", checked: true, onchange: redraw(toggle) }),
          h("span", swatch(m), " ", name(m)));
      })),
      radioGroup("Seeds", [[-1, "mean"], ...seeds.map((s, j) => [j, `seed ${s}`])], state.seed,
        redraw((j) => { state.seed = Number(j); })),
      slider("Training step", { min: 0, max: steps.length - 1, value: state.at },
        (j) => formatInt(steps[j]), redraw((j) => { state.at = j; }))),
    h("div.w-split", h("div", chart, h("p.w-caption", "Validation bits per character while " +
      "training; line: mean over the seeds, band: their range" +
      (budget ? "." : "; dashed: one plain layer, for reference."))), h("div.w-scroll", grid)),
    summary);
    show();
  },
});
