import Courier
import Foundation

/// The Search API's answer as it comes: `resultCount` and `results`, items of every kind with
/// fields missing, null or of another type than usual. Nothing here fails on one odd field.
struct SearchResponse: Decodable, Sendable {
    var resultCount: Int?
    var results: LossyArray<StoreItem>

    private enum CodingKeys: String, CodingKey {
        case resultCount, results
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        resultCount = try? container.decodeIfPresent(Int.self, forKey: .resultCount)
        results = try container.decodeIfPresent(LossyArray<StoreItem>.self, forKey: .results) ?? LossyArray([])
    }
}

/// One item of a search, any kind: song, album, app, e-book, audiobook, podcast, film, music
/// video, TV episode, artist. Every field is optional, and a field of an unexpected type reads
/// as absent.
struct StoreItem: Decodable, Sendable {
    var wrapperType: String?
    var kind: String?
    var trackName: String?
    var collectionName: String?
    var artistName: String?
    var primaryGenreName: String?
    var genres: [String]?
    var trackPrice: Decimal?
    var collectionPrice: Decimal?
    var price: Decimal?
    var currency: String?
    var trackViewUrl: String?
    var collectionViewUrl: String?
    var artistLinkUrl: String?
    var artworkUrl30: String?
    var artworkUrl60: String?
    var artworkUrl100: String?
    var artworkUrl512: String?
    var artworkUrl600: String?

    private enum CodingKeys: String, CodingKey {
        case wrapperType, kind, trackName, collectionName, artistName, primaryGenreName, genres
        case trackPrice, collectionPrice, price, currency
        case trackViewUrl, collectionViewUrl, artistLinkUrl
        case artworkUrl30, artworkUrl60, artworkUrl100, artworkUrl512, artworkUrl600
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) -> String? { try? container.decodeIfPresent(String.self, forKey: key) }
        func amount(_ key: CodingKeys) -> Decimal? { try? container.decodeIfPresent(Decimal.self, forKey: key) }
        wrapperType = text(.wrapperType)
        kind = text(.kind)
        trackName = text(.trackName)
        collectionName = text(.collectionName)
        artistName = text(.artistName)
        primaryGenreName = text(.primaryGenreName)
        genres = (try? container.decodeIfPresent(LossyArray<String>.self, forKey: .genres))?.map(\.self)
        trackPrice = amount(.trackPrice)
        collectionPrice = amount(.collectionPrice)
        price = amount(.price)
        currency = text(.currency)
        trackViewUrl = text(.trackViewUrl)
        collectionViewUrl = text(.collectionViewUrl)
        artistLinkUrl = text(.artistLinkUrl)
        artworkUrl30 = text(.artworkUrl30)
        artworkUrl60 = text(.artworkUrl60)
        artworkUrl100 = text(.artworkUrl100)
        artworkUrl512 = text(.artworkUrl512)
        artworkUrl600 = text(.artworkUrl600)
    }
}
