/* §07 symbol inspector: every symbol of the page's equation that the page's glossary explains
   becomes a button; choosing one shows its glossary row (job, shape, personality). The
   equation is the page's own MathML and the glossary its own table (the block right after the
   widget, which stays on the page), so the widget cannot disagree with the page. */
StackWidgets.register("symbols", {
  title: "Symbol inspector for the governing equation",
  uses: ["controls"],
  mount(ctx) {
    const { h, clamp, onArrowKeys } = StackWidgets;
    const element = ctx.el;
    const glossary = element.nextElementSibling;
    const glossaryRows = glossary && glossary.matches(".glossary")
      ? glossary.querySelectorAll("tbody tr") : [];
    const equations = [...element.querySelectorAll(":scope > .mathml-block math")];
    if (!glossaryRows.length || !equations.length) {
      throw new Error("the equation or its glossary is missing");
    }
    const keyOf = (node) => node.textContent.replace(/\s+/g, ""); // "h_t^[l]" -> "ht[l]"
    const rowOf = new Map(); // symbol key -> its glossary row
    for (const row of glossaryRows) { // "x_t = h_t^[0]" answers to both of its sides
      const key = keyOf(row.cells[0]);
      for (const k of [key, ...key.split("=")]) if (!rowOf.has(k)) rowOf.set(k, row);
    }
    const buttons = [];

    /** The equation's top-level pieces; an mrow is opened unless it holds an identifier (then
        it is one symbol, e.g. a subscripted group). */
    const atoms = (node) => [...node.children].flatMap((child) => (child.localName === "mrow" &&
      ![...child.children].some((grandchild) => grandchild.localName === "mi")
      ? atoms(child) : [child]));
    const mathOf = (...children) => {
      const math = document.createElementNS(equations[0].namespaceURI, "math");
      math.append(...children);
      return math;
    };
    const contentsOf = (cell) => [...cell.cloneNode(true).childNodes];
    const explanation = (row) => {
      const [symbol, job, shape, personality] = row.cells;
      return [h("p.w-title", contentsOf(symbol), " · ", contentsOf(job)),
        h("dl.w-dl", h("dt", "Job"), h("dd", contentsOf(job)),
          h("dt", "Shape"), h("dd", contentsOf(shape)),
          h("dt", "Personality"), h("dd", personality.textContent))];
    };
    /* The panel is always as tall as its longest explanation: every explanation is laid out,
       unseen, in the same grid cell as the shown one, so choosing a symbol never moves the
       glossary below (at any width). */
    const shown = h("div", { "aria-live": "polite" },
      h("p.w-caption", "Hover, tap or focus a highlighted symbol."));
    const panel = h("div.w-panel.w-stacked", shown, [...glossaryRows].map((row) =>
      h("div.w-sizer", { "aria-hidden": "true" }, explanation(row))));

    const choose = (chosen, row) => { // shown, not "pressed": nothing toggles
      buttons.forEach((b) => b.classList.toggle("on", b === chosen));
      shown.replaceChildren(...explanation(row));
      element.dataset.symbol = keyOf(row.cells[0]);
    };

    /* One line of the equation as HTML that wraps well on a phone: terms (separated by a \quad
       in the TeX) wrap whole; a term wider than the line breaks only after = , ; ∈. Each term
       is a span of unbreakable runs; each run holds <math> pieces and symbol buttons. */
    const lineOf = (equation) => {
      const line = h("p.w-eq");
      let term;
      let run;
      let math; // the <math> that collects the run's non-symbol atoms, if any yet
      let breakNext = false; // the previous atom allows a break after it
      const newRun = () => {
        run = h("span");
        term.append(run);
        math = null;
      };
      const newTerm = () => {
        term = h("span");
        line.append(term);
        newRun();
        breakNext = false;
      };
      newTerm();
      for (const atom of atoms(equation)) {
        const name = atom.localName;
        if (name === "mspace" && parseFloat(atom.getAttribute("width")) >= 1) {
          newTerm(); // a wide space (\quad) separates terms
          continue;
        }
        if (name !== "mspace") {
          if (breakNext) newRun();
          breakNext = name === "mo" && /^[=,;∈]$/.test(atom.textContent);
        }
        const row = /^(msub|msup|msubsup|mi|mrow)$/.test(name) && rowOf.get(keyOf(atom));
        if (!row) {
          if (!math) run.appendChild((math = mathOf()));
          math.append(atom.cloneNode(true));
          continue;
        }
        const symbol = h("button.w-sym", { type: "button", "data-symbol": keyOf(atom),
          "aria-label": `${keyOf(atom)}: ${row.cells[1].textContent}` },
        mathOf(atom.cloneNode(true)));
        for (const event of ["mouseenter", "focus", "click"]) {
          symbol.addEventListener(event, () => choose(symbol, row));
        }
        buttons.push(symbol);
        run.append(symbol);
        math = null;
      }
      // a term that is only a separator (the ⋅ between terms) becomes the gap between terms
      [...line.children].forEach((t) => /^\W?$/.test(t.textContent) && t.remove());
      // brackets split over several <math> elements must not stretch independently
      line.querySelectorAll("mo").forEach((operator) => operator.setAttribute("stretchy", false));
      return line;
    };

    const move = (by) => buttons[clamp(buttons.indexOf(document.activeElement) + by, 0,
      buttons.length - 1)].focus();
    const box = h("div.w-eqs", { role: "group",
      "aria-label": "The equation: each highlighted symbol is a button" }, equations.map(lineOf));
    onArrowKeys(box, { prev: () => move(-1), next: () => move(1),
      first: () => buttons[0].focus(), last: () => buttons[buttons.length - 1].focus() });
    ctx.ui.append(box, panel);
  },
});
