import CJansson

extension JSONValue {
    /// Copies a Jansson value into Swift values. The reference is borrowed: the caller keeps ownership.
    init(borrowing json: UnsafeMutablePointer<json_t>) {
        switch cj_typeof(json) {
        case JSON_OBJECT:
            var members: [JSONObject.Member] = []
            members.reserveCapacity(json_object_size(json))
            var iterator = json_object_iter(json)
            while let current = iterator {
                let key = String(
                    decoding: UnsafeRawBufferPointer(
                        start: json_object_iter_key(current), count: json_object_iter_key_len(current)),
                    as: UTF8.self
                )
                members.append(
                    JSONObject.Member(key: key, value: JSONValue(borrowing: json_object_iter_value(current))))
                iterator = json_object_iter_next(json, current)
            }
            self = .object(JSONObject(uniqueMembers: members))
        case JSON_ARRAY:
            let count = json_array_size(json)
            var elements: [JSONValue] = []
            elements.reserveCapacity(count)
            for index in 0..<count {
                elements.append(JSONValue(borrowing: json_array_get(json, index)))
            }
            self = .array(elements)
        case JSON_STRING:
            self = .string(
                String(
                    decoding: UnsafeRawBufferPointer(start: json_string_value(json), count: json_string_length(json)),
                    as: UTF8.self
                ))
        case JSON_INTEGER:
            self = .integer(Int64(json_integer_value(json)))
        case JSON_REAL:
            self = .real(json_real_value(json))
        case JSON_TRUE:
            self = .bool(true)
        case JSON_FALSE:
            self = .bool(false)
        default:
            self = .null
        }
    }

    /// Builds a new Jansson value (a taken reference) for serialization.
    ///
    /// `precision` collects the significant digits the reals need to print exactly as Swift's shortest
    /// round-trip form, so the dump can use the smallest `JSON_REAL_PRECISION` that loses nothing. `length`
    /// collects an estimate of the dumped length, so the dump can usually be written in one pass.
    func makeJansson(precision: inout Int, length: inout Int) -> UnsafeMutablePointer<json_t> {
        length += 8
        switch self {
        case .null:
            return json_null()
        case .bool(let bool):
            return bool ? json_true() : json_false()
        case .integer(let integer):
            length += 12
            return json_integer(json_int_t(integer))
        case .real(let real):
            length += 16
            precision = max(precision, JSONValue.significantDigits(real))
            // Jansson has no NaN or infinity; JSON neither. Such a value is a programming error upstream of here.
            return json_real(real) ?? json_null()
        case .string(let string):
            var string = string
            return string.withUTF8 { utf8 in
                length += utf8.count
                guard let base = utf8.baseAddress, utf8.count > 0 else { return json_string_nocheck("") }
                return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                    json_stringn_nocheck($0, utf8.count)
                }
            }
        case .array(let elements):
            let array = json_array()!
            for element in elements {
                json_array_append_new(array, element.makeJansson(precision: &precision, length: &length))
            }
            return array
        case .object(let object):
            let result = json_object()!
            for member in object {
                var key = member.key
                let value = member.value.makeJansson(precision: &precision, length: &length)
                key.withUTF8 { utf8 in
                    length += utf8.count
                    guard let base = utf8.baseAddress, utf8.count > 0 else {
                        _ = json_object_set_new_nocheck(result, "", value)
                        return
                    }
                    base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                        _ = json_object_setn_new_nocheck(result, $0, utf8.count, value)
                    }
                }
            }
            return result
        }
    }

    /// How many significant decimal digits the shortest round-trip form of `value` has (1…17).
    static func significantDigits(_ value: Double) -> Int {
        guard value.isFinite, value != 0 else { return 1 }
        var digits = 0
        var leadingZeros = true
        for character in value.description.utf8 {
            if character == UInt8(ascii: "e") || character == UInt8(ascii: "E") { break }
            guard character >= UInt8(ascii: "0"), character <= UInt8(ascii: "9") else { continue }
            if leadingZeros, character == UInt8(ascii: "0") { continue }
            leadingZeros = false
            digits += 1
        }
        // "100.0" counts 4 digits where 1 would do; trailing zeros only cost precision we do not print.
        return min(max(digits, 1), 17)
    }
}
