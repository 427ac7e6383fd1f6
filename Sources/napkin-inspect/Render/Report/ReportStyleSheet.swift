/// The style sheet of an HTML report: system fonts only (nothing is
/// fetched), state colours shared by the tree and the timeline, and a layout
/// that stacks its panels on a narrow window.
enum ReportStyleSheet {
    /// The style sheet's text.
    static let text = #"""
        :root { --bg: #f7f7f5; --panel: #fff; --ink: #1d1f23; --muted: #6b7078; --line: #d9dbe0;
          --active: #2f9e44; --inactive: #8a94a6; --detached: #e8590c; --attached: #4c6ef5; --life: #e3e6ec;
          --shown: #9c36b5; --error: #e03131; --warning: #f08c00; --good: #2f9e44; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; background: var(--bg); color: var(--ink); }
        code, pre, .name, .rule, output { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 12.5px; }
        header.top { display: flex; flex-wrap: wrap; gap: 12px 18px; align-items: center; padding: 10px 18px; background: #20242b; color: #f1f3f5; }
        header.top h1 { font-size: 16px; margin: 0; font-weight: 600; }
        header.top select { max-width: 46em; font: inherit; }
        #trace-summary { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
        .facts { color: #ced4da; }
        .verdict { padding: 2px 10px; border-radius: 10px; font-weight: 600; font-size: 13px; }
        .verdict.good { background: var(--good); } .verdict.bad { background: var(--error); } .verdict.warn { background: var(--warning); color: #111; }
        #errors { background: #fff0f0; color: #a00; padding: 8px 18px; white-space: pre-wrap; }
        #problems { margin: 10px 18px 0; padding: 8px 14px; border-left: 4px solid var(--warning); background: #fff8e6; }
        #problems p { margin: 4px 0; } #problems .problem { color: #a61e4d; font-weight: 600; }
        .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; margin: 12px 18px; padding: 10px 14px; }
        .panel h2 { font-size: 15px; margin: 0 0 8px; }
        #player { display: flex; align-items: center; gap: 6px; position: sticky; top: 0; z-index: 5; }
        #player button, .toolbar button { font: inherit; min-width: 34px; padding: 3px 8px; border: 1px solid var(--line); border-radius: 4px; background: #f1f3f5; cursor: pointer; }
        #player button:hover, .toolbar button:hover { background: #e7f5ff; }
        #slider { flex: 1; }
        #now { min-width: 15em; text-align: right; }
        .columns { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0; }
        .columns .panel { margin-right: 9px; } .columns .panel + .panel { margin-left: 9px; margin-right: 18px; }
        @media (max-width: 900px) { .columns { grid-template-columns: 1fr; } .columns .panel, .columns .panel + .panel { margin: 12px 18px; } }
        #tree { max-height: 460px; overflow: auto; }
        .node { display: flex; gap: 8px; align-items: baseline; padding: 1px 6px; border-radius: 3px; cursor: pointer; white-space: nowrap; border-left: 4px solid transparent; }
        .node:hover { background: #f1f3f5; }
        .node.selected { background: #e7f5ff; outline: 1px solid var(--attached); }
        .node .state { font-size: 12px; color: var(--muted); }
        .node.active { border-left-color: var(--active); } .node.active .state { color: var(--active); }
        .node.inactive { border-left-color: var(--inactive); }
        .node.detached { border-left-color: var(--detached); } .node.detached .state { color: var(--detached); font-weight: 600; }
        .node.created, .node.interactor { border-left-color: #ced4da; }
        .node.flagged .name { color: var(--error); font-weight: 600; }
        .node .mark { color: #fff; background: var(--error); border-radius: 3px; padding: 0 5px; font-size: 12px; }
        .node .tasks, .node .view { font-size: 12px; color: var(--muted); }
        .node .view-gone { color: var(--shown); font-weight: 600; }
        h3.outside { font-size: 13px; color: var(--detached); margin: 10px 0 4px; }
        .legend { display: flex; gap: 12px; font-size: 12px; color: var(--muted); margin-bottom: 6px; flex-wrap: wrap; }
        .legend span::before { content: ""; display: inline-block; width: 10px; height: 10px; margin-right: 4px; border-radius: 2px; vertical-align: -1px; background: var(--c); }
        #findings { list-style: none; margin: 0; padding: 0; max-height: 460px; overflow: auto; }
        #findings li.finding { border: 1px solid var(--line); border-left: 4px solid var(--warning); border-radius: 4px; padding: 6px 10px; margin-bottom: 8px; cursor: pointer; }
        #findings li.finding.error { border-left-color: var(--error); }
        #findings li.finding.chosen { background: #fff5f5; }
        #findings li.finding.future { opacity: 0.55; }
        .finding-head { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
        .sev { text-transform: uppercase; font-size: 11px; font-weight: 700; color: var(--warning); } .error .sev { color: var(--error); }
        .subject { font-weight: 600; }
        .jump { margin-left: auto; font: inherit; font-size: 12px; border: 1px solid var(--line); background: #f8f9fa; border-radius: 3px; cursor: pointer; }
        .message { margin: 4px 0; }
        .locations { margin: 2px 0; padding-left: 18px; font-size: 13px; }
        .help summary { cursor: pointer; color: #1c7ed6; font-size: 13px; }
        .help h4 { margin: 8px 0 2px; font-size: 13px; }
        .help p { margin: 4px 0; }
        .help pre { background: #f8f9fa; border: 1px solid var(--line); padding: 6px 8px; overflow: auto; }
        .none { color: var(--muted); }
        .toolbar { display: flex; gap: 6px; align-items: center; margin-bottom: 6px; flex-wrap: wrap; }
        #zoom-label { color: var(--muted); font-size: 12px; margin-left: 8px; }
        .hint { color: var(--muted); font-size: 12px; margin-left: auto; }
        #timeline { border: 1px solid var(--line); border-radius: 4px; overflow: hidden; user-select: none; }
        #axis { display: block; background: #f8f9fa; border-bottom: 1px solid var(--line); }
        #rows-scroll { position: relative; height: 420px; overflow-y: auto; overflow-x: hidden; }
        #rows { position: absolute; left: 0; }
        .tick { stroke: #adb5bd; } .ticklabel { font-size: 11px; fill: var(--muted); } .lane { font-size: 11px; fill: var(--muted); font-style: italic; }
        .rowlabel { font-size: 12px; fill: var(--ink); font-family: ui-monospace, Menlo, Consolas, monospace; } .rowlabel.task { fill: var(--muted); }
        .rowSelected { fill: #e7f5ff; }
        .life { fill: var(--life); } .attached { fill: var(--attached); opacity: 0.75; } .active { fill: var(--active); } .shown { fill: var(--shown); }
        .gone { fill: var(--shown); } .deinit { fill: #343a40; } .cancel { fill: #495057; }
        .task.completed { fill: #69db7c; } .task.cancelled { fill: #adb5bd; } .task.running { fill: var(--warning); }
        .markTick { fill: #1c7ed6; } .findingTick.error { fill: var(--error); } .findingTick.warning { fill: var(--warning); }
        .cursor { stroke: var(--error); stroke-width: 1.5; stroke-dasharray: 4 3; }
        #tooltip { position: fixed; z-index: 10; max-width: 360px; background: #212529; color: #f8f9fa; padding: 5px 8px; border-radius: 4px; font-size: 12px; pointer-events: none; white-space: pre-wrap; }
        #stats, #kinds { border-collapse: collapse; margin-bottom: 10px; }
        #stats th, #kinds th { text-align: left; padding: 2px 14px 2px 0; vertical-align: top; }
        #stats td, #kinds td { padding: 2px 14px 2px 0; } #kinds td.num { text-align: right; font-variant-numeric: tabular-nums; }
        .stats-grid { display: flex; gap: 30px; flex-wrap: wrap; align-items: flex-start; }
        footer { color: var(--muted); font-size: 12px; margin: 6px 18px 20px; }
        """#
}
