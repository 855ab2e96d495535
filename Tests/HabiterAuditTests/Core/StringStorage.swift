/// Where strings keep their bytes, for tests that check two threads share no string
/// (`String(unsharedCopyOf:)`).
enum StringStorage {
    /// The address of the bytes of `string`'s storage; nil for a string of up to 15 UTF-8 bytes,
    /// which is stored inline and has none.
    static func address(of string: String) -> UnsafeRawPointer? {
        guard string.utf8.count > 15 else { return nil }
        var copy = string  // the same storage
        return copy.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    /// The addresses of the elements of every non-empty array of strings among `value`'s stored
    /// properties (an empty one is the runtime's shared empty array).
    static func arrayAddresses(in value: Any) -> [UnsafeRawPointer] {
        Mirror(reflecting: value).children.compactMap { child in
            guard let strings = child.value as? [String], !strings.isEmpty else { return nil }
            return strings.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
    }

    /// Every string in `value`, in its stored properties, optionals and collections at any depth.
    static func strings(in value: Any) -> [String] {
        if let string = value as? String { return [string] }
        return Mirror(reflecting: value).children.flatMap { strings(in: $0.value) }
    }
}
