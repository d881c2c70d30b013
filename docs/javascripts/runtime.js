/* The widget runtime: every page loads it (deferred); it finds the page's widgets, loads the
   script and the generated data of each, and mounts it. A widget is a page element
   <div class="widget" data-widget="NAME"> holding its static figure (what prints, and what
   stays on screen if the widget cannot start); javascripts/NAME.js registers it with

     StackWidgets.register(NAME, {
       title,              // the accessible name of the widget's UI
       data: [...],        // generated JSON files it reads (paths from the site root)
       uses: [...],        // scripts it needs besides its own (javascripts/NAME.js)
       mount(ctx, ...json) // builds the UI into ctx.ui
     });

   The runtime also offers what most widgets need: element builders, number formats, numbers
   read from the URL fragment, and loops that run only while their widget is on screen. The
   rest of the widgets' toolkit comes in scripts a widget `uses`: controls.js (buttons, radios,
   sliders, tables, arrow keys) and mathml.js (formulas that change with the widget's state). */
(function () {
  "use strict";
  if (window.StackWidgets) return; // instant navigation re-runs page scripts: keep one runtime

  // Site root = where this script was loaded from, so the site works under any sub-path.
  const scriptUrl = document.currentScript && document.currentScript.src;
  const siteRoot = scriptUrl
    ? scriptUrl.replace(/javascripts\/runtime\.js([?#].*)?$/, "")
    : String(window.__md_scope || location.href);

  const StackWidgets = (window.StackWidgets = {
    registry: {}, // name -> widget definition
    mounts: [], // names, in mount order (tests read it to see nothing mounts twice)
    contexts: [], // the mounted widgets' contexts, released when their page goes away
  });

  // --- data ---------------------------------------------------------------------------------

  // file:// refuses fetch(): the offline copy ships the JSON as window.STACK_DATA instead.
  const offlineData = window.STACK_DATA || {};
  const jsonCache = {};

  const loadJSON = (rel) => {
    if (!jsonCache[rel]) {
      jsonCache[rel] = rel in offlineData
        ? Promise.resolve(offlineData[rel])
        : fetch(new URL(rel, siteRoot)).then((response) => {
          if (!response.ok) throw new Error(`${rel} (HTTP ${response.status})`);
          return response.json();
        }).catch((error) => {
          delete jsonCache[rel]; // a later page may try again
          throw error;
        });
    }
    return jsonCache[rel];
  };

  // --- building elements ----------------------------------------------------------------------

  const SVG_NS = "http://www.w3.org/2000/svg";

  /* h("div.w-panel.x", {text, onclick, "aria-label": ...}, ...children): an element with
     classes after the dots. Attributes are optional; "on..." keys add listeners, `text` sets the
     text, null/false values are left out. "svg:g" makes an SVG element. */
  const h = (tag, attrs, ...children) => {
    if (!attrs || attrs.constructor !== Object) {
      children = [attrs, ...children];
      attrs = {};
    }
    const [name, ...classes] = tag.split(".");
    const element = name.startsWith("svg:")
      ? document.createElementNS(SVG_NS, name.slice(4))
      : document.createElement(name);
    if (classes.length) element.setAttribute("class", classes.join(" "));
    for (const [key, value] of Object.entries(attrs)) {
      if (value == null || value === false) continue;
      if (key === "text") element.textContent = value;
      else if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
      else element.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat(3)) {
      if (child != null && child !== false) element.append(child.nodeType ? child : String(child));
    }
    return element;
  };
  const svg = (tag, attrs, ...children) => h("svg:" + tag, attrs, ...children);

  let idCounter = 0;
  const uniqueId = (prefix) => `w-${prefix}-${++idCounter}`;

  // --- numbers --------------------------------------------------------------------------------

  /** Fixed decimals with a true minus sign (as the prose writes it), never "−0.00". */
  const formatFixed = (value, digits = 4) => {
    const text = Number(value).toFixed(digits);
    return (Number(text) === 0 ? text.replace("-", "") : text).replace("-", "\u2212");
  };
  const formatInt = (value) => Math.round(value).toLocaleString("en-US");

  const clamp = (value, low, high) => Math.min(high, Math.max(low, value));
  /** Layer k (0-based) of a stack of `layers`, as the static figures colour it: `ramps` is
   *  generated/data/layer_colours.json's, each step lamp n mixed with a fraction t of lamp n+1. */
  const layerColour = (ramps, layers, k) => {
    const [lamp, t] = ramps[layers][k];
    return t ? `color-mix(in srgb,var(--lamp-${lamp}) ${+(100 - 100 * t).toFixed(1)}%,` +
      `var(--lamp-${lamp + 1}))` : `var(--lamp-${lamp})`;
  };
  /** An integer read from text (a URL fragment), clamped to [low, high]; `fallback` if none. */
  const intInRange = (text, low, high, fallback) => {
    const n = parseInt(text, 10);
    return Number.isFinite(n) ? clamp(n, low, high) : fallback;
  };

  // --- the page -------------------------------------------------------------------------------

  /** A key of the URL fragment: "#step=3&word=2" -> hashParam("step") = "3". */
  const hashParam = (key) => new URLSearchParams(location.hash.slice(1)).get(key);

  // --- visibility and loops -------------------------------------------------------------------

  // Animation loops tick only while their widget is on screen: no work for what nobody sees.
  const contextOfUI = new WeakMap();
  const observer = window.IntersectionObserver && new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const ctx = contextOfUI.get(entry.target);
      if (ctx) ctx.setVisible(entry.isIntersecting);
    }
  });

  /* What a widget's mount() receives: its element, its UI container, and
     ctx.loop(step, ms)   a timer calling step() every ms while started and on screen;
                          step() returning false stops it
     ctx.onVisible        called each time the widget comes on screen
     ctx.keepOnScreen(s)  children of the widget matching s stay visible beside the live UI */
  function createContext(element, ui) {
    const ctx = { el: element, ui, visible: !observer, loops: [], onVisible: null };
    ctx.setVisible = (visible) => {
      ctx.visible = visible;
      ui.classList.toggle("is-visible", visible);
      ctx.loops.forEach((loop) => loop.sync());
      if (visible && ctx.onVisible) ctx.onVisible();
    };
    ctx.loop = (step, ms) => {
      let timer = 0;
      const loop = { on: false };
      loop.sync = () => { // one pending timer exactly when it should run
        const shouldRun = loop.on && ctx.visible && element.isConnected;
        if (shouldRun && !timer) {
          timer = setTimeout(() => {
            timer = 0;
            if (loop.on && step() === false) loop.on = false;
            loop.sync();
          }, ms);
        }
        if (!shouldRun && timer) {
          clearTimeout(timer);
          timer = 0;
        }
        element.dataset.ticking = timer ? "1" : "0"; // tests check nothing runs off-screen
      };
      loop.start = () => {
        loop.on = true;
        loop.sync();
      };
      loop.stop = () => {
        loop.on = false;
        loop.sync();
      };
      ctx.loops.push(loop);
      return loop;
    };
    ctx.keepOnScreen = (selector) => element.querySelectorAll(`:scope > ${selector}`)
      .forEach((child) => child.classList.add("w-keep"));
    ctx.release = () => {
      ctx.loops.forEach((loop) => loop.stop());
      if (observer) observer.unobserve(ui);
    };
    return ctx;
  }

  // --- scripts ------------------------------------------------------------------------------

  /* Page speed: a page fetches javascripts/NAME.js only if it shows widget NAME, or a widget
     that `uses` NAME: code only some widgets need (the stack diagram) lives in a script of its
     own, which adds what it offers to StackWidgets. Each script is requested once. */
  const scripts = {}; // name -> promise of its loading
  const loadScript = (name) => {
    if (!scripts[name]) {
      scripts[name] = new Promise((resolve, reject) => {
        const script = h("script", { src: new URL(`javascripts/${name}.js`, siteRoot),
          onload: resolve,
          onerror: () => {
            delete scripts[name]; // the next page showing it tries again
            script.remove();
            reject(new Error(`javascripts/${name}.js did not load`));
          } });
        document.head.append(script);
      });
    }
    return scripts[name];
  };

  // --- mounting -------------------------------------------------------------------------------

  /* No layout shift: from the moment a widget starts mounting until it is off-screen, its box
     keeps at least the height it had (its reserved height, widgets.css, or its static figure if
     taller), so a live UI shorter than that does not pull the text below it up. Off-screen the
     box takes its own height: nothing the reader sees moves (above the screen, the browser's
     scroll anchoring keeps the view still). */
  const unpin = window.IntersectionObserver && new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) {
        entry.target.style.minHeight = "";
        unpin.unobserve(entry.target);
      }
    }
  });
  const pinHeight = (element) => {
    if (!unpin) return;
    element.style.minHeight = `${element.getBoundingClientRect().height}px`;
    unpin.observe(element);
  };

  function mount(element, definition) {
    pinHeight(element);
    element.dataset.widgetState = "loading";
    const ui = h("div.w-ui.w-main", { role: "group", "aria-label": definition.title });
    // Until the UI is ready, a note over the static figure that takes no room (widgets.css):
    // the UI then comes in as a new element, so nothing that was on screen moves.
    const loading = h("div.w-ui.w-loading", h("p.w-caption", "Loading the interactive version…"));
    element.prepend(loading);
    const show = () => {
      loading.remove();
      element.prepend(ui);
    };
    const ctx = createContext(element, ui);
    contextOfUI.set(ui, ctx);
    StackWidgets.contexts.push(ctx);
    const ready = definition.error ? Promise.reject(definition.error) : Promise.all([
      Promise.all((definition.data || []).map(loadJSON)),
      ...(definition.uses || []).map(loadScript),
    ]);
    ready.then(([data]) => {
      if (!element.isConnected) return; // the reader moved on to another page meanwhile
      show();
      definition.mount(ctx, ...data);
      element.dataset.widgetState = "live";
      element.classList.add("is-live"); // CSS hides the static figure from now on
      StackWidgets.mounts.push(element.dataset.widget);
      if (window.StackA11y) window.StackA11y(); // new tables and scroll regions to patch
      if (observer) observer.observe(ui);
    }).catch((error) => {
      element.dataset.widgetState = "error";
      element.classList.remove("is-live");
      show();
      ui.replaceChildren(h("p.w-error", { role: "status" }, "The interactive version could " +
        `not start: ${error.message || error}. The static figure below shows the same content.`));
    });
  }

  // One scan per burst of events (page change, several registrations at once).
  let scanQueued = false;
  const scan = () => {
    scanQueued = false;
    // Instant navigation replaced the page: release the widgets that left with it.
    StackWidgets.contexts = StackWidgets.contexts.filter((ctx) => ctx.el.isConnected ||
      ctx.release());
    document.querySelectorAll(".widget[data-widget]").forEach((element) => {
      const name = element.dataset.widget;
      const definition = StackWidgets.registry[name];
      if (definition) {
        if (!element.dataset.widgetState) mount(element, definition);
      } else if (/^[\w-]+$/.test(name)) { // its script registers it, then scans again
        loadScript(name).catch((error) => document.querySelectorAll(
          `[data-widget="${name}"]:not([data-widget-state])`).forEach(
          (unmounted) => mount(unmounted, { title: name, error })));
      }
    });
  };
  const scheduleScan = () => {
    if (!scanQueued) {
      scanQueued = true;
      setTimeout(scan, 0);
    }
  };

  const register = (name, definition) => {
    StackWidgets.registry[name] = definition;
    scheduleScan();
  };
  // What widgets use (the rest stays inside this file).
  Object.assign(StackWidgets, { register, h, svg, uniqueId, formatFixed, formatInt,
    clamp, intInRange, hashParam, layerColour });

  // Material's document$ emits on every page, instant navigation included.
  if (window.document$) window.document$.subscribe(scheduleScan);
  else addEventListener("DOMContentLoaded", scheduleScan);
  scheduleScan();
})();
