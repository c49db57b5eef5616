/// An array that survives bad elements: each element that fails to decode is skipped and
/// counted, and the rest of the page is kept.
///
/// ```swift
/// struct SearchPage: Decodable, Sendable {
///     var results: LossyArray<Film>
/// }
/// let search = Endpoint<SearchPage>(host: MovieDB.host, path: "/3/search/movie").appending(query: "query", "dune")
/// let page = try await client.send(search)
/// print(page.results.count, "movies;", page.results.skipped.count, "skipped")
/// ```
public struct LossyArray<Element> {
    /// An element that did not decode.
    public struct Skipped: Sendable, Equatable {
        /// Its position in the JSON array.
        public var index: Int
        /// Why it did not decode.
        public var reason: String
    }

    /// The elements that decoded, in order.
    public var elements: [Element]
    /// The elements that were skipped.
    public var skipped: [Skipped]

    /// Creates an array with no skipped elements.
    public init(_ elements: [Element] = []) {
        self.elements = elements
        self.skipped = []
    }
}

extension LossyArray: Decodable where Element: Decodable {
    /// Decodes the elements, skipping and counting those that fail.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        var skipped: [Skipped] = []
        elements.reserveCapacity(container.count ?? 0)
        while !container.isAtEnd {
            let index = container.currentIndex
            do {
                elements.append(try container.decode(Element.self))
            } catch {
                let (codingPath, reason) = DecodingFailure.explain(error)
                skipped.append(
                    Skipped(index: index, reason: codingPath.isEmpty ? reason : "\(reason) at \(codingPath)")
                )
                // A failed decode does not advance the container; step over the element.
                _ = try container.decode(Skip.self)
            }
        }
        self.elements = elements
        self.skipped = skipped
    }

    private struct Skip: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}

extension LossyArray: Encodable where Element: Encodable {
    /// Encodes the elements that decoded, as an array.
    public func encode(to encoder: any Encoder) throws {
        try elements.encode(to: encoder)
    }
}

extension LossyArray: RandomAccessCollection {
    /// The position of the first element.
    public var startIndex: Int { elements.startIndex }
    /// The position past the last element.
    public var endIndex: Int { elements.endIndex }
    /// The element at `position`.
    public subscript(position: Int) -> Element { elements[position] }
}

extension LossyArray: Sendable where Element: Sendable {}
extension LossyArray: Equatable where Element: Equatable {}
