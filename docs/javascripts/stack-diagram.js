/* The three-layer stack diagram that §03's blueprint and §04's follow-the-dot widgets share
   (the static figures' layout, drawn live so each part can be lit and named).

   StackWidgets.stackDiagram() returns { svg, parts, names }:
     parts[key]  the <g> of one part: x (input), y (output), c1-c3 (the cells of layers 1-3),
                 v0-v3 (the vertical wires: into layer 1, 2, 3, then up to the output),
                 m1-m3 (each layer's memory arriving from t-1), n1-n3 (its handoff to t+1)
     names[key]  that part's name for assistive technology ("Layer 2", "Memory wire of layer 1")
   The SVG carries the class "sel" (unlit parts dimmed); a widget removes it to show all. */
(function () {
  "use strict";
  const { svg } = StackWidgets;
  const CELL_X = 100; // left edge of every cell box
  const CELL_WIDTH = 140;
  const CELL_HEIGHT = 44;
  const SPINE_X = CELL_X + CELL_WIDTH / 2; // the vertical wires run through the cells' centres
  const LAYER_TOPS = [[1, 228], [2, 144], [3, 60]]; // [layer, top of its cell box]
  // Vertical wires: [from y, to y] for v0 (input -> layer 1) ... v3 (layer 3 -> output).
  const VERTICAL_WIRES = [[304, 272], [228, 188], [144, 104], [60, 34]];

  /** "base" with a subscript and a superscript, as SVG text (75 % size, shifted). */
  const label = (x, y, base, sub, sup) => {
    const script = (shift, text) => text &&
      svg("tspan", { "baseline-shift": shift, "font-size": "75%" }, text);
    return svg("text", { x, y }, base, script("sub", sub), script("super", sup));
  };

  /** A straight wire from (x1, y1) to (x2, y2), with an arrowhead at the end. */
  const wire = (x1, y1, x2, y2) => {
    const dx = Math.sign(x2 - x1);
    const dy = Math.sign(y2 - y1);
    const line = svg("line", { x1, y1, x2: x2 - 6 * dx, y2: y2 - 6 * dy });
    const head = svg("path.w-head", {
      d: `M${x2} ${y2}l${-7 * dx - 4 * dy} ${-7 * dy - 4 * dx}l${8 * dy} ${8 * dx}z`,
    });
    return [line, head];
  };

  function drawStack() {
    const parts = {};
    const names = {};
    // Each part's first letter is its kind (w-x, w-c, w-v, w-m, w-n: CSS styles by kind).
    const part = (key, name, layerClass, ...children) => {
      names[key] = name;
      parts[key] = svg("g", { class: `w-part w-${key[0]} ${layerClass}`, "data-part": key },
        ...children);
      return parts[key];
    };
    const group = svg("g");
    for (const [layer, top] of LAYER_TOPS) {
      const y = top + CELL_HEIGHT / 2;
      const layerClass = `w-l${layer}`; // the layer's colour
      const sup = `[${layer}]`;
      group.append(
        part(`m${layer}`, `Memory wire of layer ${layer}`, layerClass,
          wire(8, y, CELL_X, y), label(10, y - 6, "h", "t−1", sup)),
        part(`n${layer}`, `Handoff of layer ${layer}`, layerClass,
          wire(CELL_X + CELL_WIDTH, y, 332, y), label(250, y - 6, "h", "t", sup)),
        part(`c${layer}`, `Layer ${layer}`, layerClass,
          svg("rect", { x: CELL_X, y: top, width: CELL_WIDTH, height: CELL_HEIGHT, rx: 8 }),
          svg("text.w-strong", { x: SPINE_X, y: top + 19 }, `layer ${layer}`),
          label(SPINE_X, top + 35, "Cell", null, sup), label(212, top + 35, "W", null, sup)));
    }
    VERTICAL_WIRES.forEach(([from, to], k) => {
      const name = k < 3 ? `Wire up into layer ${k + 1}` : "Wire up to the output";
      group.append(part(`v${k}`, name, "", wire(SPINE_X, from, SPINE_X, to)));
    });
    group.append(
      part("x", "Input", "", svg("circle", { cx: SPINE_X, cy: 318, r: 14 }),
        label(SPINE_X, 322, "x", "t")),
      part("y", "Output", "", svg("circle", { cx: SPINE_X, cy: 20, r: 14 }),
        label(SPINE_X, 24, "y", "t")));
    return { svg: svg("svg.w-diagram.sel", { viewBox: "0 0 340 340" }, group), parts, names };
  }

  StackWidgets.stackDiagram = drawStack;
})();
