@testable import AuditBytes
import Testing

/// ASCII case folding and letters of single bytes, against the standard library's on every byte.
@Suite struct ASCIICaseTests {
    @Test func foldsAsciiLettersOnlyAsTheStandardLibraryDoes() {
        for value in 0...255 {
            let b = UInt8(value)
            let expectedLower = b < 0x80 ? Array(String(UnicodeScalar(b)).lowercased().utf8)[0] : b
            let expectedUpper = b < 0x80 ? Array(String(UnicodeScalar(b)).uppercased().utf8)[0] : b
            #expect(ASCIICase.lower(b) == expectedLower, "lower of \(b)")
            #expect(ASCIICase.upper(b) == expectedUpper, "upper of \(b)")
        }
    }

    @Test func lettersAndDigitsAreTheStandardLibrarysAsciiOnes() {
        for value in 0...255 {
            let b = UInt8(value)
            let scalar = Unicode.Scalar(b)
            let expected = scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil)
            #expect(ASCIICase.isLetterOrDigit(b) == expected, "byte \(b)")
        }
    }
}
