// libFuzzer harness: JSONSyntax, JSONFormatter and JSONValue (Sources/Courier/JSON).
//
// Validates the input, asks for positions of a few paths, parses it into a JSONValue and
// formats that back. Checked: what JSONValue parses, JSONSyntax accepts (a document JSONSyntax
// rejects must not become a value); a formatted value validates and parses again.
import Foundation

/// libFuzzer's entry point: runs one input of `count` bytes at `start`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    var isValid = true
    do {
        try JSONSyntax.validate(bytes)
    } catch {
        isValid = false
        _ = error.description
    }
    for path in [["a"], ["items", "0", "title"], ["0"], [""], ["results", "1"]] {
        if let position = JSONSyntax.position(of: path, in: bytes) { _ = position.description }
    }
    // JSONFormatter accepts exactly what JSONSyntax accepts, and its output parses to the same value.
    var formatted: [UInt8] = []
    let formats = (try? JSONFormatter.format(bytes, compact: count % 2 == 0) { formatted.append(contentsOf: $0) }) != nil
    precondition(formats == isValid, "JSONFormatter and JSONSyntax disagree on validity")
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
