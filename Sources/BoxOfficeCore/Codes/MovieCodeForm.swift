/// What a KOBIS movie code looks like: eight digits (`20124079`), or the year, a letter and three digits
/// (`2023C625`) for the codes KOBIS gives some recent films.
package enum MovieCodeForm {
    package static func matches(_ text: String) -> Bool {
        let characters = Array(text.utf8)
        guard characters.count == 8 else { return false }
        let digit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        let letter = { (byte: UInt8) in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        }
        return characters.enumerated().allSatisfy { index, byte in
            index == 4 ? digit(byte) || letter(byte) : digit(byte)
        }
    }
}
