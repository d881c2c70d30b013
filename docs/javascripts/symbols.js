/* §07 symbol inspector: each glossary symbol of the page's equation is a button. */
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
    const pick = (btn, tr) => { // shown, not "pressed"
      buttons.forEach((b) => b.classList.toggle("on", b === btn));
      const [sym, job, shape, who] = tr.cells;
      panel.replaceChildren(h("p.w-title", kids(sym), " · ", job.textContent),
        h("dl.w-dl", h("dt", "Job"), h("dd", kids(job)),
          h("dt", "Shape"), h("dd", kids(shape)),
          h("dt", "Personality"), h("dd", who.textContent)));
      el.dataset.symbol = key(sym);
    };
    // terms (split at \quad; ⋅ between them becomes a gap) wrap whole; one wider than a line
    // breaks only after = , ; ∈
    const line = (eq) => {
      const p = h("p.w-eq");
      let t, u, m, brk;
      const run = () => { t.append(u = h("span")); m = null; };
      const term = () => { p.append(t = h("span")); run(); brk = false; };
      term();
      for (const a of atoms(eq)) {
        const n = a.localName, tr = /^(msub|msup|msubsup|mi|mrow)$/.test(n) && table.get(key(a));
        if (n !== "mspace") {
          if (brk) run();
          brk = n === "mo" && /^[=,;∈]$/.test(a.textContent);
        } else if (parseFloat(a.getAttribute("width")) >= 1) { term(); continue; }
        if (!tr) {
          (m || u.appendChild(m = math())).append(a.cloneNode(true));
          continue;
        }
        const b = h("button.w-sym", { type: "button", "aria-label": `${key(a)}: ` +
          tr.cells[1].textContent, "data-symbol": key(a) }, math(a.cloneNode(true)));
        for (const ev of ["mouseenter", "focus", "click"]) b.addEventListener(ev, () => pick(b, tr));
        buttons.push(b);
        u.append(b);
        m = null;
      }
      [...p.children].forEach((x) => /^\W?$/.test(x.textContent) && x.remove());
      p.querySelectorAll("mo").forEach((o) => o.setAttribute("stretchy", false)); // split pairs
      return p;
    };
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
