// The index's box finds the page that explains a pasted line. Each page
// lists the lines its error prints (ul.messages code, a <var> for each part
// that is the reader's own): a line holding every other part of one, in
// order, is that error, and the page whose line it holds most of comes
// first. Then come the pages whose title, then description or lines, hold
// the text as typed, for a reader who types a word. The matches are copies of
// the index's items, shown in #matches while the sections hide; the box is
// in the page from the start, so nothing moves when this runs. Without
// script, noscript.css hides the box and the page's entries show.
(function () {
  var input = document.getElementById("filter");
  var matches = document.getElementById("matches");
  var none = document.getElementById("no-match");
  if (!input || !matches || !none || !document.getElementById("short")) {
    return;
  }
  // What a search hides: the sections, and the links to the index's other pages.
  var sections = document.querySelectorAll("section.errors, nav.parts");
  // The index may go on over several pages (data-parts); this one is
  // data-part, or none on the not-found page, which lists no entry.
  var box = document.getElementById("filter-box");
  var parts = Number(box.getAttribute("data-parts")) || 0;
  var here = Number(box.getAttribute("data-part")) || 0;
  var pending = 0, failed = false;

  // plain folds what copying changes: spaces and line breaks, case, and
  // the smart quotes a chat or a phone's keyboard puts for ' and ".
  function plain(s) {
    return s.replace(/\s+/g, " ").replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').toLowerCase();
  }

  // line reads a listed line: its literal runs, lower case, and the
  // exception's class before them ("McpError: "), which a host's own
  // printout may leave out.
  function line(code) {
    var runs = [""];
    for (var n = code.firstChild; n; n = n.nextSibling) {
      if (n.nodeName === "VAR") {
        runs.push("");
      } else {
        runs[runs.length - 1] += plain(n.textContent);
      }
    }
    var type = /^[a-z_$][\w$.]*: /.exec(runs[0]);
    if (type) {
      runs[0] = runs[0].slice(type[0].length);
    }
    return { type: type ? type[0] : "", runs: runs.filter(function (r) { return r !== ""; }) };
  }

  // score is how much of the listed line's own text q holds, all its runs
  // in order, or 0 when q is not that line. q may be the line cut short
  // (an issue's title, a narrow log): it then ends inside a run, 4
  // characters of it after a whole run, or 8 where the line begins: after
  // its class, or at q's start for a line without one, since a line that
  // merely ends in "bad request" is not "Bad Request: No valid session…".
  function score(q, l) {
    var at = 0, got = 0, start = -1;
    if (l.runs.length === 0) {
      // The class alone ("ConnectError: {reason}"): any line of that class.
      return q.indexOf(l.type) >= 0 ? l.type.length : 0;
    }
    for (var i = 0; i < l.runs.length; i++) {
      var found = q.indexOf(l.runs[i], at);
      if (found < 0) {
        found = cut(q, l.runs[i], at, i > 0 ? 4 : 8);
        if (found < 0 || (i === 0 && !(l.type ? typed(q, found, l.type) : found === 0))) {
          return 0;
        }
      }
      if (start < 0) {
        start = found;
      }
      at = Math.min(found + l.runs[i].length, q.length);
      got += at - found;
      if (at === q.length) {
        break; // the line's end, or where q cuts it
      }
    }
    return got + (typed(q, start, l.type) ? l.type.length : 0);
  }

  // typed reports whether q has the class type just before pos.
  function typed(q, pos, type) {
    return type !== "" && q.slice(0, pos).slice(-type.length) === type;
  }

  // cut is where q ends with the start of run, min characters of it or
  // more, at or after at; or -1.
  function cut(q, run, at, min) {
    for (var k = run.length - 1; k >= min; k--) {
      if (q.length - k >= at && q.slice(-k) === run.slice(0, k)) {
        return q.length - k;
      }
    }
    return -1;
  }

  var index = [];
  function add(doc, part) {
    var items = doc.querySelectorAll("section.errors > ul > li");
    for (var i = 0; i < items.length; i++) {
      var codes = items[i].querySelectorAll("ul.messages code");
      var lines = [];
      for (var j = 0; j < codes.length; j++) {
        lines.push(line(codes[j]));
      }
      var title = plain(items[i].querySelector("a").textContent);
      index.push({ item: items[i], order: part * 100000 + i, title: title, said: title.split(": ").pop(), text: plain(items[i].textContent), lines: lines });
    }
  }
  add(document, here);

  // The index's other pages are read once, when the reader comes to the
  // box; until each has come, no line is said to have no page, and one
  // that fails to come says the search is short.
  function more() {
    for (var n = 1; n <= parts; n++) {
      if (n !== here) {
        get(n);
      }
    }
    parts = 0;
  }
  function get(n) {
    var req = new XMLHttpRequest();
    req.open("GET", n === 1 ? "/" : "/page/" + n + "/");
    req.responseType = "document";
    req.onloadend = function () {
      pending--;
      if (req.status === 200 && req.response) {
        add(req.response, n);
      } else {
        failed = true;
        document.getElementById("short").hidden = false;
      }
      apply();
    };
    pending++;
    req.send();
  }

  function apply() {
    // A line cut short may end in an ellipsis, which is not its text.
    var q = plain(input.value).trim().replace(/(\.\.\.|\u2026)$/, "").trim();
    // A runtime's own class may stand before a title's message, which no
    // quote of the library holds: TypeError: keyValidator._parse is not a function.
    var said = q.replace(/^[a-z_$][\w$.]*: /, "");
    var found = [];
    for (var i = 0; q !== "" && i < index.length; i++) {
      var best = 0;
      for (var j = 0; j < index[i].lines.length; j++) {
        best = Math.max(best, score(q, index[i].lines[j]));
      }
      if (best === 0 && (index[i].title.indexOf(q) >= 0 || said !== q && said === index[i].said)) {
        best = 0.75; // its title holds the text as typed: after every listed line
      } else if (best === 0 && index[i].text.indexOf(q) >= 0) {
        best = 0.5; // and then the rest of its entry
      }
      if (best > 0) {
        found.push({ entry: index[i], score: best });
      }
    }
    found.sort(function (a, b) {
      return b.score - a.score || a.entry.order - b.entry.order;
    });
    while (matches.firstChild) {
      matches.removeChild(matches.firstChild);
    }
    for (var k = 0; k < found.length; k++) {
      matches.appendChild(found[k].entry.item.cloneNode(true));
    }
    matches.hidden = found.length === 0;
    none.hidden = q === "" || found.length > 0 || pending > 0 || failed;
    for (var s = 0; s < sections.length; s++) {
      sections[s].hidden = q !== "";
    }
  }
  input.addEventListener("focus", more);
  input.addEventListener("input", function () {
    more();
    apply();
  });
  // Text typed before this ran, or restored by the back button.
  if (input.value) {
    more();
  }
  apply();
})();
