import JSONCore

extension String {
    /// Without leading and trailing white space (KOBIS pads some titles and audit numbers). Most strings have
    /// none: their first and last bytes say so without looking at characters.
    var trimmingSpaces: String {
        let isPadding = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = utf8.first, let last = utf8.last, isPadding(first) || isPadding(last) else { return self }
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    var replacingNewlines: String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
