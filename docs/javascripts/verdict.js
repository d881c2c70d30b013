/* §10 verdict: one parameter budget spent two ways, 1×512 or 3×256 LSTM (generated/data/
   verdict.json: the counts from stacklib, the toy-scale training comparison); the page's
   head-to-head table below follows the choice. */
StackWidgets.register("verdict", {
  title: "Depth vs width: flip between the two ways to spend one parameter budget",
  data: ["generated/data/verdict.json"],
  uses: ["controls"],
  mount(ctx, verdict) {
    const { h, formatInt, radioGroup } = StackWidgets;
    // A no-break space before "%", so the sign never wraps onto a line of its own.
    const formatPercent = (fraction) => `${(100 * fraction).toFixed(2)}\u00a0%`;
    const TEXT = { // [name, per word, gradient paths, what it computes per word]
      wide: ["Shallow & wide", "cell firing", "back through time", "one round of features"],
      deep: ["Deep & narrow", "cell firings, one after another",
        "back through time and down the stack", "features of features, level by level"],
    };
    // The head-to-head table is the first table after the widget whose header says "Shallow".
    const headToHead = [...document.querySelectorAll("table")].find((t) => t.rows[0] &&
      ctx.el.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING &&
      /Shallow/.test(t.rows[0].textContent));
    const picture = h("div.w-stackpic", { role: "img" });
    const facts = h("dl.w-dl");
    const summary = h("p.w-status", { "aria-live": "polite" });
    const widest = Math.max(...verdict.options.map((option) => option.hidden));
    const CELL = verdict.cell_name;

    const show = (key) => {
      const option = verdict.options.find((o) => o.key === key);
      const [name, perWord, paths, learns] = TEXT[option.key];
      const trained = verdict.trained && verdict.trained[option.key];
      const count = (value) => h("span", { "data-value": value, text: formatInt(value) });
      picture.replaceChildren(...[...Array(option.layers).keys()].map((l) => h("span", {
        // top layer first; block width in proportion to the layer's width
        class: `w-block w-l${((option.layers - l - 1) % 3) + 1}`,
        style: `width:${100 * option.hidden / widest}%`, text: `${CELL} ${option.hidden}` })));
      picture.ariaLabel = `${option.layers} ${CELL} layer(s) of ${option.hidden} units`;
      const rows = [
        ["Shape", `${option.layers} × ${option.hidden} (${CELL}, D = ${verdict.input_size})`],
        ["Parameters", count(option.params.keras), " (Keras) · ", count(option.params.torch),
          " (PyTorch)"],
        ["Per word", `${option.layers} ${perWord}`],
        ["States carried", option.layers > 1
          ? `${option.layers} (h, c) pairs, one per layer` : "1 (h, c) pair"],
        ["Gradient paths", paths],
        ["Computes", `${learns} (the field's reading)`],
      ];
      if (trained) {
        rows.push(["Toy scale, trained", `${trained.layers} × ${trained.hidden} ` +
          `(${formatInt(trained.params)} parameters): held-out agreement ` +
          `${formatPercent(trained.agreement)}; steps to 90 % (${trained.seeds} seeds): ` +
          trained.steps_to_90.map(formatInt).join(", ")]);
      }
      facts.replaceChildren(...rows.flatMap(([term, ...description]) =>
        [h("dt", term), h("dd", ...description)]));
      const column = verdict.options.indexOf(option) + 1; // column 0 holds the row names
      if (headToHead) {
        [...headToHead.rows].forEach((row) => [...row.cells].forEach((cell, j) =>
          cell.classList.toggle("w-colon", j === column)));
      }
      summary.textContent = `${name}: ${option.layers} × ${option.hidden} ${CELL}, ` +
        `${formatInt(option.params.keras)} parameters.`;
      ctx.el.dataset.option = option.key;
    };

    ctx.ui.append(
      radioGroup("Spend the budget on", verdict.options.map((option) => [option.key,
        `${TEXT[option.key][0]} · ${option.layers}×${option.hidden}`]),
      verdict.options[0].key, show),
      summary, picture, facts,
      headToHead ? h("p.w-caption", "The head-to-head table below follows your choice.") : null);
    show(verdict.options[0].key);
  },
});
