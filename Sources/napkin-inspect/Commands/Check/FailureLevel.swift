import NapkinTrace

extension CheckCommand {
    /// `check --fail-on`: which findings fail the check (exit status 1).
    enum FailureLevel: String, ArgumentChoice {
        /// Any finding.
        case warning
        /// Only error-severity findings.
        case error

        /// Whether `finding` fails the check at this level.
        func fails(on finding: Finding) -> Bool {
            switch self {
            case .warning: true
            case .error: finding.severity == .error
            }
        }
    }
}
