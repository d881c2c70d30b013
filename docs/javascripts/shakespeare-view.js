/* The live Shakespeare stack's view (used by shakespeare-live.js): the text it read or wrote,
   one row of characters at a time with a strip per layer under each character (the chosen
   feature's cell, or the layer's mean change |Δh|), and the picked character's values and most
   likely next characters. A character is an entry {ch, id (-1: skipped), gen (written by the
   stack), h: every layer's state, dh: every layer's mean |Δh|, logits: the scores of what comes
   next}. */
(function () {
  "use strict";

  StackWidgets.charView = (ctx, live) => {
    const { h, clamp, formatFixed, charModel } = StackWidgets;
    const { shown } = charModel;
    const L = live.model.layers;
    const H = live.model.hidden;
    const vocab = live.vocab;
    const chars = [];
    let selected = -1;

    // --- drawing: rows of characters, one strip per layer under each -------------------------
    // One small canvas per row: a new character repaints its row, not the whole text.
    const lines = h("div.w-sl-rows", { role: "img" });
    const view = h("div.w-sl-view", { tabindex: 0, role: "group",
      "aria-label": "The text, character by character: arrow keys pick a character" });
    const FONT = "13px ui-monospace, monospace";
    const TEXT = 18;
    const STRIP = 11;
    const GAP = 2;
    const ROW = TEXT + L * (STRIP + GAP) + 8;
    const LEFT = 16;
    let pitch = 10;
    let perRow = 40;
    let width = 600;
    let where = []; // per character: [row, column]
    let canvases = []; // per row: its 2D context
    let showing = "since_stop"; // a feature's name, or "dh"
    let colors = {};

    const place = (t) => {
      if (t === 0) return [0, 0];
      const [row, col] = where[t - 1];
      return chars[t - 1].ch === "\n" || col + 1 >= perRow ? [row + 1, 0] : [row, col + 1];
    };
    const feature = () => live.features.find((f) => f.name === showing);
    /** Layer l's strip value under a character: the cell, signed so that up means more of its
        feature, in [-1, 1]; or the mean change |Δh| as a share of 0.5, in [0, 1]. */
    const strip = (entry, l) => {
      if (!entry.h) return null;
      if (showing === "dh") return clamp(entry.dh[l] / 0.5, 0, 1);
      const cell = feature().cells[l];
      return clamp(cell.sign * entry.h[l * H + cell.unit], -1, 1);
    };

    const addRow = () => {
      const row = canvases.length;
      const dpr = window.devicePixelRatio || 1;
      const canvas = h("canvas", { width: Math.round(width * dpr), height: ROW * dpr,
        style: `width:${width}px;height:${ROW}px`, onclick: (event) => {
          const x = event.clientX - canvas.getBoundingClientRect().left - LEFT;
          const t = where.findIndex(([r, c]) => r === row && c === Math.floor(x / pitch));
          if (t >= 0) select(t);
        } });
      const draw = canvas.getContext("2d");
      draw.setTransform(dpr, 0, 0, dpr, 0, 0);
      draw.font = FONT;
      draw.textAlign = "center";
      draw.fillStyle = colors.muted;
      for (let l = 0; l < L; l++) draw.fillText(String(l + 1), 6, TEXT + l * (STRIP + GAP) + 9);
      lines.append(canvas);
      canvases.push(draw);
    };

    const drawColumn = (t) => {
      const entry = chars[t];
      const [row, col] = where[t];
      while (canvases.length <= row) addRow();
      const draw = canvases[row];
      const x = LEFT + col * pitch;
      draw.clearRect(x, 0, pitch, ROW);
      draw.fillStyle = entry.id < 0 ? colors.muted : entry.gen ? colors.accent : colors.fg;
      if (entry.ch !== " ") draw.fillText(shown(entry.ch), x + pitch / 2, TEXT - 5);
      if (entry.id < 0) draw.fillRect(x, TEXT / 2, pitch, 1); // struck through
      if (entry.gen) draw.fillRect(x + 1, TEXT - 2, pitch - 2, 1); // written by the stack
      for (let l = 0; l < L; l++) {
        const v = strip(entry, l);
        if (v === null) continue;
        const top = TEXT + l * (STRIP + GAP);
        const base = showing === "dh" ? top + STRIP : top + STRIP / 2;
        draw.globalAlpha = 0.15 + 0.85 * Math.abs(v);
        draw.fillStyle = showing === "dh" ? colors.layer[l] : v > 0 ? colors.up : colors.down;
        draw.fillRect(x, top, pitch, STRIP);
        draw.globalAlpha = 1;
        draw.fillStyle = colors.fg; // the value as a bar too: colour is never the only channel
        const length = (showing === "dh" ? STRIP : STRIP / 2) * Math.abs(v);
        draw.fillRect(x + pitch / 2 - 1, v > 0 ? base - length : base, 2, length);
      }
      if (t === selected) {
        draw.strokeStyle = colors.accent;
        draw.lineWidth = 2;
        draw.strokeRect(x + 1, 1, pitch - 2, ROW - 4);
      }
    };

    const redraw = () => {
      const style = getComputedStyle(ctx.ui);
      const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
      colors = { fg: read("--w-fg", "#000"), muted: read("--w-muted", "#777"),
        accent: read("--w-accent", "#7c4dff"), up: "#dc2626", down: "#2563eb",
        layer: [1, 2, 3].map((l) => read(`--lamp-${l}`, "#0d9488")) };
      width = view.clientWidth || 600;
      const measure = document.createElement("canvas").getContext("2d");
      measure.font = FONT;
      pitch = Math.max(9, Math.ceil(measure.measureText("M").width) + 1);
      perRow = Math.max(10, Math.floor((width - LEFT - 4) / pitch));
      where = [];
      canvases = [];
      shownRow = -1;
      lines.replaceChildren();
      chars.forEach((_, t) => {
        where.push(place(t));
        drawColumn(t);
      });
      lines.ariaLabel = `${chars.length} characters, each with ${L} strips (layers 1 to ${L})` +
        ` showing ${showing === "dh" ? "the mean change |Δh|"
          : `the cell for “${feature().label}”`}`;
    };

    // --- the inspector: the picked character's values and what comes next --------------------
    const heading = h("p.w-sl-at", { "aria-live": "polite" });
    const rows = Array.from({ length: L }, (_, l) => {
      const cells = [h("th", { scope: "row", text: `Layer ${l + 1}` }), h("td", "–"),
        h("td", "–")];
      return { tr: h("tr", { class: `w-l${l + 1}` }, cells), cells };
    });
    const cellHead = h("th", { scope: "col", text: "Cell" });
    const values = h("table.w-table.w-sl-values", h("thead", h("tr", h("th", { scope: "col",
      text: "Layer" }), cellHead, h("th", { scope: "col", text: "Mean |Δh|" }))),
    h("tbody", rows.map((r) => r.tr)));
    const nextList = h("ol.w-sl-next", { "aria-label": "Most likely next characters" });

    /** Pick character t: outlined, its values shown. While the stack writes (`now` false) the
        pick follows the newest character at most every 0.2 s: faster, nobody reads it, and
        each pick costs drawing. */
    let picked = 0;
    let shownRow = -1;
    const select = (t, now = true) => {
      if (!now && performance.now() - picked < 200) return;
      picked = performance.now();
      const old = selected;
      selected = clamp(t, -1, chars.length - 1);
      if (old >= 0 && old < chars.length) drawColumn(old);
      if (selected >= 0) drawColumn(selected);
      inspect();
    };
    const inspect = () => {
      ctx.el.dataset.selected = selected + 1;
      const entry = chars[selected];
      if (!entry) {
        heading.textContent = "No character yet.";
        return;
      }
      heading.textContent = `Character ${selected + 1} of ${chars.length}, ` +
        `“${shown(entry.ch)}”` +
        (entry.gen ? ", written by the stack" : "") +
        (entry.id < 0 ? ": skipped, not in the model's alphabet." : ".");
      rows.forEach((r, l) => {
        const cell = showing === "dh" ? null : feature().cells[l];
        r.cells[1].textContent = entry.h && cell
          ? `#${cell.unit}: ${formatFixed(entry.h[l * H + cell.unit], 3)}` : "–";
        r.cells[2].textContent = entry.dh ? formatFixed(entry.dh[l], 3) : "–";
      });
      const following = chars[selected + 1];
      const likely = entry.logits ? charModel.top(charModel.softmax(entry.logits), 5) : [];
      nextList.replaceChildren(...likely.map(([id, p]) => {
        const came = following && following.id === id;
        return h("li", { class: came ? "w-sl-came" : null }, h("span.w-sl-ch", shown(vocab[id])),
          h("span.w-sl-bar", { style: `width:${p * 100}%` }),
          h("span", `${formatFixed(p * 100, 1)} %${came ? " — came next" : ""}`));
      }));
      const row = where[selected][0]; // keep the picked row in the box (reading the box's
      if (row !== shownRow) { // scroll position lays the page out: only when the row changes)
        shownRow = row;
        const y = row * ROW;
        if (y < view.scrollTop || y + ROW > view.scrollTop + view.clientHeight) {
          view.scrollTop = Math.max(0, y - view.clientHeight + ROW * 1.5);
        }
      }
    };

    // The palette toggle changes the colours the canvases were drawn in: draw them again.
    const repaint = () => ctx.el.isConnected && chars.length && redraw();
    new MutationObserver(repaint).observe(document.body,
      { attributes: true, attributeFilter: ["data-md-color-scheme"] });

    const setShowing = (name) => {
      showing = name;
      redraw();
      select(selected);
    };
    /** A new text: forget every character. */
    const clear = () => {
      chars.length = 0;
      selected = -1;
    };
    /** Character `entry` joins the text; drawn now unless `later` (then by drawFrom or the
        next redraw). */
    const add = (entry, later = false) => {
      chars.push(entry);
      const t = chars.length - 1;
      where[t] = place(t);
      if (!later) drawColumn(t);
    };
    /** Draw the characters from t on. */
    const drawFrom = (t) => {
      for (let k = t; k < chars.length; k++) drawColumn(k);
    };

    return { box: view, lines, inspector: h("div.w-sl-inspect", heading,
      h("div.w-split", values, nextList)), heading, chars, clear, add, drawFrom, redraw, select,
    setShowing, selected: () => selected, showing: () => showing };
  };
})();
