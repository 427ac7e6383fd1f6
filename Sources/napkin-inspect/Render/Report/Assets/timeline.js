// The report's script, the timeline: one row per node and per task, only the
// rows in view drawn (so 100,000 routers scroll as fast as 100), the axis,
// the marks and findings lanes, zoom and pan; only the nodes that pass the
// filter have rows.
//
// The report's script is these files, joined in this order inside one
// function (ReportAssets.scriptParts; the page adds the "use strict" and the
// function around them): base.js, tree.js, panels.js, details.js,
// timeline.js, report.js; the live page adds live.js.
  // ---------- the timeline ----------
  function buildRows() {
    rowList = [];
    for (let i = 0; i < T.count; i++) {
      if (!matches(i)) continue;
      rowList.push([i, -1]);
      if (showTasks) for (let k = T.tasks.from[i]; k < T.tasks.from[i + 1]; k++) rowList.push([i, k]);
    }
    $("rows-spacer").style.height = (rowList.length * ROW_H) + "px";
  }
  function revealRow(i) {
    const r = rowList.findIndex((x) => x[0] === i && x[1] < 0);
    if (r < 0) return;
    const box = $("rows-scroll");
    const top = r * ROW_H;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - ROW_H) box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    drawTimeline();
  }
  let tips = [];
  function x(t, width) { return LABEL_W + (t - view.t0) / (view.t1 - view.t0) * (width - LABEL_W); }
  function timeAt(px, width) { return view.t0 + (px - LABEL_W) / (width - LABEL_W) * (view.t1 - view.t0); }
  function bar(g, t0, t1, y, h, cls, tip, width) {
    const a = Math.max(LABEL_W, x(t0, width)), b = Math.min(width, x(t1 < 0 ? T.end : t1, width));
    if (b < LABEL_W || a > width) return;
    const r = svg("rect", { x: a.toFixed(1), y, width: Math.max(1, b - a).toFixed(1), height: h, class: cls });
    r.dataset.tip = String(tips.push(tip) - 1);
    g.appendChild(r);
  }
  function tick(g, t, y, h, cls, tip, width) {
    const p = x(t, width);
    if (p < LABEL_W || p > width) return;
    const r = svg("rect", { x: (p - 1.5).toFixed(1), y, width: 3, height: h, class: cls });
    r.dataset.tip = String(tips.push(tip) - 1);
    g.appendChild(r);
  }
  function span(a, b) { return point(a) + " → " + (b < 0 ? "end (still open)" : point(b) + " (" + point(b - a) + ")"); }
  function seqs(start, end) { return " (seq " + start + (end >= 0 ? " → " + end : "") + ")"; }

  // One node's row: its life, attachments, active spans, view and deinit, and its findings.
  function drawNode(g, i, y, width) {
    const N = T.nodes, A = T.attachments, P = T.active, S = T.shown, R = T.removals;
    const created = N.created[i], end = N.deinit[i];
    bar(g, created, end, y + 3, 12, "life", name(i) + " alive " + span(created, end) + (end < 0 ? "" : ", deinit at " + point(end)), width);
    for (let a = A.from[i]; a < A.from[i + 1]; a++) {
      const p = A.parent[a];
      bar(g, A.start[a], A.end[a], y + 3, 12, "attached", name(i) + (p === 0 ? " launched (root)" : " attached to " + nameOfId(p)) + " " + span(A.start[a], A.end[a]) + seqs(A.startSeq[a], A.endSeq[a]), width);
    }
    for (let a = P.from[i]; a < P.from[i + 1]; a++) bar(g, P.start[a], P.end[a], y + 10, 5, "active", name(i) + " interactor active " + span(P.start[a], P.end[a]) + seqs(P.startSeq[a], P.endSeq[a]), width);
    for (let a = S.from[i]; a < S.from[i + 1]; a++) bar(g, S.start[a], S.end[a], y + 3, 3, "shown", name(i) + " view shown " + span(S.start[a], S.end[a]), width);
    for (let a = R.from[i]; a < R.from[i + 1]; a++) tick(g, R.time[a], y + 1, 16, "gone", name(i) + " view removed at " + point(R.time[a]), width);
    if (end >= 0) tick(g, end, y + 2, 14, "deinit", name(i) + " deinit at " + point(end), width);
    T.data.findings.forEach((f, j) => { if (T.findingNode[j] === i) tick(g, f.time, y, ROW_H, "findingTick " + f.severity, f.severity + "[" + f.rule + "] at " + f.at + ": " + f.message, width); });
  }

  // One task's row (k: its row in the tasks table), under node i; returns its label.
  function drawTask(g, i, k, y, width) {
    const K = T.tasks, label = K.label[k];
    const title = "task " + (label >= 0 ? "'" + T.data.labels[label] + "'" : "#" + K.id[k]);
    const outcome = OUTCOMES[K.outcome[k]];
    bar(g, K.start[k], K.end[k], y + 5, 8, "task " + outcome, title + " of " + name(i) + " " + span(K.start[k], K.end[k]) + ", " + (K.end[k] < 0 ? "still running at the end" : outcome), width);
    if (K.cancel[k] >= 0) tick(g, K.cancel[k], y + 3, 12, "cancel", title + " asked to cancel at " + point(K.cancel[k]), width);
    return title;
  }

  function drawTimeline() {
    if (!T) return;
    tips = [];
    const scroll = $("rows-scroll"), rows = $("rows"), axis = $("axis");
    const width = Math.max(LABEL_W + 100, scroll.clientWidth);
    // the axis, the marks lane and the findings lane
    axis.textContent = "";
    axis.setAttribute("width", width); axis.setAttribute("height", AXIS_H);
    const dt = view.t1 - view.t0;
    const raw = dt / Math.max(1, (width - LABEL_W) / 110);
    const pow = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1))));
    const stepNs = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) || 10 * pow;
    for (let t = Math.ceil(view.t0 / stepNs) * stepNs; t <= view.t1; t += stepNs) {
      const p = x(t, width);
      axis.appendChild(svg("line", { x1: p, x2: p, y1: 0, y2: 12, class: "tick" }));
      const label = svg("text", { x: p + 3, y: 11, class: "ticklabel" }); label.textContent = tickLabel(t, stepNs); axis.appendChild(label);
    }
    const lanes = [["marks", 16], ["findings", 31]];
    for (const [title, y] of lanes) { const l = svg("text", { x: 6, y: y + 11, class: "lane" }); l.textContent = title; axis.appendChild(l); }
    let drawn = 0;
    const marks = T.data.marks;
    for (let m = 0; m < marks.time.length; m++) {
      const t = marks.time[m];
      if (t < view.t0 || t > view.t1) continue;
      if (drawn++ > 3000) break;
      tick(axis, t, 16, 13, "markTick", "mark \"" + marks.text[m] + "\" at " + point(t) + " (seq " + marks.seq[m] + ")", width);
    }
    T.data.findings.forEach((f) => {
      tick(axis, f.time, 31, 13, "findingTick " + f.severity, f.severity + "[" + f.rule + "] " + f.name + " at " + f.at + ": " + f.message, width);
    });
    axis.appendChild(svg("line", { x1: x(cur, width), x2: x(cur, width), y1: 0, y2: AXIS_H, class: "cursor" }));

    // the visible rows
    rows.textContent = "";
    const height = scroll.clientHeight;
    rows.setAttribute("width", width); rows.setAttribute("height", height);
    rows.style.top = scroll.scrollTop + "px";
    const first = Math.floor(scroll.scrollTop / ROW_H), last = Math.min(rowList.length, first + Math.ceil(height / ROW_H) + 1);
    for (let r = first; r < last; r++) {
      const [i, k] = rowList[r];
      const y = r * ROW_H - scroll.scrollTop;
      const g = svg("g", {});
      if (i === selected && k < 0) g.appendChild(svg("rect", { x: 0, y, width, height: ROW_H, class: "rowSelected" }));
      const label = svg("text", { x: k < 0 ? 6 : 22, y: y + 13, class: k < 0 ? "rowlabel" : "rowlabel task" });
      if (k < 0) {
        label.textContent = clip(name(i), 34);
        drawNode(g, i, y, width);
      } else {
        label.textContent = clip(drawTask(g, i, k, y, width), 30);
      }
      g.appendChild(label);
      rows.appendChild(g);
    }
    rows.appendChild(svg("line", { x1: x(cur, width), x2: x(cur, width), y1: 0, y2: height, class: "cursor" }));
    $("zoom-label").textContent = point(view.t0) + " – " + point(view.t1);
  }

  function zoom(factor, around) {
    const c = around === undefined ? (view.t0 + view.t1) / 2 : around;
    let span = (view.t1 - view.t0) * factor;
    span = Math.max(1000, Math.min(T.end, span));
    let t0 = c - (c - view.t0) * (span / (view.t1 - view.t0));
    t0 = Math.max(0, Math.min(T.end - span, t0));
    view = { t0, t1: t0 + span };
    drawTimeline();
  }
  function pan(ns) {
    const span = view.t1 - view.t0;
    const t0 = Math.max(0, Math.min(T.end - span, view.t0 + ns));
    view = { t0, t1: t0 + span };
    drawTimeline();
  }
