import Foundation

/// JSON Schema validation for tests, with scripts/validate-json-schema.py (Python `jsonschema`).
public enum SchemaValidator {
    public enum Outcome: Equatable {
        case valid
        case invalid(String)
        /// The check could not run: why, in words a test can print.
        case unavailable(String)
    }

    /// The SARIF 2.1.0 schema in ../shared/schemas, if present.
    public static let sarifSchema = ProcessRunner.repoRoot.deletingLastPathComponent().appendingPathComponent("shared/schemas/sarif-2.1.0.json")

    public static func validate(_ document: String, schema: URL) -> Outcome {
        guard FileManager.default.fileExists(atPath: schema.path) else {
            return .unavailable("the schema \(schema.path) is absent (../shared is third-party data CI provides)")
        }
        guard let python = ProcessRunner.which("python3") else {
            return .unavailable("python3 is needed for schema validation; scripts/test installs what is missing")
        }
        let file = ProcessRunner.temporaryDirectory().appendingPathComponent("document.json")
        do {
            try document.write(to: file, atomically: true, encoding: .utf8)
            let run = try ProcessRunner.run(python, [ProcessRunner.repoRoot.appendingPathComponent("scripts/validate-json-schema.py").path,
                                                     schema.path, file.path])
            if run.status == 3 { return .unavailable("the Python package jsonschema is missing; scripts/test installs it") }
            return run.status == 0 ? .valid : .invalid(run.stderr)
        } catch {
            return .unavailable("cannot run python3: \(error)")
        }
    }
}
