/// The strings of the apps' list screen, as data: no locale lookups, the same output everywhere.
package enum DisplayFormat {
    /// `1234567` → `"1,234,567"`; negative numbers keep their sign.
    ///
    /// Written backwards into a stack buffer: a day's answer formats about two hundred of these, and a walk over the
    /// digits as `Character`s (counting them again at every step) was 7 % of an uncached call's instructions (issue
    /// 43).
    package static func thousands(_ value: Int64) -> String {
        // 20 digits, 6 separators, a sign.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 27) { buffer in
            var magnitude = value.magnitude
            var start = buffer.count
            var digits = 0
            repeat {
                if digits > 0, digits % 3 == 0 {
                    start -= 1
                    buffer[start] = UInt8(ascii: ",")
                }
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                digits += 1
            } while magnitude > 0
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
        }
    }

    /// `신작` for a new entry, `▲n` up, `▼n` down, `-` unchanged.
    package static func rankChange(trend: BoxOfficeEntry.Trend, change: Int) -> String {
        switch trend {
        case .new: "신작"
        case .up: "▲\(change)"
        case .down: "▼\(-change)"
        case .same: "-"
        }
    }
}
