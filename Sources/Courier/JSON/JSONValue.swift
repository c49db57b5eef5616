public import Foundation

/// Any JSON value, for exploring responses whose shape you do not model — safely, without
/// force casts.
///
/// ```swift
/// let json = try await client.send(Endpoint<JSONValue>(host: "api.example.com", path: "/search"))
/// let title = json[path: "results.0.title"]?.stringValue   // or "results[0].title"
/// for result in json["results"]?.arrayValue ?? [] {
///     print(result["title"]?.stringValue ?? "untitled")
/// }
/// ```
///
/// Integers keep their exact value up to 64 bits; other numbers are `Double`s.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    // MARK: - Parsing

    /// Parses JSON text.
    ///
    /// - Throws: `DecodingError.dataCorrupted` with the parser's explanation.
    public init(parsing data: Data) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    // MARK: - Reading

    /// The member named `key` of an object, or `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` of an array (negative counts from the end), or `nil`.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self else { return nil }
        let position = index < 0 ? elements.count + index : index
        return elements.indices.contains(position) ? elements[position] : nil
    }

    /// The value at a path of member names and indices: `results.0.title`, `results[0].title`,
    /// `[2].name`, `items[-1]`. `nil` when any step is missing.
    public subscript(path path: String) -> JSONValue? {
        guard let steps = JSONPath(path) else { return nil }
        var value: JSONValue? = self
        for step in steps.steps {
            switch step {
            case .member(let name):
                // A numeric step indexes arrays and names members of objects.
                if case .array = value, let index = Int(name) { value = value?[index] } else { value = value?[name] }
            case .index(let index):
                value = value?[index]
            }
        }
        return value
    }

    /// Whether `path` is a well-formed path for ``subscript(path:)``.
    public static func isValidPath(_ path: String) -> Bool { JSONPath(path) != nil }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number as a `Double`, if this is a number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .number(let number): number
        default: nil
        }
    }

    /// The number as an `Int`, if it is one exactly.
    public var intValue: Int? {
        switch self {
        case .integer(let integer): Int(exactly: integer)
        case .number(let number): Int(exactly: number)
        default: nil
        }
    }

    /// The Boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    // MARK: - Writing

    /// JSON text with sorted keys; pretty-printed with two-space indentation unless `compact`.
    public func formatted(compact: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            compact ? [.sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
