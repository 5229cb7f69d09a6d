import JSONCore
import Testing

@testable import JSONSchema

/// A subschema that applies itself to the same value again — through `$ref`, `allOf`, `anyOf`, `oneOf`, … with no
/// descent into the value between — loops for any value nothing else stops. With two ways back, both validation
/// paths used to run for an exponential number of steps before the depth limit (the schema fuzz target's timeout,
/// kept as `Fuzz/Seeds/schema/loop-in-place-timeout`): without the check, this suite did not finish in 200 s.
@Suite("JSONSchema: subschemas that loop in place")
struct InPlaceLoopTests {
    @Test("a subschema applied to the same value again stops at once, as invalid with its reason")
    func oneWayBack() throws {
        let schema = try JSONSchema([
            "$defs": ["a": ["anyOf": [["type": "string"], ["$ref": "#/$defs/a"]]]], "$ref": "#/$defs/a",
        ])
        #expect(schema.isValid("x"))
        #expect(!schema.isValid(1))
        #expect(!schema.isValidByEvaluation(1))
        // Outside anyOf (whose branches fail quietly), the loop is the error reported.
        let always = try JSONSchema(["$defs": ["a": ["allOf": [["$ref": "#/$defs/a"]]]], "$ref": "#/$defs/a"])
        #expect(always.validate(1).map(\.message).contains { $0.contains("endless loop") })
    }

    @Test("two ways back (the fuzz target's finding) finish, and both paths agree")
    func twoWaysBack() throws {
        let schema = try JSONSchema([
            "$defs": ["a": ["oneOf": [["$ref": "#/$defs/a"], ["$ref": "#/$defs/a"], ["required": ["x"]]]]],
            "$ref": "#/$defs/a",
        ])
        for instance: JSONValue in [[:], ["x": 1], "text"] {
            #expect(schema.isValid(instance) == schema.isValidByEvaluation(instance))
            #expect(schema.validate(instance).isEmpty == schema.isValid(instance))
        }
    }

    @Test("the fuzz input itself")
    func fuzzInput() throws {
        let schema = try JSONSchema(JSONParser.parse(Self.fuzzSchema))
        let instance = try JSONParser.parse(Self.fuzzInstance)
        #expect(schema.isValid(instance) == schema.isValidByEvaluation(instance))
        #expect(schema.validate(instance).isEmpty == schema.isValid(instance))
    }

    @Test("recursion through a value inside the current one is not a loop")
    func recursionIntoChildren() throws {
        let schema = try JSONSchema([
            "$defs": [
                "tree": [
                    "type": "object", "required": ["name"],
                    "properties": ["kids": ["type": "array", "items": ["$ref": "#/$defs/tree"]]],
                    "allOf": [["$ref": "#/$defs/named"]],
                ],
                "named": ["properties": ["name": ["type": "string"]]],
            ],
            "$ref": "#/$defs/tree",
        ])
        let tree: JSONValue = ["name": "a", "kids": [["name": "b", "kids": [["name": "c"]]], ["name": "d"]]]
        #expect(schema.isValid(tree))
        #expect(schema.isValidByEvaluation(tree))
        let broken: JSONValue = ["name": "a", "kids": [["name": "b", "kids": [["name": 3]]]]]
        #expect(!schema.isValid(broken))
        #expect(schema.validate(broken).map(\.instanceLocation.description) == ["/kids/0/kids/0/name"])
    }

    static let fuzzSchema = [
        ##"{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"one": {"oneOf": [{"$ref":"##,
        ##" "#/$defs/two"}, {"required": ["b"], "properties": {"b": true}}, {"required": ["xx"], "patternPr"##,
        ##"oequired": ["xx"], "patternProperties": {"x": true}}, {"rerueiqd": ["'ll"], "unevaluadefs": {"on"##,
        ##"e": {"onehttps://json-sa.org]draft/40eOf": [{"requirtypeed": ["c"], "pequired": ["d"], "properti"##,
        ##"es": {"d": true}}]}}, "oneOf": [{"$ref": "#/$defs/one"}, {"required": ["a"], "properties": {"a":"##,
        ##" true}}], "tedProperties": {"x": true}}, {"rerueiqd": ["'ll"], "unevaluadefs": {"one": {"onehttp"##,
        ##"s://json-sa.org]draft/40eOf": [{"requirtypeed": ["c"], "pequired": ["d"], "properties": {"d": tr"##,
        ##"ue}}]}}, "oneOf": [{"$ref": "#/$defs/one"}, {"required": ["a"], "properties": {"a": true}}], "te"##,
        ##"dProperties": true}]}, "two": {"onlOf": [{"required": ["c"], "properties": {"c": true}}, {"requi"##,
        ##"red": ["d"], "properties": {"d": true}}]}}, "oneOf": [{"$ref": "#/$defs/one"}, {"required": ["a""##,
        ##"], "properties": {"a": true}}], "unevaluatedpPorerties": false}"##,
    ].joined()
    static let fuzzInstance = ##"{"xx": 1, "foo]": 1}"##
}
