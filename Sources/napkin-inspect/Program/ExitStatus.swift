/// The exit statuses `napkin-inspect` documents.
enum ExitStatus {
    /// Success, or no findings.
    static let success: Int32 = 0
    /// `check` found something.
    static let findings: Int32 = 1
    /// A usage error, or unusable input.
    static let unusable: Int32 = 2
    /// `export --endpoint`: the collector did not take every request.
    static let undelivered: Int32 = 3
}
