import AuditCore
import AuditInputs

/// Scans request captures: HAR files entry by entry, raw HTTP messages exchange by exchange,
/// mitmproxy's flow files flow by flow.
enum CaptureInputScanner {
    /// A HAR 1.2 capture, read as JSON with `HARScanVisitor`; `closesJSONP`: it is wrapped in a
    /// JSONP call, and `start` is where its value begins.
    static func scanHAR(_ scan: ArtifactScan, start: Int, closesJSONP: Bool = false) {
        var reader = JSONReader(window: scan.window, start: start, maxDepth: scan.options.maxDepth)
        var visitor = HARScanVisitor(scan: scan)
        do {
            if closesJSONP {
                try reader.readValue(&visitor)
                try reader.skipJSONPClosing()
                if !reader.atEnd { throw JSONSyntaxError(.trailingContent, at: reader.position) }
            } else {
                try reader.readText(&visitor)
            }
        } catch let error as JSONSyntaxError {
            scan.unpinWindow()
            if scan.window.failure == nil {
                let kind: InputError.Kind = if case .nestingTooDeep = error.reason { .limit } else { .parse }
                scan.fail(kind, at: error.offset, error.reason.message)
            }
        } catch let limit as DocumentLimit {
            scan.fail(.limit, at: limit.offset, limit.message)
        } catch {
            scan.fail(.parse, at: nil, "cannot read the HAR capture: \(error)")
        }
        scan.finishDocument(defaultContext: .payload)
    }

    /// Raw HTTP/1.x messages, exchange by exchange: each exchange is one document.
    static func scanHTTP(_ scan: ArtifactScan, start: Int) {
        var reader = HTTPMessageReader(window: scan.window, start: start)
        scanExchanges(&reader, scan, start: start, unit: "HTTP message")
    }

    /// mitmproxy's flow files, flow by flow: each flow is one document. Positions are byte
    /// offsets, as in any binary input: the lengths and bodies between a flow's texts are no lines.
    static func scanMitmproxy(_ scan: ArtifactScan, start: Int) {
        scan.window.isBinary = true
        var reader = MitmproxyFlowReader(window: scan.window, start: start, maxDepth: scan.options.maxDepth)
        scanExchanges(&reader, scan, start: start, unit: "mitmproxy flow")
    }

    /// Every exchange `reader` reads, each judged by `ExchangeScanner` as one document; `unit`
    /// names what an empty input lacks.
    private static func scanExchanges<Reader: ExchangeReader>(_ reader: inout Reader, _ scan: ArtifactScan, start: Int, unit: String) {
        var exchanges = ExchangeScanner(scan: scan)
        var count = 0
        while true {
            do {
                guard try reader.nextExchange(&exchanges) else {
                    if count == 0 { scan.fail(.parse, at: start, "empty input: no \(unit)") }
                    return
                }
                count += 1
                scan.finishDocument(defaultContext: .payload, isRequest: true)
                scan.unpinWindow()
                if let truncation = reader.truncation {
                    if scan.window.failure == nil { scan.fail(.parse, at: truncation.offset, truncation.reason) }
                    return
                }
            } catch {
                scan.unpinWindow()
                switch error {
                case let syntax as HTTPSyntaxError:
                    if scan.window.failure == nil { scan.fail(syntax.isLimit ? .limit : .parse, at: syntax.offset, syntax.reason) }
                case let limit as DocumentLimit:
                    scan.fail(.limit, at: limit.offset, limit.message)
                default:
                    scan.fail(.parse, at: nil, "cannot read the \(unit)s: \(error)")
                }
                scan.finishDocument(defaultContext: .payload)
                return
            }
        }
    }
}

extension ArtifactScan {
    /// An HTTP message held in a string (`HTTPLayerDecoder`), read as a raw HTTP input is,
    /// exchange by exchange, each part reported at the string and under its layer.
    func scanHTTPLayer(_ value: UnsafeRawBufferPointer, frame: LayerFrame) -> Bool {
        scanHTTPLayer(value, frame: frame, pieces: [(0, frame.outerOffset ?? 0)])
    }

    /// HTTP messages held in strings, `value`, read as a raw HTTP input is, each part reported
    /// under `frame`'s path and at the string its bytes came from (`pieces`: where each string's
    /// bytes start in `value`, and where the string stands). Messages the reader refuses (a
    /// framing number that is none, a body cut before its `Content-Length`) are an input error
    /// at the first string, and false: what they recorded is forgotten, and the caller scans
    /// the strings as text. Their start line said they are HTTP: they are not passed as text
    /// alone without a word.
    func scanHTTPLayer(_ value: UnsafeRawBufferPointer, frame: LayerFrame, pieces: [(start: Int, outerOffset: Int)]) -> Bool {
        let mark = (hits: hitMark, errors: errorCount)
        let window = ByteWindow(whole: value)
        var reader = HTTPMessageReader(window: window, start: window.start)
        var exchanges = ExchangeScanner(scan: self, layer: ExchangeScanner.Placement(window: window, frame: frame, pieces: pieces))
        do {
            while try reader.nextExchange(&exchanges) {
                window.unpin()
                if let truncation = reader.truncation { throw truncation }
            }
            return true
        } catch {
            return layerReadFailed(error, frame: frame, since: mark) { error in
                guard let syntax = error as? HTTPSyntaxError else { return nil }
                return (syntax.isLimit ? .limit : .parse,
                        "an HTTP message in a string cannot be read (\(syntax.reason)): it is only scanned as text, its headers not judged by name")
            }
        }
    }
}
