import JSONCore

/// What one line is answered with: one response, or the array of a batch's responses.
enum Answer: Sendable {
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
