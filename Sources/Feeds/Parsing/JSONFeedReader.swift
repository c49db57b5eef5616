import Courier
import CourierXML
import Foundation

/// JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1).
enum JSONFeedReader {
    /// Whether a document that starts with `head` is JSON: its first byte after white space
    /// (and a byte order mark) is `{` or `[`, which no XML document starts with.
    static func startsLikeJSON(_ head: [UInt8]) -> Bool {
        let text = head.starts(with: [0xEF, 0xBB, 0xBF]) ? head.dropFirst(3) : head[...]
        guard let first = text.first(where: { !ByteScan.isSpace($0) }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// Reads a JSON Feed.
    ///
    /// - Parameter requiresVersion: Whether the document must say it is a JSON Feed (a `version`
    ///   of `https://jsonfeed.org/version/…`): not when its content type did.
    static func parse(_ data: Data, baseURL: URL?, requiresVersion: Bool = true) throws(FeedError) -> Feed {
        do throws(JSONSyntaxError) {
            try JSONSyntax.validate(Array(data))
        } catch {
            throw .notWellFormed(reason: error.reason, line: error.position.line, column: error.position.column)
        }
        guard let json = try? JSONValue(parsing: data), case .object = json else {
            throw .notAFeed("JSON whose top level is not an object")
        }
        if requiresVersion, json["version"]?.stringValue?.contains("jsonfeed.org/version") != true {
            throw .notAFeed("JSON without a JSON Feed version")
        }
        func string(_ value: JSONValue?) -> String? { value?.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
        func url(_ value: JSONValue?) -> String? { string(value).flatMap { FeedBuilder.resolve($0, against: baseURL) } }
        func people(_ object: JSONValue?) -> [Person] {
            var values: [JSONValue] = []
            if case .array(let list)? = object?["authors"] { values = list }
            if let single = object?["author"] { values.append(single) }
            return values.map { Person(name: string($0["name"]), uri: url($0["url"])) }
        }
        var feed = Feed(
            version: "jsonfeed",
            title: string(json["title"]).map(FeedText.collapsingWhitespace),
            link: url(json["home_page_url"]),
            subtitle: string(json["description"]).map(FeedText.collapsingWhitespace),
            language: string(json["language"]),
            authors: people(json),
            image: string(json["icon"]).flatMap { FeedBuilder.resolvePicture($0, against: baseURL) },
            icon: string(json["favicon"]).flatMap { FeedBuilder.resolvePicture($0, against: baseURL) }
        )
        if case .array(let items)? = json["items"] {
            for item in items {
                let html = string(item["content_html"])
                feed.entries.append(
                    Entry(
                        id: string(item["id"]) ?? item["id"]?.formatted(compact: true),
                        title: string(item["title"]).map(FeedText.plainText(fromHTML:)),
                        link: url(item["url"]) ?? url(item["external_url"]),
                        summary: string(item["summary"]) ?? html.map(FeedText.plainText(fromHTML:))
                            ?? string(item["content_text"]),
                        content: html ?? string(item["content_text"]),
                        published: string(item["date_published"]).flatMap(FeedDate.parse),
                        updated: string(item["date_modified"]).flatMap(FeedDate.parse),
                        authors: people(item),
                        categories: item["tags"].flatMap { tags in
                            if case .array(let list) = tags { return list.compactMap(\.stringValue) }
                            return nil
                        } ?? [],
                        enclosures: {
                            guard case .array(let list)? = item["attachments"] else { return [] }
                            return list.compactMap { attachment in
                                url(attachment["url"]).map {
                                    Enclosure(
                                        url: $0,
                                        type: string(attachment["mime_type"]),
                                        length: attachment["size_in_bytes"]?.intValue
                                    )
                                }
                            }
                        }(),
                        contentBase: baseURL?.absoluteString,
                        contentType: html == nil && item["content_text"] != nil ? "text" : nil,
                        image: string(item["image"]).flatMap { FeedBuilder.resolvePicture($0, against: baseURL) }
                    )
                )
            }
        }
        return feed
    }
}
