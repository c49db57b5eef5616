import Courier
import Foundation
import LibraryKit

/// A record a data file holds, and the checks it must pass beyond its JSON types.
package protocol DataRecord: Decodable {
    /// "book", "location": what the file holds, for messages.
    static var kind: String { get }
    /// The first field that is wrong, and what is wrong with it.
    func problem() -> (field: String, problem: String)?
}

/// Reads a JSON array of records from a file, and explains any failure with a position.
enum DataFileReader {
    static func read<Record: DataRecord>(_ file: URL, as type: Record.Type) throws(DataFileError) -> [Record] {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            let reason =
                FileManager.default.fileExists(atPath: file.path)
                ? "cannot be read (\((error as NSError).localizedDescription))"
                : "no such file: a data directory holds \(LibraryData.locationsFile) and \(LibraryData.catalogFile)"
            throw DataFileError(file: file.path, problem: reason)
        }
        return try decode(data, file: file.path, as: type)
    }

    /// The records in `data`, the contents of `file` (named in errors), checked.
    static func decode<Record: DataRecord>(
        _ data: Data,
        file: String,
        as type: Record.Type
    ) throws(DataFileError) -> [Record] {
        let records: [Record]
        do {
            records = try JSONDecoder().decode([Record].self, from: data)
        } catch {
            throw explain(error, in: Array(data), file: file, kind: Record.kind)
        }
        for (index, record) in records.enumerated() {
            if let (field, problem) = record.problem() {
                throw DataFileError(
                    file: file,
                    position: JSONSyntax.position(of: [String(index), field], in: Array(data)),
                    problem: "[\(index)].\(field): \(problem)"
                )
            }
        }
        return records
    }

    /// A decoding error as a position and a reason a person can act on.
    static func explain(_ error: any Error, in bytes: [UInt8], file: String, kind: String) -> DataFileError {
        guard let decodingError = error as? DecodingError else {
            return DataFileError(file: file, problem: String(describing: error))
        }
        let context: DecodingError.Context
        var reason: String
        switch decodingError {
        case .typeMismatch(let type, let typeContext):
            context = typeContext
            reason = "expected \(describe(type)), found \(describeValue(at: typeContext.codingPath, in: bytes))"
            if typeContext.codingPath.isEmpty {
                reason = "expected an array of \(kind)s, found \(describeValue(at: [], in: bytes))"
            }
        case .valueNotFound(let type, let notFoundContext):
            context = notFoundContext
            reason = "expected \(describe(type)), found null"
        case .keyNotFound(let key, let keyContext):
            context = keyContext
            reason = "the \(kind) has no \"\(key.stringValue)\""
        case .dataCorrupted(let corruptedContext):
            context = corruptedContext
            do throws(JSONSyntaxError) {
                try JSONSyntax.validate(bytes)
            } catch {
                return DataFileError(file: file, position: error.position, problem: "not valid JSON: \(error.reason)")
            }
            reason = corruptedContext.debugDescription
        @unknown default:
            return DataFileError(file: file, problem: String(describing: error))
        }
        let path = render(context.codingPath)
        return DataFileError(
            file: file,
            position: JSONSyntax.position(of: context.codingPath, in: bytes),
            problem: path.isEmpty ? reason : "\(path): \(reason)"
        )
    }

    /// `[3].year`.
    static func render(_ path: [any CodingKey]) -> String {
        path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "a whole number"
        case is URL.Type: "a URL string"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "\(type)"
        }
    }

    /// "a string", "an object"…: what a person sees at the start of the value at `path`.
    private static func describeValue(at path: [any CodingKey], in bytes: [UInt8]) -> String {
        guard let position = JSONSyntax.position(of: path, in: bytes), position.offset < bytes.count else {
            return "something else"
        }
        switch bytes[position.offset] {
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        default:
            let number = bytes[position.offset...].prefix { !",]} \n\r\t".utf8.contains($0) }
            return "the number \(String(decoding: number, as: UTF8.self))"
        }
    }
}

extension Book: DataRecord {
    package static var kind: String { "book" }

    package func problem() -> (field: String, problem: String)? {
        if let field = nulField([("title", title), ("author", author), ("isbn", isbn)]) { return field }
        if title.allSatisfy(\.isWhitespace) { return ("title", "the title is empty") }
        if let problem = keyLengthProblem(title) { return ("title", problem) }
        if let author, author.allSatisfy(\.isWhitespace) {
            return ("author", "the author is empty: leave it out if unknown")
        }
        if let isbn, !ISBN.isValid(isbn) {
            return ("isbn", "\"\(isbn)\" is not a valid ISBN-10 or ISBN-13 (check the digits, or leave it out)")
        }
        if let coverURL, !["http", "https"].contains(coverURL.scheme?.lowercased() ?? "") || coverURL.host == nil {
            return ("cover_url", "\"\(coverURL.absoluteString)\" is not an http or https URL")
        }
        return nil
    }
}

extension Location: DataRecord {
    package static var kind: String { "location" }

    package func problem() -> (field: String, problem: String)? {
        let fields = [
            ("street_address", streetAddress), ("city", city), ("country", country), ("emoji", emoji), ("hours", hours),
        ]
        if let field = nulField(fields) { return field }
        if country.allSatisfy(\.isWhitespace) { return ("country", "the country is empty") }
        if let problem = keyLengthProblem(country) { return ("country", problem) }
        if city.allSatisfy(\.isWhitespace) { return ("city", "the city is empty") }
        return nil
    }
}

/// The first field holding a NUL character, which no text should and a database cannot store:
/// every store refuses it alike.
private func nulField(_ fields: [(String, String?)]) -> (field: String, problem: String)? {
    for (name, value) in fields where value?.utf8.contains(0) == true {
        return (name, "contains a NUL character (\\u0000): remove it")
    }
    return nil
}

/// The longest search key, in bytes of its folded form: a database index holds keys up to
/// about 2.7 kB, and every store refuses longer ones alike.
let maximumSearchKeyLength = 2_000

/// Why `text` cannot be a search key, if it cannot. Folding can lengthen text (a ligature
/// becomes its letters), so only long text is folded to be measured.
private func keyLengthProblem(_ text: String) -> String? {
    guard text.utf8.count > 100, SearchKey.fold(text).count > maximumSearchKeyLength else { return nil }
    return "is too long to search by: more than \(maximumSearchKeyLength) bytes once folded"
}
