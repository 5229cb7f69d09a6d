import FuzzSupport
import JSONCore
import JSONSchema

/// The libFuzzer target: the input's first line is a schema, the rest an instance. Compiling may refuse the schema (a
/// typed error); validating must never trap, and the boolean fast path must agree with the general evaluator (the
/// one that collects located errors) on every instance.
let fuzzSchema: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { data, size in
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
    guard let schemaDocument = try? JSONParser.parse(Array(bytes[..<newline])) else { return 0 }
    let rest = newline < bytes.endIndex ? Array(bytes[(newline + 1)...]) : Array("null".utf8)
    guard let instance = try? JSONParser.parse(rest) else { return 0 }
    for assertFormats in [false, true] {
        guard let schema = try? JSONSchema(schemaDocument, options: SchemaOptions(assertFormats: assertFormats)) else {
            return 0
        }
        let errors = schema.validate(instance)
        let valid = schema.isValid(instance)
        if errors.isEmpty != valid {
            fatalError("the fast path says \(valid ? "valid" : "invalid"), the evaluator found \(errors.count) errors")
        }
    }
    return 0
}

/// The name libFuzzer's own objects look for; the driver is handed the same function.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzSchema(data, size) }

FuzzDriver.run(fuzzSchema)
