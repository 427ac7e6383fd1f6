// The first script of a napkin-inspect HTML report, in the page's head: any error
// of the report's own script (even one that stops it from running at all) is
// shown on the page, where a reader sees it and the report's tests look for it.
"use strict";
window.addEventListener("error", function (e) {
  var box = document.getElementById("errors");
  if (!box) return;
  var line = document.createElement("div");
  line.className = "js-error";
  line.textContent = "This report hit an error: " + e.message + " (line " + e.lineno + ")";
  box.appendChild(line);
  box.hidden = false;
});
