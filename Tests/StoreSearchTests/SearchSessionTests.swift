import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import CourierTestTraits
import Foundation
import StoreSearch
import Testing

/// Search as you type against the loopback store: the newest search wins, the others end
/// silently, a real failure is reported once.
@Suite(.loadLimited)
struct SearchSessionTests {
    @Test func aNewSearchSupersedesTheOneInFlight() async throws {
        try await TestServer.withRunning { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
                let session = SearchSession(
                    store: HTTPClient(
                        transport: transport,
                        configuration: .iTunesStore(baseURL: server.baseURL, timeout: .seconds(60))
                    )
                )
                let slow = Task { try await session.search("hold:slow:king", category: .music) }
                try await server.events.waitForQueries(for: "search")
                let latest = try await session.search("king", category: .software)
                #expect(latest?.results.map(\.type).allSatisfy { $0 == "App" } == true)
                #expect(latest?.results.count == 2)
                let superseded = try await slow.value
                #expect(superseded == nil, "a superseded search delivers nothing, and no error")
                await server.events.release("slow")
            }
        }
    }

    @Test func aCategoryChangeSupersedesToo() async throws {
        try await TestServer.withRunning { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
                let session = SearchSession(
                    store: HTTPClient(
                        transport: transport,
                        configuration: .iTunesStore(baseURL: server.baseURL, timeout: .seconds(60))
                    )
                )
                async let first = session.search("hold:first:king", category: .ebook)
                try await server.events.waitForQueries(for: "search")
                let second = try await session.search("king", category: .podcast)
                #expect(try await first == nil)
                await server.events.release("first")
                #expect(second?.results.map(\.type) == ["Podcast"])
            }
        }
    }

    @Test func cancelEndsTheSearchSilently() async throws {
        try await TestServer.withRunning { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
                let session = SearchSession(
                    store: HTTPClient(
                        transport: transport,
                        configuration: .iTunesStore(baseURL: server.baseURL, timeout: .seconds(60))
                    )
                )
                let pending = Task { try await session.search("hold:pending:king") }
                try await server.events.waitForQueries(for: "search")
                await session.cancel()
                #expect(try await pending.value == nil)
                await server.events.release("pending")
            }
        }
    }

    @Test func aRealFailureIsReportedOnceToItsOwnCaller() async throws {
        try await TestServer.withRunning { server in
            try await AsyncHTTPClientTransport.withTransport(configuration: .loopbackTests) { transport in
                let session = SearchSession(
                    store: HTTPClient(
                        transport: transport,
                        configuration: .iTunesStore(baseURL: server.baseURL, timeout: .seconds(60))
                    )
                )
                var failures: [RequestError] = []
                do throws(RequestError) {
                    _ = try await session.search("king", country: "usa")
                } catch {
                    failures.append(error)
                }
                #expect(failures.count == 1)
                #expect(failures.first?.category == .clientError)
                // The session is not stuck: the next search works.
                let next = try await session.search("king")
                #expect(next?.results.count == 16)
            }
        }
    }
}
