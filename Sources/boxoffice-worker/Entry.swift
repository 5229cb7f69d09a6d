import ArgumentParser
import BoxOfficeWorker
import Foundation
import Logging

/// The process entry: the worker's own flags in their plain forms (after `mcp` for the MCP face) are read by a
/// table (``WorkerOptions/quickParse(_:)``, no reflection on the start path); anything else (help, version, errors)
/// goes through swift-argument-parser.
@main
enum Entry {
    static func main() async {
        var arguments = CommandLine.arguments.dropFirst()
        var face = WorkerSession.Face.jsonRPC
        if arguments.first == "mcp" {
            face = .mcp
            arguments = arguments.dropFirst()
        }
        guard let options = WorkerOptions.quickParse(arguments) else {
            await BoxOfficeWorkerCommand.main()
            return
        }
        let environment = ProcessInfo.processInfo.environment
        let configuration: WorkerConfiguration
        do {
            configuration = try options.configuration(environment: environment)
            guard let level = WorkerFlags.level(options.logLevel ?? environment["BOXOFFICE_LOG_LEVEL"]) else {
                throw WorkerOptions.Invalid(description: "the log level is not one of \(WorkerFlags.levels)")
            }
            WorkerFlags.bootstrapLogging(level)
        } catch {
            // The same message and exit code as swift-argument-parser gives for the same mistake.
            await BoxOfficeWorkerCommand.main()
            return
        }
        exit(await WorkerSession.serve(face, configuration, logger: Logger(label: "boxoffice-worker")))
    }
}
