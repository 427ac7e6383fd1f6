// NapkinTrace's C-library layer under a second name, for napkin-inspect:
// there its own `Platform` enum hides NapkinTrace's, and `NapkinTrace.Platform`
// names a member of the `NapkinTrace` enum, not the module's type.

import NapkinTrace

/// NapkinTrace's `Platform` (sockets: resolving, listening, accepting), as
/// napkin-inspect's live page server names it.
package typealias SocketPlatform = Platform
