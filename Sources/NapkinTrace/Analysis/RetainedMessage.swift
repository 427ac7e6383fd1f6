import Foundation

/// The end of a finding's sentence about an object still alive: the
/// question ("something retains it (… a retain cycle?)") while nothing says
/// what holds it, and the answer once a retainer search found a path:
/// "retained by a cycle through LoggedInInteractor#5.retainedRouter", or
/// "retained by HostInteractor#12.store". The rules write the question;
/// ``Finding/retainers`` rewrites it.
enum RetainedMessage {
    /// Where the question starts in a rule's message.
    static let question = ": something retains it"
    /// Where an answer starts in a rewritten message.
    static let answer = ": retained by "

    /// `message` with its tail saying what `retainers` found; unchanged when
    /// they hold no path (or the message asks nothing).
    static func rewritten(_ message: String, by retainers: Retainers?) -> String {
        guard let retainers, let path = retainers.paths.first,
              let tail = message.range(of: question, options: .backwards) ?? message.range(of: answer, options: .backwards)
        else { return message }
        return message[..<tail.lowerBound] + answer + holder(in: path)
    }

    /// `a cycle through LoggedInInteractor#5.retainedRouter` for a path
    /// that ends where it starts, else the hop that holds it:
    /// the suspect reference, or the first hop when none is marked.
    static func holder(in path: String) -> String {
        let hops = path.components(separatedBy: Retainers.separator)
        let suspect = hops.first { $0.hasSuffix(Retainers.suspectMarker) }.map { String($0.dropLast(Retainers.suspectMarker.count)) }
        if path.hasSuffix(Retainers.cycleMarker) {
            return "a cycle through " + (suspect ?? hops.dropLast().last ?? hops[0])
        }
        return suspect ?? hops[0]
    }
}
