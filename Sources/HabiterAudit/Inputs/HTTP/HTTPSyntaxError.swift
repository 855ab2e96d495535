/// Why raw HTTP text was rejected: the reason names the part and the kind of problem, never its
/// bytes; the offset is where the part starts.
struct HTTPSyntaxError: Error, Equatable {
    var reason: String
    var offset: Int
}
