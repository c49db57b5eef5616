public import Foundation

/// Loads test fixtures — recorded responses kept as files in a test target's resources
/// (seed 004's `Mockable`).
///
/// Declare the folder as a resource of the test target, `resources: [.copy("Fixtures")]`, then:
///
/// ```swift
/// let fixtures = Fixtures(bundle: .module)
/// let page = try fixtures.decode(TopRatedPage.self, from: "top_rated.json", decoder: snakeCase)
/// stub.on(.get, "/3/movie/top_rated", try .fixture("top_rated.json", in: fixtures))
/// ```
public struct Fixtures: Sendable {
    private let directory: URL

    /// Fixtures in `subdirectory` of `bundle`'s resources.
    public init(bundle: Bundle, subdirectory: String = "Fixtures") {
        self.directory =
            bundle.resourceURL?.appendingPathComponent(subdirectory, isDirectory: true)
            ?? bundle.bundleURL.appendingPathComponent(subdirectory, isDirectory: true)
    }

    /// Fixtures in a directory.
    public init(directory: URL) {
        self.directory = directory
    }

    // MARK: - Loading

    /// The URL of the fixture `name` (a file name with its extension).
    ///
    /// - Throws: ``FixtureError/notFound(_:directory:)`` naming the folder searched.
    public func url(_ name: String) throws(FixtureError) -> URL {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .notFound(name, directory: directory.path)
        }
        return url
    }

    /// The bytes of the fixture `name`.
    public func data(_ name: String) throws(FixtureError) -> Data {
        let url = try url(name)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .unreadable(name, reason: "\(error)")
        }
    }

    /// The fixture `name` decoded as JSON.
    public func decode<Value: Decodable>(
        _ type: Value.Type = Value.self,
        from name: String,
        decoder: JSONDecoder = JSONDecoder()
    ) throws(FixtureError) -> Value {
        let data = try data(name)
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw .undecodable(name, type: String(reflecting: type), reason: "\(error)")
        }
    }
}

/// Why a fixture could not be loaded.
public enum FixtureError: Error, CustomStringConvertible {
    /// No file of that name in the fixtures folder.
    case notFound(String, directory: String)
    /// The file exists but could not be read.
    case unreadable(String, reason: String)
    /// The file did not decode to the type asked for.
    case undecodable(String, type: String, reason: String)

    /// The message, naming the fixture and what to do.
    public var description: String {
        switch self {
        case .notFound(let name, let directory):
            "No fixture '\(name)' in \(directory): add it, and declare the folder with resources: [.copy(\"Fixtures\")]."
        case .unreadable(let name, let reason):
            "Could not read fixture '\(name)': \(reason)."
        case .undecodable(let name, let type, let reason):
            "Fixture '\(name)' does not decode as \(type): \(reason)."
        }
    }
}
