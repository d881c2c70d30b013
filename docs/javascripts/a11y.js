/* Page-level accessibility patches (not widget code), most found by the axe browser tests:
   Material's search dialog has no accessible name; wide tables, widget tables and notebook code
   cells scroll horizontally without being reachable from the keyboard; a link to a heading
   lands above or below it once the widgets before it have mounted; blocks skipped at load
   (page speed) are drawn once the page is idle, for find-in-page.

   window.StackA11y() asks for a run: on every page (Material's document$), after each widget
   mounts, after a resize, when a content tab or a note opens. Requests are coalesced into one run when
   the page is idle: reading scrollWidth right after a DOM change forces a layout (one per
   widget, a long task on a slow phone), while at idle time the layout is already done.
   What scripts and tests can wait on, rather than on time: StackA11y.pending is true from the
   moment a run is due (a resize's included) until it has looked at every scroller, and
   <html data-blocks> turns "drawn" once every block skipped at load is drawn. */
(function () {
  "use strict";
  if (window.StackA11y) return;
  let heldHeading = null; // the heading a link led to, kept in view until the reader acts

  // Wide scrollers are found one at a time while the page is idle: reading a width may lay out
  // that scroller's content, and measuring every table of a long page in one go was a long
  // task of seconds on a slow phone. A scroller whose content the browser has not drawn yet
  // (content-visibility: auto: a widget far below, a table in a note) is measured when it is
  // drawn, not before: measuring it would lay it out now.
  const scrollersLeft = [];
  let askedAgain = false;
  let running = false; // a run is queued or under way
  const drawn = (scroller) => {
    const content = scroller.firstElementChild;
    return !content || !content.checkVisibility ||
      content.checkVisibility({ contentVisibilityAuto: true });
  };
  const isWide = (scroller) => scroller.scrollWidth > scroller.clientWidth || [
    ...scroller.children].some((child) => child.getBoundingClientRect().width >
    scroller.clientWidth + 1);
  const idle = (callback) => {
    if (window.requestIdleCallback) requestIdleCallback(callback, { timeout: 1000 });
    else setTimeout(() => callback({ timeRemaining: () => 0 }), 50);
  };
  const checkScrollers = (deadline) => {
    do {
      const scroller = scrollersLeft.shift();
      if (scroller && scroller.isConnected && scroller.tabIndex < 0 && drawn(scroller) &&
          isWide(scroller)) {
        scroller.tabIndex = 0;
      }
    } while (scrollersLeft.length && deadline.timeRemaining() > 0);
    if (scrollersLeft.length) idle(checkScrollers);
    else if (askedAgain) { // the page changed meanwhile (a widget mounted): look again
      askedAgain = false;
      idle(patch);
    } else running = false;
  };

  const patch = () => {
    if (heldHeading && heldHeading.isConnected) heldHeading.scrollIntoView();
    const dialog = document.querySelector(".md-search[role=dialog]:not([aria-label])");
    if (dialog) dialog.setAttribute("aria-label", "Search");
    scrollersLeft.splice(0, scrollersLeft.length, ...document.querySelectorAll(
      ".md-typeset__scrollwrap, .w-scroll, .jupyter-wrapper .highlight-ipynb, " +
      ".jupyter-wrapper pre"));
    checkScrollers({ timeRemaining: () => 0 }); // at least one now, the rest when idle
  };

  let resizeTimer = 0;
  const request = (window.StackA11y = () => {
    if (running) {
      askedAgain = true;
      return;
    }
    running = true;
    idle(patch);
  });
  Object.defineProperty(request, "pending", { get: () => running || resizeTimer !== 0 });

  addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      resizeTimer = 0;
      request();
    }, 200);
  });
  // A table in a content tab not yet chosen, or in a closed note, has no width: look again
  // when a tab or a note opens, and when the browser draws a block it had skipped.
  addEventListener("change", (event) => {
    if (event.target.closest(".tabbed-set")) request();
  });
  document.addEventListener("toggle", (event) => {
    if (event.target.open) request();
  }, true);
  document.addEventListener("contentvisibilityautostatechange", (event) => {
    if (!event.skipped) request();
  }, true);
  // A link to a heading is followed before the widgets above it mount and the skipped blocks
  // above it are drawn, which change their heights: until the reader scrolls, clicks or types,
  // each run (one follows the last block drawn) puts the heading back where the link led, below
  // the header (its scroll margin, lecture.css).
  for (const event of ["wheel", "touchstart", "keydown", "mousedown"]) {
    addEventListener(event, () => {
      heldHeading = null;
    }, { passive: true });
  }

  // The blocks lecture.css lets the browser skip at load (content-visibility: auto) are drawn
  // afterwards, a few at a time while the page is idle: the page is then laid out whole, as it
  // was before they were skipped, and find-in-page scrolls a match to its exact place. Each
  // turn stops after a few milliseconds, so none is a long task, on a phone either. Only the
  // page first opened skips the article's blocks: one that instant navigation brings is laid
  // out whole (the reader may land anywhere in it), but for its notebook cells, drawn likewise.
  let blocksLeft = [];
  const TURN_MS = 8;
  // At least one block a turn: on a busy page the idle callback comes on its timeout, with no
  // idle time left, and the blocks must still be drawn.
  const drawBlocks = (deadline) => {
    const start = performance.now();
    do {
      const block = blocksLeft.shift();
      if (!block || !block.isConnected) continue;
      block.style.contentVisibility = "visible";
      block.getBoundingClientRect(); // laid out now, inside this turn
    } while (blocksLeft.length && deadline.timeRemaining() > 0 &&
             performance.now() - start < TURN_MS);
    if (blocksLeft.length) {
      idle(drawBlocks);
    } else {
      document.documentElement.dataset.blocks = "drawn";
      request(); // tables in the blocks drawn: are they wide? (and the held heading, in place)
    }
  };
  // The article's blocks, and a notebook's code cells (skipped on every page: lecture.css).
  const SKIPPABLE = ".md-typeset > *, .jupyter-wrapper .jp-Notebook > .jp-CodeCell";
  const drawSkippedBlocks = () => {
    blocksLeft = [...document.querySelectorAll(SKIPPABLE)].filter((block) =>
      getComputedStyle(block).contentVisibility === "auto");
    idle(drawBlocks);
  };

  let firstPage = true;
  const onPage = () => {
    document.documentElement.dataset.blocks = "waiting";
    const id = decodeURIComponent(location.hash.slice(1));
    heldHeading = id ? document.getElementById(id) : null;
    request();
    if (!firstPage) document.documentElement.classList.remove("from-top");
    if (document.readyState === "complete") drawSkippedBlocks();
    else addEventListener("load", drawSkippedBlocks, { once: true });
    firstPage = false;
  };
  if (window.document$) window.document$.subscribe(onPage);
  else addEventListener("DOMContentLoaded", onPage);
})();
