// The index's filter: as the reader types, it hides the errors whose
// title, library and description do not hold the text, and a section
// left empty. Without script the box stays hidden and every error shows.
(function () {
  var box = document.getElementById("filter-box");
  var input = document.getElementById("filter");
  if (!box || !input) {
    return;
  }
  var sections = document.querySelectorAll("section.errors");
  box.hidden = false;
  input.addEventListener("input", function () {
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
  });
})();
