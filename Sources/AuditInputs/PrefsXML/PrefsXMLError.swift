/// Why a SharedPreferences XML export was rejected. Messages name the kind of problem, never
/// the input's content beyond one structural character: these files hold the secrets we report.
public enum PrefsXMLReason: Equatable, Sendable {
    case binaryXML
    case unsupportedEncoding(String)
    case declaredEncodingNotUTF8
    case noRootElement
    case noElement
    case rootNotMap
    case secondRoot
    case trailingContent
    case unexpectedEnd(PrefsXMLPlace)
    case doctype
    case doctypeInternalSubset
    case entityDeclaration
    case unknownMarkupDeclaration
    case processingInstruction
    case misplacedXMLDeclaration
    case invalidXMLDeclaration
    case undefinedEntity
    case malformedReference
    case invalidCharacterReference
    case invalidUTF8
    case nulByte
    case controlCharacter
    case unexpectedCharacter(String)
    case expectedName
    case expectedEquals
    case expectedQuote
    case lessThanInAttributeValue
    case duplicateAttribute
    case mismatchedEndTag
    case unexpectedEndTag
    case unexpectedText
    case cdataEndInText
    case doubleHyphenInComment
    case unexpectedElement(PrefsXMLPlace)
    case missingAttribute(String)
    case invalidValue(PrefsEntryKind)
    case nestingTooDeep(limit: Int)
    case tooManyAttributes(limit: Int)

    public var message: String {
        switch self {
        case .binaryXML: return "binary XML (ABX) is not supported"
        case .unsupportedEncoding(let name): return "\(name) input is not supported; prefs XML must be UTF-8"
        case .declaredEncodingNotUTF8: return "the XML declaration names an encoding other than UTF-8"
        case .noRootElement: return "no <map> element"
        case .noElement: return "no root element"
        case .rootNotMap: return "the root element is not <map>"
        case .secondRoot: return "a second root element after </map>"
        case .trailingContent: return "unexpected content after </map>"
        case .unexpectedEnd(let place): return "unexpected end of input \(place.description)"
        case .doctype: return "DOCTYPE declarations are not allowed (no DTDs, entity definitions or external entities)"
        case .doctypeInternalSubset: return "a parameter-entity reference in a DOCTYPE is not allowed (a DTD may declare elements, attribute lists and notations; no entity definitions or external entities)"
        case .entityDeclaration: return "ENTITY declarations are not allowed"
        case .unknownMarkupDeclaration: return "unknown markup declaration after '<!'"
        case .processingInstruction: return "processing instructions other than the XML declaration are not allowed"
        case .misplacedXMLDeclaration: return "the XML declaration must come first"
        case .invalidXMLDeclaration: return "malformed XML declaration"
        case .undefinedEntity: return "undefined entity reference (only &lt; &gt; &amp; &quot; &apos; and character references are allowed)"
        case .malformedReference: return "malformed entity or character reference"
        case .invalidCharacterReference: return "character reference to a character XML does not allow (a surrogate, U+FFFE, U+FFFF, beyond U+10FFFF, or a control character not written as Android writes it: &#0; to &#31;)"
        case .invalidUTF8: return "invalid UTF-8"
        case .nulByte: return "NUL byte"
        case .controlCharacter: return "control character not allowed in XML"
        case .unexpectedCharacter(let kind): return "unexpected \(kind) in markup"
        case .expectedName: return "expected an element or attribute name"
        case .expectedEquals: return "expected '=' after an attribute name"
        case .expectedQuote: return "expected a quoted attribute value"
        case .lessThanInAttributeValue: return "'<' in an attribute value"
        case .duplicateAttribute: return "duplicate attribute in a tag"
        case .mismatchedEndTag: return "end tag does not match the open element"
        case .unexpectedEndTag: return "end tag without an open element"
        case .unexpectedText: return "unexpected text (only whitespace may appear here)"
        case .cdataEndInText: return "']]>' in text"
        case .doubleHyphenInComment: return "'--' inside a comment"
        case .unexpectedElement(let place): return "unexpected element \(place.description)"
        case .missingAttribute(let name): return "missing '\(name)' attribute"
        case .invalidValue(let kind): return "invalid \(kind.rawValue) value"
        case .nestingTooDeep(let limit): return "elements nested deeper than the limit of \(limit)"
        case .tooManyAttributes(let limit): return "a tag with more attributes than the limit of \(limit)"
        }
    }
}

/// Where in the document a problem was found, for messages.
public enum PrefsXMLPlace: Equatable, Sendable {
    case tag, comment, cdata, xmlDeclaration, map, stringText, set, valueElement, otherElement

    public var description: String {
        switch self {
        case .tag: return "inside a tag"
        case .comment: return "inside a comment"
        case .cdata: return "inside a CDATA section"
        case .xmlDeclaration: return "inside the XML declaration"
        case .map: return "inside <map> (expected </map>)"
        case .stringText: return "inside a <string> element (which holds only text)"
        case .set: return "inside a <set> element (which holds only <string> members)"
        case .valueElement: return "inside a value element (which holds nothing)"
        case .otherElement: return "inside an element"
        }
    }
}

/// A SharedPreferences XML error at an absolute byte offset of the input.
public struct PrefsXMLError: Error, Equatable, Sendable {
    public var reason: PrefsXMLReason
    public var offset: Int

    public init(_ reason: PrefsXMLReason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }
}
