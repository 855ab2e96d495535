/// Why raw HTTP text or a mitmproxy flow file was rejected: the reason names the part and the
/// kind of problem, never its bytes; the offset is where the part starts.
public struct HTTPSyntaxError: Error, Equatable {
    public var reason: String
    public var offset: Int
    /// A limit was reached, rather than the syntax broken.
    public var isLimit = false
}
