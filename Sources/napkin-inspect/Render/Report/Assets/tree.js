// The report's script, the tree: the state of every node at the slider's
// moment, worked out from its spans (only the browser knows the moment; the
// words come ready in report-meta), and the tree drawn from them.
//
// The report's script is these files, joined in this order inside one
// function (ReportAssets.scriptParts; the page adds the "use strict" and the
// function around them): base.js, tree.js, panels.js, details.js,
// timeline.js, report.js; the live page adds live.js.
  // The state of node i at time t (keys of meta.words), or null when it is not alive then.
  function stateAt(i, t) {
    const N = T.nodes, A = T.attachments, S = T.shown, R = T.removals, K = T.tasks;
    if (N.created[i] > t || (N.deinit[i] >= 0 && N.deinit[i] <= t)) return null;
    const a = spanAt(A, i, t);
    const parent = a < 0 ? null : A.parent[a];
    const active = spanAt(T.active, i, t) >= 0;
    let view = "";
    if (spanAt(S, i, t) >= 0) view = "shown";
    else {
      let lastEnd = -1;
      for (let k = S.from[i]; k < S.from[i + 1]; k++) if (S.end[k] >= 0 && S.end[k] <= t) lastEnd = Math.max(lastEnd, S.end[k]);
      let removed = false;
      for (let k = R.from[i]; k < R.from[i + 1]; k++) if (R.time[k] <= t && R.time[k] >= lastEnd) removed = true;
      if (removed) view = "gone"; else if (lastEnd >= 0) view = "covered";
    }
    let tasks = 0;
    for (let k = K.from[i]; k < K.from[i + 1]; k++) if (K.start[k] <= t && (K.end[k] < 0 || K.end[k] > t)) tasks++;
    let everAttached = false;
    for (let k = A.from[i]; k < A.from[i + 1]; k++) if (A.start[k] <= t) everAttached = true;
    const state = N.kind[i] === 1 ? "interactor" : active ? "active" : parent !== null ? "inactive" : everAttached ? "detached" : "created";
    return { parent, state, view, tasks };
  }

  // ---------- the tree ----------
  const MAX_TREE_ROWS = 2000;
  function renderTree() {
    const box = $("tree");
    box.textContent = "";
    $("tree-at").textContent = "at t=" + point(cur);
    const states = new Map(), children = new Map(), roots = [], outside = [];
    for (let i = 0; i < T.count; i++) {
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
    // With a filter: the matching nodes and their ancestors, the rows the tree keeps.
    const kept = filter ? new Set() : null;
    if (kept) for (const i of states.keys()) {
      if (!matches(i)) continue;
      for (let k = i; k !== undefined && states.has(k) && !kept.has(k);) {
        kept.add(k);
        const parent = states.get(k).parent;
        k = parent ? T.byId.get(parent) : undefined;
      }
    }
    const marked = new Map();
    T.data.findings.forEach((f, k) => {
      const i = T.findingNode[k];
      if (i >= 0 && f.time <= cur) { if (!marked.has(i)) marked.set(i, []); if (!marked.get(i).includes(f.rule)) marked.get(i).push(f.rule); }
    });
    let count = 0, hidden = 0;
    const emit = (i, depth) => {
      if (kept && !kept.has(i)) return;
      if (count >= MAX_TREE_ROWS) { hidden++; return; }
      count++;
      const s = states.get(i);
      const row = el("div", "node " + s.state + (marked.has(i) ? " flagged" : "") + (i === selected ? " selected" : ""));
      row.dataset.node = String(i);
      row.style.paddingLeft = (0.4 + Math.min(depth, 30) * 1.2) + "em";
      if (depth > 30) row.appendChild(el("span", "deep", "(depth " + depth + ") "));
      row.appendChild(el("span", "name", name(i)));
      row.appendChild(el("span", "state", WORDS.states[s.state]));
      if (s.tasks) row.appendChild(el("span", "tasks", s.tasks + " " + (s.tasks === 1 ? WORDS.task : WORDS.tasks)));
      if (s.view) row.appendChild(el("span", "view view-" + s.view, WORDS.views[s.view]));
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
    if (kept && !kept.size) box.appendChild(el("p", "empty", "No node alive at this moment matches the filter \u201c" + filter + "\u201d."));
    else if (!roots.length && !outside.length) box.appendChild(el("p", "empty", cur === 0 ? "Nothing yet at t=0: press play or move the slider." : "No router or interactor alive at this moment."));
    else if (!roots.length) box.appendChild(el("p", "empty", "No router is in the tree at this moment (no root is launched)."));
    roots.forEach(walk);
    const outsideKept = kept ? outside.filter((i) => kept.has(i)).length : outside.length;
    if (outsideKept) {
      box.appendChild(el("h3", "outside", "Outside the tree, still alive (" + outsideKept + ")"));
      outside.forEach((i) => walk(i));
    }
    if (hidden) box.appendChild(el("p", "more", hidden + " more rows not shown"));
  }
