/* Page-level accessibility patches (not widget code), most found by the axe browser tests:
   Material's search dialog has no accessible name; wide tables, widget tables and notebook code
   cells scroll horizontally without being reachable from the keyboard; a link to a heading
   lands above or below it once the widgets before it have mounted.

   window.StackA11y() asks for a run: on every page (Material's document$), after each widget
   mounts, after a resize, when a content tab opens. Requests are coalesced into one run when
   the page is idle: reading scrollWidth right after a DOM change forces a layout (one per
   widget, a long task on a slow phone), while at idle time the layout is already done.
   StackA11y.pending is true until that run. */
(function () {
  "use strict";
  if (window.StackA11y) return;
  let heldHeading = null; // the heading a link led to, kept in view until the reader acts

  const patch = () => {
    request.pending = false;
    if (heldHeading && heldHeading.isConnected) heldHeading.scrollIntoView();
    const dialog = document.querySelector(".md-search[role=dialog]:not([aria-label])");
    if (dialog) dialog.setAttribute("aria-label", "Search");
    const scrollers = document.querySelectorAll(".md-typeset__scrollwrap, .w-scroll, " +
      ".jupyter-wrapper .highlight-ipynb, .jupyter-wrapper pre");
    for (const scroller of scrollers) {
      // An off-screen table wrapper (content-visibility: auto, lecture.css) has its contents
      // skipped: its scrollWidth is then its clientWidth. What it holds still has a width.
      const wide = scroller.scrollWidth > scroller.clientWidth || [...scroller.children].some(
        (child) => child.getBoundingClientRect().width > scroller.clientWidth + 1);
      if (wide && scroller.tabIndex < 0) scroller.tabIndex = 0;
    }
  };

  const request = (window.StackA11y = () => {
    if (request.pending) return;
    request.pending = true;
    if (window.requestIdleCallback) requestIdleCallback(patch, { timeout: 1000 });
    else setTimeout(patch, 50);
  });
  request.pending = false;

  let resizeTimer = 0;
  addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(request, 200);
  });
  // A table in a content tab not yet chosen has no width: look again when a tab opens.
  addEventListener("change", (event) => {
    if (event.target.closest(".tabbed-set")) request();
  });
  // A link to a heading is followed before the widgets above it mount and change height: until
  // the reader scrolls, clicks or types, each run puts the heading back where the link led.
  for (const event of ["wheel", "touchstart", "keydown", "mousedown"]) {
    addEventListener(event, () => {
      heldHeading = null;
    }, { passive: true });
  }
  const onPage = () => {
    const id = decodeURIComponent(location.hash.slice(1));
    heldHeading = id ? document.getElementById(id) : null;
    request();
  };
  if (window.document$) window.document$.subscribe(onPage);
  else addEventListener("DOMContentLoaded", onPage);
})();
