/// A configuration value napkin cannot use: the variable, the value, what is wrong and the fix, in one line.
public struct OTLPConfigurationError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The environment variable (or the bootstrap's argument) at fault.
    public var variable: String
    /// Its value (for a header: the header's name only; its value may be a secret).
    public var value: String
    /// What is wrong with it.
    public var problem: String
    /// What to do.
    public var fix: String

    /// `OTEL_EXPORTER_OTLP_ENDPOINT='htp:/x': not an http or https URL with a host; set it to …`.
    public var description: String { "\(variable)='\(value)': \(problem); \(fix)" }
}
