// The JSON report's render timed inside the process that scanned the file: the render alone,
// into a sink that counts the bytes and drops them, so that neither the output's write nor a
// probe beside the process is timed (bench/serial-phases times the report phase with both).
// The first render reads findings the scan left wherever it made them; the later ones read
// them warm. Compiled and run by bench/report-render; not a test.
import AuditDetection
import AuditReport
import AuditScan
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2, arguments.count <= 3, let renders = arguments.count == 3 ? Int(arguments[2]) : 5, renders >= 2 else {
    print("usage: report-render FILE [RENDERS, at least 2]")
    exit(2)
}
let pack = try RulePack.load()
let result = Scanner(rules: pack).scan(paths: [arguments[1]])
guard result.errors.isEmpty else {
    print("report-render: the scan of \(arguments[1]) reported \(result.errors.count) errors")
    exit(1)
}
let input = ReportInput(result: result, rules: pack.rules, exitCode: 0, failOn: .error)

var times: [Double] = []
var bytes = 0
for _ in 0..<renders {
    bytes = 0
    let start = DispatchTime.now().uptimeNanoseconds
    _ = JSONReport.write(input) { chunk in
        bytes += chunk.count
        return true
    }
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}
let warm = times.dropFirst().sorted()
let median = warm.count % 2 == 1 ? warm[warm.count / 2] : (warm[warm.count / 2 - 1] + warm[warm.count / 2]) / 2
let findings = result.findings.count
print("\(findings) findings, \(bytes) bytes a report")
print(String(format: "first render %.2f ms; later renders, median of %d: %.2f ms (%.0f ns a finding)",
             times[0], warm.count, median, findings > 0 ? median * 1e6 / Double(findings) : 0))
