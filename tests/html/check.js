// Injected by tests/html_report.rs at the end of a copy of a report: measures what the browser
// rendered and writes it, as JSON, into a new pre element (id gpumemsim-check) for --dump-dom.
// It reads the page; it changes nothing but appending that <pre>.
(function () {
  function rect(el) {
    var r = el.getBoundingClientRect();
    return { x: r.left + window.scrollX, y: r.top + window.scrollY, w: r.width, h: r.height };
  }
  function visible(el) {
    var r = el.getBoundingClientRect();
    var s = window.getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none";
  }
  // The text a reader sees: an SVG <title> (the tooltip) is not part of it.
  function shownText(el) {
    var t = "";
    el.childNodes.forEach(function (n) {
      if (n.nodeType === 3) t += n.nodeValue;
      else if (n.nodeType === 1 && n.nodeName.toLowerCase() !== "title") t += shownText(n);
    });
    return t;
  }
  var out = { errors: window.__gpumemsimErrors || [], sections: [], metrics: [], banks: [], texels: [] };
  document.querySelectorAll("[data-section]").forEach(function (s) {
    var a = s.closest("[data-launch],[data-pair]");
    out.sections.push({
      launch: a ? Number(a.dataset.launch || a.dataset.pair) : 0,
      section: s.dataset.section,
      rect: rect(s),
    });
  });
  // Every number shown under a metric name, with whether it is visible where it is (numbers in
  // a closed <details> are not laid out: they are checked as text only).
  document.querySelectorAll("[data-metric]").forEach(function (el) {
    var a = el.closest("[data-launch],[data-pair]");
    var d = el.closest("details");
    out.metrics.push({
      launch: a ? Number(a.dataset.launch || a.dataset.pair) : 0,
      metric: el.dataset.metric,
      side: el.dataset.side || "",
      text: shownText(el).trim(),
      visible: visible(el),
      in_closed_details: !!(d && !d.open),
    });
  });
  // Bank diagrams: which bank column each lane's line ends in, measured on screen.
  document.querySelectorAll("figure.bank-diagram").forEach(function (fig) {
    var a = fig.closest("[data-launch]");
    fig.querySelectorAll(".drawing").forEach(function (dr) {
      var svg = dr.querySelector("svg");
      if (!svg) return;
      var cols = Array.prototype.map.call(svg.querySelectorAll("rect.bank-col"), function (c) {
        var r = c.getBoundingClientRect();
        return { bank: Number(c.dataset.bank), l: r.left, r: r.right, t: r.top, b: r.bottom };
      });
      var m = svg.getScreenCTM();
      var lanesByBank = {};
      var unplaced = 0;
      svg.querySelectorAll("line.link").forEach(function (ln) {
        var p = svg.createSVGPoint();
        p.x = ln.x2.baseVal.value;
        p.y = ln.y2.baseVal.value;
        var q = p.matrixTransform(m);
        var hit = cols.filter(function (c) { return q.x >= c.l && q.x <= c.r && q.y >= c.t && q.y <= c.b; });
        if (hit.length !== 1) { unplaced++; return; }
        var b = hit[0].bank;
        lanesByBank[b] = lanesByBank[b] || [];
        var lane = Number(ln.dataset.lane);
        if (lanesByBank[b].indexOf(lane) < 0) lanesByBank[b].push(lane);
      });
      out.banks.push({
        launch: a ? Number(a.dataset.launch) : 0,
        file: fig.dataset.file,
        line: Number(fig.dataset.line),
        op: fig.dataset.op,
        which: dr.dataset.which,
        columns: cols.length,
        lanes_by_bank: lanesByBank,
        unplaced: unplaced,
        visible: visible(svg),
      });
    });
  });
  // Texel maps: the sectors and texels each drawing states, and the texel cells drawn.
  document.querySelectorAll("figure.texel-diagram").forEach(function (fig) {
    var a = fig.closest("[data-launch]");
    fig.querySelectorAll(".drawing").forEach(function (dr) {
      var svg = dr.querySelector("svg");
      if (!svg) return;
      out.texels.push({
        launch: a ? Number(a.dataset.launch) : 0,
        file: fig.dataset.file,
        line: Number(fig.dataset.line),
        op: fig.dataset.op,
        which: dr.dataset.which,
        sectors: Number(svg.dataset.sectors),
        texels: Number(svg.dataset.texels),
        cells: svg.querySelectorAll(".texel-read").length,
        caption: dr.querySelector(".caption").textContent,
        visible: visible(svg),
      });
    });
  });
  out.width = document.documentElement.scrollWidth;
  out.height = document.documentElement.scrollHeight;
  var pre = document.createElement("pre");
  pre.id = "gpumemsim-check";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
