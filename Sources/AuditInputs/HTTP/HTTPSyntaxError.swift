/// Why raw HTTP text was rejected: the reason names the part and the kind of problem, never its
/// bytes; the offset is where the part starts.
public struct HTTPSyntaxError: Error, Equatable {
    public var reason: String
    public var offset: Int
}
