import NapkinTrace

/// The page `napkin-inspect live --web` serves: the HTML report's head,
/// panels and style, drawn by the report's own script plus `live.js`
/// (``ReportAssets/liveScript``), which reads the server's events (a hello,
/// the sessions, each session's latest snapshot as a report's `trace-N`
/// object) and follows the newest moment. It holds no trace of its own: an
/// empty `report-meta`, the help of every rule (findings come later), a
/// status banner, a follow button, the filter and the node details; its
/// Content-Security-Policy lets it connect to its own server and nothing else.
enum LivePage {
    /// The marker that starts the live page's head.
    static let generatorMark = #"<meta name="generator" content="napkin-inspect live">"#

    /// The live page, `title` in its `<title>` and footer.
    static func html(title: String) -> String {
        ReportPage.head(title: title, kind: .live)
            + ReportPage.panels(kind: .live)
            + ReportPage.footer(title: title, rules: Finding.Rule.allCases, traces: [])
            + "<script>\n" + ReportAssets.liveScript + "</script>\n</body>\n</html>\n"
    }
}
