// Show or hide the PTX of every annotated source line at once.
document.querySelectorAll("button.toggle-ptx").forEach(function (b) {
  b.addEventListener("click", function () {
    var list = b.closest("section").querySelectorAll("details.ptx");
    var open = b.textContent.indexOf("show") === 0;
    list.forEach(function (d) { d.open = open; });
    b.textContent = open ? "hide all PTX" : "show all PTX";
  });
});
