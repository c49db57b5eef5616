public import Foundation
public import HTTPTypes

/// Recorded HTTP exchanges, stored as readable JSON: each request's method, URL, header fields
/// and body, and the response's status, header fields and body. Credentials (Authorization,
/// cookies, API-key fields and query items) are replaced by `REDACTED` when recorded.
///
/// Record with ``CassetteRecorder``, replay in tests with ``ReplayTransport``, or serve one on
/// 127.0.0.1 with `courier replay CASSETTE`.
///
/// ```json
/// {"version": 1, "interactions": [{
///   "request": {"method": "GET", "url": "https://api.example.com/movies?page=1", "headers": [["Accept", "application/json"]]},
///   "response": {"status": 200, "headers": [["Content-Type", "application/json"]], "body": "{\"page\":1}"}
/// }]}
/// ```
public struct Cassette: Codable, Sendable, Equatable {
    /// The format's version; this code writes and reads 1.
    public var version = 1
    /// The exchanges, in the order they happened.
    public var interactions: [Interaction]

    /// A cassette of `interactions`.
    public init(interactions: [Interaction] = []) {
        self.interactions = interactions
    }

    /// One request and the response it got.
    public struct Interaction: Codable, Sendable, Equatable {
        /// What was sent.
        public var request: Request
        /// What came back.
        public var response: Response

        /// An exchange.
        public init(request: Request, response: Response) {
            self.request = request
            self.response = response
        }
    }

    /// A recorded request.
    public struct Request: Codable, Sendable, Equatable {
        /// `GET`, `POST`, ….
        public var method: String
        /// The absolute URL, secrets redacted.
        public var url: String
        /// Header fields as `[name, value]` pairs, in order, secrets redacted.
        public var headers: [[String]]
        /// The body, if any.
        public var body: Body?

        /// A request.
        public init(method: String, url: String, headers: [[String]] = [], body: Body? = nil) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }
    }

    /// A recorded response.
    public struct Response: Codable, Sendable, Equatable {
        /// The status code.
        public var status: Int
        /// Header fields as `[name, value]` pairs, in order, secrets redacted.
        public var headers: [[String]]
        /// The body, if any.
        public var body: Body?

        /// A response.
        public init(status: Int, headers: [[String]] = [], body: Body? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// The header fields as `HTTPFields` (pairs with invalid names are left out).
        public var headerFields: HTTPFields {
            var fields = HTTPFields()
            for pair in headers where pair.count == 2 {
                if let name = HTTPField.Name(pair[0]) { fields.append(HTTPField(name: name, value: pair[1])) }
            }
            return fields
        }
    }

    /// A body: text when it is UTF-8, else base64.
    public struct Body: Codable, Sendable, Equatable {
        /// The bytes.
        public var data: Data

        /// A body of `data`.
        public init(_ data: Data) {
            self.data = data
        }

        private enum CodingKeys: String, CodingKey {
            case text
            case base64
        }

        /// Reads `{"text": …}` or `{"base64": …}`, or a bare string as text.
        public init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                data = Data(text.utf8)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let base64 = try container.decodeIfPresent(String.self, forKey: .base64) {
                guard let decoded = Data(base64Encoded: base64) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .base64,
                        in: container,
                        debugDescription: "not valid base64"
                    )
                }
                data = decoded
            } else {
                data = Data(try container.decode(String.self, forKey: .text).utf8)
            }
        }

        /// Writes UTF-8 bodies as a plain string, others as `{"base64": …}`.
        public func encode(to encoder: any Encoder) throws {
            if let text = String(data: data, encoding: .utf8) {
                var container = encoder.singleValueContainer()
                try container.encode(text)
            } else {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(data.base64EncodedString(), forKey: .base64)
            }
        }
    }

    // MARK: - Files

    /// Reads a cassette file.
    ///
    /// - Throws: ``CassetteError`` naming the file and what is wrong with it.
    public static func load(from file: URL) throws(CassetteError) -> Cassette {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw CassetteError(file: file.path, reason: "cannot be read (\((error as NSError).localizedDescription))")
        }
        return try decode(data, name: file.path)
    }

    /// Reads a cassette from its JSON, as ``load(from:)`` reads a file's.
    ///
    /// - Parameters:
    ///   - data: The cassette's JSON.
    ///   - name: Where it comes from, for errors (a path, "Examples/store.json").
    /// - Throws: ``CassetteError`` naming `name` and what is wrong with the cassette.
    public static func decode(_ data: Data, name: String) throws(CassetteError) -> Cassette {
        let cassette: Cassette
        do {
            cassette = try JSONDecoder().decode(Cassette.self, from: data)
        } catch {
            throw CassetteError(file: name, reason: "is not a cassette: \(error)")
        }
        for (index, interaction) in cassette.interactions.enumerated()
        where !Self.finalStatuses.contains(interaction.response.status) {
            let request = interaction.request
            throw CassetteError(
                file: name,
                reason: "has an impossible status in entry \(index + 1) (\(request.method) \(request.url)): "
                    + "\(interaction.response.status) is not a final HTTP status (200…999)"
            )
        }
        return cassette
    }

    /// The statuses a recorded response can have: a final status of three digits.
    static let finalStatuses = 200...999

    /// Writes the cassette as pretty-printed JSON with sorted keys, replacing `file` in one step.
    public func write(to file: URL) throws(CassetteError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try encoder.encode(self).write(to: file, options: .atomic)
        } catch {
            throw CassetteError(
                file: file.path,
                reason: "cannot be written (\((error as NSError).localizedDescription))"
            )
        }
    }
}

/// A cassette file that cannot be used.
public struct CassetteError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// What is wrong.
    public var reason: String

    /// "Cassette /path is not a cassette: …".
    public var description: String { "Cassette \(file) \(reason)." }
}
