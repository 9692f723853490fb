// The index's filter: as the reader types, it hides the errors whose
// title, library and description do not hold the text, and a section
// left empty. The box is in the page from the start, so nothing moves
// when this runs; without script, noscript.css hides it and every error
// shows.
(function () {
  var input = document.getElementById("filter");
  if (!input) {
    return;
  }
  var sections = document.querySelectorAll("section.errors");
  function apply() {
    var q = input.value.toLowerCase();
    for (var i = 0; i < sections.length; i++) {
      var items = sections[i].querySelectorAll("li");
      var shown = 0;
      for (var j = 0; j < items.length; j++) {
        var hide = q !== "" && items[j].textContent.toLowerCase().indexOf(q) < 0;
        items[j].hidden = hide;
        if (!hide) {
          shown++;
        }
      }
      sections[i].hidden = shown === 0;
    }
  }
  input.addEventListener("input", apply);
  // Text typed before this ran, or restored by the back button.
  apply();
})();
