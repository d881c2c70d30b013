/* The live Shakespeare models in plain JavaScript (used by shakespeare-live.js): their weights
   (generated/data/shakespeare_live_<role>.js, each loaded by a <script> tag so that it also
   works from file://), one LSTM step per layer as torch.nn.LSTM computes it, the readout, the
   bits a character cost, and sampling with a seeded generator. Arithmetic is in double
   precision; the weights are the float32 numbers q * s of the int8 export
   (scripts/generation/shakespeare_live.py), so the browser test compares with torch's float64
   pass of the same weights. */
(function () {
  "use strict";
  // The site root: where this script was loaded from (the weights' path is relative to it).
  const siteRoot = document.currentScript.src.replace(/javascripts\/[\w-]+\.js([?#].*)?$/, "");

  /** Every tensor as a Float32Array (int8 rows times their float32 scale, rounded to float32
      as torch's q.float() * s is), by its state-dict name. A generator: it pauses (yields)
      every 64k numbers, so that decoding a model never holds the page for long. */
  function* decoding(packed) {
    const bytes = function* (text, Type) { // base64 -> a typed array of its bytes
      const raw = atob(text);
      const view = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; i++) {
        view[i] = raw.charCodeAt(i);
        if ((i & 0xffff) === 0xffff) yield;
      }
      return new Type(view.buffer);
    };
    const codes = yield* bytes(packed.int8, Int8Array);
    const floats = yield* bytes(packed.float32, Float32Array);
    const out = {};
    for (const t of packed.tensors) {
      const size = t.shape.reduce((a, b) => a * b, 1);
      if (t.codes === undefined) {
        out[t.name] = floats.slice(t.values, t.values + size);
        continue;
      }
      const cols = t.shape[1];
      const w = new Float32Array(size);
      for (let r = 0; r < t.shape[0]; r++) {
        const scale = floats[t.scales + r];
        for (let c = 0; c < cols; c++) w[r * cols + c] = codes[t.codes + r * cols + c] * scale;
        if (r % Math.ceil(65536 / cols) === 0) yield;
      }
      out[t.name] = w;
    }
    return out;
  }

  /** The model, from its packed weights and their decoded tensors `t`: per layer one matrix
      [W_ih | W_hh] (4H rows: gates i, f, g, o) and the two biases summed; the embedding and
      the readout. */
  function Model(packed, t) {
    const H = packed.hidden;
    this.vocab = packed.vocab;
    this.layers = packed.layers;
    this.hidden = H;
    this.embedSize = packed.embed;
    this.residual = packed.residual;
    this.embed = t["embed.weight"];
    this.readout = t["readout.weight"];
    this.readoutBias = t["readout.bias"];
    this.stack = [];
    for (let l = 0; l < packed.layers; l++) {
      const p = `layers.${l}.`;
      const n = l === 0 ? packed.embed : H;
      const wih = t[p + "weight_ih_l0"];
      const whh = t[p + "weight_hh_l0"];
      const w = new Float32Array(4 * H * (n + H));
      for (let r = 0; r < 4 * H; r++) {
        w.set(wih.subarray(r * n, (r + 1) * n), r * (n + H));
        w.set(whh.subarray(r * H, (r + 1) * H), r * (n + H) + n);
      }
      const bias = new Float64Array(4 * H);
      for (let r = 0; r < 4 * H; r++) bias[r] = t[p + "bias_ih_l0"][r] + t[p + "bias_hh_l0"][r];
      this.stack.push({ w, bias, inputs: n });
    }
  }

  const sigmoid = (x) => 1 / (1 + Math.exp(-x));

  /** A fresh state: per layer h and c (zeros), as torch starts a sequence. */
  Model.prototype.zeroState = function () {
    return Array.from({ length: this.layers }, () => ({
      h: new Float64Array(this.hidden), c: new Float64Array(this.hidden) }));
  };

  /** Row r of matrix w (rows of `width` numbers) times vector v. Four running sums: the
      browser keeps them in registers, which makes the model's step about 1.4x faster. */
  const rowTimes = (w, r, width, v) => {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    const row = r * width;
    let k = 0;
    for (; k + 3 < width; k += 4) {
      s0 += w[row + k] * v[k];
      s1 += w[row + k + 1] * v[k + 1];
      s2 += w[row + k + 2] * v[k + 2];
      s3 += w[row + k + 3] * v[k + 3];
    }
    for (; k < width; k++) s0 += w[row + k] * v[k];
    return s0 + s1 + (s2 + s3);
  };

  /** Read character id `id` from `state` (left unchanged); returns the new state and the
      next character's logits. */
  Model.prototype.step = function (state, id) {
    const H = this.hidden;
    const E = this.embedSize;
    const joined = this.joined || (this.joined = new Float64Array(2 * H + E)); // [x | h]
    const gates = this.gates || (this.gates = new Float64Array(4 * H));
    let x = this.embed.subarray(id * E, (id + 1) * E);
    const next = [];
    for (let l = 0; l < this.layers; l++) {
      const { w, bias, inputs } = this.stack[l];
      joined.set(x, 0);
      joined.set(state[l].h, inputs);
      for (let r = 0; r < 4 * H; r++) gates[r] = bias[r] + rowTimes(w, r, inputs + H, joined);
      const h = new Float64Array(H);
      const c = new Float64Array(H);
      const up = new Float64Array(H); // what the layer hands upward
      for (let k = 0; k < H; k++) {
        const input = sigmoid(gates[k]) * Math.tanh(gates[2 * H + k]); // i * g
        c[k] = sigmoid(gates[H + k]) * state[l].c[k] + input;
        h[k] = sigmoid(gates[3 * H + k]) * Math.tanh(c[k]);
        up[k] = this.residual && l >= 1 ? h[k] + x[k] : h[k]; // residual from layer 2 on
      }
      next.push({ h, c });
      x = up;
    }
    const logits = new Float64Array(this.vocab.length);
    for (let v = 0; v < logits.length; v++) {
      logits[v] = this.readoutBias[v] + rowTimes(this.readout, v, H, x);
    }
    return { state: next, logits };
  };

  /** The bits the model needed for character `id` after `logits`: -log2 softmax(logits)[id]. */
  const bitsOf = (logits, id) => {
    let top = -Infinity;
    for (const z of logits) top = Math.max(top, z);
    let total = 0;
    for (const z of logits) total += Math.exp(z - top);
    return (Math.log(total) + top - logits[id]) / Math.LN2;
  };

  /** Read character `id` after `now` ({state, logits}: what came before; logits null at the
      start); fills `entry` with every layer's h, each layer's mean |Δh|, the bits the model
      needed for the character and the logits of the next; returns the new {state, logits}. */
  Model.prototype.read = function (now, id, entry) {
    const H = this.hidden;
    const out = this.step(now.state, id);
    entry.h = new Float32Array(this.layers * H);
    entry.dh = out.state.map((layer, l) => {
      let moved = 0;
      for (let k = 0; k < H; k++) {
        entry.h[l * H + k] = layer.h[k];
        moved += Math.abs(layer.h[k] - now.state[l].h[k]);
      }
      return moved / H;
    });
    if (now.logits) entry.bits = bitsOf(now.logits, id);
    entry.logits = out.logits;
    return { state: out.state, logits: out.logits };
  };

  /** Probabilities softmax(logits / temperature). */
  const softmax = (logits, temperature = 1) => {
    let top = -Infinity;
    for (const z of logits) top = Math.max(top, z / temperature);
    const p = logits.map((z) => Math.exp(z / temperature - top));
    const total = p.reduce((a, b) => a + b, 0);
    return p.map((q) => q / total);
  };

  /** mulberry32: a small seeded generator of uniform numbers in [0, 1) (32-bit state; the
      same seed gives the same sequence in every browser). */
  const random = (seed) => {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  };

  /** The id drawn from probabilities `p` with a uniform number `u` in [0, 1). */
  const draw = (p, u) => {
    let acc = 0;
    for (let i = 0; i < p.length; i++) {
      acc += p[i];
      if (u < acc) return i;
    }
    return p.length - 1; // u just below 1 and rounding: the last character
  };

  /** A character as the widget shows it: a line break as ↵, a space as ␣. */
  const shown = (ch) => ({ "\n": "↵", " ": "␣", "\t": "⇥" }[ch] || ch);

  /** The `n` most likely ids of probabilities `p`, with their probabilities, best first. */
  const top = (p, n) => {
    const best = [];
    p.forEach((q, i) => {
      if (best.length < n || q > best[best.length - 1][1]) {
        const at = best.findIndex((b) => q > b[1]);
        best.splice(at < 0 ? best.length : at, 0, [i, q]);
        best.length = Math.min(best.length, n);
      }
    });
    return best;
  };

  /** The reader's text as the models read it: its last `limit` characters; one the vocabulary
      writes another way (`sameAs`: typographic quotes, dashes, tabs) read as that one; any
      other outside `vocab` kept for display with id -1 and skipped. Returns [[character,
      id]], how many characters the text had, and notes saying what was read, mapped and
      skipped. */
  const readable = (raw, vocab, sameAs, limit) => {
    const text = [...raw.replace(/\r\n?/g, "\n")];
    const mapped = new Set();
    const skipped = new Set();
    const out = text.slice(Math.max(0, text.length - limit)).map((ch) => {
      const use = sameAs[ch] !== undefined ? sameAs[ch] : ch;
      if (use !== ch) mapped.add(ch);
      const id = vocab.indexOf(use);
      if (id < 0) skipped.add(ch);
      return [ch, id];
    });
    const count = (n) => n.toLocaleString("en-US");
    const notes = [text.length > limit
      ? `Read the last ${count(limit)} of your ${count(text.length)} characters.`
      : `Read all ${count(text.length)} characters.`];
    if (mapped.size) notes.push(`Read as the models' own: ${[...mapped].map((c) =>
      `“${shown(c)}” as “${shown(sameAs[c])}”`).join(", ")}.`);
    const listed = [...skipped].slice(0, 12).map((c) => `“${shown(c)}”`).join(" ");
    if (skipped.size) notes.push("Skipped (not in the models' alphabet, shown struck through): " +
      listed + (skipped.size > 12 ? ` and ${skipped.size - 12} more.` : "."));
    return { out, length: text.length, notes };
  };

  /** Run generator `steps` to its end, the browser's turn between its steps (a message, not
      a timer: timers nested this deep wait at least 4 ms). */
  const channel = new MessageChannel();
  const queued = [];
  channel.port1.onmessage = () => queued.shift()();
  const run = (steps) => new Promise((resolve, reject) => {
    const next = () => {
      try {
        const { done, value } = steps.next();
        if (done) resolve(value);
        else {
          queued.push(next);
          channel.port2.postMessage(0);
        }
      } catch (error) {
        reject(error);
      }
    };
    next();
  });

  /** Load the weights of model `role` once (a <script> tag: file:// refuses fetch); `rel` is
      its path from the site root. */
  const loading = {};
  const loadModel = (rel, role) => {
    if (!loading[rel]) {
      loading[rel] = new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = new URL(rel, siteRoot);
        script.onload = () => {
          const packed = (window.StackShakespeareWeights || {})[role];
          if (!packed) reject(new Error(`the weights script set no weights for “${role}”`));
          else run(decoding(packed)).then((t) => resolve(new Model(packed, t)), reject);
        };
        script.onerror = () => {
          delete loading[rel]; // a later attempt may succeed
          script.remove();
          reject(new Error("the models' weights did not load"));
        };
        document.head.append(script);
      });
    }
    return loading[rel];
  };

  StackWidgets.charModel = { loadModel, softmax, random, draw, Model, shown, top, readable,
    bitsOf };
})();
