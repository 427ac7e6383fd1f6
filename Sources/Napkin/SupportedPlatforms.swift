// Which Apple platforms napkin supports: iOS and macOS (and Linux, headless).
// watchOS, tvOS and visionOS are not: nothing is built or checked for them,
// and on watchOS `canImport(UIKit)` holds while the view-controller API the
// framework reads does not exist. A build for one of them stops here, with
// the reason, instead of at the first missing UIKit symbol (README, Platforms).

#if os(watchOS) || os(tvOS) || os(visionOS)
#error("napkin supports iOS and macOS (and Linux): watchOS, tvOS and visionOS are not supported (README, Platforms)")
#endif
