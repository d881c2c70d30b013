/* §03 blueprint: a 3-layer stack at one timestep; hover, tap or focus a part (arrow keys move
   between parts) and the panel explains it. */
StackWidgets.register("blueprint", {
  title: "Blueprint of a three-layer stack: explore its parts",
  mount(ctx) {
    const W = StackWidgets, h = W.h;
    const mem = (l) => [`Memory wire of layer ${l}`, `h_{t-1}^{[${l}]}`, `Layer ${l}'s own ` +
      "state from the previous step (and cell state, for an LSTM). No other layer reads it."];
    const out = (l) => [`Handoff of layer ${l}`, `h_t^{[${l}]}`, `Layer ${l}'s new state ` +
      "goes right, to itself at t+1: one path through time per layer."];
    const cell = (l) => [`Layer ${l}`, `Cell^{[${l}]}`, `A full cell with its own weights W[${l}]` +
      `: shared across time, never across layers. It reads ${l > 1 ? `layer ${l - 1}'s state ` +
      "at the same t" : "the input x_t"} and its own memory.`];
    const climb = ["The climb (vertical wires)", "h_t^{[l-1]}", "A vertical wire carries a " +
      "layer's output at time t to the next layer at the SAME t, before the next word arrives."];
    const INFO = {
      x: ["Input", "x_t = h_t^{[0]}", "The word vector at time t. Only layer 1 touches it: " +
        "it is the state of an imaginary layer 0."],
      y: ["Output", "y_t = h_t^{[L]}", "Only the top emits: the output is the top layer's " +
        "state. Lower states leave the stack only upward and forward."],
      v0: climb, v1: climb, v2: climb, v3: climb,
    };
    for (const l of [1, 2, 3]) Object.assign(INFO, { [`c${l}`]: cell(l), [`m${l}`]: mem(l), [`n${l}`]: out(l) });
    const order = ["x", "v0", "c1", "m1", "n1", "v1", "c2", "m2", "n2", "v2", "c3", "m3", "n3",
      "v3", "y"];
    const { svg, parts } = W.diagram();
    svg.classList.remove("sel");
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", "Stack diagram: each part is a button that explains itself");
    const panel = h("div", { class: "w-panel", "aria-live": "polite" }, h("p", {
      class: "w-caption", text: "Hover, tap or focus a part of the diagram (Tab, then arrows)." }));
    const select = (key) => {
      const [name, sym, text] = INFO[key];
      order.forEach((k) => parts[k].classList.toggle("on", k === key || key[0] + k[0] === "vv"));
      svg.classList.add("sel");
      ctx.el.dataset.part = key;
      panel.replaceChildren(h("p", { class: "w-title" }, `${name} · `, W.math(sym)), h("p", { text }));
    };
    order.forEach((key, i) => {
      const p = parts[key];
      Object.entries({ tabindex: 0, role: "button", "aria-label": INFO[key][0] })
        .forEach(([a, v]) => p.setAttribute(a, v));
      for (const ev of ["mouseenter", "focus", "click"]) p.addEventListener(ev, () => select(key));
      p.addEventListener("keydown", (e) => {
        const j = { ArrowUp: i + 1, ArrowRight: i + 1, ArrowDown: i - 1, ArrowLeft: i - 1,
          Home: 0, End: order.length - 1 }[e.key];
        if (j === undefined) return;
        e.preventDefault();
        parts[order[W.clamp(j, 0, order.length - 1)]].focus();
      });
    });
    ctx.ui.append(h("div", { class: "w-split" }, svg, panel));
  },
});
