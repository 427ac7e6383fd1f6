/// The files an HTML report inlines, as their text: the style sheet, the
/// error catcher and the parts of the script, all in `Render/Report/Assets/`.
/// `Package.swift` embeds them in the binary at build time (`.embedInCode`,
/// which makes the `PackageResources` byte arrays), so napkin-inspect stays
/// one file that needs no resource bundle, and a report stays one page.
///
/// None of them may hold `</script`, `</style` or `<!--`, which would end
/// or confuse the element the page puts them in; a test checks.
enum ReportAssets {
    /// `report.css`: the style sheet.
    static let styleSheet = text(PackageResources.report_css)
    /// `errors.js`: the first script, in the head, that shows any error of the report's script on the page.
    static let errorScript = text(PackageResources.errors_js)
    /// The parts of the report's script, by file name, in the order the page joins them
    /// (``script``): the base, the tree, the panels, the node details, the timeline, then the part that starts it all.
    static let scriptParts: [(file: String, text: String)] = [
        ("base.js", text(PackageResources.base_js)),
        ("tree.js", text(PackageResources.tree_js)),
        ("panels.js", text(PackageResources.panels_js)),
        ("details.js", text(PackageResources.details_js)),
        ("timeline.js", text(PackageResources.timeline_js)),
        ("report.js", text(PackageResources.report_js)),
    ]
    /// `live.js`: the live page's part, run after the report's parts (``liveScript``).
    static let livePart = text(PackageResources.live_js)
    /// The report's script: its parts, one after the other, inside one
    /// strict function, so that they share their declarations and leave the
    /// page's global scope alone.
    static let script = wrapped(scriptParts.map(\.text).joined())
    /// The live page's script (``LivePage``): the report's parts, then
    /// ``livePart``, inside the same kind of function as ``script``.
    static let liveScript = wrapped(scriptParts.map(\.text).joined() + livePart)

    /// `parts` inside one strict function.
    private static func wrapped(_ parts: String) -> String {
        "\"use strict\";\n(function () {\n" + parts + "})();\n"
    }

    /// The UTF-8 text of an embedded file.
    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
