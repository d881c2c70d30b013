/* §09 two vanishing paths: model g[l] = γ^(L−l) (1 with residual) vs measured norms. */
StackWidgets.register("vanishing", {
  title: "Two vanishing paths: the gradient reaching each layer",
  data: ["generated/data/vanishing.json"],
  mount(ctx, d) {
    const W = StackWidgets, h = W.h, s = W.s, m = d.measured;
    const NAMES = { rnn: "tanh RNN", gru: "GRU", lstm: "LSTM" };
    const cells = m ? (d.cells || Object.keys(m)).filter((c) => m[c]) : [];
    const st = { g: d.factor, L: d.num_layers, res: false, ln: false,
      cell: cells.includes("lstm") ? "lstm" : cells[0] };
    const all = m ? Object.values(m).flatMap((c) => Object.values(c).flatMap(Object.values)).flat()
      : [d.factor ** (d.max_layers - 1)]; // decades of the data
    const LO = Math.floor(Math.log10(Math.min(...all))), HI = Math.ceil(Math.log10(Math.max(1,
      ...all))), X0 = 44, PH = 168, PW = 286, SL = d.sliders;
    const y = (v) => 10 + PH * (HI - W.clamp(Math.log10(Math.max(v, 1e-12)), LO, HI)) / (HI - LO);
    const plot = s("g");
    const chart = s("svg.w-chart", { viewBox: "0 0 340 214", role: "img" },
      Array.from({ length: HI - LO + 1 }, (_, k) => s("g.w-axes",
        s("line", { x1: X0, x2: X0 + PW, y1: y(10 ** (LO + k)), y2: y(10 ** (LO + k)) }),
        s("text.w-yl", { x: X0 - 4, y: y(10 ** (LO + k)) + 4 },
          LO + k ? `1e${LO + k}` : "1"))), plot);
    const tbody = h("tbody"), model = h("p.w-math");
    const summary = h("p.w-status", { "aria-live": "polite" });
    const fmt = (v) => (v >= 0.001 ? W.num(v, 3) : v.toExponential(1).replace("-", "−"));
    const variant = () => [st.res && "residual", st.ln && "layer_norm"].filter(Boolean).join("_") || "plain";
    // layer k of L on teal -> sky -> violet, as the static figure (gen_common.layer_color)
    const tint = (k, L) => {
      const p = L > 3 ? (2 * k) / (L - 1) : k, i = Math.min(Math.floor(p), 1);
      return `color-mix(in srgb,var(--lamp-${i + 1}) ${100 - 100 * (p - i)}%,var(--lamp-${i + 2}))`;
    };
    const show = () => {
      const { L, g } = st, bw = PW / L, v = variant(), name = v.replace(/_/g, " ");
      const mod = Array.from({ length: L }, (_, k) => (st.res ? 1 : g ** (L - k - 1)));
      const meas = m && m[st.cell] && m[st.cell][v] ? m[st.cell][v][L] : null;
      plot.replaceChildren(...mod.flatMap((val, k) => [s("rect", { x: X0 + (k + 0.15) * bw,
        width: bw * 0.7, y: y(val), height: y(10 ** LO) - y(val),
        class: "w-col", style: `--c:${tint(k, L)}` }),
      s("text.w-xl", { x: X0 + (k + 0.5) * bw, y: 206 }, `l=${k + 1}`)]));
      if (meas) {
        const pts = meas.map((val, k) => [X0 + (k + 0.5) * bw, y(val)]);
        plot.append(s("polyline.w-meas", { points: pts.join(" ") }),
          ...pts.map(([cx, cy]) => s("circle.w-meas", { cx, cy, r: 3.5 })));
      }
      chart.ariaLabel = `Gradient reaching each of ${L} layers, log scale: bars ` +
        `= model, dots = measured ${NAMES[st.cell] || ""} (${name})`;
      model.replaceChildren("Model: ", W.math(st.res ? 'g^{[l]} = 1 "(identity path; the layer ' +
        'adds its own Jacobian on top)"' : `g^{[l]} = γ^{L-l} = ${W.num(g, 2)}^{${L}-l}`));
      tbody.replaceChildren(...mod.map((val, k) => h("tr", h("td", String(k + 1)),
        h("td", { "data-value": val, text: fmt(val) }),
        h("td", { "data-value": meas ? meas[k] : "", text: meas ? fmt(meas[k]) : "—" }))).reverse());
      summary.textContent = `Layer 1 receives ${fmt(mod[0])} of the top layer's gradient in the ` +
        `model${meas ? `; measured in a fresh ${L}-layer ${NAMES[st.cell]} (${name}): ` +
        fmt(meas[0]) : ""}.`;
      Object.assign(ctx.el.dataset, { factor: g, layers: L, residual: st.res, cell: st.cell });
    };
    const check = (label, k) => h("label.w-check", h("input", { type: "checkbox",
      onchange: (e) => { st[k] = e.target.checked; show(); } }), label);
    ctx.ui.append(h("div.w-controls",
      W.slider("Per-layer gradient factor γ (no residual)", { ...SL.factor, value: st.g }, (v) => W.num(v, 2),
        (v) => { st.g = v; show(); }), // snapped by the browser
      W.slider("Depth · layers L", { ...SL.num_layers, value: st.L }, String,
        (v) => { st.L = Math.round(v); show(); }),
      check("residual / skip connection h[l] + v[l]", "res"),
      m && [check("layer norm (measured curve only)", "ln"), W.radios("Measured stack",
        cells.map((c) => [c, NAMES[c] || c]), st.cell, (c) => { st.cell = c; show(); })]),
    h("div.w-split", h("div", chart, h("p.w-caption", { text:
      "Bars: the model. Dots: measured at initialisation (" + (m ? `T = ${d.seq_len}, H = ` +
      `${d.hidden_size}, last step` : "not available") + "), relative to the top layer. Log scale." })),
    h("div", model, W.table("Gradient reaching layer l, top = 1", ["Layer", "Model",
      "Measured"], tbody))), summary);
    show();
  },
});
