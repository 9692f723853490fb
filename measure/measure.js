// measure.js: the page's one counter. It keeps the promises of the notice at
// the end of the page; the rules it follows are in measure-protocol.md (see
// README.md). The build bakes the endpoint in and minifies this file. It is
// ES5 on purpose: a browser too old for fetch must still parse it, and then
// do nothing.
(function (w, d, loc, nav) {
  var ENDPOINT = "__ENDPOINT__";
  // Without fetch nothing is sent: sendBeacon would carry cookies.
  if (!w.fetch) return;

  var sent = {};      // the events sent in this load, by name
  var banked = 0;     // visible milliseconds before the current stretch
  var shownAt = -1;   // performance.now() when the current visible stretch began
  var scrolled = false, input, marker, ready, timer;
  var reading = {};   // the reading events' payload: ref, campaign, outreach, then the rest
  
  // The trusted inputs that count. No name here is part of the name of
  // another event the listener gets, so indexOf can tell them apart.
  var INPUT = " pointerdown mousemove touchstart wheel keydown";

  function elapsed() { return banked + (shownAt < 0 ? 0 : performance.now() - shownAt); }

  function once(key, payload) {
    if (sent[key]) return;
    sent[key] = 1;
    // A failed send is dropped: elapsed, which has no side effect, serves
    // as the rejection handler, so that nothing reaches the page's console
    // as an unhandled rejection and no retry is made. A fetch that throws
    // instead (a wrapped or polyfilled one) is caught here, since once runs
    // from timers and the marker's observer as well as from the listener.
    try {
      fetch(ENDPOINT, { method: "POST", body: JSON.stringify(payload), keepalive: true,
        credentials: "omit", referrerPolicy: "no-referrer" })["catch"](elapsed);
    } catch (_) {}
  }

  function send(name) {
    reading.name = name;
    reading.path = loc.pathname;
    reading.visible_ms = Math.floor(elapsed());
    reading.scrolled = scrolled;
    once(name, reading);
  }

  // check brings the clock up to date, sends what is due, and schedules the
  // next threshold for the visible time that remains. Every transition runs
  // it. once() keeps each event to one send, so only a threshold still ahead
  // needs a timer.
  function check() {
    // hidden is true exactly when visibilityState is not "visible"; ready
    // comes only once the page is not (or no longer) prerendering.
    var on = ready && !d.hidden, t, next;
    if (on && shownAt < 0) shownAt = performance.now();
    if (!on && shownAt >= 0) { banked += performance.now() - shownAt; shownAt = -1; }
    clearTimeout(timer);
    if (!ready) return;
    send("view");
    t = elapsed();
    if (input) t < 1e4 ? next = 1e4 : send("human-candidate");
    if (marker && sent["human-candidate"]) t < 9e4 ? next = 9e4 : send("engaged");
    if (next && on) timer = setTimeout(check, next - t + 1);
  }

  function start() {
    if (ready || d.prerendering) return;
    ready = 1;
    try {
      var r = new URL(d.referrer).hostname;
      if (r && r != loc.hostname) reading.ref = r;
    } catch (_) {}
    var q = new URLSearchParams(loc.search), c, v;
    "source medium campaign term content".replace(/\w+/g, function (k) {
      v = q.get(k = "utm_" + k);
      if (v != null) (c = c || {})[k] = v.slice(0, 200);
    });
    if (c) reading.campaign = c;
    if ((v = q.get("oc")) != null) reading.outreach = v.slice(0, 200);
    var m = d.querySelector("[data-measure-marker]");
    if (m && w.IntersectionObserver) new IntersectionObserver(function (es) {
      es.forEach(function (e) { marker = marker || e.isIntersecting; });
      check();
    }).observe(m);
  }

  // One listener, on window in the capture phase, sees every event below:
  // those fired at the document (DOMContentLoaded, visibilitychange,
  // prerenderingchange, scroll) as well as input, clicks and page hiding.
  function on(e) {
    try {
      var type = e.type, t = e.target, el;
      if (type == "DOMContentLoaded" || type == "prerenderingchange") start();
      scrolled = scrolled || w.scrollY > 0;
      if (INPUT.indexOf(type) > 0 && e.isTrusted && !nav.webdriver) input = 1;
      // pagehide, visibilitychange and pageshow land here too: a reading
      // event that has just become due goes out as the page is left, and a
      // page restored from the back/forward cache, being the same load,
      // sends nothing again.
      check();
      // A click, or a middle click on a buy link. Nothing here waits or
      // prevents the default: the navigation goes ahead.
      if (type == "click" || type == "auxclick" && e.button == 1) {
        el = t.closest("a[data-checkout]");
        if (el) once("checkout", { name: "checkout", checkout: el.dataset.checkout });
        el = type == "click" && t.closest("[data-measure-click]");
        if (el) {
          // The build refuses the reading events' names and "checkout" as
          // click names, so a name is its own key in sent.
          once(type = el.dataset.measureClick, { name: type });
          // A copy control copies its code block; a refusal is dropped.
          if (t = d.getElementById(el.dataset.copy)) nav.clipboard.writeText(t.textContent)["catch"](elapsed);
        }
      }
    } catch (_) { /* never throw into the page */ }
  }

  ("DOMContentLoaded prerenderingchange visibilitychange pagehide pageshow scroll click auxclick" + INPUT)
    .replace(/\w+/g, function (type) { w.addEventListener(type, on, { capture: true, passive: true }); });
})(window, document, location, navigator);
