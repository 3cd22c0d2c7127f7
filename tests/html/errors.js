// Injected by tests/html_report.rs at the start of <head>: records uncaught errors and
// console.error / console.warn calls of the page, for check.js to report.
window.__gpumemsimErrors = [];
window.addEventListener("error", function (e) {
  window.__gpumemsimErrors.push("uncaught: " + e.message + " at " + e.filename + ":" + e.lineno);
});
window.addEventListener("unhandledrejection", function (e) {
  window.__gpumemsimErrors.push("unhandled rejection: " + String(e.reason));
});
["error", "warn"].forEach(function (k) {
  var f = console[k];
  console[k] = function () {
    window.__gpumemsimErrors.push("console." + k + ": " + Array.prototype.join.call(arguments, " "));
    return f.apply(console, arguments);
  };
});
