/* Depth × data: training vs held-out per depth (generated/data/depth_data.json). */
StackWidgets.register("depth-data", {
  title: "Depth and dataset size: training vs held-out error",
  data: ["generated/data/depth_data.json"],
  mount(ctx, d) {
    const W = StackWidgets, h = W.h, s = W.s, D = d.depths, X0 = 46, PW = 280;
    const METRIC = { error: "agreement error", loss: "next-word loss in nats/word" };
    const st = { c: 0, metric: "error" };
    const chart = s("svg.w-chart", { viewBox: "0 0 340 196", role: "img" });
    const tbody = h("tbody"), summary = h("p.w-status", { "aria-live": "polite" });
    const show = () => {
      const mt = d.metrics[st.metric], c = st.c, n = W.int(d.sizes[c]);
      const col = (split, key = "mean") => D.map((_, k) => mt[split][key][k][c]);
      const tr = col("train"), ho = col("heldout"), gap = col("gap");
      const hi = 1.05 * Math.max(...mt.heldout.mean.flatMap((row, k) => row.map((v, j) =>
        v + mt.heldout.std[k][j])), ...mt.train.mean.flat()) || 1; // one scale for all sizes
      const x = (k) => X0 + (PW * k) / Math.max(1, D.length - 1);
      const y = (v) => 10 + 150 * (1 - W.clamp(v / hi, 0, 1));
      const pts = (vals) => vals.map((v, k) => `${x(k)},${y(v)}`);
      chart.replaceChildren(...[0, 0.25, 0.5, 0.75, 1].map((f) => s("g.w-axes",
        s("line", { x1: X0, x2: X0 + PW, y1: y(f * hi), y2: y(f * hi) }),
        s("text.w-yl", { x: X0 - 4, y: y(f * hi) + 4 }, (f * hi).toFixed(2)))),
      s("polygon.w-gap", { points: [...pts(tr), ...pts(ho).reverse()].join(" ") }),
      ...[[tr, "w-l1"], [ho, "w-l3"]].flatMap(([vals, cls]) => [s("polyline", {
        class: `w-series ${cls}`, points: pts(vals).join(" ") }), ...vals.map((v, k) =>
        s("circle", { class: `w-series ${cls}`, cx: x(k), cy: y(v), r: 4 }))]),
      ...D.map((dep, k) => s("text.w-xl", { x: x(k), y: 186 }, `L = ${dep}`)));
      chart.ariaLabel = `${METRIC[st.metric]} against depth, ${n} training ` +
        "sentences: training (teal) and held-out (violet)";
      tbody.replaceChildren(...D.map((dep, k) => h("tr", h("td", String(dep)),
        [["train", tr[k]], ["heldout", ho[k]], ["gap", gap[k]]].map(([key, v]) => h("td", {
          "data-key": key, "data-value": v, text: W.num(v, 3) + (key === "gap" ? ""
            : `\u00a0±\u00a0${W.num(mt[key].std[k][c], 3)}`) })))));
      summary.textContent = `${n} training sentences: the gap goes from ${W.num(gap[0], 3)} at ` +
        `${D[0]} layer to ${W.num(gap[D.length - 1], 3)} at ${D[D.length - 1]} layers ` +
        `(${METRIC[st.metric]}).`;
      Object.assign(ctx.el.dataset, { size: d.sizes[c], metric: st.metric });
    };
    ctx.ui.append(h("div.w-controls",
      W.radios("Training sentences", d.sizes.map((v, j) => [j, W.int(v)]), 0, (j) => {
        st.c = Number(j); show();
      }),
      W.radios("Metric", Object.entries(METRIC), st.metric, (m) => { st.metric = m; show(); })),
    h("div.w-split", h("div", chart, h("p.w-caption", { text: "Teal: " +
      `training; violet: held-out; shaded: the gap. Mean over ${d.seeds} seeds.` })),
    W.table("Per depth (mean ± std)", ["Layers", "Training", "Held-out", "Gap"], tbody)), summary);
    show();
  },
});
