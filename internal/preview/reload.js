(function () {
  var es = new EventSource("/_preview/events"), box;
  es.addEventListener("reload", function () { location.reload(); });
  es.addEventListener("failed", function (e) {
    if (!box) {
      box = document.createElement("pre");
      box.setAttribute("role", "alert");
      var s = box.style;
      s.position = "fixed"; s.inset = "0 0 auto 0"; s.zIndex = "2147483647"; s.margin = "0";
      s.padding = "1rem"; s.background = "#7f1d1d"; s.color = "#fff"; s.whiteSpace = "pre-wrap";
      s.maxHeight = "60vh"; s.overflow = "auto"; s.font = "14px/1.4 monospace";
      document.body.appendChild(box);
    }
    box.textContent = "Build failed; this is the last good page.\n\n" + e.data;
  });
})();
