/* Page-level patches, mostly found by the axe browser test (not widget code):
   Material's search dialog has no accessible name; wide tables, widget tables and notebook
   code cells scroll horizontally without being keyboard-focusable; a link to a heading lands
   above or below it once the widgets before it have mounted. Requested on every page
   (Material's document$), after each widget mounts, after resizes and when a content tab
   opens; the requests are coalesced into one run when the page is idle: reading scrollWidth
   right after a DOM change forces a synchronous layout (one per widget before, a long task on
   a slow phone), while at idle time the layout is already done. StackA11y.pending is true
   until that run. */
(function () {
  "use strict";
  if (window.StackA11y) return;
  const patch = () => {
    A.pending = false;
    if (hold && hold.isConnected) hold.scrollIntoView();
    const dialog = document.querySelector(".md-search[role=dialog]:not([aria-label])");
    if (dialog) dialog.setAttribute("aria-label", "Search");
    document.querySelectorAll(".md-typeset__scrollwrap, .w-scroll, .jupyter-wrapper " +
      ".highlight-ipynb, .jupyter-wrapper pre").forEach((e) => {
      // An off-screen table wrapper (content-visibility: auto, lecture.css) has its contents
      // skipped: its scrollWidth is then its clientWidth. What it holds still has a width.
      const wide = e.scrollWidth > e.clientWidth || [...e.children].some((c) =>
        c.getBoundingClientRect().width > e.clientWidth + 1);
      if (wide && e.tabIndex < 0) e.tabIndex = 0;
    });
  };
  const A = window.StackA11y = () => {
    if (A.pending) return;
    A.pending = true;
    if (window.requestIdleCallback) requestIdleCallback(patch, { timeout: 1000 });
    else setTimeout(patch, 50);
  };
  A.pending = false;
  let timer = 0;
  addEventListener("resize", () => { clearTimeout(timer); timer = setTimeout(A, 200); });
  // A table in a content tab not yet chosen has no width: look again when a tab opens.
  addEventListener("change", (e) => { if (e.target.closest(".tabbed-set")) A(); });
  // A link to a heading is followed before the widgets above it mount and change height: until
  // the reader scrolls, clicks or types, each run puts the heading back where the link led.
  let hold = null;
  const page = () => {
    const id = decodeURIComponent(location.hash.slice(1));
    hold = id ? document.getElementById(id) : null;
    A();
  };
  ["wheel", "touchstart", "keydown", "mousedown"].forEach((e) =>
    addEventListener(e, () => { hold = null; }, { passive: true }));
  if (window.document$) window.document$.subscribe(page);
  else addEventListener("DOMContentLoaded", page);
})();
