// measure.js: the page's one counter. It keeps the promises of the notice at
// the end of the page; the rules it follows are its contract in
// docs/counter.md. The build minifies this file. It is
// ES5 on purpose: a browser too old for fetch must still parse it, and then
// do nothing.
//
// Every byte counts against the gzip budget in size_test.go: window,
// location and navigator are named in full, which gzips smaller than
// passing them in, and the functions stand in the order that compresses
// best (they are hoisted, so the order changes nothing else).
(function (d) {
  // Without fetch nothing is sent: sendBeacon would carry cookies.
  if (!window.fetch) return;

  var sent = {};      // the events sent in this load, by name
  var banked = 0;     // visible milliseconds before the current stretch
  var shownAt = 0;    // performance.now() when the current visible stretch began, 0 while none runs
  // scrolled needs no false to start: the listener sets it before anything is sent.
  var scrolled, input, marker, ready, timer;
  var reading = {};   // the reading events' payload: ref, campaign, outreach, then the rest

  // The trusted inputs that count. No name here is part of the name of
  // another event the listener gets, so indexOf can tell them apart.
  var INPUT = " keydown touchstart mousemove pointerdown wheel";

  // shownAt is never 0 while a stretch runs: the clock starts once the
  // document is ready, well after its time origin.
  function elapsed() { return banked + (shownAt && performance.now() - shownAt); }

  // check brings the clock up to date, sends what is due, and schedules the
  // next threshold for the visible time that remains. Every transition runs
  // it. once() keeps each event to one send, so only a threshold still ahead
  // needs a timer. Until the page is ready no clock runs and no timer is
  // set, so there is nothing to bring up to date.
  function check() {
    if (!ready) return;
    // hidden is true exactly when visibilityState is not "visible"; ready
    // comes only once the page is not (or no longer) prerendering.
    var on = !d.hidden, t, next;
    if (on) shownAt = shownAt || performance.now();
    else { banked = elapsed(); shownAt = 0; }
    clearTimeout(timer);
    send("view");
    t = elapsed();
    // Visible time never goes back and input never goes away, so
    // human-candidate has been sent exactly when input came and t has
    // reached 10 s: engaged waits on that.
    if (input) {
      if (t < 1e4) next = 1e4;
      else {
        send("human-candidate");
        if (marker) t < 9e4 ? next = 9e4 : send("engaged");
      }
    }
    if (next && on) timer = setTimeout(check, next - t + 1);
  }

  // once sends payload unless an event of its name went out in this load.
  // The build refuses the reading events' names and "checkout" as click
  // names, so a name is its own key in sent; == 1, since sent.constructor,
  // a click name too, is there from the start.
  function once(payload) {
    if (sent[payload.name] == 1) return;
    sent[payload.name] = 1;
    // A failed send is dropped: elapsed, which has no side effect, serves
    // as the rejection handler, so that nothing reaches the page's console
    // as an unhandled rejection and no retry is made. A fetch that throws
    // instead (a wrapped or polyfilled one) is caught here, since once runs
    // from timers and the marker's observer as well as from the listener.
    try {
      fetch("/api/event", { method: "POST", body: JSON.stringify(payload), keepalive: 1,
        credentials: "omit", referrerPolicy: "no-referrer" })["catch"](elapsed);
    } catch (_) {}
  }

  function start() {
    if (ready || d.prerendering) return;
    ready = 1;
    try {
      var r = new URL(d.referrer).hostname;
      if (r && r != location.hostname) reading.ref = r;
    } catch (_) {}
    // campaign joins reading with its first value, before outreach (oc,
    // last), so the keys keep their order.
    var q = new URLSearchParams(location.search), c;
    "utm_source utm_medium utm_campaign utm_term utm_content oc".replace(/\w+/g, function (k) {
      if (q.has(k)) {
        var v = q.get(k).slice(0, 200);
        if (k == "oc") reading.outreach = v;
        else (c = c || (reading.campaign = {}))[k] = v;
      }
    });
    var m = d.querySelector("[data-measure-marker]");
    if (m && window.IntersectionObserver) new IntersectionObserver(function (es) {
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
      scrolled = scrolled || scrollY > 0;
      if (INPUT.indexOf(type) > 0 && e.isTrusted && !navigator.webdriver) input = 1;
      if (type == "DOMContentLoaded" || type == "prerenderingchange") start();
      // pagehide, visibilitychange and pageshow land here too: a reading
      // event that has just become due goes out as the page is left, and a
      // page restored from the back/forward cache, being the same load,
      // sends nothing again.
      check();
      // A click, or a middle click on a buy link. Nothing here waits or
      // prevents the default: the navigation goes ahead.
      if (type == "click" || type == "auxclick" && e.button == 1) {
        el = t.closest("a[data-checkout]");
        if (el) once({ name: "checkout", checkout: el.dataset.checkout });
        el = type == "click" && t.closest("[data-measure-click]");
        if (el) {
          once({ name: el.dataset.measureClick });
          // A copy control copies its code block and then says so; when
          // the browser refuses, or has no clipboard API (iOS 12's Safari),
          // which the promise turns into a refusal, the block is selected for
          // the reader to copy by hand, so that nobody pastes what the
          // clipboard held.
          if (t = d.getElementById(el.dataset.copy)) new Promise(function (ok) { ok(navigator.clipboard.writeText(t.textContent)); }).then(function () {
            el.textContent = "Copied";
          }, function () { getSelection().selectAllChildren(t); });
        }
      }
    } catch (_) { /* never throw into the page */ }
  }

  function send(name) {
    reading.name = name;
    reading.path = location.pathname;
    reading.visible_ms = Math.floor(elapsed());
    reading.scrolled = scrolled;
    once(reading);
  }

  // The order of the names only changes how well they compress.
  ("auxclick prerenderingchange visibilitychange scroll click pagehide pageshow DOMContentLoaded" + INPUT)
    .replace(/\w+/g, function (type) { addEventListener(type, on, { passive: 1, capture: 1 }); });
})(document);
