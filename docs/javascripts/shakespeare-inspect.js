/* The live Shakespeare widget's legend and inspector (used by shakespeare-live.js). The legend
   says what the strips' and the text's colours mean; the inspector shows, for the picked
   character, what the strips draw, as numbers with the same sign (each layer's signed cell, or
   its mean |Δh|), the bits each model needed for it and each model's five most likely next
   characters: one column per model. */
(function () {
  "use strict";

  StackWidgets.charInspect = (live, panes) => {
    const { h, formatFixed, charModel } = StackWidgets;
    const { shown } = charModel;
    const roles = Object.keys(panes);
    const models = roles.map((role) => live.models[role]);
    const featureLabel = (name) => live.features.find((f) => f.name === name).label;

    // --- the legend ------------------------------------------------------------------------
    const swatch = (cls) => h(`span.w-sl-swatch.${cls}`, { "aria-hidden": "true" });
    const legend = h("div.w-sl-legend");
    const showLegend = (showing) => {
      const parts = showing === "dh" ? [h("span", swatch("w-sl-dh"),
        " L1, L2…: how much each layer's units changed since the character before (mean " +
        "|Δh|, full at 0.5)")] : [
        h("span", swatch("w-sl-more"), ` red: more “${featureLabel(showing)}”`),
        h("span", swatch("w-sl-less"), " blue: less"),
        h("span", "L1, L2…: each layer's cell that follows it best, flipped (“−1 ×”) if it " +
          "falls as the feature rises; the background: the best of them")];
      legend.replaceChildren(...parts, h("span", swatch("w-sl-bits"),
        " bits: what the model needed for the character (full at 8)"),
      h("span", h("span.w-sl-gen", "underlined"), ": written by the model"));
    };

    // --- the inspector: one column per model -----------------------------------------------
    const deepest = Math.max(...models.map((m) => m.layers));
    const heading = h("p.w-sl-at");
    const chars = models.map(() => h("td"));
    // A layer's cell is its unit ("−1 × #27 = ", on a line of its own on a phone, where the
    // table must fit) and its value.
    const layerRows = Array.from({ length: deepest }, () => ({
      name: h("th", { scope: "row" }), cells: models.map(() => {
        const unit = h("span.w-sl-unit");
        const value = h("span");
        return { td: h("td", unit, value), unit, value };
      }) }));
    const bitsCells = models.map(() => h("td"));
    const caption = h("caption");
    const table = h("table.w-table.w-sl-values", caption,
      h("thead", h("tr", h("th", { scope: "col", text: "" }),
        models.map((m) => h("th", { scope: "col", text: `${m.layers} × ${m.hidden}` })))),
      h("tbody", h("tr", h("th", { scope: "row", text: "Character" }), chars),
        layerRows.map((r) => h("tr", r.name, r.cells.map((c) => c.td))),
        h("tr", h("th", { scope: "row", text: "Bits needed" }), bitsCells)));
    const lists = models.map((m) => h("ol.w-sl-next",
      { "aria-label": `${m.label}: most likely next characters` }));

    /** Show character t of every pane: the reader's text is shared, what follows is each
        model's own. */
    const show = (t) => {
      const showing = panes[roles[0]].showing();
      const entries = roles.map((role) => panes[role].chars[t]);
      const given = panes[roles[0]].chars.filter((c) => !c.gen).length;
      heading.textContent = !entries.some(Boolean) ? "No character yet."
        : t < given ? `Character ${t + 1} of the ${given} read.`
          : `Character ${t + 1}: written by each model.`;
      caption.textContent = showing === "dh" ? "Each layer's mean change |Δh|, as the strips"
        : `Each layer's cell as the strips show it, signed: + is more “${featureLabel(showing)}”`;
      layerRows.forEach((r, l) => {
        r.name.textContent = `Layer ${l + 1}`;
      });
      roles.forEach((role, k) => {
        const entry = entries[k];
        const pane = panes[role];
        chars[k].textContent = entry ? `“${shown(entry.ch)}”` +
          (entry.id < 0 ? " (skipped: not in the alphabet)" : "") : "–";
        layerRows.forEach((r, l) => {
          const cell = l < models[k].layers && showing !== "dh" ? pane.cellOf(l) : null;
          const known = l < models[k].layers && entry && entry.h;
          r.cells[k].unit.textContent = known && cell
            ? `${cell.sign < 0 ? "−1 × " : ""}#${cell.unit} = ` : "";
          r.cells[k].value.textContent = l >= models[k].layers ? "" : !known ? "–"
            : cell ? formatFixed(cell.sign * entry.h[l * models[k].hidden + cell.unit], 3)
              : formatFixed(entry.dh[l], 3);
        });
        bitsCells[k].textContent = entry && entry.bits != null ? formatFixed(entry.bits, 2)
          : "–";
        const following = pane.chars[t + 1];
        const likely = entry && entry.logits
          ? charModel.top(charModel.softmax(entry.logits), 5) : [];
        lists[k].replaceChildren(...likely.map(([id, p]) => {
          const came = following && following.id === id;
          return h("li", { class: came ? "w-sl-came" : null },
            h("span.w-sl-ch", shown(live.vocab[id])),
            h("span.w-sl-bar", { style: `width:${p * 100}%` }),
            h("span", `${formatFixed(p * 100, 1)} %${came ? ", came next" : ""}`));
        }));
      });
    };

    return { legend, showLegend, show,
      el: h("div.w-sl-inspect", heading, h("div.w-scroll", { tabindex: 0, role: "region",
        "aria-label": "The picked character's values (scrolls sideways)" }, table),
        h("div.w-sl-nexts", models.map((m, k) => h("div", { "data-role": roles[k] },
          h("p.w-sl-next-head", `${m.label}: most likely next`), lists[k])))) };
  };
})();
