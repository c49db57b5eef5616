import Courier
import Foundation

/// The Search API's answer as it comes: `resultCount` and `results`, items of every kind with
/// fields missing, null or of another type than usual. Nothing here fails on one odd field.
struct SearchResponse: Decodable, Sendable {
    @Lenient var resultCount: Int?
    @Lenient var results: LossyArray<StoreItem>?
}

/// One item of a search, any kind: song, album, app, e-book, audiobook, podcast, film, music
/// video, TV episode, artist. Every field is optional, and a field of an unexpected type reads
/// as absent.
struct StoreItem: Decodable, Sendable {
    @Lenient var wrapperType: String?
    @Lenient var kind: String?
    @Lenient var trackName: String?
    @Lenient var collectionName: String?
    @Lenient var artistName: String?
    @Lenient var primaryGenreName: String?
    @Lenient var genres: LossyArray<String>?
    @Lenient var trackPrice: Decimal?
    @Lenient var collectionPrice: Decimal?
    @Lenient var price: Decimal?
    @Lenient var currency: String?
    @Lenient var trackViewUrl: String?
    @Lenient var collectionViewUrl: String?
    @Lenient var artistLinkUrl: String?
    @Lenient var artworkUrl30: String?
    @Lenient var artworkUrl60: String?
    @Lenient var artworkUrl100: String?
    @Lenient var artworkUrl512: String?
    @Lenient var artworkUrl600: String?
}

/// A field that reads as `nil` when it is missing, `null`, or not a `Value`: one odd field of
/// a store item must not cost the whole page.
@propertyWrapper
struct Lenient<Value: Decodable & Sendable>: Decodable, Sendable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    init(from decoder: any Decoder) throws {
        wrappedValue = try? decoder.singleValueContainer().decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// A missing key is a `nil` field, not an error.
    func decode<Value>(_ type: Lenient<Value>.Type, forKey key: Key) throws -> Lenient<Value> {
        try decodeIfPresent(type, forKey: key) ?? Lenient(wrappedValue: nil)
    }
}
