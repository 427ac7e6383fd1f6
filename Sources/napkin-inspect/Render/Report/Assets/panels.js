// The report's script, the panels that do not move with the slider: the
// header, the findings (with their rule's help, cloned from the page's
// templates), the chart of live instances per type (only its cursor moves)
// and the stats, all from ready texts of the trace's data.
//
// The report's script is these files, joined in this order inside one
// function (ReportAssets.scriptParts; the page adds the "use strict" and the
// function around them): base.js, tree.js, panels.js, details.js,
// timeline.js, report.js; the live page adds live.js.
  // ---------- header, findings, stats ----------
  function renderHeader() {
    const d = T.data, box = $("trace-summary");
    box.textContent = "";
    box.appendChild(el("span", "facts", d.facts));
    box.appendChild(el("span", "verdict " + d.verdict.tone, d.verdict.text));
    const notes = $("problems");
    notes.textContent = "";
    notes.hidden = d.notes.length === 0;
    for (const note of d.notes) notes.appendChild(el("p", note.tone, note.text));
  }

  function renderFindings() {
    const list = $("findings"), d = T.data;
    list.textContent = "";
    $("findings-count").textContent = d.findings.length ? "(" + d.findings.length + ")" : "";
    if (!d.findings.length) {
      list.appendChild(el("li", "none", d.noFindings));
      return;
    }
    d.findings.forEach((f, i) => {
      const li = el("li", "finding " + f.severity);
      li.dataset.finding = String(i);
      const head = el("div", "finding-head");
      head.appendChild(el("span", "sev", f.severity));
      head.appendChild(el("code", "rule", f.rule));
      // The subject is a link to its node: the click (the item's) selects it and moves to the moment.
      const subject = head.appendChild(el("button", "subject", f.name));
      subject.type = "button";
      subject.title = "Select " + f.name + " and show the moment of this finding";
      const jump = el("button", "jump", "t=" + f.at);
      jump.title = "Show the tree and the timeline at this moment";
      head.appendChild(jump);
      li.appendChild(head);
      li.appendChild(el("p", "message", f.message + (f.seqs.length ? " (seq " + f.seqs.join(", ") + ")" : "")));
      if (f.locations.length) {
        const locs = el("ul", "locations");
        for (const location of f.locations) {
          const item = el("li");
          item.appendChild(el("code", null, location.place));
          item.appendChild(document.createTextNode(" (" + location.role + ")"));
          locs.appendChild(item);
        }
        li.appendChild(locs);
      }
      if (f.tests.length) li.appendChild(el("p", "tests", "During " + f.tests.join(", ")));
      if (f.retainers.length) {
        // What a retainer search in the app found holding it: a path per line, then the tally.
        const held = el("ul", "retainers");
        for (const line of f.retainers) held.appendChild(el("li", null, line));
        li.appendChild(held);
      }
      // The rule's meaning and fix: HTML napkin-inspect wrote once per rule, in a template element.
      const help = document.getElementById("help-" + f.rule);
      if (help) li.appendChild(help.content.cloneNode(true));
      li.addEventListener("click", (e) => { if (!e.target.closest("details")) { showFinding(i); moved(false); } });
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
    const table = $("stats"), kinds = $("kinds"), d = T.data;
    table.textContent = ""; kinds.textContent = "";
    if (!d.stats.length) table.appendChild(el("tr")).appendChild(el("td", "none", d.noStats));
    for (const row of d.stats) {
      const tr = el("tr"); tr.appendChild(el("th", null, row.label)); tr.appendChild(el("td", null, row.value)); table.appendChild(tr);
    }
    if (d.kinds.length) {
      const head = el("tr"); head.appendChild(el("th", null, "event")); head.appendChild(el("th", null, "count")); kinds.appendChild(head);
    }
    for (const row of d.kinds) {
      const tr = el("tr"); tr.appendChild(el("td", null, row.kind)); tr.appendChild(el("td", "num", row.count)); kinds.appendChild(tr);
    }
  }

  // ---------- live instances per type ----------
  // One line per charted population (at most 8, each at most 500 points),
  // the rounds as vertical lines, and a cursor at the slider's moment. The
  // chart is 1000 x 200 units stretched to the panel; its lines keep their width.
  const POPULATION_COLOURS = ["#1c7ed6", "#e8590c", "#2f9e44", "#9c36b5", "#e03131", "#0c8599", "#f08c00", "#495057"];
  function renderPopulations() {
    const d = T.data, chart = $("populations-chart"), legend = $("populations-legend");
    chart.textContent = ""; legend.textContent = "";
    $("populations-panel").hidden = d.populations.length === 0;
    $("populations-text").textContent = d.populationText;
    if (!d.populations.length) return;
    const most = Math.max(1, ...d.populations.map((p) => p.peak));
    const x = (t) => (t / T.end * 1000).toFixed(2), y = (n) => (196 - n / most * 188).toFixed(2);
    for (let k = 0; k < d.rounds.time.length; k++) {
      const line = svg("line", { class: "round", x1: x(d.rounds.time[k]), x2: x(d.rounds.time[k]), y1: 0, y2: 200 });
      line.appendChild(svg("title", {})).textContent = d.rounds.text[k];
      chart.appendChild(line);
    }
    d.populations.forEach((p, i) => {
      const colour = POPULATION_COLOURS[i % POPULATION_COLOURS.length];
      const points = [];
      for (let k = 0; k < p.times.length; k++) points.push(x(p.times[k]) + "," + y(p.counts[k]));
      const line = svg("polyline", { class: "population" + (p.flag ? " flagged" : ""), points: points.join(" "), stroke: colour });
      line.dataset.population = p.name;
      line.appendChild(svg("title", {})).textContent = p.label;
      chart.appendChild(line);
      const item = el("span", p.flag ? "flagged" : null, p.label);
      item.style.setProperty("--c", colour);
      legend.appendChild(item);
    });
    chart.appendChild(svg("line", { id: "populations-cursor", class: "cursor", x1: 0, x2: 0, y1: 0, y2: 200 }));
  }
  function movePopulationCursor() {
    const cursor = $("populations-cursor");
    if (!cursor) return;
    cursor.setAttribute("x1", (cur / T.end * 1000).toFixed(2));
    cursor.setAttribute("x2", (cur / T.end * 1000).toFixed(2));
  }
