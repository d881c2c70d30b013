/* §02 three lenses: one layer at a time, what it writes after each word of the probe sentence
   (a heat map of its channels) and what a linear probe reads from it (generated/data/
   lenses.json, from the trained stack and its probes). */
StackWidgets.register("lenses", {
  title: "Three lenses: what each layer of a trained stack works with",
  data: ["generated/data/lenses.json"],
  uses: ["controls", "mathml"],
  mount(ctx, lens) {
    const { h, svg, clamp, mathml, radioGroup } = StackWidgets;
    // A no-break space before "%", so the sign never wraps onto a line of its own.
    const formatPercent = (fraction) => `${(100 * fraction).toFixed(1)}\u00a0%`;
    const layers = lens.num_layers;
    const channels = lens.hidden_size;
    const FEATURES = { pos: "part of speech", word_number: "the word's own number",
      subject_number: "the subject's number",
      subject_number_mismatch: "the subject's number after a mismatched attractor" };
    const featureName = (feature) => FEATURES[feature] || feature;

    // The heat map: one column of 4-unit-high cells per word, one cell per channel.
    const CELL = 4;
    const COLUMN = 32;
    const labelsY = CELL * channels + 16;
    const cells = []; // cells[word * channels + channel]
    const heatmap = svg("svg.w-heat", { viewBox: `0 0 ${COLUMN * lens.words.length + 8} ` +
      `${labelsY + 34}`, role: "img" }, lens.words.map((word, w) => {
      const x = 4 + COLUMN * w;
      const column = [...Array(channels).keys()].map((k) => {
        cells[w * channels + k] = svg("rect", { x, y: 4 + CELL * k, width: 30, height: CELL });
        return cells[w * channels + k];
      });
      const isKey = w === lens.subject_index || w === lens.verb_index;
      const wordLabel = svg("text", { x: x + 16, y: labelsY,
        transform: `rotate(35 ${x + 16} ${labelsY})`, class: isKey ? "w-key" : null }, word);
      return [...column, wordLabel];
    }));
    const title = h("p.w-title");
    const note = h("p.w-caption");
    const summary = h("p.w-status", { "aria-live": "polite" });
    const probes = h("div.w-probes");

    /** One bar: a probe's mean held-out accuracy over the seeds, a whisker one standard
        deviation either side, and the majority-class baseline as a tick. */
    const accuracyBar = (kind, label, value, sd, baseline) => h("div",
      { class: `w-pbar ${kind}` },
      h("span", label),
      h("span.w-track", h("span.w-fill", { style: `width:${100 * value}%` }),
        h("span.w-sd", { style: `left:${100 * Math.max(0, value - sd)}%;` +
          `right:${100 * Math.max(0, 1 - value - sd)}%` }),
        h("span.w-base", { style: `left:${100 * baseline}%` })),
      h("span.w-pval", { "data-value": value, "data-sd": sd, text: formatPercent(value) }));

    const show = (layer) => {
      ctx.el.dataset.lens = layer;
      title.replaceChildren(`Lens ${layer}: layer ${layer} reads ${layer > 1
        ? `layer ${layer - 1}'s states` : "the word vectors"} and writes `,
      mathml(`h_t^{[${layer}]}`));
      note.textContent = `Heat map: layer ${layer}'s ${channels} channels (rows) after each ` +
        "word (columns); colour = sign, strength = size, in one trained model. Bars: held-out " +
        `accuracy of a linear probe on what layer ${layer} reads and writes, the mean over ` +
        `${lens.seeds} trained models (seeds), with a whisker of one standard deviation; the ` +
        "tick marks the majority-class baseline.";
      heatmap.ariaLabel = `Heat map of layer ${layer}'s state, ${channels} channels by ` +
        `${lens.words.length} words of “${lens.text}”`;
      const colour = ` w-l${((layer - 1) % 3) + 1}`;
      heatmap.setAttribute("class", "w-heat" + colour);
      probes.className = "w-probes" + colour;
      lens.h[layer - 1].flat().forEach((value, i) => {
        cells[i].setAttribute("class", value < 0 ? "neg" : "pos");
        cells[i].style.opacity = clamp(Math.abs(value), 0.04, 1).toFixed(3); // never invisible
      });
      const said = [];
      probes.replaceChildren(...Object.entries(lens.accuracy).map(([feature, accuracy]) => {
        const { majority, kind } = lens.features[feature];
        const sd = lens.accuracy_sd[feature];
        said.push(`${featureName(feature)} ${formatPercent(accuracy[layer])} ` +
          `(± ${formatPercent(sd[layer])})`);
        // accuracy[0] is the embedding's: the layer reads accuracy[layer - 1]
        return h("div.w-probe", { "data-feature": feature },
          h("p", `${featureName(feature)} `,
            h("small", { text: `(${kind}; baseline ${formatPercent(majority)})` })),
          accuracyBar("in", `reads (${lens.probe_layers[layer - 1]})`, accuracy[layer - 1],
            sd[layer - 1], majority),
          accuracyBar("out", `writes (${lens.probe_layers[layer]})`, accuracy[layer], sd[layer],
            majority));
      }));
      summary.textContent = `Layer ${layer} writes: ${said.join(", ")} ` +
        `(probe accuracy, mean ± standard deviation over ${lens.seeds} seeds).`;
    };

    const choices = [...Array(layers).keys()].map((i) => [i + 1, `Layer ${i + 1}`]);
    ctx.ui.append(radioGroup("Lens", choices, 1, (value) => show(Number(value))),
      title, heatmap, note, probes, summary);
    show(1);
  },
});
