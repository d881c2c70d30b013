/* §09 two vanishing paths: the gradient reaching each layer, in the toy model
   ρ[l] = γ^(L−l) (1 along a residual identity path) as bars, and as measured at initialisation
   in real stacks as dots (generated/data/vanishing.json; its sliders' ranges too). */
StackWidgets.register("vanishing", {
  title: "Two vanishing paths: the gradient reaching each layer",
  data: ["generated/data/vanishing.json", "generated/data/layer_colours.json"],
  uses: ["controls", "mathml"],
  mount(ctx, model, { ramps }) {
    const { h, svg, clamp, formatFixed, layerColour, mathml, radioGroup, slider, table } =
      StackWidgets;
    const measured = model.measured;
    const cellName = (cell) => (model.cell_names && model.cell_names[cell]) || cell;
    const cells = measured ? (model.cells || Object.keys(measured)).filter((c) => measured[c])
      : [];
    const state = { factor: model.factor, layers: model.num_layers, residual: false,
      layerNorm: false, cell: cells.includes(model.cell) ? model.cell : cells[0] };

    // A log axis spanning whole decades from the smallest value the widget can show to 1.
    const values = measured
      ? Object.values(measured).flatMap((byVariant) => Object.values(byVariant)
        .flatMap(Object.values)).flat()
      : [model.factor ** (model.max_layers - 1)];
    const lowDecade = Math.floor(Math.log10(Math.min(...values)));
    const highDecade = Math.ceil(Math.log10(Math.max(1, ...values)));
    const X0 = 44; // left edge of the plot (room for the axis labels)
    const PLOT_HEIGHT = 168;
    const PLOT_WIDTH = 286;
    const yOf = (value) => 10 + PLOT_HEIGHT * (highDecade -
      clamp(Math.log10(Math.max(value, 1e-12)), lowDecade, highDecade)) / (highDecade - lowDecade);
    const plot = svg("g");
    const gridLines = Array.from({ length: highDecade - lowDecade + 1 }, (_, k) => {
      const decade = lowDecade + k;
      const y = yOf(10 ** decade);
      return svg("g.w-axes", svg("line", { x1: X0, x2: X0 + PLOT_WIDTH, y1: y, y2: y }),
        svg("text.w-yl", { x: X0 - 4, y: y + 4 }, decade ? `1e${decade}` : "1"));
    });
    const chart = svg("svg.w-chart", { viewBox: "0 0 340 214", role: "img" }, gridLines, plot);
    const tbody = h("tbody");
    const formula = h("p.w-math");
    const summary = h("p.w-status", { "aria-live": "polite" });
    const format = (v) => (v >= 0.001 ? formatFixed(v, 3) : v.toExponential(1).replace("-", "−"));
    const variant = () => [state.residual && "residual", state.layerNorm && "layer_norm"]
      .filter(Boolean).join("_") || "plain";
    const show = () => {
      const { layers, factor } = state;
      const barWidth = PLOT_WIDTH / layers;
      const name = variant();
      const spokenName = name.replace(/_/g, " ");
      const modelled = Array.from({ length: layers },
        (_, k) => (state.residual ? 1 : factor ** (layers - k - 1)));
      const measuredHere = measured && measured[state.cell] && measured[state.cell][name]
        ? measured[state.cell][name][layers] : null;
      plot.replaceChildren(...modelled.flatMap((value, k) => [
        svg("rect", { x: X0 + (k + 0.15) * barWidth, width: barWidth * 0.7, y: yOf(value),
          height: yOf(10 ** lowDecade) - yOf(value), class: "w-col",
          style: `--layer-color:${layerColour(ramps, layers, k)}` }),
        svg("text.w-xl", { x: X0 + (k + 0.5) * barWidth, y: 206 }, `l=${k + 1}`)]));
      if (measuredHere) {
        const points = measuredHere.map((value, k) => [X0 + (k + 0.5) * barWidth, yOf(value)]);
        plot.append(svg("polyline.w-meas", { points: points.join(" ") }),
          ...points.map(([cx, cy]) => svg("circle.w-meas", { cx, cy, r: 3.5 })));
      }
      chart.ariaLabel = `Gradient reaching each of ${layers} layers, log scale: bars = model, ` +
        `dots = measured ${cellName(state.cell)} (${spokenName})`;
      formula.replaceChildren("Model: ", mathml(state.residual
        ? 'ρ^{[l]} = 1 "(identity path; the layer adds its own Jacobian on top)"'
        : `ρ^{[l]} = γ^{L-l} = ${formatFixed(factor, 2)}^{${layers}-l}`));
      tbody.replaceChildren(...modelled.map((value, k) => h("tr", h("td", String(k + 1)),
        h("td", { "data-value": value, text: format(value) }),
        h("td", { "data-value": measuredHere ? measuredHere[k] : "",
          text: measuredHere ? format(measuredHere[k]) : "—" }))).reverse()); // top row first
      summary.textContent = `Layer 1 receives ${format(modelled[0])} of the top layer's ` +
        "gradient in the model" + (measuredHere ? `; measured in a fresh ${layers}-layer ` +
          `${cellName(state.cell)} (${spokenName}): ${format(measuredHere[0])}` : "") + ".";
      Object.assign(ctx.el.dataset, { factor, layers, residual: state.residual,
        cell: state.cell });
    };

    const checkbox = (label, key) => h("label.w-check", h("input", { type: "checkbox",
      onchange: (event) => {
        state[key] = event.target.checked;
        show();
      } }), label);
    const sliders = model.sliders;
    ctx.ui.append(
      h("div.w-controls",
        slider("Per-layer gradient factor γ (no residual)", { ...sliders.factor,
          value: state.factor }, (v) => formatFixed(v, 2), (v) => {
          state.factor = v; // the browser snaps it to the slider's step
          show();
        }),
        slider("Depth · layers L", { ...sliders.num_layers, value: state.layers }, String,
          (v) => {
            state.layers = Math.round(v);
            show();
          }),
        checkbox("residual / skip connection h[l] + v[l]", "residual"),
        measured && [checkbox("layer norm (measured curve only)", "layerNorm"),
          radioGroup("Measured stack", cells.map((c) => [c, cellName(c)]), state.cell,
            (cell) => {
              state.cell = cell;
              show();
            })]),
      h("div.w-split",
        h("div", chart, h("p.w-caption", { text: "Bars: the model. Dots: measured at " +
          "initialisation (" + (measured ? `T = ${model.seq_len}, H = ${model.hidden_size}, ` +
          "last step" : "not available") + "), relative to the top layer. Log scale." })),
        h("div", formula, table("Gradient reaching layer l, top = 1", ["Layer", "Model",
          "Measured"], tbody))),
      summary);
    show();
  },
});
