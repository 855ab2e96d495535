@testable import AuditDetection
import AuditInputs
import Testing

/// A revision of `deviceId` and `sequence` and the tree its id is held in, as the tests write
/// revisions (`parse` takes no sequence below 1; this does).
private struct TestRevision {
    let tree: CapturedJSON
    let revision: Revision

    init(deviceId: String, sequence: Int) {
        tree = CapturedJSON(JSONValue.Node(value: .string(deviceId), offset: 0))
        revision = Revision(deviceIdEntry: tree.view.root, sequence: sequence)
    }

    var deviceId: String { tree.withView { $0.string(revision.deviceIdEntry)! } }
    var sequence: Int { revision.sequence }

    /// `isOperationId` of a string's UTF-8, as the tests write ids.
    func isOperationId(_ id: String) -> Bool {
        var id = id
        return tree.withView { tree in id.withUTF8 { revision.isOperationId($0, in: tree) } }
    }
}

/// `Revision.isOperationId`, compared in place, answers as the interpolated id it replaced.
@Suite struct OperationIdTests {
    @Test func agreesWithTheInterpolatedId() {
        let revisions = [TestRevision(deviceId: "YQhsuc4ETSlS-Ej7nXjad6J0", sequence: 1), TestRevision(deviceId: "d", sequence: 10),
                         TestRevision(deviceId: "a.b_c~d", sequence: 9_007_199_254_740_991), TestRevision(deviceId: "dev", sequence: 0)]
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

/// An operation's kind read from its bytes is the kind its `String` names.
@Suite struct OperationKindTests {
    @Test(arguments: ["create", "patch", "delete", "restore", "Create", "creat", "creates", "c", "", "update", "pat", "deleted", "r", "restor", "Restore"])
    func bytesNameTheKindTheStringNames(_ text: String) {
        var text = text
        let read = text.withUTF8 { OperationChecks.Kind(text: $0) }
        #expect(read == OperationChecks.Kind(rawValue: text))
    }
}
