import NapkinTrace

/// A whole HTML report: one self-contained file (the style sheet and scripts
/// of ``ReportAssets`` inline, SVG drawn by the script; nothing fetched, a
/// Content-Security-Policy that forbids any network use) holding the data of
/// one or more traces (`report-meta`, then one `trace-N` each, as
/// ``ReportSchema`` names their fields) and each rule's help (``ReportHelp``).
///
/// The first `<meta name="generator">` marks a file as a napkin-inspect
/// report: ``ReportFile`` overwrites only such files.
enum ReportPage {
    /// The marker that starts every report's head, and that `-o` looks for
    /// before it overwrites a file.
    static let generatorMark = #"<meta name="generator" content="napkin-inspect report">"#

    /// The report of `traces`, code locations looked up in `sources`.
    static func html(_ traces: [ReportTrace], sources: SourceRoot) -> String {
        let title = traces.count == 1 ? traces[0].title : "\(traces.count) traces"
        // Each rule's help once, for all the findings of every trace that name it.
        var rules: [Finding.Rule] = []
        for trace in traces {
            for finding in trace.findings.prefix(ReportData.maxFindings) where !rules.contains(finding.rule) { rules.append(finding.rule) }
        }

        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            \(generatorMark)
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <title>napkin-inspect report: \(escaped(title))</title>
            <style>
            \(ReportAssets.styleSheet)</style>
            <script>
            \(ReportAssets.errorScript)</script>
            </head>
            <body>
            <header class="top">
            <h1>napkin-inspect report</h1>
            <label id="trace-picker-box" hidden>Trace <select id="trace-picker"></select></label>
            <div id="trace-summary"></div>
            </header>
            <div id="errors" hidden></div>
            <noscript><p class="panel">This report draws its tree, findings and timeline with JavaScript: allow scripts for this file, or run <code>napkin-inspect check</code> on the trace.</p></noscript>
            <section id="problems" hidden></section>
            <section id="player" class="panel" aria-label="Time travel">
            <button id="first" title="Start of the trace (Home)">|◀</button>
            <button id="prev" title="Previous change (←)">◀</button>
            <button id="play" title="Play / pause (space)">play</button>
            <button id="next" title="Next change (→)">▶</button>
            <button id="last" title="End of the trace (End)">▶|</button>
            <input type="range" id="slider" min="0" max="100000" step="1" value="100000" aria-label="Moment of the trace">
            <output id="now"></output>
            </section>
            <div class="columns">
            <section class="panel" id="tree-panel">
            <h2>Tree <span id="tree-at"></span></h2>
            <div id="legend" class="legend"><span style="--c: var(--active)">active</span><span style="--c: var(--inactive)">inactive</span><span style="--c: var(--detached)">detached, still alive</span><span style="--c: var(--error)">finding</span></div>
            <div id="tree"></div>
            </section>
            <section class="panel" id="findings-panel">
            <h2>Findings <span id="findings-count"></span></h2>
            <ol id="findings"></ol>
            </section>
            </div>
            <section class="panel" id="timeline-panel">
            <h2>Timeline</h2>
            <div class="toolbar">
            <button id="zoom-in" title="Zoom in (+, or Ctrl + wheel)">+</button>
            <button id="zoom-out" title="Zoom out (-)">−</button>
            <button id="zoom-fit" title="The whole trace (0)">fit</button>
            <label><input type="checkbox" id="show-tasks" checked> tasks</label>
            <span id="zoom-label"></span>
            <span class="hint">drag or Shift + wheel to pan · Ctrl + wheel to zoom · click to move the moment · hover for details</span>
            </div>
            <div class="legend"><span style="--c: var(--life)">alive</span><span style="--c: var(--attached)">attached</span><span style="--c: var(--active)">interactor active</span><span style="--c: var(--shown)">view shown / removed</span><span style="--c: #69db7c">task completed</span><span style="--c: #adb5bd">task cancelled</span><span style="--c: var(--warning)">task still running</span><span style="--c: #343a40">deinit</span><span style="--c: #1c7ed6">mark</span><span style="--c: var(--error)">finding</span></div>
            <div id="timeline"><svg id="axis"></svg><div id="rows-scroll"><div id="rows-spacer"></div><svg id="rows"></svg></div></div>
            </section>
            <section class="panel" id="stats-panel">
            <h2>Stats</h2>
            <div class="stats-grid"><table id="stats"></table><table id="kinds"></table></div>
            </section>
            <footer>Made by napkin-inspect \(NapkinInspect.version) from \(escaped(title)). The findings, their meaning and their fix are explained in docs/findings.md.</footer>
            <div id="tooltip" hidden></div>
            \(ReportHelp.templates(rules))<script type="application/json" id="report-meta">\(meta(traces))</script>

            """
        for (index, trace) in traces.enumerated() {
            page += "<script type=\"application/json\" id=\"trace-\(index)\">"
            page += ReportData.json(trace, sources: sources)
            page += "</script>\n"
        }
        page += "<script>\n" + ReportAssets.script + "</script>\n</body>\n</html>\n"
        return page
    }

    /// `report-meta`'s JSON (``ReportSchema/Meta``): the version, the tree's words, the traces.
    static func meta(_ traces: [ReportTrace]) -> String {
        typealias Field = ReportSchema.MetaTrace
        var meta = ReportJSON()
        meta.openObject()
        meta.member(ReportSchema.Meta.version, NapkinInspect.version)
        meta.key(ReportSchema.Meta.words)
        ReportWords.write(into: &meta)
        meta.key(ReportSchema.Meta.traces)
        meta.openArray()
        for trace in traces {
            let name = PrintableText.printable(trace.title)
            let findings = trace.findings.count
            meta.openObject()
            meta.member(Field.title, name)
            meta.member(Field.label, name + (findings > 0 ? " — " + NumberFormat.count(findings, "finding")
                                                : trace.problems.isEmpty ? "" : " — damaged"))
            meta.member(Field.findings, findings)
            meta.member(Field.problems, trace.problems.count)
            meta.closeObject()
        }
        meta.closeArray()
        meta.closeObject()
        return meta.text
    }

    /// `text` made printable (``PrintableText``: controls and bidi controls
    /// shown as `\u{202e}`, cut to 300 characters), with `&`, `<`, `>`, `"`
    /// and `'` written as entities (as XML writes them, which HTML reads too),
    /// for HTML text and attribute values.
    static func escaped(_ text: String) -> String {
        CheckJUnitReport.xml(PrintableText.printable(text, limit: 300))
    }
}
