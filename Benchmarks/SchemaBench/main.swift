import Foundation
import JSONCore
import JSONSchema

// schema-bench SCHEMA_FILE INSTANCES_FILE [ITERATIONS]
//
// Compiles the schema once (formats asserted, as the worker does), then times validation of each instance in
// INSTANCES_FILE (one JSON value per line): `isValid` (the fast pass every request takes) and, for invalid
// instances, `validate` (the second pass that collects located errors). Prints one JSON line per instance with the
// median ns per validation over 15 batches.

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: schema-bench SCHEMA_FILE INSTANCES_FILE [ITERATIONS]\n".utf8))
    exit(64)
}
let iterations = arguments.count > 3 ? Int(arguments[3]) ?? 200_000 : 200_000
let schema = try JSONSchema(
    try JSONParser.parse([UInt8](Data(contentsOf: URL(filePath: arguments[1])))),
    options: SchemaOptions(assertFormats: true)
)
let instances = try String(contentsOf: URL(filePath: arguments[2]), encoding: .utf8)
    .split(separator: "\n").map { try JSONParser.parse(String($0)) }

/// Median ns per call of `body` over 15 batches of `iterations / 15` calls.
func measure(_ body: () -> Bool) -> Double {
    let batch = max(1, iterations / 15)
    var samples: [Double] = []
    var sink = 0
    for _ in 0..<15 {
        let start = ContinuousClock.now
        for _ in 0..<batch where body() { sink &+= 1 }
        let elapsed = ContinuousClock.now - start
        samples.append(
            Double(elapsed.components.attoseconds) / 1e9 / Double(batch) + Double(elapsed.components.seconds) * 1e9
                / Double(batch))
    }
    if sink == -1 { print(sink) }
    return samples.sorted()[samples.count / 2]
}

for instance in instances {
    let valid = schema.isValid(instance)
    let fast = measure { schema.isValid(instance) }
    var line: JSONObject = [
        "instance": instance, "valid": .bool(valid), "isValidNs": .real((fast * 10).rounded() / 10),
    ]
    if !valid {
        let full = measure { !schema.validate(instance).isEmpty }
        line["validateNs"] = .real((full * 10).rounded() / 10)
        line["errors"] = .int(schema.validate(instance).count)
    }
    print(JSONValue.object(line))
}
