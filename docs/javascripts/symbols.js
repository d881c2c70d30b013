/* §07 symbol inspector: the page's equation, each glossary symbol a button; the inspector
   reads job, shape and personality from the page's glossary table. */
StackWidgets.register("symbols", {
  title: "Symbol inspector for the governing equation",
  mount(ctx) {
    const W = StackWidgets, h = W.h, el = ctx.el, buttons = [], table = new Map();
    const rows = el.querySelectorAll(".glossary tbody tr");
    const eqs = [...el.querySelectorAll(":scope > .mathml-block math")];
    if (!rows.length || !eqs.length) throw new Error("the equation or its glossary is missing");
    const key = (n) => n.textContent.replace(/\s+/g, "");
    for (const tr of rows) { // "x_t = h_t^[0]" answers to both sides
      [key(tr.cells[0]), ...key(tr.cells[0]).split("=")].forEach((k) => table.has(k) || table.set(k, tr));
    }
    const atoms = (node) => [...node.children].flatMap((c) => (c.localName === "mrow" &&
      ![...c.children].some((x) => x.localName === "mi") ? atoms(c) : [c]));
    const math = (...kids) => {
      const m = document.createElementNS(eqs[0].namespaceURI, "math");
      m.append(...kids);
      return m;
    };
    const panel = h("div.w-panel", { "aria-live": "polite" },
      h("p.w-caption", "Hover, tap or focus a highlighted symbol."));
    const kids = (td) => [...td.cloneNode(true).childNodes];
    const pick = (btn, tr) => { // hover, focus, click: shown, not "pressed"
      buttons.forEach((b) => b.classList.toggle("on", b === btn));
      const [sym, job, shape, who] = tr.cells;
      panel.replaceChildren(h("p.w-title", kids(sym), " · ", job.textContent),
        h("dl.w-dl", h("dt", "Job"), h("dd", kids(job)),
          h("dt", "Shape"), h("dd", kids(shape)),
          h("dt", "Personality"), h("dd", who.textContent)));
      el.dataset.symbol = key(sym);
    };
    const line = (eq) => h("p.w-eq", atoms(eq).reduce((out, a) => {
      const tr = /^(msub|msup|msubsup|mi|mrow)$/.test(a.localName) && table.get(key(a));
      if (!tr) { // plain math between buttons
        if (!(out[out.length - 1] instanceof MathMLElement)) out.push(math());
        out[out.length - 1].append(a.cloneNode(true));
        return out;
      }
      const b = h("button.w-sym", { type: "button", "aria-label": `${key(a)}: ` +
        tr.cells[1].textContent, "data-symbol": key(a) }, math(a.cloneNode(true)));
      for (const ev of ["mouseenter", "focus", "click"]) b.addEventListener(ev, () => pick(b, tr));
      buttons.push(b);
      return [...out, b];
    }, []));
    const move = (by) => buttons[W.clamp(buttons.indexOf(document.activeElement) + by, 0,
      buttons.length - 1)].focus();
    const box = h("div.w-eqs", { role: "group", "aria-label": "The equation: each " +
      "highlighted symbol is a button" }, eqs.map(line));
    W.arrows(box, { prev: () => move(-1), next: () => move(1), first: () => buttons[0].focus(),
      last: () => buttons[buttons.length - 1].focus() });
    ctx.keep(".glossary");
    ctx.ui.append(box, panel);
  },
});
