/**
 * The reader's one script, an enhancement only (every page works without it): a copy button on each
 * code block, and suggestions under the search box while typing (from `…/~search.json`).
 */
export const READER_JS = `"use strict";
document.querySelectorAll(".code-block").forEach(function (block) {
  var code = block.querySelector("pre code");
  if (!code || !navigator.clipboard) return;
  var button = document.createElement("button");
  button.type = "button";
  button.className = "copy";
  button.textContent = "Copy";
  button.setAttribute("aria-label", "Copy the code");
  button.addEventListener("click", function () {
    navigator.clipboard.writeText(code.textContent || "").then(function () {
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = "Copy"; }, 1500);
    });
  });
  block.appendChild(button);
});

var form = document.querySelector("form.search");
var input = form && form.querySelector("input[name=q]");
if (form && input && window.fetch) {
  var box = document.createElement("div");
  box.className = "suggestions";
  box.id = "suggestions";
  box.setAttribute("role", "region");
  box.setAttribute("aria-live", "polite");
  box.setAttribute("aria-label", "Search suggestions");
  form.appendChild(box);
  var timer = 0;
  var asked = "";
  var link = function (href, text, className) {
    var a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    if (className) a.className = className;
    return a;
  };
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var query = input.value.trim();
      asked = query;
      if (query === "") { box.replaceChildren(); return; }
      fetch(form.action + ".json?q=" + encodeURIComponent(query), { credentials: "same-origin" })
        .then(function (response) { return response.json(); })
        .then(function (answer) {
          if (answer.query !== asked) return;
          var list = document.createElement("ul");
          answer.results.forEach(function (result) {
            var item = document.createElement("li");
            item.appendChild(link(result.url, result.title, "page"));
            result.sections.forEach(function (section) { item.appendChild(link(section.url, section.title, "section")); });
            list.appendChild(item);
          });
          if (answer.results.length === 0) {
            var none = document.createElement("p");
            none.textContent = "Nothing found.";
            box.replaceChildren(none);
          } else box.replaceChildren(list);
        })
        .catch(function () { box.replaceChildren(); });
    }, 200);
  });
}
`
