import JSONCore
import JSONSchema
import Testing

/// Hand-written cases for what the worker relies on: located errors and readable messages.
@Suite("JSONSchema: compiled schemas, located errors")
struct JSONSchemaTests {
    static let params = try! JSONSchema([
        "type": "object",
        "properties": [
            "date": ["type": "string", "minLength": 10, "maxLength": 10],
            "limit": ["type": "integer", "minimum": 1, "maximum": 10],
            "nation": ["enum": ["korean", "foreign"]],
            "include": ["type": "array", "items": ["enum": ["detail", "poster"]], "maxItems": 2],
            "rate": ["type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 100],
            "kind": ["const": "daily"],
        ],
        "required": ["date"],
        "additionalProperties": false,
    ])

    func locations(_ instance: JSONValue) -> [String] {
        Self.params.validate(instance).map { "\($0.instanceLocation) \($0.keywordLocation)" }
    }

    @Test("a valid instance has no errors")
    func valid() {
        #expect(
            Self.params.validate([
                "date": "2022-01-05", "limit": 10, "nation": "korean", "include": ["detail"], "rate": 40.2,
                "kind": "daily",
            ]).isEmpty)
    }

    @Test("each keyword reports its instance and keyword location")
    func located() {
        #expect(locations(["limit": 3]) == [" /required"])
        #expect(locations(["date": "2022-01-05", "limit": 0]) == ["/limit /properties/limit/minimum"])
        #expect(locations(["date": "2022-01-05", "limit": 11]) == ["/limit /properties/limit/maximum"])
        #expect(locations(["date": "2022-01-05", "limit": 1.5]) == ["/limit /properties/limit/type"])
        #expect(locations(["date": "2022-1-5"]) == ["/date /properties/date/minLength"])
        #expect(locations(["date": "2022-01-05", "nation": "other"]) == ["/nation /properties/nation/enum"])
        #expect(
            locations(["date": "2022-01-05", "include": ["detail", "trailer"]]) == [
                "/include/1 /properties/include/items/enum"
            ])
        #expect(
            locations(["date": "2022-01-05", "include": ["detail", "poster", "detail"]]) == [
                "/include /properties/include/maxItems"
            ])
        #expect(locations(["date": "2022-01-05", "rate": 0]) == ["/rate /properties/rate/exclusiveMinimum"])
        #expect(locations(["date": "2022-01-05", "kind": "weekly"]) == ["/kind /properties/kind/const"])
        #expect(locations(["date": "2022-01-05", "extra": 1]) == ["/extra /additionalProperties"])
        #expect(locations("x") == [" /type"])
    }

    @Test("integers and reals compare by value; 1.0 is an integer")
    func numericEquality() throws {
        let schema = try JSONSchema(["enum": [1, "a"], "type": "integer"])
        #expect(schema.isValid(1.0))
        #expect(!schema.isValid(1.5))
        #expect(try JSONSchema(["const": ["a": 1.0]]).isValid(["a": 1]))
    }

    @Test("string length counts code points, not bytes")
    func codePoints() throws {
        let schema = try JSONSchema(["maxLength": 4])
        #expect(schema.isValid("경관의피"))  // 4 code points, 12 UTF-8 bytes
        #expect(!schema.isValid("경관의 피"))  // 5 code points
    }

    @Test("boolean schemas")
    func booleans() throws {
        #expect(try JSONSchema(true).isValid(["anything": [1]]))
        #expect(!(try JSONSchema(false).isValid(nil)))
    }

    @Test("malformed keywords and other drafts are compile errors, never silently misread")
    func compileErrors() {
        #expect(throws: SchemaCompilationError.self) { try JSONSchema(["minimum": "one"]) }
        #expect(throws: SchemaCompilationError.self) { try JSONSchema(3) }
        #expect(throws: SchemaCompilationError.self) { try JSONSchema(["pattern": "(unclosed"]) }
        #expect(throws: SchemaCompilationError.self) { try JSONSchema(["$ref": "https://example.com/elsewhere.json"]) }
        do {
            _ = try JSONSchema(["$schema": "http://json-schema.org/draft-07/schema#", "type": "string"])
            Issue.record("a draft-07 schema compiled")
        } catch {
            #expect(error.message.contains("draft 7"))
        }
    }

    @Test("a large properties table (hashed) matches names by code points")
    func largeTable() throws {
        var properties = JSONObject()
        for index in 0..<40 { properties["p\(index)"] = ["type": "integer"] }
        properties["é"] = ["type": "string"]
        let schema = try JSONSchema(["properties": .object(properties), "additionalProperties": false])
        #expect(schema.isValid(["p7": 1, "p39": 2, "é": "x"]))
        #expect(!schema.isValid(["p7": "x"]))
        #expect(!schema.isValid(["e\u{301}": "x"]), "a canonically equivalent but different name is another property")
        #expect(!schema.isValid(["p40": 1]))
        // validate() walks the general evaluator, which uses the hashed table.
        #expect(schema.validate(["e\u{301}": "x"]).map(\.instanceLocation.description) == ["/e\u{301}"])
        #expect(schema.validate(["p7": 1, "é": "x"]).isEmpty)
    }

    @Test("unknown keywords are annotations")
    func unknownKeyword() throws {
        #expect(try JSONSchema(["x-custom": 1, "type": "integer"]).isValid(3))
    }

    @Test("format is an annotation unless asserted; date is checked by the calendar")
    func formatDate() throws {
        let annotated = try JSONSchema(["format": "date"])
        #expect(annotated.isValid("not a date"))
        let asserted = try JSONSchema(["format": "date"], options: SchemaOptions(assertFormats: true))
        #expect(asserted.isValid("2024-02-29"))
        #expect(!asserted.isValid("2023-02-29"))
        #expect(!asserted.isValid("2022-1-05"))
        #expect(asserted.validate("2022-13-01").first?.keywordLocation.description == "/format")
    }

    @Test("errors through $ref carry the evaluation path")
    func refLocations() throws {
        let schema = try JSONSchema([
            "$defs": ["limit": ["type": "integer", "maximum": 10]],
            "properties": ["limit": ["$ref": "#/$defs/limit"]],
        ])
        let errors = schema.validate(["limit": 11])
        #expect(errors.map(\.instanceLocation.description) == ["/limit"])
        #expect(errors.map(\.keywordLocation.description) == ["/properties/limit/$ref/maximum"])
        #expect(errors.first?.message == "11 is greater than the maximum 10")
    }

    @Test("schemas are safe to share across tasks")
    func concurrent() async throws {
        let schema = Self.params
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<200 {
                group.addTask {
                    schema.isValid(["date": "2022-01-05", "limit": .int(index % 12)])
                        == (index % 12 >= 1 && index % 12 <= 10)
                }
            }
            for await agreed in group { #expect(agreed) }
        }
    }

    @Test("annotations are accepted and kept in the document")
    func annotations() throws {
        let document: JSONValue = [
            "title": "t", "description": "d", "examples": [[:]],
            "$schema": "https://json-schema.org/draft/2020-12/schema",
        ]
        #expect(try JSONSchema(document).document == document)
    }
}
