/**
 * The reader's one script, an enhancement only (every page works without it): a copy button on each
 * code block.
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
`
