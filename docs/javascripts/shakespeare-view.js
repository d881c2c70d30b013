/* One model's pane of the live Shakespeare widget (used by shakespeare-live.js): the text it read
   and wrote as real text (selectable, copyable; what the model wrote is marked), in rows of a
   fixed height, with the model's strips drawn under each row at the text's own character pitch,
   on one canvas behind the whole pane (a canvas per row made the browser composite a layer per
   row, every frame, several times the model's own time): one strip per layer (the chosen
   feature's cell, or the layer's mean change |Δh|) and one for the bits the model needed for
   the character. The characters' background is the best layer's cell
   for the feature. A character is an entry {ch, id (-1: skipped), gen (written by the model),
   h: every layer's state, dh: every layer's mean |Δh|, bits, logits: the scores of what comes
   next}. */
(function () {
  "use strict";

  const RED = [220, 38, 38];
  const BLUE = [37, 99, 235];
  const AMBER = [217, 119, 6];
  const rgba = ([r, g, b], a) => `rgba(${r},${g},${b},${a.toFixed(3)})`;
  const MAX_BITS = 8; // a strip is full at 8 bits (a character the model gave 1 chance in 256)

  /** What every pane's layout needs, measured once for all (each measurement makes the
      browser lay the page out): the monospace pitch, a pane's width and the palette. */
  StackWidgets.charGeometry = (host, pane) => {
    const style = getComputedStyle(host);
    const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    const probe = StackWidgets.h("span.w-sl-line",
      { style: "position:absolute;visibility:hidden" }, "M".repeat(20));
    host.append(probe);
    const pitch = probe.getBoundingClientRect().width / 20 || 8.4;
    probe.remove();
    return { pitch, width: pane.clientWidth || 320,
      colors: { fg: read("--w-fg", "#000"), muted: read("--w-muted", "#777"),
        layer: [13, 148, 136] } };
  };

  StackWidgets.charView = (info, features) => {
    const { h, clamp } = StackWidgets;
    const L = info.layers;
    const H = info.hidden;
    const chars = [];
    let showing = features[0].name; // a feature's name, or "dh"

    // --- geometry: rows of characters at the monospace font's pitch ----------------------------
    const LINE = 20; // a row's text, as widget-figures.css sets it
    const STRIP = 6;
    const GAP = 1;
    const LEFT = 20; // room for the strips' labels, and the text indented by as much
    const STRIPS = L + 1; // the layers, then the bits
    const HEIGHT = STRIPS * (STRIP + GAP) + 3;
    const ROW = LINE + HEIGHT;
    let pitch = 8.4;
    let perRow = 40;
    let where = []; // per character: [row, column]
    let rows = []; // per row: its text's line
    let capacity = 0; // rows the canvas holds

    const text = h("div.w-sl-text");
    const canvas = h("canvas.w-sl-strips", { "aria-hidden": "true" });
    let draw = canvas.getContext("2d");
    const cursor = h("div.w-sl-cursor", { hidden: true });
    const el = h("div.w-sl-pane", { tabindex: 0, role: "group",
      "aria-label": `${info.label}: the text and what it wrote; arrow keys pick a character` },
    canvas, text, cursor);

    /** The cell drawn for the feature in layer l, and whether it is flipped. */
    const cellOf = (l) => info.cells[showing][l];
    /** Layer l's strip value under a character in [-1, 1] (the cell, flipped so that up means
        more of its feature), or the mean change |Δh| as a share of 0.5 in [0, 1]. */
    const value = (entry, l) => {
      if (!entry.h) return null;
      if (showing === "dh") return clamp(entry.dh[l] / 0.5, 0, 1);
      const cell = cellOf(l);
      return clamp(cell.sign * entry.h[l * H + cell.unit], -1, 1);
    };
    /** The layer whose cell follows the feature best: it tints the characters. */
    const tintLayer = () => {
      if (showing === "dh") return -1;
      const cells = info.cells[showing];
      return cells.reduce((best, c, l) => (c.test > cells[best].test ? l : best), 0);
    };
    let tinted = -1;

    const labels = (row) => {
      draw.fillStyle = colors.muted;
      for (let s = 0; s < STRIPS; s++) {
        draw.fillText(s < L ? `L${s + 1}` : "bits", 0,
          row * ROW + LINE + s * (STRIP + GAP) + STRIP / 2 + 1);
      }
    };
    /** A canvas for `count` rows (more than asked: growing clears it, and all is drawn again). */
    const fitCanvas = (count) => {
      const dpr = Math.min(2, window.devicePixelRatio || 1); // sharp enough, and a smaller canvas
      const width = LEFT + (perRow + 2) * pitch;
      capacity = count;
      Object.assign(canvas, { width: Math.ceil(width * dpr), height: count * ROW * dpr });
      Object.assign(canvas.style, { width: `${width}px`, height: `${count * ROW}px` });
      draw = canvas.getContext("2d");
      draw.setTransform(dpr, 0, 0, dpr, 0, 0);
      draw.font = "8px ui-sans-serif, sans-serif";
      draw.textBaseline = "middle";
    };
    // The page shows a new character when `flush` says: each change the browser shows costs it
    // a frame (layout, paint, compositing), so a writer flushes a few times a second.
    let shown = 0; // characters in the page so far
    let attached = 0; // rows in the page so far
    const addRow = () => {
      rows.push(h("div.w-sl-line", { style: `padding-left:${LEFT}px` }));
    };
    const flush = () => {
      if (rows.length > capacity) {
        fitCanvas(rows.length + 12);
        rows.forEach((_, r) => labels(r));
        for (let t = 0; t < shown; t++) drawColumn(t);
      }
      for (; attached < rows.length; attached++) {
        text.append(h("div.w-sl-row", { "data-row": attached, style: `height:${ROW}px` },
          rows[attached]));
        labels(attached);
      }
      for (; shown < chars.length; shown++) {
        rows[where[shown][0]].append(chars[shown].span);
        drawColumn(shown);
      }
    };

    /** The character's background: the tint cell's value, red for more of the feature. */
    const tintOf = (entry) => {
      const v = tinted >= 0 ? value(entry, tinted) : null;
      return v === null ? "" : rgba(v > 0 ? RED : BLUE, 0.4 * Math.abs(v));
    };
    const spanOf = (entry) => { // (a thousand of them at once: plain DOM calls, not h())
      const span = document.createElement("span");
      if (entry.ch === "\n") span.className = "w-sl-nl";
      else span.textContent = entry.ch;
      if (entry.gen) span.classList.add("w-sl-gen");
      if (entry.id < 0) span.classList.add("w-sl-skip");
      const tint = tintOf(entry);
      if (tint) span.style.background = tint;
      return span;
    };

    let colors = {};
    const drawColumn = (t) => {
      const entry = chars[t];
      if (!where[t] || where[t][0] >= capacity) return; // drawn when the canvas grows
      const [row, col] = where[t];
      const x = LEFT + col * pitch;
      draw.clearRect(x, row * ROW + LINE, pitch, HEIGHT);
      if (!entry.h && entry.bits == null) return; // not read yet, or skipped
      for (let s = 0; s < STRIPS; s++) {
        const top = row * ROW + LINE + s * (STRIP + GAP);
        const bits = s === L;
        const v = bits ? (entry.bits == null ? null : clamp(entry.bits / MAX_BITS, 0, 1))
          : value(entry, s);
        if (v === null) continue;
        const one = bits || showing === "dh";
        draw.fillStyle = rgba(bits ? AMBER : one ? colors.layer : v > 0 ? RED : BLUE,
          0.1 + 0.9 * Math.abs(v));
        draw.fillRect(x, top, pitch, STRIP);
        // The value as a bar too (from the middle, or from the bottom for a size): colour is
        // never the only channel.
        draw.fillStyle = colors.fg;
        const length = (one ? STRIP : STRIP / 2) * Math.abs(v);
        const base = one ? top + STRIP : top + STRIP / 2;
        draw.fillRect(x + pitch / 2 - 0.5, v > 0 ? base - length : base, 1, length);
      }
    };

    // Rows as a reader reads: a line break ends a row only once the row is half full (a
    // speaker's name shares its row with the speech, a blank line with the line before); a
    // word that would cross the row's end moves to the next row; a space may hang one column
    // past the end, a line break two.
    let next = [0, 0];
    let breakDue = false;
    const isBreak = (ch) => ch === " " || ch === "\n";
    const put = (t, row, col) => {
      while (rows.length <= row) addRow();
      where[t] = [row, col];
      next = [row, col + 1];
      if (t >= shown) return;
      rows[row].append(chars[t].span); // a word moved on after it was shown
      drawColumn(t);
    };
    const add = (entry) => {
      chars.push(entry);
      const t = chars.length - 1;
      entry.span = spanOf(entry);
      let [row, col] = next;
      if (breakDue && entry.ch !== "\n") [row, col] = [row + 1, 0];
      const hangs = (entry.ch === " " && col === perRow) || (entry.ch === "\n" && col <= perRow + 1);
      if (col >= perRow && !hangs) {
        let w = t; // the start of the word in progress, in this row
        while (w > 0 && where[w - 1][0] === row && !isBreak(chars[w - 1].ch)) w--;
        const moved = w > 0 && where[w - 1][0] === row ? t - w : 0;
        for (let k = t - moved; k < t; k++) {
          const [r, c] = where[k];
          if (k < shown) draw.clearRect(LEFT + c * pitch, r * ROW + LINE, pitch, HEIGHT);
          put(k, row + 1, k - (t - moved));
        }
        [row, col] = [row + 1, moved];
      }
      put(t, row, col);
      breakDue = entry.ch === "\n" ? col + 1 >= perRow / 2 || breakDue : false;
    };

    /** Lay every character out again, for a new geometry (`charGeometry`: a new width or
        palette) or a new feature. */
    let geometry = { pitch: 8.4, width: 320, colors: {} };
    const redraw = (measured) => {
      geometry = measured || geometry;
      ({ pitch, colors } = geometry);
      perRow = Math.max(10, Math.floor((geometry.width - LEFT - 2) / pitch) - 2);
      tinted = tintLayer();
      const kept = chars.splice(0);
      where = [];
      rows = [];
      next = [0, 0];
      breakDue = false;
      text.replaceChildren();
      shown = 0;
      attached = 0;
      capacity = 0; // the next flush sizes the canvas afresh
      kept.forEach(add);
      flush();
      cursor.hidden = true;
    };

    /** Outline character t (-1: none). */
    const mark = (t) => {
      cursor.hidden = !(t >= 0 && t < chars.length);
      if (cursor.hidden) return;
      const [row, col] = where[t];
      Object.assign(cursor.dataset, { row, col });
      Object.assign(cursor.style, { left: `${LEFT + col * pitch - 1}px`, top: `${row * ROW}px`,
        width: `${pitch + 2}px`, height: `${ROW}px` });
    };

    /** The character under a click, or -1. */
    const at = (event) => {
      const box = event.target.closest(".w-sl-row");
      if (!box) return -1;
      const row = Number(box.dataset.row);
      const col = Math.floor((event.clientX - box.getBoundingClientRect().left - LEFT) / pitch);
      return where.findIndex(([r, c]) => r === row && c === col);
    };

    return { el, chars, add, flush, redraw, mark, at, cellOf, tintLayer,
      /** Keep the first n characters (the reader's text) and forget the rest. */
      keep: (n) => {
        chars.length = Math.min(n, chars.length);
        redraw();
      },
      /** These characters instead of the pane's (laid out for `measured`, if given). */
      set: (entries, measured) => {
        chars.splice(0, chars.length, ...entries);
        redraw(measured);
      },
      setShowing: (name) => {
        showing = name;
        redraw();
      },
      showing: () => showing,
      written: () => chars.filter((c) => c.gen).map((c) => c.ch).join(""),
      text: () => chars.map((c) => c.ch).join("") };
  };
})();
