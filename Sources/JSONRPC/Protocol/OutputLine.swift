import JSONCore

/// One line of output: one response, or the array of a batch's responses.
///
/// The words for what goes back, one each: an output line (this) holds ``Response`` objects, a response holds an
/// ``RPCResult`` or an ``RPCError``, and ``RPCReply`` is what a method's one step comes to (a result now, or the
/// work that makes one).
enum OutputLine: Sendable {
    case single(Response)
    case batch([Response])

    /// Appends the answer and its newline.
    func append(to bytes: inout [UInt8]) {
        switch self {
        case .single(let response):
            response.append(to: &bytes)
        case .batch(let responses):
            bytes.append(UInt8(ascii: "["))
            for (index, response) in responses.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                response.append(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    var line: [UInt8] {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return bytes
    }
}
