/// What an Order needs to be called back when its dish is ready: the
/// app-wide registry of deep links (`--bug closure-keeps-order` keeps a
/// closure there that captures the Order router).
protocol OrderReadyDependency {
    var deepLinks: DeepLinkRegistry { get }
}

extension OrderComponent {
    var deepLinks: DeepLinkRegistry { dependency.deepLinks }
}
