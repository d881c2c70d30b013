/* §05 price: parameter counts of stacked RNN/GRU/LSTM (tests compare with stacklib). */
StackWidgets.register("price", {
  title: "Price a stack: parameters of stacked RNN, GRU and LSTM",
  data: ["generated/data/params.json"],
  mount(ctx, d) {
    const W = StackWidgets, h = W.h, df = d.defaults;
    const NAMES = { rnn: "Stacked RNN", gru: "Stacked GRU", lstm: "Stacked LSTM" };
    const KEYS = ["layer", "fan_in", "input_weights", "recurrent_weights", "biases", "total"];
    const cells = Object.keys(NAMES);
    const st = { cell: "lstm", fw: "torch", L: df.num_layers, H: df.hidden_size, X: df.input_size };
    const layers = (cell) => Array.from({ length: st.L }, (_, k) => { // P = G(H n + H^2 + B H)
      const G = d.gates[cell], n = k ? st.H : st.X;
      const r = { layer: k + 1, fan_in: n, input_weights: G * st.H * n,
        recurrent_weights: G * st.H * st.H, biases: d.bias_vectors[st.fw][cell] * G * st.H };
      r.total = r.input_weights + r.recurrent_weights + r.biases;
      return r;
    });
    const cards = {};
    const choose = (c) => { st.cell = c; pick.set(c); show(); };
    for (const c of cells) {
      const g = d.gates[c];
      cards[c] = [h("span.w-big", { "data-count": c })];
      cards[c].unshift(h("button.w-card", { type: "button", onclick: () => choose(c) },
        h("span.w-strong", NAMES[c]),
        h("span", { text: `${g} matri${g > 1 ? "ces" : "x"} / layer` }), cards[c][0]));
    }
    const tbody = h("tbody");
    const note = h("p.w-caption");
    let kind;
    const show = () => {
      for (const c of cells) {
        const [card, v] = cards[c], total = layers(c).reduce((a, r) => a + r.total, 0);
        v.textContent = W.int(total);
        v.dataset.value = total;
        card.ariaPressed = c === st.cell;
      }
      const { L, H, X, fw, cell } = st, B = d.bias_vectors[fw][cell], G = d.gates[cell];
      tbody.parentNode.caption.textContent = `${NAMES[cell]}, L = ${L}, H = ${H}, D = ${X} (${fw === "torch"
        ? "PyTorch" : "Keras"} convention: ${B} bias vector${B > 1 ? "s" : ""} per gate block)`;
      tbody.replaceChildren(...layers(cell).map((r) => h("tr", { class: r.layer === 2 && X !== H
        ? "w-jump" : null }, KEYS.map((k) => h("td", { "data-key": k, "data-value": r[k],
        text: k === "layer" ? String(r[k]) : W.int(r[k]) })))));
      const k = L < 2 ? 0 : X === H ? 1 : 2;
      note.ariaLive = k === kind ? "off" : "polite"; // a new sentence only
      kind = k;
      note.textContent = ["One layer: no fan-in jump yet. Add a layer to see it.",
        `Fan-in stays ${H}: the input size equals the hidden size.`, `Fan-in jump: layer 1 reads ` +
        `x (${X}), every layer above reads h (${H}), so each upper layer's input weights hold ` +
        `${W.int(G * H * H)} numbers instead of ${W.int(G * H * X)}.`][k];
      Object.assign(ctx.el.dataset, { cell, fw, layers: L, hidden: H, input: X });
    };
    const pick = W.radios("Cell", cells.map((c) => [c, c.toUpperCase()]), st.cell, choose);
    const sl = (label, k, key) => W.slider(label, { ...d.sliders[key], value: st[k] }, String,
      (v) => { st[k] = Math.round(v); show(); });
    ctx.ui.append(h("div.w-controls", pick,
      W.radios("Convention", [["torch", "PyTorch"], ["keras", "Keras"]], st.fw, (f) => {
        st.fw = f; show();
      }), sl("Layers · L", "L", "num_layers"), sl("Hidden size · H", "H", "hidden_size"),
      sl("Input size · D", "X", "input_size")), h("div.w-cards", cells.map((c) => cards[c][0])),
    h("div.w-scroll", W.table("", ["Layer", "Fan-in", "Input weights",
      "Recurrent weights", "Biases", "Layer total"], tbody)), note);
    show();
  },
});
