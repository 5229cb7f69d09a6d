import JSONCore
import JSONSchema
import Testing

/// The validator subset that the foundation ships; the full draft 2020-12 suite arrives with the schema issue.
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
        #expect(Self.params.validate(["date": "2022-01-05", "limit": 10, "nation": "korean", "include": ["detail"], "rate": 40.2, "kind": "daily"]).isEmpty)
    }

    @Test("each keyword reports its instance and keyword location")
    func located() {
        #expect(locations(["limit": 3]) == [" /required"])
        #expect(locations(["date": "2022-01-05", "limit": 0]) == ["/limit /properties/limit/minimum"])
        #expect(locations(["date": "2022-01-05", "limit": 11]) == ["/limit /properties/limit/maximum"])
        #expect(locations(["date": "2022-01-05", "limit": 1.5]) == ["/limit /properties/limit/type"])
        #expect(locations(["date": "2022-1-5"]) == ["/date /properties/date/minLength"])
        #expect(locations(["date": "2022-01-05", "nation": "other"]) == ["/nation /properties/nation/enum"])
        #expect(locations(["date": "2022-01-05", "include": ["detail", "trailer"]]) == ["/include/1 /properties/include/items/enum"])
        #expect(locations(["date": "2022-01-05", "include": ["detail", "poster", "detail"]]) == ["/include /properties/include/maxItems"])
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

    @Test("a keyword the validator does not implement is a compile error, never silently ignored")
    func unknownKeyword() {
        #expect(throws: SchemaCompilationError.self) { try JSONSchema(["pattern": "^a"]) }
        #expect(throws: SchemaCompilationError.self) { try JSONSchema(["minimum": "one"]) }
        #expect(throws: SchemaCompilationError.self) { try JSONSchema(3) }
    }

    @Test("annotations are accepted and kept in the document")
    func annotations() throws {
        let document: JSONValue = ["title": "t", "description": "d", "examples": [[:]], "$schema": "https://json-schema.org/draft/2020-12/schema"]
        #expect(try JSONSchema(document).document == document)
    }
}
