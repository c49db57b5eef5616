import Courier
public import Foundation

/// One item found in the store, ready to show: the same fields whatever the kind.
public struct SearchResult: Sendable, Hashable, Codable {
    /// The title of the song, app, book, film, podcast…
    public var name: String
    /// Who made it, if the store says.
    public var artist: String?
    /// A readable kind: "Song", "App", "E-Book", "Movie"…
    public var type: String
    /// The genre, or an e-book's genres joined with ", ".
    public var genre: String?
    /// The price in ``currency``; `nil` when the store gives none or marks the item as not
    /// sold on its own (a negative price, such as a song sold only with its album).
    public var price: Decimal?
    /// An ISO 4217 code such as `USD`.
    public var currency: String?
    /// The item's page in the store.
    public var storeURL: URL?
    /// Small artwork (60 px, or the nearest size offered).
    public var imageSmall: URL?
    /// Large artwork (100 px, or the nearest size offered).
    public var imageLarge: URL?

    /// A result.
    public init(
        name: String,
        artist: String? = nil,
        type: String,
        genre: String? = nil,
        price: Decimal? = nil,
        currency: String? = nil,
        storeURL: URL? = nil,
        imageSmall: URL? = nil,
        imageLarge: URL? = nil
    ) {
        self.name = name
        self.artist = artist
        self.type = type
        self.genre = genre
        self.price = price
        self.currency = currency
        self.storeURL = storeURL
        self.imageSmall = imageSmall
        self.imageLarge = imageLarge
    }

    private enum CodingKeys: String, CodingKey {
        case name, artist, type, genre, price, currency
        case storeURL = "store_url"
        case imageSmall = "image_small"
        case imageLarge = "image_large"
    }

    /// Writes every key, `null` for what is missing, so the JSON has one shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(artist, forKey: .artist)
        try container.encode(type, forKey: .type)
        try container.encode(genre, forKey: .genre)
        try container.encode(price, forKey: .price)
        try container.encode(currency, forKey: .currency)
        try container.encode(storeURL, forKey: .storeURL)
        try container.encode(imageSmall, forKey: .imageSmall)
        try container.encode(imageLarge, forKey: .imageLarge)
    }
}

extension SearchResult {
    /// The result for a store item, or `nil` when it has no usable name.
    init?(_ item: StoreItem) {
        let isArtist = item.wrapperType == "artist"
        let candidates = isArtist ? [item.artistName] : [item.trackName, item.collectionName]
        guard
            let name = candidates.lazy.compactMap({ $0?.trimmingCharacters(in: .whitespacesAndNewlines) })
                .first(where: { !$0.isEmpty })
        else { return nil }
        let price = item.trackPrice ?? item.collectionPrice ?? item.price
        self.init(
            name: name,
            artist: isArtist ? nil : item.artistName.flatMap { $0.isEmpty ? nil : $0 },
            type: Self.typeLabel(kind: item.kind, wrapperType: item.wrapperType),
            genre: item.primaryGenreName
                ?? item.genres.flatMap { $0.isEmpty ? nil : $0.elements.joined(separator: ", ") },
            price: price.flatMap { $0 < 0 ? nil : $0 },
            currency: item.currency,
            storeURL: Self.url(item.trackViewUrl ?? item.collectionViewUrl ?? item.artistLinkUrl),
            imageSmall: Self.url(item.artworkUrl60 ?? item.artworkUrl30 ?? item.artworkUrl100),
            imageLarge: Self.url(item.artworkUrl100 ?? item.artworkUrl512 ?? item.artworkUrl600 ?? item.artworkUrl60)
        )
    }

    private static let labels = [
        "album": "Album", "artist": "Artist", "audiobook": "Audiobook", "book": "Book",
        "coached-audio": "Coached Audio", "ebook": "E-Book", "feature-movie": "Movie",
        "interactive-booklet": "Interactive Booklet", "mac-software": "Mac App", "music-video": "Music Video",
        "pdf podcast": "PDF Podcast", "podcast": "Podcast", "podcast-episode": "Podcast Episode",
        "software": "App", "software-package": "App Bundle", "song": "Song", "tv-episode": "TV Episode",
    ]

    /// "Song", "App", "E-Book"… from `kind`, else from `wrapperType` (audiobooks and albums
    /// have no `kind`); a kind the store adds later is shown in words ("new-thing" → "New Thing").
    static func typeLabel(kind: String?, wrapperType: String?) -> String {
        let key = kind ?? (wrapperType == "collection" ? "album" : wrapperType)
        guard let key, !key.isEmpty else { return "Unknown" }
        if let label = labels[key] { return label }
        return key.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == " " }).map(\.capitalized).joined(
            separator: " "
        )
    }

    private static func url(_ text: String?) -> URL? {
        guard let text, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url
    }
}
