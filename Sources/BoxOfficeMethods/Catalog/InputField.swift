package import BoxOfficeCore
package import JSONCore
package import JSONRPC

/// One param of a method's typed input, written once: its name in the schema, where the input keeps it, how params
/// that passed the schema fill it, and how the input writes it back as params (only what differs from its default,
/// as a client would send it, so a message quoting the params reads the same on every face).
///
/// An input lists its fields (``MethodInput/fields``); decoding and writing back are the list's, and a test holds
/// every list to its method's params schema, name for name, so a param added to one and not the other fails.
package struct InputField<Input>: Sendable {
    package let name: String
    let read: @Sendable (JSONValue, inout Input) throws(RPCError) -> Void
    let write: @Sendable (Input) -> JSONValue?

    /// A field whose reading and writing are its own (a nested or derived member).
    package static func custom(
        _ name: String, read: @escaping @Sendable (JSONValue, inout Input) throws(RPCError) -> Void,
        write: @escaping @Sendable (Input) -> JSONValue?
    ) -> Self {
        Self(name: name, read: read, write: write)
    }

    /// A text the schema requires (the input's blank is empty until read).
    package static func text(_ name: String, _ path: any WritableKeyPath<Input, String> & Sendable) -> Self {
        Self(name: name, read: { value, input in input[keyPath: path] = value.stringValue ?? "" }) { input in
            .string(input[keyPath: path])
        }
    }

    /// An optional text.
    package static func text(_ name: String, _ path: any WritableKeyPath<Input, String?> & Sendable) -> Self {
        Self(name: name, read: { value, input in input[keyPath: path] = value.stringValue }) { input in
            input[keyPath: path].map(JSONValue.string)
        }
    }

    /// A whole number with a default, written only when it differs from it.
    package static func int(_ name: String, _ path: any WritableKeyPath<Input, Int> & Sendable, default: Int) -> Self {
        Self(
            name: name, read: { value, input in input[keyPath: path] = value.numberValue.map { Int($0) } ?? `default` }
        ) {
            input in
            input[keyPath: path] == `default` ? nil : .int(input[keyPath: path])
        }
    }

    /// An optional whole number.
    package static func int(_ name: String, _ path: any WritableKeyPath<Input, Int?> & Sendable) -> Self {
        Self(name: name, read: { value, input in input[keyPath: path] = value.numberValue.map { Int($0) } }) { input in
            input[keyPath: path].map(JSONValue.int)
        }
    }

    /// A flag: false by default, written only when true.
    package static func flag(_ name: String, _ path: any WritableKeyPath<Input, Bool> & Sendable) -> Self {
        Self(name: name, read: { value, input in input[keyPath: path] = value.boolValue == true }) { input in
            input[keyPath: path] ? .bool(true) : nil
        }
    }

    /// A yes, a no or nothing.
    package static func choice(_ name: String, _ path: any WritableKeyPath<Input, Bool?> & Sendable) -> Self {
        Self(name: name, read: { value, input in input[keyPath: path] = value.boolValue }) { input in
            input[keyPath: path].map(JSONValue.bool)
        }
    }

    /// One of a set of words (the schema's enum).
    package static func word<Word: RawRepresentable<String> & SendableMetatype>(
        _ name: String, _ path: any WritableKeyPath<Input, Word?> & Sendable
    ) -> Self {
        Self(name: name, read: { value, input in input[keyPath: path] = value.stringValue.flatMap(Word.init) }) {
            input in
            input[keyPath: path].map { .string($0.rawValue) }
        }
    }

    /// A day (its format is checked by the schema; a day that does not exist is refused here).
    package static func date(_ name: String, _ path: any WritableKeyPath<Input, CalendarDate?> & Sendable) -> Self {
        Self(
            name: name,
            read: { (value, input) throws(RPCError) in
                guard let text = value.stringValue else { return }
                guard let date = CalendarDate(text) else {
                    throw RPCError.invalidParams(at: JSONPointer(tokens: [name]), "\"\(text)\" is not a date")
                }
                input[keyPath: path] = date
            }
        ) { input in input[keyPath: path].map { .string($0.description) } }
    }
}

extension MethodInput {
    /// Decodes params that passed the method's schema, field by field.
    package init(params: JSONObject) throws(RPCError) {
        self = Self.blank
        for field in Self.fields {
            if let value = params[field.name] { try field.read(value, &self) }
        }
    }

    /// The params this input stands for, as the schema checks them: each field that differs from its default.
    package var params: JSONObject {
        var params: JSONObject = [:]
        for field in Self.fields {
            if let value = field.write(self) { params[field.name] = value }
        }
        return params
    }
}
