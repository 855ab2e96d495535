@testable import AuditDetection
import AuditInputs
import Testing

extension Revision {
    /// A revision of `deviceId` and `sequence`, the id held in a tree of its own, as the tests
    /// write revisions (`parse` takes no sequence below 1; this does).
    init(deviceId: String, sequence: Int) {
        let tree = CapturedJSON(JSONValue.Node(value: .string(deviceId), offset: 0))
        self.init(tree: tree, deviceIdEntry: tree.root, sequence: sequence)
    }

    var deviceId: String { tree.string(deviceIdEntry)! }

    /// `isOperationId` of a string's UTF-8, as the tests write ids.
    func isOperationId(_ id: String) -> Bool {
        var id = id
        return id.withUTF8(isOperationId)
    }
}

/// `Revision.isOperationId`, compared in place, answers as the interpolated id it replaced.
@Suite struct OperationIdTests {
    @Test func agreesWithTheInterpolatedId() {
        let revisions = [Revision(deviceId: "YQhsuc4ETSlS-Ej7nXjad6J0", sequence: 1), Revision(deviceId: "d", sequence: 10),
                         Revision(deviceId: "a.b_c~d", sequence: 9_007_199_254_740_991), Revision(deviceId: "dev", sequence: 0)]
        for r in revisions {
            let expected = "operation/\(r.deviceId)/\(r.sequence)"
            let candidates = [expected, expected + "0", "operation/\(r.deviceId)/0\(r.sequence)", "operation/\(r.deviceId)/",
                              "operation/\(r.deviceId)x/\(r.sequence)", "operation/\(r.deviceId)\(r.sequence)", "Operation/\(r.deviceId)/\(r.sequence)",
                              "operation//\(r.sequence)", "operation/\(r.deviceId)/\(r.sequence + 1)", "operation/\(r.deviceId)/-\(r.sequence)",
                              "operation/\(r.deviceId)/ \(r.sequence)", String(expected.dropLast()), "", "operation/"]
            for id in candidates {
                #expect(r.isOperationId(id) == (id == expected), "\(id) for \(r.deviceId) and \(r.sequence)")
            }
        }
    }
}
