import JSONCore
import ProcessTestSupport
import TestSupport
import Testing

/// stdout purity: every line the worker writes must be one JSON value. Every end-to-end test reads stdout through
/// these accessors, so any stray line fails the test that produced it.
extension WorkerRun {
    /// Every stdout line parsed; records an issue for each line that is not JSON.
    func json(sourceLocation: SourceLocation = #_sourceLocation) -> [JSONValue] {
        lines.compactMap { line in
            guard let value = try? JSONParser.parse(line) else {
                Issue.record("stdout line is not JSON: \(line)", sourceLocation: sourceLocation)
                return nil
            }
            return value
        }
    }
}

extension WorkerProcess {
    /// The stdout lines so far, parsed, with the same check.
    func json(sourceLocation: SourceLocation = #_sourceLocation) -> [JSONValue] {
        WorkerRun(lines: lines, stderr: stderr, status: nil).json(sourceLocation: sourceLocation)
    }
}
