/* §05 price a stack: parameter counts of stacked RNN, GRU and LSTM for any depth and size, in
   PyTorch's or Keras' convention (generated/data/params.json gives the cells and their names,
   gate counts, bias conventions, defaults and slider ranges; the tests compare every count with
   stacklib). */
StackWidgets.register("price", {
  title: "Price a stack: parameters of stacked RNN, GRU and LSTM",
  data: ["generated/data/params.json"],
  uses: ["controls"],
  mount(ctx, params) {
    const { h, formatInt, radioGroup, slider, table } = StackWidgets;
    const defaults = params.defaults;
    const { cells: CELLS, cell_names: NAMES, cell_titles: TITLES } = params;
    const COLUMNS = ["layer", "fan_in", "input_weights", "recurrent_weights", "biases", "total"];
    const state = { cell: defaults.cell, framework: "torch", layers: defaults.num_layers,
      hidden: defaults.hidden_size, input: defaults.input_size };

    /** Per-layer counts, as stacklib.params.param_breakdown: G gate blocks of H units, each with
        fan-in weights, H recurrent weights and B bias vectors (B depends on the framework). */
    const breakdown = (cell) => Array.from({ length: state.layers }, (_, k) => {
      const gates = params.gates[cell];
      const fanIn = k ? state.hidden : state.input; // layer 1 reads x, the others h
      const row = { layer: k + 1, fan_in: fanIn, input_weights: gates * state.hidden * fanIn,
        recurrent_weights: gates * state.hidden * state.hidden,
        biases: params.bias_vectors[state.framework][cell] * gates * state.hidden };
      row.total = row.input_weights + row.recurrent_weights + row.biases;
      return row;
    });

    const cards = {}; // cell -> [the card (a button), its total]
    const choose = (cell) => {
      state.cell = cell;
      cellChoice.set(cell);
      show();
    };
    for (const cell of CELLS) {
      const gates = params.gates[cell];
      const total = h("span.w-big", { "data-count": cell });
      const card = h("button.w-card", { type: "button", onclick: () => choose(cell) },
        h("span.w-strong", TITLES[cell]),
        h("span", { text: `${gates} gate block${gates > 1 ? "s" : ""} / layer` }), total);
      cards[cell] = [card, total];
    }
    const tbody = h("tbody");
    const note = h("p.w-caption");
    let noteKind; // which of the three notes is shown: announce only a new one

    const show = () => {
      for (const cell of CELLS) {
        const [card, total] = cards[cell];
        const count = breakdown(cell).reduce((sum, row) => sum + row.total, 0);
        total.textContent = formatInt(count);
        total.dataset.value = count;
        card.ariaPressed = cell === state.cell;
      }
      const { layers, hidden, input, framework, cell } = state;
      const biasVectors = params.bias_vectors[framework][cell];
      const gates = params.gates[cell];
      tbody.parentNode.caption.textContent = `${TITLES[cell]}, L = ${layers}, ` +
        `H = ${hidden}, D = ${input} (${framework === "torch" ? "PyTorch" : "Keras"} convention: ` +
        `${biasVectors} bias vector${biasVectors > 1 ? "s" : ""} per gate block)`;
      tbody.replaceChildren(...breakdown(cell).map((row) => h("tr", {
        class: row.layer === 2 && input !== hidden ? "w-jump" : null, // where fan-in changes
      }, COLUMNS.map((key) => h("td", { "data-key": key, "data-value": row[key],
        text: key === "layer" ? String(row[key]) : formatInt(row[key]) })))));
      const kind = layers < 2 ? 0 : input === hidden ? 1 : 2;
      note.ariaLive = kind === noteKind ? "off" : "polite";
      noteKind = kind;
      note.textContent = [
        "One layer: no fan-in jump yet. Add a layer to see it.",
        `Fan-in stays ${hidden}: the input size equals the hidden size.`,
        `Fan-in jump: layer 1 reads x (${input}), every layer above reads h (${hidden}), so each ` +
          `upper layer's input weights hold ${formatInt(gates * hidden * hidden)} numbers ` +
          `instead of ${formatInt(gates * hidden * input)}.`,
      ][kind];
      Object.assign(ctx.el.dataset, { cell, fw: framework, layers, hidden, input });
    };

    const cellChoice = radioGroup("Cell", CELLS.map((cell) => [cell, NAMES[cell]]),
      state.cell, choose);
    const sizeSlider = (label, key, range) => slider(label, { ...params.sliders[range],
      value: state[key] }, String, (value) => {
      state[key] = Math.round(value);
      show();
    });
    const frameworkChoice = radioGroup("Convention", [["torch", "PyTorch"], ["keras", "Keras"]],
      state.framework, (framework) => {
        state.framework = framework;
        show();
      });
    ctx.ui.append(
      h("div.w-controls", cellChoice, frameworkChoice,
        sizeSlider("Layers · L", "layers", "num_layers"),
        sizeSlider("Hidden size · H", "hidden", "hidden_size"),
        sizeSlider("Input size · D", "input", "input_size")),
      h("div.w-cards", CELLS.map((cell) => cards[cell][0])),
      h("div.w-scroll", table("", ["Layer", "Fan-in", "Input weights", "Recurrent weights",
        "Biases", "Layer total"], tbody)),
      note);
    show();
  },
});
