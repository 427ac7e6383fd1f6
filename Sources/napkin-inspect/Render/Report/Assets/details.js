// The report's script, the node details: everything the data holds about the
// selected node (a row of the tree or the timeline, or a finding's subject):
// its kind, creation and deinit, its interactor, each attachment, its active
// spans, tasks and view, and the findings about it with their lines and the
// paths that retain it. Lists stop at MAX_DETAIL_ROWS rows; all of it is text.
//
// The report's script is these files, joined in this order inside one
// function (ReportAssets.scriptParts; the page adds the "use strict" and the
// function around them): base.js, tree.js, panels.js, details.js,
// timeline.js, report.js; the live page adds live.js.
  // ---------- node details ----------
  const MAX_DETAIL_ROWS = 200;
  function renderDetails() {
    const box = $("details");
    box.textContent = "";
    $("details-name").textContent = "";
    if (!T || selected < 0 || selected >= T.count) {
      box.appendChild(el("p", "none", "Select a node (a row of the tree or the timeline, or a finding's subject) to see its life here."));
      return;
    }
    const i = selected, N = T.nodes, A = T.attachments, P = T.active, S = T.shown, R = T.removals, K = T.tasks;
    $("details-name").textContent = name(i);
    const facts = box.appendChild(el("dl", "details-facts"));
    const fact = (term, text) => { facts.appendChild(el("dt", null, term)); facts.appendChild(el("dd", null, text)); };
    fact("kind", N.kind[i] === 1 ? "interactor (no router)" : "router");
    // A line of code by its number in the data's `lines` (absent in reports written before it existed).
    const lineOf = (column, k) => column && column[k] >= 0 && T.data.lines ? T.data.lines[column[k]] : "";
    const created = lineOf(N.createdLine, i);
    fact("created", "t=" + point(N.created[i]) + (N.createdSeq ? " (seq " + N.createdSeq[i] + ")" : "") + (created ? " at " + created : ""));
    if (N.kind[i] === 0) fact("interactor", N.interactor[i] ? "#" + N.interactor[i] : "none");
    fact("deinit", N.deinit[i] < 0 ? "none written: alive at the end" : "t=" + point(N.deinit[i]));
    const now = stateAt(i, cur);
    fact("at t=" + point(cur), now ? WORDS.states[now.state] + (now.view ? ", " + WORDS.views[now.view] : "") : "not alive");

    // One titled list of rows from..to of a table, each row's text from `line`.
    const list = (title, from, to, line) => {
      if (from >= to) return;
      box.appendChild(el("h3", null, title + " (" + (to - from) + ")"));
      const ul = box.appendChild(el("ul", "details-list"));
      for (let k = from; k < Math.min(to, from + MAX_DETAIL_ROWS); k++) ul.appendChild(el("li", null, line(k)));
      if (to - from > MAX_DETAIL_ROWS) ul.appendChild(el("li", "more", (to - from - MAX_DETAIL_ROWS) + " more not shown"));
    };
    list("Attachments", A.from[i], A.from[i + 1], (a) =>
      (A.parent[a] === 0 ? "launched as the root" : "attached to " + nameOfId(A.parent[a])) + ": " + span(A.start[a], A.end[a]) + seqs(A.startSeq[a], A.endSeq[a]) +
      (lineOf(A.line, a) ? ", at " + lineOf(A.line, a) : "") + (lineOf(A.endLine, a) ? ", detached at " + lineOf(A.endLine, a) : ""));
    list("Interactor active", P.from[i], P.from[i + 1], (a) => span(P.start[a], P.end[a]) + seqs(P.startSeq[a], P.endSeq[a]));
    list("Tasks", K.from[i], K.from[i + 1], (k) =>
      (K.label[k] >= 0 ? "'" + T.data.labels[K.label[k]] + "'" : "#" + K.id[k]) + ": " + span(K.start[k], K.end[k]) + ", " +
      (K.end[k] < 0 ? "still running at the end" : OUTCOMES[K.outcome[k]]) + (K.cancel[k] >= 0 ? ", asked to cancel at " + point(K.cancel[k]) : ""));
    list("View shown", S.from[i], S.from[i + 1], (a) => span(S.start[a], S.end[a]));
    list("View removed", R.from[i], R.from[i + 1], (a) => "at " + point(R.time[a]));

    const about = [];
    T.data.findings.forEach((f, k) => { if (T.findingNode[k] === i) about.push(f); });
    if (!about.length) return;
    box.appendChild(el("h3", null, "Findings (" + about.length + ")"));
    const ul = box.appendChild(el("ul", "details-list"));
    for (const f of about) {
      const li = ul.appendChild(el("li", "finding-about " + f.severity));
      li.appendChild(el("p", null, f.severity + " [" + f.rule + "] at t=" + f.at + ": " + f.message));
      if (f.locations.length) {
        const locs = li.appendChild(el("ul", "locations"));
        for (const location of f.locations) locs.appendChild(el("li", null, location.place + " (" + location.role + ")"));
      }
      if (f.retainers.length) {
        const held = li.appendChild(el("ul", "retainers"));
        for (const line of f.retainers) held.appendChild(el("li", null, line));
      }
    }
  }
