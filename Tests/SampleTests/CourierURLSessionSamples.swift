import Courier
import CourierURLSession
import Foundation

/// The samples of the `CourierURLSession` module (its DocC catalog), each in the context it
/// takes for granted. Nothing calls them: the build compiles them.
enum CourierURLSessionSamples {
    // MARK: - CourierURLSession.docc/CourierURLSession.md

    static func transportOverview() async throws {
        let transport = URLSessionTransport()
        defer { transport.invalidate() }
        let client = HTTPClient(transport: transport)
        let movie = try await client.send(MovieDB.movie(550).details)
        print(movie.title)
    }
}
