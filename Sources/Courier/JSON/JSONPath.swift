/// A parsed path for ``JSONValue/subscript(path:)``: `a.b.0`, `a[0].b`, `[1]`, `a[-1]`.
package struct JSONPath: Equatable {
    package enum Step: Equatable {
        case member(String)
        case index(Int)
    }

    package var steps: [Step] = []

    /// `nil` when the path is malformed (an unclosed `[`, a non-integer index, an empty step).
    package init?(_ path: String) {
        var rest = Substring(path)
        if rest.hasPrefix(".") { rest = rest.dropFirst() }
        while !rest.isEmpty {
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]"),
                    let index = Int(rest[rest.index(after: rest.startIndex)..<close])
                else { return nil }
                steps.append(.index(index))
                rest = rest[rest.index(after: close)...]
                if rest.hasPrefix(".") {
                    rest = rest.dropFirst()
                    if rest.isEmpty { return nil }
                }
            } else {
                let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
                let name = rest[..<end]
                guard !name.isEmpty else { return nil }
                steps.append(.member(String(name)))
                rest = rest[end...]
                if rest.hasPrefix(".") {
                    rest = rest.dropFirst()
                    if rest.isEmpty { return nil }
                }
            }
        }
    }
}
