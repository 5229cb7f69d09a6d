import BoxOfficeMethods
import BoxOfficeViews
import JSONCore
import JSONRPC

extension CLISession {
    /// `status`: `worker.status`'s result, as data or as a few lines (mode, today's KOBIS quota, the cache, the
    /// store).
    package func status(format: CLIFormat, out: String? = nil) async -> Int32 {
        let display = CLIDisplay(format: format, excel: false, out: out)
        if let refused = refusePost(display, in: "status", writes: "text, json or ndjson") { return refused }
        // One record of nested members: no rows for a spreadsheet (it once printed its JSON under csv).
        if format == .csv {
            return fail(CLIRefusal("status is one record, not rows: --format text, json or ndjson"))
        }
        let status: JSONValue
        do {
            status = try await call(methods.status, NoInput())
        } catch {
            return fail(error)
        }
        guard format == .text else {
            write(JSONSerializer.string(status) + "\n")
            return 0
        }
        let mode = status["mode"]?.stringValue ?? "?"
        var lines = [style.bold("boxoffice-worker \(status["version"]?.stringValue ?? "?")") + " · \(mode)"]
        lines.append("today (Seoul)  \(today)")
        if let quota = status["quota"], !quota.isNull {
            let figure = { (key: String) in quota[key]?.integerValue.map(String.init) ?? "?" }
            lines.append(
                "KOBIS quota    \(figure("used")) of \(figure("limit")) used, \(figure("remaining")) left; resets "
                    + (quota["resetsAt"]?.stringValue ?? "?"))
        } else {
            lines.append("KOBIS quota    none offline (set KOBIS_API_KEY to go live)")
        }
        lines.append("cache          \(status["cache"]?["path"]?.stringValue ?? "none")")
        if let store = status["store"], !store.isNull {
            let state = store["connected"]?.boolValue == true ? "connected" : "not connected"
            lines.append(
                "store          \(store["kind"]?.stringValue ?? "?") \(store["location"]?.stringValue ?? "?") (\(state))"
            )
        }
        writeScreen(lines.joined(separator: "\n") + "\n")
        return 0
    }
}
