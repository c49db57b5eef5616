import Courier
import LibraryKit

/// Items kept in the order of one text field, folded, with each item's JSON encoded once:
/// a search is two binary searches, and its answer is one slice of bytes.
///
/// ```swift
/// let books = SearchableList(data.books, key: \.title)
/// let result = books.search("the ", limit: 20, offset: 0)
/// result.total              // every title starting with "the "
/// books.items(in: result)   // the first 20 of them
/// books.json(for: result)   // `[{…},{…}]`, ready to send
/// ```
public struct SearchableList<Item: JSONRecord & Sendable>: Sendable {
    /// The items in key order.
    public let items: [Item]
    /// A hash of the encoded items, for entity tags: equal lists have equal fingerprints.
    public let fingerprint: UInt64
    /// `"` and the fingerprint in hexadecimal: the start of every entity tag for this list.
    private let entityTagPrefix: String
    private let index: PrefixIndex
    /// Each item's JSON followed by a comma, in key order.
    private let json: [UInt8]
    /// `jsonStarts[i]` is where the i-th item's JSON starts; one more entry marks the end.
    private let jsonStarts: [Int]

    /// Indexes `items` by the text at `key`.
    public init(_ items: [Item], key: KeyPath<Item, String>) {
        let index = PrefixIndex(keys: items.map { $0[keyPath: key] })
        var sorted: [Item] = []
        sorted.reserveCapacity(items.count)
        var json: [UInt8] = []
        var starts: [Int] = [0]
        starts.reserveCapacity(items.count + 1)
        for position in index.order {
            let item = items[position]
            sorted.append(item)
            item.appendJSON(to: &json)
            json.append(UInt8(ascii: ","))
            starts.append(json.count)
        }
        self.items = sorted
        self.index = index
        self.json = json
        self.jsonStarts = starts
        self.fingerprint = FNV1a.hash(json)
        self.entityTagPrefix = "\"" + String(fingerprint, radix: 16)
    }

    /// The number of items.
    public var count: Int { items.count }

    // MARK: - Searching

    /// The items whose key starts with `prefix` (case, accents and width ignored), and the
    /// page of them from `offset` holding at most `limit`.
    public func search(_ prefix: some StringProtocol, limit: Int, offset: Int) -> SearchResult {
        let matches = index.range(ofPrefix: prefix)
        let start = matches.lowerBound + min(max(offset, 0), matches.count)
        let end = start + min(max(limit, 0), matches.upperBound - start)
        return SearchResult(matches: matches, page: start..<end)
    }

    /// The items on the result's page.
    public func items(in result: SearchResult) -> ArraySlice<Item> {
        items[result.page]
    }

    /// The result's page as a JSON array.
    public func json(for result: SearchResult) -> [UInt8] {
        let elements = jsonElements(for: result)
        var body: [UInt8] = []
        body.reserveCapacity(elements.count + 2)
        body.append(UInt8(ascii: "["))
        body.append(contentsOf: elements)
        body.append(UInt8(ascii: "]"))
        return body
    }

    /// A strong entity tag (quotes included) for the result's page: the list's fingerprint and
    /// the page's place in it fix the body byte for byte, so no hashing of the body is needed.
    public func entityTag(for result: SearchResult) -> String {
        "\(entityTagPrefix)-\(result.page.lowerBound)-\(result.page.count)-\(result.total)\""
    }

    /// The result's page as JSON objects separated by commas: a JSON array without its brackets.
    public func jsonElements(for result: SearchResult) -> ArraySlice<UInt8> {
        let page = result.page
        // Every item ends with a comma: take all but the last one's.
        return page.isEmpty ? [] : json[jsonStarts[page.lowerBound]..<(jsonStarts[page.upperBound] - 1)]
    }
}

/// Where a search's matches are among a list's items, and which of them a page holds.
public struct SearchResult: Sendable, Hashable {
    /// The positions of every match, in key order.
    public var matches: Range<Int>
    /// The positions of the matches on the requested page.
    public var page: Range<Int>

    /// How many items match, on every page.
    public var total: Int { matches.count }
}
