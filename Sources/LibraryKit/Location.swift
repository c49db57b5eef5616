/// A library: where it is and when it is open.
///
/// Encoded with the service's snake_case keys:
///
/// ```json
/// {"street_address": "Quai François Mauriac", "city": "Paris", "country": "France", "emoji": "🇫🇷", "hours": "10am–7pm"}
/// ```
public struct Location: Codable, Sendable, Hashable {
    /// The street address, without city or country.
    public var streetAddress: String
    /// The city.
    public var city: String
    /// The country, in English.
    public var country: String
    /// The country's flag.
    public var emoji: String
    /// Opening hours, such as "9am–6pm".
    public var hours: String

    /// Creates a location.
    public init(streetAddress: String, city: String, country: String, emoji: String, hours: String) {
        self.streetAddress = streetAddress
        self.city = city
        self.country = country
        self.emoji = emoji
        self.hours = hours
    }

    enum CodingKeys: String, CodingKey {
        case streetAddress = "street_address"
        case city
        case country
        case emoji
        case hours
    }
}
