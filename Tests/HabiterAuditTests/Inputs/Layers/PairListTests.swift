@testable import AuditInputs
import Testing

/// `PairList.Pairs.forEachInPlace`, which the scan reads pairs with, against the iterator's
/// decoded pairs: the same names, values and verbatim marks, in the same order.
@Suite struct PairListTests {
    /// The pairs each way, as `[name, value, isVerbatim]`.
    func bothWays(_ list: PairList, in text: [UInt8]) -> (iterated: [[String]], inPlace: [[String]]) {
        text.withUnsafeBytes { value in
            let pairs = list.pairs(in: value)
            let iterated = pairs.map { [String(decoding: $0.name, as: UTF8.self), String(decoding: $0.value, as: UTF8.self), "\($0.isVerbatim)"] }
            var inPlace: [[String]] = []
            pairs.forEachInPlace { name, value, isVerbatim in
                inPlace.append([String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self), "\(isVerbatim)"])
            }
            return (iterated, inPlace)
        }
    }

    @Test func encodedPairsReadInPlaceAsTheIteratorDecodesThem() {
        let text = Array("x?a=1&&b=%41%zz+c&d&=e&f=g=h&%62=%2B&i=".utf8)
        let (iterated, inPlace) = bothWays(PairList(encodedIn: 2..<text.count, separator: UInt8(ascii: "&")), in: text)
        #expect(iterated == [["a", "1", "true"], ["b", "A%zz c", "false"], ["d", "", "false"], ["", "e", "true"], ["f", "g=h", "true"],
                             ["b", "+", "false"], ["i", "", "true"]])
        #expect(inPlace == iterated)
    }

    @Test func randomEncodedListsReadInPlaceAsTheIteratorDecodesThem() {
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("ab=&;%+4Fz".utf8)
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...24, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            for separator in [UInt8(ascii: "&"), UInt8(ascii: ";")] {
                for plusAsSpace in [true, false] {
                    let list = PairList(encodedIn: 0..<text.count, separator: separator, plusAsSpace: plusAsSpace)
                    let (iterated, inPlace) = bothWays(list, in: text)
                    #expect(inPlace == iterated, "\(String(decoding: text, as: UTF8.self)) separator \(separator) plusAsSpace \(plusAsSpace)")
                }
            }
        }
    }

    @Test func decodedPairsReadInPlaceAsGiven() {
        let list = PairList([DecodedPair(name: Array("username".utf8), value: Array("fake-user".utf8)),
                             DecodedPair(name: Array("password".utf8), value: [], isVerbatim: true)])
        let (iterated, inPlace) = bothWays(list, in: [])
        #expect(iterated == [["username", "fake-user", "false"], ["password", "", "true"]])
        #expect(inPlace == iterated)
    }
}
