/* §10 depth × data: training vs held-out error against depth, one training-set size at a time
   (generated/data/depth_data.json: mean and spread over seeds). */
StackWidgets.register("depth-data", {
  title: "Depth and dataset size: training vs held-out error",
  data: ["generated/data/depth_data.json"],
  uses: ["controls"],
  mount(ctx, data) {
    const { h, svg, clamp, formatFixed, formatInt, radioGroup, table } = StackWidgets;
    const depths = data.depths;
    const X0 = 46; // left edge of the plot (room for the axis labels)
    const PLOT_WIDTH = 280;
    const PLOT_HEIGHT = 150;
    const METRICS = { error: "agreement error", loss: "next-word loss in nats/word" };
    // size: an index into data.sizes; the loss first, as the text beside it reads it first
    const state = { size: 0, metric: "loss" };
    const chart = svg("svg.w-chart", { viewBox: "0 0 340 196", role: "img" });
    const tbody = h("tbody");
    const summary = h("p.w-status", { "aria-live": "polite" });

    const show = () => {
      const metric = data.metrics[state.metric];
      const size = state.size;
      const sentences = formatInt(data.sizes[size]);
      // metric[split][mean|std][depth index][size index]
      const series = (split, statistic = "mean") => depths.map((_, k) => metric[split][statistic][k][size]);
      const training = series("train");
      const heldOut = series("heldout");
      const gap = series("gap");
      // One scale for every size (switching sizes keeps the axis): the top of the held-out
      // error bars, or of the training curve, whichever is higher.
      const top = 1.05 * Math.max(...metric.heldout.mean.flatMap((row, k) =>
        row.map((value, j) => value + metric.heldout.std[k][j])), ...metric.train.mean.flat()) || 1;
      const xOf = (k) => X0 + (PLOT_WIDTH * k) / Math.max(1, depths.length - 1);
      const yOf = (value) => 10 + PLOT_HEIGHT * (1 - clamp(value / top, 0, 1));
      const points = (values) => values.map((value, k) => `${xOf(k)},${yOf(value)}`);
      const gridLines = [0, 0.25, 0.5, 0.75, 1].map((fraction) => {
        const y = yOf(fraction * top);
        return svg("g.w-axes", svg("line", { x1: X0, x2: X0 + PLOT_WIDTH, y1: y, y2: y }),
          svg("text.w-yl", { x: X0 - 4, y: y + 4 }, (fraction * top).toFixed(2)));
      });
      const curves = [[training, "w-l1"], [heldOut, "w-l3"]].flatMap(([values, colour]) => [
        svg("polyline", { class: `w-series ${colour}`, points: points(values).join(" ") }),
        ...values.map((value, k) => svg("circle", { class: `w-series ${colour}`, cx: xOf(k),
          cy: yOf(value), r: 4 }))]);
      chart.replaceChildren(...gridLines,
        // the gap: the band between the two curves
        svg("polygon.w-gap", { points: [...points(training), ...points(heldOut).reverse()]
          .join(" ") }),
        ...curves,
        ...depths.map((depth, k) => svg("text.w-xl", { x: xOf(k), y: 186 }, `L = ${depth}`)));
      chart.ariaLabel = `${METRICS[state.metric]} against depth, ${sentences} training ` +
        "sentences: training (teal) and held-out (violet)";
      tbody.replaceChildren(...depths.map((depth, k) => h("tr", h("td", String(depth)),
        [["train", training[k]], ["heldout", heldOut[k]], ["gap", gap[k]]].map(([key, value]) =>
          h("td", { "data-key": key, "data-value": value, text: formatFixed(value, 3) +
            (key === "gap" ? "" : `\u00a0±\u00a0${formatFixed(metric[key].std[k][size], 3)}`) })))));
      summary.textContent = `${sentences} training sentences: the gap goes from ` +
        `${formatFixed(gap[0], 3)} at ${depths[0]} layer to ` +
        `${formatFixed(gap[depths.length - 1], 3)} at ${depths[depths.length - 1]} layers ` +
        `(${METRICS[state.metric]}).`;
      Object.assign(ctx.el.dataset, { size: data.sizes[size], metric: state.metric });
    };

    ctx.ui.append(
      h("div.w-controls",
        radioGroup("Training sentences", data.sizes.map((n, j) => [j, formatInt(n)]), 0, (j) => {
          state.size = Number(j);
          show();
        }),
        radioGroup("Metric", Object.entries(METRICS), state.metric, (metric) => {
          state.metric = metric;
          show();
        })),
      h("div.w-split",
        h("div", chart, h("p.w-caption", { text: "Teal: training; violet: held-out; " +
          `shaded: the gap. Mean over ${data.seeds} seeds.` })),
        table("Per depth (mean ± std)", ["Layers", "Training", "Held-out", "Gap"], tbody)),
      summary);
    show();
  },
});
