/* §10 verdict: 1×512 vs 3×256 LSTM on one budget; highlights the table's chosen column. */
StackWidgets.register("verdict", {
  title: "Depth vs width: flip between the two ways to spend one parameter budget",
  data: ["generated/data/verdict.json"],
  mount(ctx, d) {
    const W = StackWidgets, h = W.h;
    const TEXT = { wide: ["Shallow & wide", "1 cell firing", "time only", "one flat representation"],
      deep: ["Deep & narrow", "sequential cell firings", "time + depth",
        "a hierarchy: surface → phrase → meaning"] };
    const table = [...document.querySelectorAll("table")].find((t) => t.rows[0] &&
      ctx.el.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING &&
      /Shallow/.test(t.rows[0].textContent));
    const stack = h("div.w-stackpic", { role: "img" }), facts = h("dl.w-dl");
    const say = h("p.w-status", { "aria-live": "polite" });
    const wide = Math.max(...d.options.map((x) => x.hidden)), C = d.cell.toUpperCase();
    const show = (key) => {
      const o = d.options.find((x) => x.key === key), t = TEXT[o.key], tr = d.trained && d.trained[o.key];
      const n = (v) => h("span", { "data-value": v, text: W.int(v) });
      stack.replaceChildren(...[...Array(o.layers).keys()].map((l) => h("span", { // top first
        class: `w-block w-l${((o.layers - l - 1) % 3) + 1}`, style: `width:${100 * o.hidden / wide}%`,
        text: `${C} ${o.hidden}` })));
      stack.ariaLabel = `${o.layers} ${C} layer(s) of ${o.hidden} units`;
      facts.replaceChildren(...[
        ["Shape", `${o.layers} × ${o.hidden} (${C}, D = ${d.input_size})`],
        ["Parameters", n(o.params.keras), " (Keras) · ", n(o.params.torch), " (PyTorch)"],
        ["Per word", `${o.layers > 1 ? `${o.layers} ` : ""}${t[1]}`],
        ["States carried", `${o.layers} × (h, c)`], ["Gradient paths", t[2]], ["Learns", t[3]],
        tr && ["Toy scale, trained", `${tr.layers} × ${tr.hidden} (${W.int(tr.params)} parameters)` +
          `: held-out agreement ${W.pct(tr.agreement, 2)}; steps to 90 % (${tr.seeds} seeds): ` +
          tr.steps_to_90.map(W.int).join(", ")],
      ].filter(Boolean).flatMap(([k, ...v]) => [h("dt", k), h("dd", ...v)]));
      const col = d.options.indexOf(o) + 1;
      if (table) [...table.rows].forEach((r) => [...r.cells].forEach((c, j) => c.classList.toggle("w-colon", j === col)));
      say.textContent = `${t[0]}: ${o.layers} × ${o.hidden} ${C}, ${W.int(o.params.keras)} parameters.`;
      ctx.el.dataset.option = o.key;
    };
    ctx.ui.append(W.radios("Spend the budget on", d.options.map((o) => [o.key, `${TEXT[o.key][0]} · ` +
      `${o.layers}×${o.hidden}`]), d.options[0].key, show), say, stack, facts,
    table ? h("p.w-caption", "The head-to-head table below follows your choice.") : null);
    show(d.options[0].key);
  },
});
