import NapkinTrace

/// The fixed parts of ``ReportPage``'s HTML: the head, the panels the
/// script fills in, and the end of the body before the data. The live page
/// (``LivePage``) shares them, with its own name, policy and controls.
extension ReportPage {
    /// Which page the parts are for.
    enum Kind {
        /// The HTML report: a file that fetches nothing.
        case report
        /// `napkin-inspect live --web`: a page that reads its server's events.
        case live

        /// The page's name, after `napkin-inspect` in its generator mark, title and heading.
        var name: String {
            switch self {
            case .report: "report"
            case .live: "live"
            }
        }

        /// The Content-Security-Policy: nothing fetched; the live page may connect to its own server.
        var policy: String {
            let base = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"
            switch self {
            case .report: return base
            case .live: return base + "; connect-src 'self'"
            }
        }
    }

    /// The page from `<!DOCTYPE html>` to `</head>`: the generator mark, the
    /// Content-Security-Policy, the title, the style sheet and the error script.
    static func head(title: String, kind: Kind = .report) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="generator" content="napkin-inspect \(kind.name)">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="\(kind.policy)">
        <title>napkin-inspect \(kind.name): \(escaped(title))</title>
        <style>
        \(ReportAssets.styleSheet)</style>
        <script>
        \(ReportAssets.errorScript)</script>
        </head>

        """
    }

    /// The start of the body: the header, the player with the filter, the
    /// tree, findings, node details, timeline, live instances and stats panels
    /// (empty: the script draws them). The live page adds its status banner,
    /// a follow button and the mode (live, or paused at a moment).
    static func panels(kind: Kind = .report) -> String {
        let banner, follow: String
        switch kind {
        case .report:
            (banner, follow) = ("", "")
        case .live:
            banner = #"<div id="live-status" role="status"></div>"# + "\n"
            follow = #"<button id="follow" title="Follow the end again (End)" hidden>follow</button>"# + "\n" + #"<output id="live-mode"></output>"# + "\n"
        }
        return """
        <body>
        <header class="top">
        <h1>napkin-inspect \(kind.name)</h1>
        <label id="trace-picker-box" hidden>\(kind == .live ? "Session" : "Trace") <select id="trace-picker"></select></label>
        <div id="trace-summary"></div>
        \(banner)</header>
        <div id="errors" hidden></div>
        <noscript><p class="panel">This report draws its tree, findings and timeline with JavaScript: allow scripts for this file, or run <code>napkin-inspect check</code> on the trace.</p></noscript>
        <section id="problems" hidden></section>
        <section id="player" class="panel" aria-label="Time travel">
        <button id="first" title="Start of the trace (Home)">|◀</button>
        <button id="prev" title="Previous change (←)">◀</button>
        <button id="play" title="Play / pause (space)">play</button>
        <button id="next" title="Next change (→)">▶</button>
        <button id="last" title="End of the trace (End)">▶|</button>
        \(follow)<input type="range" id="slider" min="0" max="100000" step="1" value="100000" aria-label="Moment of the trace">
        <output id="now"></output>
        <input type="search" id="filter" placeholder="filter: name or #id (/)" aria-label="Show only the nodes whose name or #id holds this text">
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
        <section class="panel" id="details-panel">
        <h2>Node <span id="details-name"></span></h2>
        <div id="details"></div>
        </section>
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
        <section class="panel" id="populations-panel" hidden>
        <h2>Live instances</h2>
        <p id="populations-text" class="caption"></p>
        <svg id="populations-chart" viewBox="0 0 1000 200" preserveAspectRatio="none" role="img" aria-label="Live instances per type over time"></svg>
        <div id="populations-legend" class="legend"></div>
        </section>
        <section class="panel" id="stats-panel">
        <h2>Stats</h2>
        <div class="stats-grid"><table id="stats"></table><table id="kinds"></table></div>
        </section>

        """
    }

    /// The footer, the tooltip, each rule's help and `report-meta`.
    static func footer(title: String, rules: [Finding.Rule], traces: [ReportTrace]) -> String {
        """
        <footer>Made by napkin-inspect \(NapkinInspect.version) from \(escaped(title)). The findings, their meaning and their fix are explained in docs/findings.md.</footer>
        <div id="tooltip" hidden></div>
        \(ReportHelp.templates(rules))<script type="application/json" id="report-meta">\(meta(traces))</script>

        """
    }
}
