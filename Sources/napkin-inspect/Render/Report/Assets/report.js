// The script of a napkin-inspect HTML report (docs/report.md), its last part:
// it loads a trace's data (the JSON elements report-meta and trace-N, whose
// schema docs/report.md lists), moves through time, and wires the controls.
// The script does only what needs the browser: which spans hold the moment
// the slider picks, drawing, and answering clicks, keys and the wheel. Every
// text known when the report was written (status words, the findings' times,
// the header, the notes, the rules' help) comes ready and printable from
// napkin-inspect; whatever it shows from the trace goes in as text
// (textContent), never as HTML.
//
// It opens at #trace=N&t=NANOSECONDS&finding=K&node=ID&filter=TEXT when the
// address says so, sending the slider, a finding's subject, a tree row or the filter box
// the event a user's hand does; when it has run, the body's data-ready
// attribute is "yes".
//
// The report's script is these files, joined in this order inside one
// function (ReportAssets.scriptParts; the page adds the "use strict" and the
// function around them): base.js, tree.js, panels.js, details.js,
// timeline.js, report.js; the live page adds live.js.
  // The data of each trace: a report reads its trace-N element the first time;
  // a live page stores each session's latest snapshot here.
  const traces = [];
  function dataOf(index) {
    if (!traces[index]) traces[index] = JSON.parse($("trace-" + index).textContent);
    return traces[index];
  }

  // Shows trace `index` (its `data` when given, as a live page's snapshot), at
  // the moment `at` (its end when not given). A new snapshot of the trace shown
  // keeps the selected node (by id), and the timeline's zoom, which grows with
  // the trace when it showed the end.
  function load(index, data, at) {
    if (data !== undefined) traces[index] = data;
    data = dataOf(index);
    const before = T && T.index === index ? { id: selected >= 0 ? T.nodes.id[selected] : null, view, end: T.end } : null;
    const nodes = data.nodes, count = nodes.id.length;
    const attachments = byNode(data.attachments, count), active = byNode(data.active, count), shown = byNode(data.shown, count);
    const removals = byNode(data.viewRemovals, count), tasks = byNode(data.tasks, count);
    const byId = new Map(), owner = new Map();
    for (let i = 0; i < count; i++) {
      byId.set(nodes.id[i], i);
      if (nodes.interactor[i]) owner.set(nodes.interactor[i], i);
      for (let k = tasks.from[i]; k < tasks.from[i + 1]; k++) owner.set(tasks.id[k], i);
    }
    // Which node each finding marks: the router, its interactor, or the task's owner.
    const findingNode = data.findings.map((f) => byId.has(f.id) ? byId.get(f.id) : owner.has(f.id) ? owner.get(f.id) : -1);
    // Every moment something changes, for stepping.
    const times = [0, data.end];
    const add = (...columns) => { for (const column of columns) for (const t of column) if (t >= 0) times.push(t); };
    add(nodes.created, nodes.deinit, attachments.start, attachments.end, active.start, active.end, shown.start, shown.end,
        removals.time, tasks.start, tasks.cancel, tasks.end, data.marks.time);
    for (const f of data.findings) times.push(f.time);
    const sorted = Float64Array.from(times).sort();
    let w = 0;
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[w - 1]) sorted[w++] = sorted[i];
    T = { index, data, nodes, count, attachments, active, shown, removals, tasks, byId, findingNode,
          changes: sorted.subarray(0, w), end: Math.max(1, data.end) };
    selected = before && before.id !== null && byId.has(before.id) ? byId.get(before.id) : -1;
    view = { t0: 0, t1: T.end };
    if (before && before.view.t1 < before.end) view = { t0: Math.min(before.view.t0, T.end - 1), t1: Math.min(before.view.t1, T.end) };
    else if (before && before.view.t0 > 0) view = { t0: Math.max(0, T.end - (before.view.t1 - before.view.t0)), t1: T.end };
    buildRows();
    renderHeader();
    renderFindings();
    renderPopulations();
    renderStats();
    setTime(at === undefined ? T.end : at, false);
  }

  // No trace to show (a report of none, a live page before its first snapshot): `text` in the tree's place.
  function showNothing(text) {
    T = null;
    selected = -1;
    for (const id of ["trace-summary", "findings", "findings-count", "tree-at", "rows", "axis", "stats", "kinds", "now"]) $(id).textContent = "";
    $("problems").hidden = true;
    $("populations-panel").hidden = true;
    $("tree").textContent = "";
    $("tree").appendChild(el("p", "empty", text));
    renderDetails();
  }

  // ---------- time ----------
  function setTime(t, fromSlider) {
    if (!T) return;
    cur = Math.max(0, Math.min(T.end, t));
    if (!fromSlider) $("slider").value = String(Math.round(cur / T.end * 100000));
    $("now").textContent = "t=" + point(cur) + " of " + T.data.endText;
    renderTree();
    drawTimeline();
    markFindings();
    movePopulationCursor();
    renderDetails();
  }
  // The reader moved the moment (to the end, or not): a live page follows or stops following.
  function moved(toEnd) { if (hooks.moved) hooks.moved(toEnd); }
  function changeIndex(t) { // last change at or before t
    const c = T.changes; let lo = 0, hi = c.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (c[mid] <= t) lo = mid; else hi = mid - 1; }
    return lo;
  }
  function step(delta) {
    if (!T) return;
    const i = changeIndex(cur);
    const j = delta > 0 ? (T.changes[i] <= cur ? i + 1 : i) : (T.changes[i] < cur ? i : i - 1);
    setTime(T.changes[Math.max(0, Math.min(T.changes.length - 1, j))]);
  }
  function togglePlay() {
    if (hooks.play) { hooks.play(); return; }
    if (!T) return;
    if (playing) { clearInterval(playing); playing = null; $("play").textContent = "play"; return; }
    if (cur >= T.end) setTime(0);
    $("play").textContent = "pause";
    playing = setInterval(() => {
      const i = changeIndex(cur);
      const next = Math.max(T.changes[Math.min(i + 1, T.changes.length - 1)], cur + T.end / 400);
      setTime(next);
      if (cur >= T.end) togglePlay();
    }, 50);
  }

  // ---------- wiring ----------
  function tooltip(e) {
    const tip = $("tooltip");
    const i = e.target && e.target.dataset ? e.target.dataset.tip : undefined;
    if (i === undefined) { tip.hidden = true; return; }
    tip.textContent = tips[Number(i)];
    tip.hidden = false;
    tip.style.left = Math.min(window.innerWidth - 360, e.clientX + 14) + "px";
    tip.style.top = (e.clientY + 16) + "px";
  }
  function wire() {
    $("slider").addEventListener("input", (e) => { if (!T) return; setTime(Number(e.target.value) / 100000 * T.end, true); moved(e.target.value === "100000"); });
    $("first").addEventListener("click", () => { setTime(0); moved(false); });
    $("last").addEventListener("click", toEnd);
    $("prev").addEventListener("click", () => { step(-1); moved(false); });
    $("next").addEventListener("click", () => { step(1); moved(T !== null && cur >= T.end); });
    $("play").addEventListener("click", togglePlay);
    $("zoom-in").addEventListener("click", () => zoom(0.5));
    $("zoom-out").addEventListener("click", () => zoom(2));
    $("zoom-fit").addEventListener("click", fit);
    $("show-tasks").addEventListener("change", (e) => { showTasks = e.target.checked; buildRows(); drawTimeline(); });
    $("rows-scroll").addEventListener("scroll", drawTimeline);
    window.addEventListener("resize", drawTimeline);
    for (const id of ["rows", "axis"]) {
      const s = $(id);
      s.addEventListener("mousemove", tooltip);
      s.addEventListener("mouseleave", () => { $("tooltip").hidden = true; });
      s.addEventListener("wheel", (e) => {
        const width = $("rows-scroll").clientWidth, rect = s.getBoundingClientRect();
        if (e.ctrlKey || e.metaKey) { e.preventDefault(); zoom(e.deltaY > 0 ? 1.25 : 0.8, timeAt(e.clientX - rect.left, width)); }
        else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) { e.preventDefault(); pan(((e.shiftKey ? e.deltaY : 0) + e.deltaX) / width * (view.t1 - view.t0)); }
      }, { passive: false });
      let drag = null;
      s.addEventListener("mousedown", (e) => { drag = { x: e.clientX, t0: view.t0, moved: false }; });
      window.addEventListener("mousemove", (e) => {
        if (!drag) return;
        const dx = e.clientX - drag.x;
        if (Math.abs(dx) > 3) drag.moved = true;
        if (drag.moved && T) { const width = $("rows-scroll").clientWidth; const span = view.t1 - view.t0; const t0 = Math.max(0, Math.min(T.end - span, drag.t0 - dx / (width - LABEL_W) * span)); view = { t0, t1: t0 + span }; drawTimeline(); }
      });
      s.addEventListener("mouseup", (e) => {
        if (drag && !drag.moved) {
          const rect = s.getBoundingClientRect(), px = e.clientX - rect.left;
          if (!T) { drag = null; return; }
          if (px > LABEL_W) { setTime(timeAt(px, $("rows-scroll").clientWidth)); moved(false); }
          else if (id === "rows") { const r = Math.floor((e.clientY - rect.top + $("rows-scroll").scrollTop) / ROW_H); if (rowList[r]) { selected = rowList[r][0]; setTime(cur); } }
        }
        drag = null;
      });
      window.addEventListener("mouseup", () => { drag = null; });
    }
    $("tree").addEventListener("click", (e) => {
      const row = e.target.closest(".node");
      if (!row) return;
      selected = Number(row.dataset.node);
      renderTree();
      renderDetails();
      revealRow(selected);
    });
    // The filter: a name or #id substring, case aside; Esc clears it.
    const box = $("filter");
    box.addEventListener("input", () => setFilter(box.value));
    box.addEventListener("keydown", (e) => { if (e.key === "Escape") { box.value = ""; setFilter(""); box.blur(); } });
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
      const keys = { ArrowLeft: () => { step(-1); moved(false); }, ArrowRight: () => { step(1); moved(T !== null && cur >= T.end); }, " ": togglePlay,
        Home: () => { setTime(0); moved(false); }, End: toEnd, "+": () => zoom(0.5), "=": () => zoom(0.5), "-": () => zoom(2), "0": fit, "/": () => box.focus() };
      if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
    });
    const picker = $("trace-picker");
    fillPicker(0);
    picker.addEventListener("change", () => { if (hooks.pick) hooks.pick(Number(picker.value)); else load(Number(picker.value)); });
  }
  function toEnd() { setTime(T ? T.end : 0); moved(true); }
  function fit() { if (!T) return; view = { t0: 0, t1: T.end }; drawTimeline(); }
  function setFilter(text) {
    filter = text.trim().toLowerCase();
    if (!T) return;
    buildRows();
    renderTree();
    drawTimeline();
  }
  // The trace picker: one option per trace of meta (its label), `chosen` picked; shown for two or more.
  function fillPicker(chosen) {
    const picker = $("trace-picker");
    picker.textContent = "";
    meta.traces.forEach((t, i) => {
      const o = el("option", null, t.label);
      o.value = String(i);
      picker.appendChild(o);
    });
    picker.value = String(chosen);
    $("trace-picker-box").hidden = meta.traces.length < 2;
  }

  // #trace=N&t=NANOSECONDS&finding=K&node=ID&filter=TEXT: open at a trace, a
  // moment, a finding, a node's details, a filter (the moment goes through the
  // slider, a finding and a node through a click, the filter through the box,
  // as a user's hand does).
  function fromHash() {
    const args = new Map(location.hash.replace(/^#/, "").split("&").filter((p) => p.includes("=")).map((p) => p.split("=")));
    const index = Number(args.get("trace") || 0);
    if (index > 0 && index < meta.traces.length) { $("trace-picker").value = String(index); load(index); }
    if (args.has("t") && T) {
      const slider = $("slider");
      slider.value = String(Math.round(Number(args.get("t")) / T.end * 100000));
      slider.dispatchEvent(new Event("input", { bubbles: true }));
    }
    if (args.has("finding")) {
      const subject = document.querySelector("#findings li.finding[data-finding='" + Number(args.get("finding")) + "'] .subject");
      if (subject) subject.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    }
    if (args.has("node") && T && T.byId.has(Number(args.get("node")))) {
      const row = document.querySelector("#tree .node[data-node='" + T.byId.get(Number(args.get("node"))) + "']");
      if (row) row.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    }
    if (args.has("filter")) {
      const box = $("filter");
      box.value = decodeURIComponent(args.get("filter"));
      box.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }

  wire();
  if (meta.traces.length) load(0);
  else showNothing("This page holds no trace.");
  fromHash();
  document.body.dataset.ready = "yes";
  document.body.dataset.loadMs = String(Math.round(performance.now()));
