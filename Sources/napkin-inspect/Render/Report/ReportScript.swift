/// The script of an HTML report: it reads the embedded data (``ReportData``)
/// and draws the tree at the moment the slider picks, the findings, the
/// timeline (only its visible rows, so a trace of 100,000 routers scrolls as
/// fast as a small one) and the stats. Everything it shows from the trace goes
/// through `textContent`, never through HTML.
///
/// It opens at `#trace=N&t=NANOSECONDS&finding=K` when the address says so,
/// setting the slider and sending it an `input` event as a drag does; when it
/// has run, `<body data-ready="yes">`. Kept as one string so that the
/// binary needs no resource files.
enum ReportScript {
    /// The script's text.
    static let text = #"""
        "use strict";
        (function () {
          const LABEL_W = 240, ROW_H = 18, AXIS_H = 46;
          const $ = (id) => document.getElementById(id);
          const meta = JSON.parse($("report-meta").textContent);
          const SVG = "http://www.w3.org/2000/svg";

          // ---------- formatting ----------
          function fmtPoint(ns) {
            if (ns < 0) return "never";
            if (ns >= 1e9) return (ns / 1e9).toFixed(3) + "s";
            if (ns >= 1e6) return (ns / 1e6).toFixed(3) + "ms";
            if (ns >= 1e3) return (ns / 1e3).toFixed(1) + "µs";
            return ns + "ns";
          }
          // An axis label: as short as the step between labels allows.
          function fmtTick(ns, stepNs) {
            const units = ns === 0 ? [1, "s"] : stepNs >= 1e8 ? [1e9, "s"] : stepNs >= 1e5 ? [1e6, "ms"] : stepNs >= 100 ? [1e3, "µs"] : [1, "ns"];
            return String(Number((ns / units[0]).toFixed(6))) + units[1];
          }
          function fmtSpan(ns) {
            if (ns >= 6e10) { const s = Math.floor(ns / 1e9); return Math.floor(s / 60) + "m" + String(s % 60).padStart(2, "0") + "s"; }
            if (ns >= 1e9) return (ns / 1e9).toFixed(1) + "s";
            if (ns >= 1e6) return Math.round(ns / 1e6) + "ms";
            if (ns >= 1e3) return Math.round(ns / 1e3) + "µs";
            return Math.round(ns) + "ns";
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
          // Text from the trace, made visible as the command line shows it: control
          // and bidi characters as \u{202e}, never acted on by the page.
          const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
          function printable(text) {
            return typeof text === "string" ? text.replace(HIDDEN, (c) => "\\u{" + c.charCodeAt(0).toString(16) + "}") : text;
          }
          function clip(text, n) { return text.length > n ? text.slice(0, n - 1) + "…" : text; }
          // Minimal Markdown of docs/findings.md paragraphs: ``` blocks, `code`, **bold**, "- " lists.
          function prose(text, into) {
            const parts = text.split("```");
            parts.forEach((part, i) => {
              if (i % 2 === 1) {
                const body = part.replace(/^[a-z]*\n/, "");
                into.appendChild(el("pre", null, body.replace(/\n$/, "")));
                return;
              }
              for (const para of part.split(/\n\s*\n/)) {
                const lines = para.split("\n").filter((l) => l.trim() !== "");
                if (!lines.length) continue;
                let box = null;
                for (const line of lines) {
                  const item = /^\s*[-*] (.*)$/.exec(line);
                  if (item) {
                    if (!box || box.tagName !== "UL") { box = el("ul"); into.appendChild(box); }
                    const li = el("li"); inline(item[1], li); box.appendChild(li);
                  } else {
                    if (!box || box.tagName !== "P") { box = el("p"); into.appendChild(box); }
                    else box.appendChild(document.createTextNode(" "));
                    inline(line.trim(), box);
                  }
                }
              }
            });
          }
          function inline(text, into) {
            text.split("`").forEach((piece, i) => {
              if (i % 2 === 1) { into.appendChild(el("code", null, piece)); return; }
              piece.split("**").forEach((bit, j) => {
                into.appendChild(j % 2 === 1 ? el("strong", null, bit) : document.createTextNode(bit));
              });
            });
          }

          // ---------- the trace ----------
          let T = null;          // the trace shown
          let cur = 0;           // the moment shown (ns)
          let selected = -1;     // selected node index
          let view = { t0: 0, t1: 1 };
          let showTasks = true;
          let rowList = [];      // timeline rows: [nodeIndex, taskIndex or -1]
          let playing = null;

          function load(index) {
            const data = JSON.parse($("trace-" + index).textContent);
            data.title = printable(data.title);
            data.app = printable(data.app);
            data.types = (data.types || []).map(printable);
            data.labels = (data.labels || []).map(printable);
            for (const m of data.marks || []) m[2] = printable(m[2]);
            for (const f of data.findings) {
              f.name = printable(f.name); f.message = printable(f.message);
              f.tests = f.tests.map(printable); f.locations = f.locations.map(([role, where]) => [role, printable(where)]);
            }
            data.problems = data.problems.map(printable);
            const nodes = data.nodes || [];
            const byId = new Map(), owner = new Map();
            nodes.forEach((n, i) => {
              byId.set(n[0], i);
              if (n[6]) owner.set(n[6], i);
              const tasks = n[11];
              for (let k = 0; k < tasks.length; k += 6) owner.set(tasks[k], i);
            });
            // Which node each finding marks: the router, its interactor, or the task's owner.
            const findingNode = (data.findings || []).map((f) => byId.has(f.id) ? byId.get(f.id) : owner.has(f.id) ? owner.get(f.id) : -1);
            // Every moment something changes, for stepping.
            const times = [0, data.end];
            for (const n of nodes) {
              times.push(n[3]); if (n[5] >= 0) times.push(n[5]);
              for (let k = 0; k < n[7].length; k += 5) { times.push(n[7][k + 1]); if (n[7][k + 2] >= 0) times.push(n[7][k + 2]); }
              for (const arr of [n[8], n[9]]) for (let k = 0; k < arr.length; k += 4) { times.push(arr[k]); if (arr[k + 1] >= 0) times.push(arr[k + 1]); }
              for (const r of n[10]) times.push(r);
              for (let k = 0; k < n[11].length; k += 6) { times.push(n[11][k + 2]); if (n[11][k + 3] >= 0) times.push(n[11][k + 3]); if (n[11][k + 4] >= 0) times.push(n[11][k + 4]); }
            }
            for (const m of data.marks || []) times.push(m[0]);
            for (const f of data.findings || []) times.push(f.time);
            const sorted = Float64Array.from(times).sort();
            let w = 0;
            for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[w - 1]) sorted[w++] = sorted[i];
            T = { index, data, nodes, byId, findingNode, changes: sorted.subarray(0, w), end: Math.max(1, data.end) };
            selected = -1;
            view = { t0: 0, t1: T.end };
            buildRows();
            renderHeader();
            renderFindings();
            renderStats();
            setTime(T.end, false);
          }

          function name(i) { const n = T.nodes[i]; return T.data.types[n[1]] + "#" + n[0]; }
          function nameOfId(id) { return T.byId.has(id) ? name(T.byId.get(id)) : "#" + id; }
          function within(arr, stride, t, s, e) {
            for (let k = 0; k < arr.length; k += stride) if (arr[k + s] <= t && (arr[k + e] < 0 || arr[k + e] > t)) return k;
            return -1;
          }

          /// The state of node i at time t: null when it is not alive then.
          function stateAt(i, t) {
            const n = T.nodes[i];
            if (n[3] > t || (n[5] >= 0 && n[5] <= t)) return null;
            const a = within(n[7], 5, t, 1, 2);
            const parent = a < 0 ? null : n[7][a];
            const active = within(n[8], 4, t, 0, 1) >= 0;
            let viewState = "";
            if (within(n[9], 4, t, 0, 1) >= 0) viewState = "shown";
            else {
              let lastEnd = -1;
              for (let k = 0; k < n[9].length; k += 4) if (n[9][k + 1] >= 0 && n[9][k + 1] <= t) lastEnd = Math.max(lastEnd, n[9][k + 1]);
              let removed = false;
              for (const r of n[10]) if (r <= t && r >= lastEnd) removed = true;
              if (removed) viewState = "gone"; else if (lastEnd >= 0) viewState = "covered";
            }
            let tasks = 0;
            for (let k = 0; k < n[11].length; k += 6) if (n[11][k + 2] <= t && (n[11][k + 4] < 0 || n[11][k + 4] > t)) tasks++;
            let everAttached = false;
            for (let k = 0; k < n[7].length; k += 5) if (n[7][k + 1] <= t) everAttached = true;
            const label = n[2] === 1 ? "interactor" : active ? "active" : parent !== null ? "inactive" : everAttached ? "detached" : "created";
            return { parent, active, view: viewState, tasks, label };
          }

          // ---------- time ----------
          function setTime(t, fromSlider) {
            cur = Math.max(0, Math.min(T.end, t));
            if (!fromSlider) $("slider").value = String(Math.round(cur / T.end * 100000));
            $("now").textContent = "t=" + fmtPoint(cur) + " of " + fmtPoint(T.end);
            renderTree();
            drawTimeline();
            markFindings();
          }
          function changeIndex(t) { // last change at or before t
            const c = T.changes; let lo = 0, hi = c.length - 1;
            while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (c[mid] <= t) lo = mid; else hi = mid - 1; }
            return lo;
          }
          function step(delta) {
            const i = changeIndex(cur);
            const j = delta > 0 ? (T.changes[i] <= cur ? i + 1 : i) : (T.changes[i] < cur ? i : i - 1);
            setTime(T.changes[Math.max(0, Math.min(T.changes.length - 1, j))]);
          }
          function togglePlay() {
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

          // ---------- header, findings, stats ----------
          function renderHeader() {
            const d = T.data, box = $("trace-summary");
            box.textContent = "";
            const facts = [];
            if (d.app !== undefined) facts.push(d.app + " (pid " + d.pid + (d.part > 1 ? ", part " + d.part : "") + ")");
            facts.push(fmtSpan(d.end) + " of trace");
            const routers = T.nodes.filter((n) => n[2] === 0).length, lone = T.nodes.length - routers;
            facts.push(routers.toLocaleString("en-US") + (routers === 1 ? " router" : " routers") + (lone ? ", " + lone.toLocaleString("en-US") + " lone interactor" + (lone === 1 ? "" : "s") : "") + (d.shownNodes < d.totalNodes ? " (sampled)" : ""));
            box.appendChild(el("span", "facts", facts.join(" · ")));
            const errors = d.findings.filter((f) => f.severity === "error").length;
            const verdict = d.problems.length ? ["bad", "trace damaged"] : d.findings.length ? [errors ? "bad" : "warn", d.findings.length + (d.findings.length === 1 ? " finding" : " findings")] : ["good", "no findings"];
            box.appendChild(el("span", "verdict " + verdict[0], verdict[1]));
            const problems = $("problems");
            problems.textContent = "";
            problems.hidden = d.problems.length === 0 && !(d.shownNodes < d.totalNodes) && !d.notKept;
            for (const p of d.problems) problems.appendChild(el("p", "problem", "The trace cannot be trusted: " + p));
            if (d.shownNodes < d.totalNodes) problems.appendChild(el("p", "note", "This report holds " + d.shownNodes + " of the trace's " + d.totalNodes + " node lives: every node a finding names and every node alive at the end, then evenly spaced others."));
            if (d.notKept) problems.appendChild(el("p", "note", d.notKept + " more findings were found than this report lists; run napkin-inspect check for all of them."));
          }

          function renderFindings() {
            const list = $("findings"), d = T.data;
            list.textContent = "";
            $("findings-count").textContent = d.findings.length ? "(" + d.findings.length + ")" : "";
            if (!d.findings.length) {
              list.appendChild(el("li", "none", d.problems.length ? "No findings, but the trace is damaged: see above." : "No findings." + (d.setApart ? " (" + d.setApart + " allowed or known, not shown.)" : "")));
              return;
            }
            d.findings.forEach((f, i) => {
              const li = el("li", "finding " + f.severity);
              li.dataset.finding = String(i);
              const head = el("div", "finding-head");
              head.appendChild(el("span", "sev", f.severity));
              head.appendChild(el("code", "rule", f.rule));
              head.appendChild(el("span", "subject", f.name));
              const jump = el("button", "jump", "t=" + fmtPoint(f.time));
              jump.title = "Show the tree and the timeline at this moment";
              head.appendChild(jump);
              li.appendChild(head);
              li.appendChild(el("p", "message", f.message + (f.seqs.length ? " (seq " + f.seqs.join(", ") + ")" : "")));
              if (f.locations.length) {
                const locs = el("ul", "locations");
                for (const [role, where] of f.locations) {
                  const item = el("li");
                  item.appendChild(el("code", null, where));
                  item.appendChild(document.createTextNode(" (" + role + ")"));
                  locs.appendChild(item);
                }
                li.appendChild(locs);
              }
              if (f.tests.length) li.appendChild(el("p", "tests", "During " + f.tests.join(", ")));
              const help = d.help[f.rule];
              if (help) {
                const more = el("details", "help");
                more.appendChild(el("summary", null, help[0] + ": what it means and how to fix it"));
                more.appendChild(el("h4", null, "What it means"));
                prose(help[1], more);
                if (help[2]) { more.appendChild(el("h4", null, "Fix")); prose(help[2], more); }
                li.appendChild(more);
              }
              li.addEventListener("click", (e) => { if (!e.target.closest("details")) showFinding(i); });
              list.appendChild(li);
            });
          }

          function showFinding(i) {
            const f = T.data.findings[i];
            for (const li of document.querySelectorAll("#findings li.finding")) li.classList.toggle("chosen", li.dataset.finding === String(i));
            selected = T.findingNode[i];
            const span = Math.max((view.t1 - view.t0), T.end / 50);
            const half = Math.min(span, T.end) / 2;
            view.t0 = Math.max(0, f.time - half); view.t1 = Math.min(T.end, view.t0 + 2 * half);
            setTime(f.time);
            revealRow(selected);
          }

          function markFindings() {
            for (const li of document.querySelectorAll("#findings li.finding")) {
              const f = T.data.findings[Number(li.dataset.finding)];
              li.classList.toggle("future", f.time > cur);
            }
          }

          function renderStats() {
            const table = $("stats"), kinds = $("kinds");
            table.textContent = ""; kinds.textContent = "";
            if (!T.data.stats.length) table.appendChild(el("tr")).appendChild(el("td", "none", T.nodes.length ? "This file holds several sessions: napkin-inspect stats counts the file as a whole." : "No stats: the trace could not be read."));
            for (const [label, value] of T.data.stats) {
              const tr = el("tr"); tr.appendChild(el("th", null, label)); tr.appendChild(el("td", null, value)); table.appendChild(tr);
            }
            if (T.data.kinds.length) {
              const head = el("tr"); head.appendChild(el("th", null, "event")); head.appendChild(el("th", null, "count")); kinds.appendChild(head);
            }
            for (const [kind, count] of T.data.kinds) {
              const tr = el("tr"); tr.appendChild(el("td", null, kind)); tr.appendChild(el("td", "num", count)); kinds.appendChild(tr);
            }
          }

          // ---------- the tree ----------
          const MAX_TREE_ROWS = 2000;
          function renderTree() {
            const box = $("tree");
            box.textContent = "";
            $("tree-at").textContent = "at t=" + fmtPoint(cur);
            const states = new Map(), children = new Map(), roots = [], outside = [];
            for (let i = 0; i < T.nodes.length; i++) {
              const s = stateAt(i, cur);
              if (!s) continue;
              states.set(i, s);
            }
            for (const [i, s] of states) {
              if (s.parent === 0) roots.push(i);
              else if (s.parent !== null && T.byId.has(s.parent) && states.has(T.byId.get(s.parent))) {
                const p = T.byId.get(s.parent);
                if (!children.has(p)) children.set(p, []);
                children.get(p).push(i);
              } else outside.push(i);
            }
            const marked = new Map();
            T.data.findings.forEach((f, k) => {
              const i = T.findingNode[k];
              if (i >= 0 && f.time <= cur) { if (!marked.has(i)) marked.set(i, []); if (!marked.get(i).includes(f.rule)) marked.get(i).push(f.rule); }
            });
            let count = 0, hidden = 0;
            const emit = (i, depth) => {
              if (count >= MAX_TREE_ROWS) { hidden++; return; }
              count++;
              const s = states.get(i);
              const row = el("div", "node " + s.label + (marked.has(i) ? " flagged" : "") + (i === selected ? " selected" : ""));
              row.dataset.node = String(i);
              row.style.paddingLeft = (0.4 + Math.min(depth, 30) * 1.2) + "em";
              if (depth > 30) row.appendChild(el("span", "deep", "(depth " + depth + ") "));
              row.appendChild(el("span", "name", name(i)));
              row.appendChild(el("span", "state", s.label));
              if (s.tasks) row.appendChild(el("span", "tasks", s.tasks + (s.tasks === 1 ? " task" : " tasks")));
              if (s.view) row.appendChild(el("span", "view view-" + s.view, "view " + s.view));
              for (const rule of marked.get(i) || []) row.appendChild(el("span", "mark", "! " + rule));
              box.appendChild(row);
            };
            const walk = (start) => { // iterative: a chain of 100,000 routers must not overflow the stack
              const stack = [[start, 0]];
              while (stack.length) {
                const [i, depth] = stack.pop();
                emit(i, depth);
                const kids = children.get(i) || [];
                for (let k = kids.length - 1; k >= 0; k--) stack.push([kids[k], depth + 1]);
              }
            };
            if (!roots.length && !outside.length) box.appendChild(el("p", "empty", cur === 0 ? "Nothing yet at t=0: press play or move the slider." : "No router or interactor alive at this moment."));
            else if (!roots.length) box.appendChild(el("p", "empty", "No router is in the tree at this moment (no root is launched)."));
            roots.forEach(walk);
            if (outside.length) {
              box.appendChild(el("h3", "outside", "Outside the tree, still alive (" + outside.length + ")"));
              outside.forEach((i) => walk(i));
            }
            if (hidden) box.appendChild(el("p", "more", hidden + " more rows not shown"));
          }

          // ---------- the timeline ----------
          function buildRows() {
            rowList = [];
            T.nodes.forEach((n, i) => {
              rowList.push([i, -1]);
              if (showTasks) for (let k = 0; k < n[11].length; k += 6) rowList.push([i, k]);
            });
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
          function span(a, b) { return fmtPoint(a) + " → " + (b < 0 ? "end (still open)" : fmtPoint(b) + " (" + fmtSpan(b - a) + ")"); }

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
              const label = svg("text", { x: p + 3, y: 11, class: "ticklabel" }); label.textContent = fmtTick(t, stepNs); axis.appendChild(label);
            }
            const lanes = [["marks", 16], ["findings", 31]];
            for (const [title, y] of lanes) { const l = svg("text", { x: 6, y: y + 11, class: "lane" }); l.textContent = title; axis.appendChild(l); }
            let drawn = 0;
            for (const m of T.data.marks) {
              if (m[0] < view.t0 || m[0] > view.t1) continue;
              if (drawn++ > 3000) break;
              tick(axis, m[0], 16, 13, "markTick", "mark \"" + m[2] + "\" at " + fmtPoint(m[0]) + " (seq " + m[1] + ")", width);
            }
            T.data.findings.forEach((f, k) => {
              tick(axis, f.time, 31, 13, "findingTick " + f.severity, f.severity + "[" + f.rule + "] " + f.name + " at " + fmtPoint(f.time) + ": " + f.message, width);
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
              const n = T.nodes[i];
              const y = r * ROW_H - scroll.scrollTop;
              const g = svg("g", {});
              if (i === selected && k < 0) g.appendChild(svg("rect", { x: 0, y, width, height: ROW_H, class: "rowSelected" }));
              const label = svg("text", { x: k < 0 ? 6 : 22, y: y + 13, class: k < 0 ? "rowlabel" : "rowlabel task" });
              if (k < 0) {
                label.textContent = clip(name(i), 34);
                const end = n[5];
                bar(g, n[3], end, y + 3, 12, "life", name(i) + " alive " + span(n[3], end) + (end < 0 ? "" : ", deinit at " + fmtPoint(end)), width);
                for (let a = 0; a < n[7].length; a += 5) {
                  const p = n[7][a];
                  bar(g, n[7][a + 1], n[7][a + 2], y + 3, 12, "attached", name(i) + (p === 0 ? " launched (root)" : " attached to " + nameOfId(p)) + " " + span(n[7][a + 1], n[7][a + 2]) + " (seq " + n[7][a + 3] + (n[7][a + 4] >= 0 ? " → " + n[7][a + 4] : "") + ")", width);
                }
                for (let a = 0; a < n[8].length; a += 4) bar(g, n[8][a], n[8][a + 1], y + 10, 5, "active", name(i) + " interactor active " + span(n[8][a], n[8][a + 1]) + " (seq " + n[8][a + 2] + (n[8][a + 3] >= 0 ? " → " + n[8][a + 3] : "") + ")", width);
                for (let a = 0; a < n[9].length; a += 4) bar(g, n[9][a], n[9][a + 1], y + 3, 3, "shown", name(i) + " view shown " + span(n[9][a], n[9][a + 1]), width);
                for (const rm of n[10]) tick(g, rm, y + 1, 16, "gone", name(i) + " view removed at " + fmtPoint(rm), width);
                if (end >= 0) tick(g, end, y + 2, 14, "deinit", name(i) + " deinit at " + fmtPoint(end), width);
                T.data.findings.forEach((f, j) => { if (T.findingNode[j] === i) tick(g, f.time, y, ROW_H, "findingTick " + f.severity, f.severity + "[" + f.rule + "] at " + fmtPoint(f.time) + ": " + f.message, width); });
              } else {
                const t = n[11], labelIx = t[k + 1];
                const title = "task " + (labelIx >= 0 ? "'" + T.data.labels[labelIx] + "'" : "#" + t[k]);
                label.textContent = clip(title, 30);
                const outcome = ["running", "completed", "cancelled"][t[k + 5]];
                bar(g, t[k + 2], t[k + 4], y + 5, 8, "task " + outcome, title + " of " + name(i) + " " + span(t[k + 2], t[k + 4]) + ", " + (t[k + 4] < 0 ? "still running at the end" : outcome), width);
                if (t[k + 3] >= 0) tick(g, t[k + 3], y + 3, 12, "cancel", title + " asked to cancel at " + fmtPoint(t[k + 3]), width);
              }
              g.appendChild(label);
              rows.appendChild(g);
            }
            rows.appendChild(svg("line", { x1: x(cur, width), x2: x(cur, width), y1: 0, y2: height, class: "cursor" }));
            $("zoom-label").textContent = fmtPoint(view.t0) + " – " + fmtPoint(view.t1);
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
            $("slider").addEventListener("input", (e) => setTime(Number(e.target.value) / 100000 * T.end, true));
            $("first").addEventListener("click", () => setTime(0));
            $("last").addEventListener("click", () => setTime(T.end));
            $("prev").addEventListener("click", () => step(-1));
            $("next").addEventListener("click", () => step(1));
            $("play").addEventListener("click", togglePlay);
            $("zoom-in").addEventListener("click", () => zoom(0.5));
            $("zoom-out").addEventListener("click", () => zoom(2));
            $("zoom-fit").addEventListener("click", () => { view = { t0: 0, t1: T.end }; drawTimeline(); });
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
                if (drag.moved) { const width = $("rows-scroll").clientWidth; const span = view.t1 - view.t0; const t0 = Math.max(0, Math.min(T.end - span, drag.t0 - dx / (width - LABEL_W) * span)); view = { t0, t1: t0 + span }; drawTimeline(); }
              });
              s.addEventListener("mouseup", (e) => {
                if (drag && !drag.moved) {
                  const rect = s.getBoundingClientRect(), px = e.clientX - rect.left;
                  if (px > LABEL_W) setTime(timeAt(px, $("rows-scroll").clientWidth));
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
              revealRow(selected);
            });
            document.addEventListener("keydown", (e) => {
              if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
              const keys = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), " ": togglePlay, Home: () => setTime(0), End: () => setTime(T.end), "+": () => zoom(0.5), "=": () => zoom(0.5), "-": () => zoom(2), "0": () => { view = { t0: 0, t1: T.end }; drawTimeline(); } };
              if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
            });
            const picker = $("trace-picker");
            meta.traces.forEach((t, i) => {
              const o = el("option", null, printable(t.title) + (t.findings ? " — " + t.findings + (t.findings === 1 ? " finding" : " findings") : t.problems ? " — damaged" : ""));
              o.value = String(i);
              picker.appendChild(o);
            });
            $("trace-picker-box").hidden = meta.traces.length < 2;
            picker.addEventListener("change", () => load(Number(picker.value)));
          }

          // #trace=N&t=NANOSECONDS&finding=K: open at a trace, a moment, a finding
          // (the moment goes through the slider, as a user's drag does).
          function fromHash() {
            const args = new Map(location.hash.replace(/^#/, "").split("&").filter((p) => p.includes("=")).map((p) => p.split("=")));
            const index = Number(args.get("trace") || 0);
            if (index > 0 && index < meta.traces.length) { $("trace-picker").value = String(index); load(index); }
            if (args.has("t")) {
              const slider = $("slider");
              slider.value = String(Math.round(Number(args.get("t")) / T.end * 100000));
              slider.dispatchEvent(new Event("input", { bubbles: true }));
            }
            if (args.has("finding")) {
              const li = document.querySelector("#findings li.finding[data-finding='" + Number(args.get("finding")) + "']");
              if (li) li.dispatchEvent(new MouseEvent("click", { bubbles: true }));
            }
          }

          wire();
          if (meta.traces.length) load(0);
          fromHash();
          document.body.dataset.ready = "yes";
          document.body.dataset.loadMs = String(Math.round(performance.now()));
        })();
        """#
}
