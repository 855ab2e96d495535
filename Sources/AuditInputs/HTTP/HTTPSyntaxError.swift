/// Why raw HTTP text was rejected: the reason names the part and the kind of problem, never its
/// bytes; the offset is where the part starts.
package struct HTTPSyntaxError: Error, Equatable {
    package var reason: String
    package var offset: Int
}
