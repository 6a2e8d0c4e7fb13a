import Foundation
import MapCore
import Testing

@Suite struct FilterTests {
    func filter(_ text: String) throws -> Filter { try Filter(json: SpecTest.json(text), path: "f") }

    func matches(_ text: String, zoom: Double = 0, _ properties: [String: StyleValue] = [:], id: StyleValue? = nil,
                 geometry: String = "Point") throws -> Bool {
        try filter(text).matches(SpecTest.feature(properties, id: id, geometry: geometry), zoom: zoom)
    }

    func failure(_ text: String) -> String? { SpecTest.error { _ = try filter(text) } }

    @Test func legacyComparisons() throws {
        let park = #"["==", "class", "park"]"#
        #expect(try matches(park, ["class": .string("park")]))
        #expect(try !matches(park, ["class": .string("water")]))
        #expect(try !matches(park))
        #expect(try matches(#"["!=", "class", "park"]"#))
        #expect(try matches(#"["==", "n", 1]"#, ["n": .number(1)]))
        #expect(try !matches(#"["==", "n", 1]"#, ["n": .string("1")]))
        #expect(try matches(#"["==", "v", null]"#, ["v": .null]))
        #expect(try !matches(#"["==", "v", null]"#))
        #expect(try matches(#"["<", "rank", 5]"#, ["rank": .number(3)]))
        #expect(try !matches(#"["<", "rank", 5]"#, ["rank": .string("3")]))
        #expect(try matches(#"[">=", "rank", 5]"#, ["rank": .number(5)]))
        #expect(try matches(#"[">", "name", "b"]"#, ["name": .string("c")]))
        #expect(try !matches(#"["<", "rank", 5]"#))
        // The same three elements as an expression would compare two strings.
        #expect(try matches(#"["==", "a", "b"]"#, ["a": .string("b")]))
    }

    @Test func legacyMembershipAndPresence() throws {
        #expect(try matches(#"["in", "class", "a", "b"]"#, ["class": .string("b")]))
        #expect(try !matches(#"["in", "class", "a", "b"]"#, ["class": .string("c")]))
        #expect(try !matches(#"["in", "class"]"#, ["class": .string("c")]))
        #expect(try matches(#"["!in", "class", "a", "b"]"#))
        #expect(try matches(#"["in", "n", 1, 2]"#, ["n": .number(2)]))
        #expect(try matches(#"["has", "$id"]"#, id: .number(1)))
        #expect(try !matches(#"["has", "$id"]"#))
        #expect(try matches(#"["!has", "name"]"#))
        #expect(try !matches(#"["!has", "name"]"#, ["name": .null]))
        #expect(try !matches(#"["!has", "$type"]"#))
    }

    @Test func typeAndIDKeys() throws {
        #expect(try matches(#"["==", "$type", "Polygon"]"#, geometry: "MultiPolygon"))
        #expect(try !matches(#"["==", "$type", "Polygon"]"#, geometry: "Point"))
        #expect(try matches(#"["!=", "$type", "Polygon"]"#, geometry: "LineString"))
        #expect(try matches(#"["in", "$type", "Point", "LineString"]"#, geometry: "LineString"))
        #expect(try !matches(#"["in", "$type", "Point", "LineString"]"#, geometry: "Polygon"))
        #expect(try matches(#"["==", "$id", 5]"#, id: .number(5)))
        #expect(try !matches(#"["==", "$id", 5]"#, id: .string("5")))
        #expect(try matches(#"["<", "$id", 10]"#, id: .number(5)))
        #expect(try matches(#"["in", "$id", 1, 5]"#, id: .number(5)))
    }

    @Test func legacyCombinators() throws {
        #expect(try matches(#"["all", ["==", "a", 1], ["has", "b"]]"#, ["a": .number(1), "b": .null]))
        #expect(try !matches(#"["all", ["==", "a", 1], ["!has", "b"]]"#, ["a": .number(1), "b": .null]))
        #expect(try matches(#"["any", ["==", "a", 2], ["==", "a", 1]]"#, ["a": .number(1)]))
        #expect(try matches(#"["none", ["==", "a", 2], ["==", "a", 3]]"#, ["a": .number(1)]))
        #expect(try !matches(#"["none", ["==", "a", 2], ["==", "a", 1]]"#, ["a": .number(1)]))
        #expect(try matches(#"["all"]"#))
        #expect(try !matches(#"["any"]"#))
        #expect(try matches(#"["none"]"#))
        // A type mismatch inside "any" is just false, not an error that fails the whole filter.
        #expect(try matches(#"["any", ["<", "y", 0], [">", "x", 0]]"#, ["x": .number(1), "y": .string("a")]))
    }

    @Test func expressionFilters() throws {
        #expect(try matches(#"["==", ["get", "class"], "park"]"#, ["class": .string("park")]))
        let zoomed = #"["all", ["has", "name"], [">=", ["zoom"], 5]]"#
        #expect(try !matches(zoomed, zoom: 4, ["name": .string("x")]))
        #expect(try matches(zoomed, zoom: 6, ["name": .string("x")]))
        #expect(try matches(#"["get", "flag"]"#, ["flag": .bool(true)]))
        #expect(try !matches(#"["get", "flag"]"#, ["flag": .number(1)]))
        #expect(try matches("true"))
        #expect(try !matches("false"))
        #expect(try matches(#"["in", ["get", "c"], ["literal", ["a", "b"]]]"#, ["c": .string("a")]))
        #expect(try matches(#"["!", ["has", "x"]]"#))
        #expect(try matches(#"["==", ["geometry-type"], "Point"]"#))
        #expect(try matches(#"["any", ["==", ["get", "a"], 1], false]"#, ["a": .number(1)]))
        #expect(try matches(#"["none", ["==", ["get", "a"], 1]]"#, ["a": .number(2)]))
        #expect(try !matches(#"["none", ["==", ["get", "a"], 1]]"#, ["a": .number(1)]))
        #expect(Filter().matches(SpecTest.feature(), zoom: 0))
        #expect(try matches("null"))
    }

    /// `all`, `any` and `none` mixing the syntaxes evaluate each child in its own syntax.
    @Test func mixedCombinators() throws {
        let mixed = #"["all", ["==", ["get", "a"], 1], ["==", "b", 2]]"#
        #expect(try matches(mixed, ["a": .number(1), "b": .number(2)]))
        #expect(try !matches(mixed, ["a": .number(1), "b": .number(3)]))
        let nested = #"["any", ["all", ["==", "$type", "Point"], [">", ["get", "n"], 5]], ["has", "x"]]"#
        #expect(try matches(nested, ["n": .number(6)]))
        #expect(try !matches(nested, ["n": .number(6)], geometry: "Polygon"))
        #expect(try matches(nested, ["x": .null], geometry: "Polygon"))
        // "has" and booleans read the same in both syntaxes, so this stays a legacy filter.
        #expect(try matches(#"["all", ["==", "class", "rail"], ["has", "service"], true]"#, ["class": .string("rail"), "service": .null]))
    }

    @Test func malformedFilters() {
        #expect(failure(#"["==", 1, 2]"#) == "f[1]: expected a property name (string), found 1")
        #expect(failure(#"["<", "$type", "Point"]"#) == #"f: "$type" cannot be used with operator "<""#)
        #expect(failure(#"["foo", 1]"#) == #"f[0]: unknown expression "foo""#)
        #expect(failure(#"["==", ["get", "a"], ["literal", [1]]]"#) == #"f[2]: "==" comparisons are not supported for type array<number, 1>"#)
        #expect(failure(#"["!", ["==", "b", "c"]]"#)
                == #"f[1]: legacy filter syntax cannot be mixed with expression syntax; write ["==","b","c"] as an expression"#)
        #expect(failure(#"["case", ["in", "a", 1], true, false]"#)
                == #"f[1]: legacy filter syntax cannot be mixed with expression syntax; write ["in","a",1] as an expression"#)
        #expect(failure(#"["all", ["!in", "a", 1], ["in", "a", 1]]"#) == nil)
        #expect(failure(#"["any", "x"]"#) == #"f[1]: expected a filter array, found "x""#)
        #expect(failure(#"["+", 1, 2]"#) == "f: expected boolean, found number")
    }
}
