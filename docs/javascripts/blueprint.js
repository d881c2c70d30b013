/* §03 blueprint: hover, tap or focus a part of the stack and the panel explains it. */
StackWidgets.register("blueprint", {
  title: "Blueprint of a three-layer stack: explore its parts",
  uses: ["stack-diagram", "mathml"],
  mount(ctx) {
    const { h, mathml, clamp } = StackWidgets;

    // What each part is: [its symbol (TeX subset), what it does].
    const memory = (layer) => [`h_{t-1}^{[${layer}]}`, `Layer ${layer}'s own state from the ` +
      "previous step (and cell state, for an LSTM). No other layer reads it."];
    const handoff = (layer) => [`h_t^{[${layer}]}`, `Layer ${layer}'s new state goes right, ` +
      "to itself at t+1: one path through time per layer."];
    const cell = (layer) => [`Cell^{[${layer}]}`, `A full cell with its own weights W[${layer}]` +
      ": shared across time, never across layers. It reads " +
      (layer > 1 ? `layer ${layer - 1}'s state at the same t` : "the input x_t") +
      " and its own memory."];
    const climb = ["h_t^{[l-1]}", "A vertical wire carries a layer's output at time t to the " +
      "next layer at the SAME t, before the next word arrives."];
    const EXPLAIN = {
      x: ["x_t = h_t^{[0]}", "The word vector at time t. Only layer 1 touches it: it is the " +
        "state of an imaginary layer 0."],
      y: ["y_t = h_t^{[L]}", "Only the top emits: the output is the top layer's state. Lower " +
        "states leave the stack only upward and forward."],
    };
    for (const layer of [1, 2, 3]) {
      EXPLAIN[`c${layer}`] = cell(layer);
      EXPLAIN[`m${layer}`] = memory(layer);
      EXPLAIN[`n${layer}`] = handoff(layer);
    }
    // Keyboard order: bottom to top, each layer's cell, then its memory in and out.
    const ORDER = ["x", "v0", "c1", "m1", "n1", "v1", "c2", "m2", "n2", "v2", "c3", "m3", "n3",
      "v3", "y"];

    const { svg, parts, names } = StackWidgets.stackDiagram();
    svg.classList.remove("sel"); // fully lit until a part is chosen
    svg.role = "group";
    svg.ariaLabel = "Stack diagram: each part is a button that explains itself";
    const panel = h("div.w-panel", { "aria-live": "polite" }, h("p.w-caption", {
      text: "Hover, tap or focus a part of the diagram (Tab, then arrows)." }));

    const select = (key) => {
      const [symbol, text] = EXPLAIN[key] || climb; // every vertical wire is the climb
      const isWire = key[0] === "v";
      ORDER.forEach((other) => {
        // choosing one vertical wire lights all four: they are one path, the climb
        parts[other].classList.toggle("on", other === key || (isWire && other[0] === "v"));
        parts[other].tabIndex = other === key ? 0 : -1; // one tab stop that follows the choice
      });
      svg.classList.add("sel");
      ctx.el.dataset.part = key;
      panel.replaceChildren(h("p.w-title", `${names[key]} · `, mathml(symbol)), h("p", { text }));
    };

    ORDER.forEach((key, index) => {
      const part = parts[key];
      Object.assign(part, { tabIndex: index ? -1 : 0, role: "button", ariaLabel: names[key] });
      for (const event of ["mouseenter", "focus", "click"]) {
        part.addEventListener(event, () => select(key));
      }
      part.addEventListener("keydown", (event) => {
        const target = { ArrowUp: index + 1, ArrowRight: index + 1, ArrowDown: index - 1,
          ArrowLeft: index - 1, Home: 0, End: ORDER.length - 1, Enter: index, " ": index,
        }[event.key];
        if (target === undefined) return;
        event.preventDefault();
        if (target === index) select(key); // Enter and Space choose the focused part
        parts[ORDER[clamp(target, 0, ORDER.length - 1)]].focus();
      });
    });
    ctx.ui.append(h("div.w-split", svg, panel));
  },
});
