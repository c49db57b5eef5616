// libFuzzer harness: JSONSyntax, JSONFormatter and JSONValue (Sources/Courier/JSON).
//
// Validates the input, asks for positions of a few paths, formats it whole and in pieces,
// picks a path from it, parses it into a JSONValue and formats that back. Checked: what
// JSONValue parses, JSONSyntax accepts (a document JSONSyntax rejects must not become a value);
// JSONFormatter refuses exactly what JSONSyntax refuses, with the same message, however the text
// is cut, and writes the same output; a formatted value validates and parses again.
import Foundation

/// libFuzzer's entry point: runs one input of `count` bytes at `start`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    var isValid = true
    var validation: String?
    do {
        try JSONSyntax.validate(bytes)
    } catch {
        isValid = false
        validation = error.description
    }
    for path in [["a"], ["items", "0", "title"], ["0"], [""], ["results", "1"]] {
        if let position = JSONSyntax.position(of: path, in: bytes) { _ = position.description }
    }
    // JSONFormatter accepts exactly what JSONSyntax accepts, with the same error, whole or cut.
    let compact = count % 2 == 0
    let sorting = count % 3 == 0
    let (formatted, error) = format(bytes, in: count, compact: compact, sorting: sorting)
    precondition(
        error == validation,
        "JSONFormatter and JSONSyntax disagree: \(error ?? "valid") \(validation ?? "valid")"
    )
    let cut = format(bytes, in: count % 7 + 1, compact: compact, sorting: sorting)
    // (After an error, what was written depends on where the text was cut.)
    precondition(cut.error == error && (error != nil || cut.output == formatted), "a cut text formats differently")
    let formats = error == nil
    // A picked value is the value at that path, formatted.
    if formats, let picked = try? JSONFormatter.value(at: ["a"], in: bytes) {
        var whole: [UInt8] = []
        try? JSONFormatter.format(Array(picked), compact: compact) { whole.append(contentsOf: $0) }
        var formatter = JSONFormatter(compact: compact, picking: ["a"])
        var output: [UInt8] = []
        try? formatter.format(bytes) { output.append(contentsOf: $0) }
        try? formatter.finish { output.append(contentsOf: $0) }
        precondition(output == whole && formatter.foundValue, "picking disagrees with value(at:in:)")
    }
    guard let value = try? JSONValue(parsing: Data(bytes)) else { return 0 }
    if formats {
        precondition((try? JSONValue(parsing: Data(formatted))) == value, "formatting changed the value")
    }
    _ = isValid
    _ = value["a"]
    _ = value.stringValue
    _ = value.intValue
    for compact in [true, false] {
        let text = value.formatted(compact: compact)
        let again = Array(text.utf8)
        do {
            try JSONSyntax.validate(again)
        } catch {
            preconditionFailure("a formatted value does not validate: \(error)")
        }
        precondition((try? JSONValue(parsing: Data(again))) != nil, "a formatted value does not parse")
    }
    return 0
}

/// The text formatted in pieces of `size` bytes: the output and the error's description.
func format(_ bytes: [UInt8], in size: Int, compact: Bool, sorting: Bool) -> (output: [UInt8], error: String?) {
    var formatter = JSONFormatter(compact: compact, sortingKeys: sorting)
    var output: [UInt8] = []
    do {
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + max(size, 1))
            try formatter.format(bytes[start..<end]) { output.append(contentsOf: $0) }
            start = end
        }
        try formatter.finish { output.append(contentsOf: $0) }
        return (output, nil)
    } catch {
        return (output, error.description)
    }
}
