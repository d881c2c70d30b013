/* §03 blueprint: hover, tap or focus a part of the stack and the panel explains it. */
StackWidgets.register("blueprint", {
  title: "Blueprint of a three-layer stack: explore its parts",
  mount(ctx) {
    const W = StackWidgets, h = W.h;
    const mem = (l) => [`h_{t-1}^{[${l}]}`, `Layer ${l}'s own ` +
      "state from the previous step (and cell state, for an LSTM). No other layer reads it."];
    const out = (l) => [`h_t^{[${l}]}`, `Layer ${l}'s new state ` +
      "goes right, to itself at t+1: one path through time per layer."];
    const cell = (l) => [`Cell^{[${l}]}`, `A full cell with its own weights W[${l}]` +
      `: shared across time, never across layers. It reads ${l > 1 ? `layer ${l - 1}'s state ` +
      "at the same t" : "the input x_t"} and its own memory.`];
    const climb = ["h_t^{[l-1]}", "A vertical wire carries a layer's output at time t to the " +
      "next layer at the SAME t, before the next word arrives."];
    const INFO = {
      x: ["x_t = h_t^{[0]}", "The word vector at time t. Only layer 1 touches it: " +
        "it is the state of an imaginary layer 0."],
      y: ["y_t = h_t^{[L]}", "Only the top emits: the output is the top layer's " +
        "state. Lower states leave the stack only upward and forward."],
    };
    for (const l of [1, 2, 3]) Object.assign(INFO, { [`c${l}`]: cell(l), [`m${l}`]: mem(l), [`n${l}`]: out(l) });
    const order = ["x", "v0", "c1", "m1", "n1", "v1", "c2", "m2", "n2", "v2", "c3", "m3", "n3",
      "v3", "y"];
    const { svg, parts, names } = W.diagram();
    svg.classList.remove("sel");
    svg.role = "group";
    svg.ariaLabel = "Stack diagram: each part is a button that explains itself";
    const panel = h("div.w-panel", { "aria-live": "polite" }, h("p.w-caption", {
      text: "Hover, tap or focus a part of the diagram (Tab, then arrows)." }));
    const select = (key) => {
      const [sym, text] = INFO[key] || climb;
      order.forEach((k) => {
        parts[k].classList.toggle("on", k === key || key[0] + k[0] === "vv");
        parts[k].tabIndex = k === key ? 0 : -1; // roving tab stop
      });
      svg.classList.add("sel");
      ctx.el.dataset.part = key;
      panel.replaceChildren(h("p.w-title", `${names[key]} · `, W.math(sym)), h("p", { text }));
    };
    order.forEach((key, i) => {
      const p = parts[key];
      Object.assign(p, { tabIndex: i ? -1 : 0, role: "button", ariaLabel: names[key] });
      for (const ev of ["mouseenter", "focus", "click"]) p.addEventListener(ev, () => select(key));
      p.addEventListener("keydown", (e) => {
        const j = { ArrowUp: i + 1, ArrowRight: i + 1, ArrowDown: i - 1, ArrowLeft: i - 1,
          Home: 0, End: order.length - 1, Enter: i, " ": i }[e.key];
        if (j === undefined) return;
        e.preventDefault();
        if (j === i) select(key);
        parts[order[W.clamp(j, 0, order.length - 1)]].focus();
      });
    });
    ctx.ui.append(h("div.w-split", svg, panel));
  },
});
