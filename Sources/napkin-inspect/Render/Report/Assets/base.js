// The report's script, its base: the constants, the one time format the page
// makes itself, the DOM helpers, the state shared by the other parts, and the
// look-ups into the trace's tables (docs/report.md, "The embedded data").
//
// The report's script is these files, joined in this order inside one
// function (ReportAssets.scriptParts; the page adds the "use strict" and the
// function around them): base.js, tree.js, panels.js, details.js,
// timeline.js, report.js; the live page adds live.js.
  const LABEL_W = 240, ROW_H = 18, AXIS_H = 46;
  const $ = (id) => document.getElementById(id);
  // What the page holds (a live page replaces it as sessions come and go).
  let meta = JSON.parse($("report-meta").textContent);
  let WORDS = meta.words;
  const OUTCOMES = ["running", "completed", "cancelled"];
  const SVG = "http://www.w3.org/2000/svg";

  // ---------- moments the reader picks ----------
  // The times of the slider, the zoom and the pointer, as napkin-inspect
  // writes a moment (TimeFormat.point): milliseconds below a second, else
  // seconds, three decimals, rounded half away from zero.
  function point(ns) {
    const ms = ns / 1e6;
    return ms < 1000 ? fixed3(ms) + "ms" : fixed3(ms / 1000) + "s";
  }
  function fixed3(value) {
    const units = Math.round(value * 1000);
    return Math.floor(units / 1000) + "." + String(units % 1000).padStart(3, "0");
  }
  // An axis label: as short as the step between labels allows.
  function tickLabel(ns, stepNs) {
    const units = ns === 0 ? [1, "s"] : stepNs >= 1e8 ? [1e9, "s"] : stepNs >= 1e5 ? [1e6, "ms"] : stepNs >= 100 ? [1e3, "µs"] : [1, "ns"];
    return String(Number((ns / units[0]).toFixed(6))) + units[1];
  }
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function svg(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function clip(text, n) { return text.length > n ? text.slice(0, n - 1) + "…" : text; }

  // ---------- the trace ----------
  let T = null;          // the trace shown
  let cur = 0;           // the moment shown (ns)
  let selected = -1;     // selected node (its row in the nodes table)
  let view = { t0: 0, t1: 1 };
  let showTasks = true;
  let rowList = [];      // timeline rows: [node, task row or -1]
  let playing = null;
  let filter = "";       // the filter box's text, lower-cased ("" shows every node)
  // What the live page (live.js) changes of the report's behaviour; a report leaves them null.
  // moved(toEnd): the reader moved the moment (to the end or not); play(): replaces play / pause;
  // pick(index): the reader picked another trace.
  const hooks = { moved: null, play: null, pick: null };

  // A table whose rows belong to nodes (its `node` column, in node order):
  // `from[i]` to `from[i + 1]` are the rows of node i.
  function byNode(table, nodes) {
    const from = new Int32Array(nodes + 1);
    for (const i of table.node) from[i + 1]++;
    for (let i = 0; i < nodes; i++) from[i + 1] += from[i];
    table.from = from;
    return table;
  }

  function name(i) { return T.data.types[T.nodes.type[i]] + "#" + T.nodes.id[i]; }
  // Whether node i passes the filter: its `Type#id` holds the filter's text, case aside.
  function matches(i) { return !filter || name(i).toLowerCase().includes(filter); }
  function nameOfId(id) { return T.byId.has(id) ? name(T.byId.get(id)) : "#" + id; }
  // The row of node i in `table` whose span holds t, or -1.
  function spanAt(table, i, t) {
    for (let k = table.from[i]; k < table.from[i + 1]; k++) if (table.start[k] <= t && (table.end[k] < 0 || table.end[k] > t)) return k;
    return -1;
  }
