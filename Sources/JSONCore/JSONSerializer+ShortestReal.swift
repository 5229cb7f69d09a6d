extension JSONSerializer {
    /// Appends `real` as ``appendReal(_:precision:to:)`` does, from Swift's shortest round-trip digits instead of
    /// `snprintf("%.*g")`, when those digits are provably what `%g` prints; false (nothing appended) otherwise.
    ///
    /// Why: glibc's `%g` formats through multi-precision division (`__printf_fp`), about 0.4 µs a real, and a day's
    /// answer holds thirty of them: 3 % of an uncached call's CPU (issue 43), where `description` takes a tenth.
    ///
    /// When it holds: the real is normal, its shortest digits number `d`, and `d ≤ precision ≤ 15`. Then the
    /// shortest decimal `s` is within half an ulp of the real, less than half a unit in the `precision`-th digit
    /// (DBL_DIG: 15 decimal digits always survive a round trip through a double), so rounding the real to
    /// `precision` digits, as `%g` does, gives `s` back, padded with the zeros `%g` then strips. A precision of 16 or
    /// 17 (some real in the value needs it) prints more digits than the shortest and goes to `snprintf`.
    static func appendShortestReal(
        _ real: Double, _ digits: RealDigits, precision: Int, to bytes: inout [UInt8]
    ) -> Bool {
        guard precision <= 15, let shortest = digits.shortest, shortest.count <= precision else { return false }
        if real < 0 { bytes.append(UInt8(ascii: "-")) }
        shortest.appendG(precision: precision, to: &bytes)
        return true
    }
}

/// What a write needs of a real, from one reading of its `description` (the writer's two passes, the precision and
/// the text, would otherwise each ask for it: `description` is about 400 instructions).
struct RealDigits {
    /// ``JSONValue/significantDigits(_:)``: what the real asks of the one precision every real prints with.
    let significant: Int
    /// Its shortest digits, when the real is normal and within 1e±300 (the reals ``appendShortestReal`` writes).
    fileprivate let shortest: ShortestDigits?

    init(_ real: Double) {
        let magnitude = real.magnitude
        guard real.isFinite, magnitude >= 1e-300, magnitude <= 1e300 else {
            (significant, shortest) = (JSONValue.significantDigits(real), nil)
            return
        }
        var text = magnitude.description
        let digits = text.withUTF8 { ShortestDigits($0) }
        shortest = digits
        significant = digits.map { min(max($0.digitsWritten, 1), 17) } ?? JSONValue.significantDigits(real)
    }
}

/// A positive real's shortest digits, read from its `description` (`12.3`, `0.0001`, `1e-05`, `1.5e+16`): the
/// significant digits as an integer without trailing zeros, how many there are, and the power of ten of the first.
private struct ShortestDigits {
    private var significand: UInt64 = 0
    private(set) var count = 0
    /// The digits the description wrote from the first that is not zero, trailing zeros included ("100.0": 4).
    private(set) var digitsWritten = 0
    /// The power of ten of the first digit: 12.3 has 1, 0.05 has -2.
    private var exponent = 0

    init?(_ text: UnsafeBufferPointer<UInt8>) {
        var beforePoint = 0
        var seenPoint = false
        var leadingZeros = 0
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                let digit = UInt64(byte - UInt8(ascii: "0"))
                if significand == 0, digit == 0 {
                    if seenPoint { leadingZeros += 1 }
                } else {
                    // A description has at most 17 significant digits; a longer text is not one.
                    guard count < 19 else { return nil }
                    significand = significand * 10 + digit
                    count += 1
                    if !seenPoint { beforePoint += 1 }
                }
            } else {
                break
            }
            index += 1
        }
        var statedExponent = 0
        if index < text.count {
            guard text[index] == UInt8(ascii: "e") else { return nil }
            index += 1
            var negative = false
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                negative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < text.count, text.count - index <= 4 else { return nil }
            while index < text.count {
                let byte = text[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                statedExponent = statedExponent * 10 + Int(byte - UInt8(ascii: "0"))
                index += 1
            }
            if negative { statedExponent = -statedExponent }
        }
        guard significand > 0 else { return nil }
        digitsWritten = count
        while significand % 10 == 0 {
            significand /= 10
            count -= 1
        }
        exponent = statedExponent + (beforePoint > 0 ? beforePoint - 1 : -(leadingZeros + 1))
    }

    /// `%.<precision>g` of these digits (trailing zeros stripped, as `%g` does), with Jansson's fix-ups: `.0` after
    /// a whole number, and the exponent without `+` or leading zeros.
    func appendG(precision: Int, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = significand
            for position in stride(from: count - 1, through: 0, by: -1) {
                digits[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            let all = UnsafeBufferPointer(rebasing: digits[..<count])
            if exponent < -4 || exponent >= precision {
                bytes.append(all[0])
                if count > 1 {
                    bytes.append(UInt8(ascii: "."))
                    bytes.append(contentsOf: all[1...])
                }
                bytes.append(UInt8(ascii: "e"))
                if exponent < 0 { bytes.append(UInt8(ascii: "-")) }
                JSONSerializer.appendDecimal(Int64(exponent.magnitude), to: &bytes)
            } else if exponent < 0 {
                bytes.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: ".")])
                for _ in 0..<(-exponent - 1) { bytes.append(UInt8(ascii: "0")) }
                bytes.append(contentsOf: all)
            } else if count > exponent + 1 {
                bytes.append(contentsOf: all[...exponent])
                bytes.append(UInt8(ascii: "."))
                bytes.append(contentsOf: all[(exponent + 1)...])
            } else {
                bytes.append(contentsOf: all)
                for _ in count..<(exponent + 1) { bytes.append(UInt8(ascii: "0")) }
                bytes.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "0")])
            }
        }
    }
}
