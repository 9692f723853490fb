// measure.js: the page's one counter. It keeps the promises of the notice at
// the end of the page; the rules it follows are in measure-protocol.md (see
// README.md). The build bakes the endpoint in and minifies this file.
(function (w, d, loc, nav) {
  var ENDPOINT = "__ENDPOINT__";
  // Without fetch nothing is sent: sendBeacon would carry cookies.
  if (!w.fetch) return;

  var sent = {};      // the events sent in this load
  var banked = 0;     // visible milliseconds before the current stretch
  var shownAt = -1;   // performance.now() when the current visible stretch began
  var scrolled = false, input = false, marker = false, ready = false;
  var timer, extra = {};
  var HC = "human-candidate";
  // A real input is one of these, trusted, and never under automation.
  var INPUT = " pointerdown mousemove touchstart wheel keydown ";

  function now() { return performance.now(); }
  function elapsed() { return banked + (shownAt < 0 ? 0 : now() - shownAt); }

  function once(key, payload) {
    if (sent[key]) return;
    sent[key] = 1;
    fetch(ENDPOINT, { method: "POST", body: JSON.stringify(payload), keepalive: true,
      credentials: "omit", referrerPolicy: "no-referrer" })["catch"](function () {});
  }

  function reading(name) {
    var p = { name: name, path: loc.pathname, visible_ms: Math.floor(elapsed()), scrolled: scrolled };
    for (var k in extra) p[k] = extra[k];
    once(name, p);
  }

  // check brings the clock up to date, sends what is due, and schedules the
  // next threshold for the visible time that remains. Every transition runs it.
  function check() {
    var on = ready && d.visibilityState == "visible" && !d.prerendering;
    if (on && shownAt < 0) shownAt = now();
    if (!on && shownAt >= 0) { banked += now() - shownAt; shownAt = -1; }
    clearTimeout(timer);
    if (!ready) return;
    reading("view");
    var t = elapsed(), next = 0;
    if (input && !sent[HC]) {
      if (t >= 1e4) reading(HC); else next = 1e4;
    }
    if (marker && sent[HC] && !sent.engaged) {
      if (t >= 9e4) reading("engaged"); else next = 9e4;
    }
    if (next && on) timer = setTimeout(check, next - t + 1);
  }

  function start() {
    if (ready || d.prerendering) return;
    ready = true;
    try {
      var r = new URL(d.referrer).hostname;
      if (r && r != loc.hostname) extra.ref = r;
    } catch (_) {}
    var q = new URLSearchParams(loc.search), c, v;
    "source medium campaign term content".replace(/\w+/g, function (k) {
      v = q.get("utm_" + k);
      if (v != null) (c = c || {})["utm_" + k] = v.slice(0, 200);
    });
    if (c) extra.campaign = c;
    v = q.get("oc");
    if (v != null) extra.outreach = v.slice(0, 200);
    var m = d.querySelector("[data-measure-marker]");
    if (m && w.IntersectionObserver) {
      var io = new IntersectionObserver(function (es) {
        es.forEach(function (e) { if (e.isIntersecting) { marker = true; io.disconnect(); } });
        check();
      });
      io.observe(m);
    }
  }

  // One listener, on window in the capture phase, sees every event below:
  // those fired at the document (DOMContentLoaded, visibilitychange,
  // prerenderingchange, scroll) as well as input, clicks and page hiding.
  function on(e) {
    try {
      var type = e.type, t = e.target, el;
      if (type == "DOMContentLoaded" || type == "prerenderingchange") start();
      if (w.scrollY > 0) scrolled = true;
      if (INPUT.indexOf(" " + type + " ") >= 0 && e.isTrusted && nav.webdriver !== true) input = true;
      if ((type == "click" || type == "auxclick" && e.button == 1) && t.closest) {
        el = t.closest("a[data-checkout]");
        if (el) once("checkout", { name: "checkout", checkout: el.dataset.checkout });
        el = type == "click" && t.closest("[data-measure-click]");
        if (el) {
          once("click:" + el.dataset.measureClick, { name: el.dataset.measureClick });
          t = d.getElementById(el.dataset.copy);
          if (t) nav.clipboard.writeText(t.textContent)["catch"](check);
        }
      }
      // pagehide, visibilitychange and pageshow land here too: a reading
      // event that has just become due goes out as the page is left, and a
      // page restored from the back/forward cache, being the same load,
      // sends nothing again.
      check();
    } catch (_) { /* never throw into the page */ }
  }

  ("DOMContentLoaded prerenderingchange visibilitychange pagehide pageshow scroll click auxclick" + INPUT)
    .replace(/\w+/g, function (type) { w.addEventListener(type, on, { capture: true, passive: true }); });
  if (d.readyState == "complete") on({ type: "DOMContentLoaded" });
})(window, document, location, navigator);
