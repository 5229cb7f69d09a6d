import BoxOfficeCore
import BoxOfficeViews
import FoundationEssentials
import Glibc
import JSONCore
import SystemPackage

extension CLISession {
    /// Writes `view` in a format to post (``CLIFormat/isPost``) to stdout or to `--out`, through the presenter every
    /// face shares: chat messages, an HTML page with its posters embedded, or a PNG card with them drawn. The exit
    /// code.
    func post(_ view: AnswerView, layout: ListLayout, display: CLIDisplay) async -> Int32 {
        guard let presentation = display.format.presentation(layout: layout) else {
            return fail(CLIRefusal("--format \(display.format.rawValue) is not a format to post"))
        }
        let presented: Presenter.Presented
        do {
            presented = try await methods.presenter.present(view, as: presentation) { say($0) }
        } catch {
            return fail(error)
        }
        switch presented {
        case .messages(_, let messages):
            return emit(Array(chatText(messages).utf8), to: display.out, what: "the messages")
        case .card(let png): return emit(png, to: display.out, what: "a PNG card")
        case .page(let html): return emit(Array(html.utf8), to: display.out, what: "the page")
        }
    }

    /// Chat messages: Markdown as its text; the request bodies of the other formats one JSON object a line, each
    /// ready to post as it is.
    func chatText(_ messages: [ChatMessage]) -> String {
        messages.map { message in
            switch message {
            case .text(let text): text
            case .body(let body): JSONSerializer.string(.object(body)) + "\n"
            }
        }.joined()
    }

    /// Writes `bytes` to the file `path` (whole or not at all: a temporary name renamed; through a symbolic link
    /// to the file it names; a device or a pipe in place), or to stdout. A PNG card is never written to a terminal.
    /// The exit code.
    func emit(_ bytes: [UInt8], to path: String?, what: String) -> Int32 {
        let image = bytes.starts(with: [0x89, 0x50, 0x4E, 0x47])
        let refusal = CLIRefusal(
            "\(what) is an image, not written to a terminal: give --out FILE or redirect stdout")
        guard let path else {
            if image, isatty(STDOUT_FILENO) == 1 { return fail(refusal) }
            output.binary(bytes)
            return 0
        }
        guard !path.isEmpty else { return fail(CLIRefusal("--out needs a path")) }
        // The file a link names is written, not the link replaced by a file.
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var status = stat()
        let exists = stat(target, &status) == 0
        if exists, status.st_mode & S_IFMT == S_IFDIR {
            return fail(CLIRefusal("--out \(path) is a folder: give a file's name"))
        }
        do {
            if exists, status.st_mode & S_IFMT != S_IFREG {
                // A device, a pipe or a terminal (`--out /dev/stdout`) is written in place: renaming a file over
                // it would replace it (`--out /dev/null` once turned /dev/null into a plain file).
                guard let handle = try? FileDescriptor.open(target, .writeOnly, options: .closeOnExec) else {
                    return fail("\(what) could not be written to \(path): it cannot be opened for writing")
                }
                defer { try? handle.close() }
                if image, isatty(handle.rawValue) == 1 { return fail(refusal) }
                try handle.writeAll(bytes)
            } else {
                let folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
                guard FileManager.default.fileExists(atPath: folder) else {
                    return fail("\(what) could not be written to \(path): the folder \(folder) does not exist")
                }
                guard FileManager.default.isWritableFile(atPath: folder) else {
                    return fail("\(what) could not be written to \(path): the folder \(folder) is not writable")
                }
                try AtomicFile.write(bytes, to: target, permissions: [.ownerReadWrite, .groupRead, .otherRead])
            }
            return 0
        } catch {
            return fail("\(what) could not be written to \(path): \(error)")
        }
    }

    /// The refusal of a format to post by a command that writes none (`people`, `company`, `codes`, `poster`,
    /// `status`), or of `--out` with a format that is not one; else nil.
    func refusePost(_ display: CLIDisplay, in command: String, writes: String = "text, json, ndjson or csv") -> Int32? {
        if display.format.isPost {
            return fail(
                CLIRefusal(
                    "--format \(display.format.rawValue) is for daily, weekly, movie and search; \(command) writes \(writes)"
                ))
        }
        return refuseOut(display)
    }

    /// The refusal of `--out` with a format that writes to stdout only (text, json, ndjson, csv), or nil.
    func refuseOut(_ display: CLIDisplay) -> Int32? {
        guard display.out != nil, !display.format.isPost else { return nil }
        return fail(
            CLIRefusal(
                "--out goes with --format html, png or a chat format; \(display.format.rawValue) goes to stdout"))
    }
}
