import CourierTestTraits
import CourierTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

@testable import Courier

/// Credentials that renew: once for every waiting request, never in a loop.
@Suite(.loadLimited, .hangGuard)
struct AuthenticatorTests {
    /// A service that accepts one token at a time and counts what it refused. It holds its
    /// refusals until `holding` requests have been refused, so that that many are in flight
    /// with the old credential at once, whatever the scheduling.
    final class Service: HTTPTransport, Sendable {
        private let state = Mutex(
            (valid: "", refused: 0, accepted: 0, seen: [String](), held: [CheckedContinuation<Void, Never>]())
        )
        private let holding: Int

        init(valid: String, holding: Int = 1) {
            self.holding = holding
            state.withLock { $0.valid = valid }
        }

        var refused: Int { state.withLock { $0.refused } }
        var accepted: Int { state.withLock { $0.accepted } }
        var seen: [String] { state.withLock { $0.seen } }

        func send(_ request: PreparedRequest) async throws(RequestError) -> RawResponse {
            let token = request.head.headerFields[.authorization] ?? ""
            let valid = state.withLock { state in
                state.seen.append(token)
                if token == "Bearer \(state.valid)" { state.accepted += 1 }
                return token == "Bearer \(state.valid)"
            }
            guard !valid else {
                return RawResponse(
                    head: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
                    body: Data(#"{"ok":true}"#.utf8),
                    url: request.url
                )
            }
            await withCheckedContinuation { continuation in
                let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.refused += 1
                    state.held.append(continuation)
                    guard state.refused >= holding else { return [] }
                    defer { state.held.removeAll() }
                    return state.held
                }
                for held in released { held.resume() }
            }
            return RawResponse(head: HTTPResponse(status: .unauthorized), url: request.url)
        }
    }

    /// Counts calls to `refresh`.
    final class Refreshes: Sendable {
        private let count = Atomic(0)
        var value: Int { count.load(ordering: .relaxed) }
        func add() { count.add(1, ordering: .relaxed) }
    }

    static func bearer(_ token: String, _ request: inout PreparedRequest) {
        request.head.headerFields[.authorization] = "Bearer \(token)"
    }

    /// A client of `service` whose authenticator puts a bearer token on each request.
    static func client(
        of service: Service,
        credential: String? = nil,
        refresh: @escaping @Sendable (String?) async throws -> String,
        needsRefresh: @escaping @Sendable (String) -> Bool = { _ in false }
    ) -> HTTPClient {
        let authenticator = Authenticator<String>(
            credential: credential,
            apply: bearer,
            refresh: refresh,
            needsRefresh: needsRefresh
        )
        return HTTPClient(transport: service, configuration: .init(middleware: [authenticator]))
    }

    static let endpoint = Endpoint<JSONValue>(host: "api.test", path: "/me")

    static func sendConcurrently(_ count: Int, with client: HTTPClient) async -> [Result<JSONValue, RequestError>] {
        await withTaskGroup(of: Result<JSONValue, RequestError>.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do throws(RequestError) {
                        return .success(try await client.send(Self.endpoint))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var results: [Result<JSONValue, RequestError>] = []
            for await result in group { results.append(result) }
            return results
        }
    }

    @Test func fiftyRefusedRequestsRenewOnceAndAreEachSentAgainOnce() async throws {
        // All fifty are refused together: none can pick up a renewed credential before it is refused.
        let service = Service(valid: "t2", holding: 50)
        let refreshes = Refreshes()
        let client = Self.client(
            of: service,
            credential: "t1",
            refresh: { expired in
                refreshes.add()
                #expect(expired == "t1")
                return "t2"
            }
        )
        let results = await Self.sendConcurrently(50, with: client)
        #expect(results.allSatisfy { (try? $0.get())?[path: "ok"] == .bool(true) })
        #expect(refreshes.value == 1)
        #expect(service.refused == 50)
        #expect(service.accepted == 50)
        // Later requests use the renewed token at once.
        _ = try await client.send(Self.endpoint)
        #expect(refreshes.value == 1)
        #expect(service.seen.last == "Bearer t2")
    }

    @Test func aKnownExpiryRenewsBeforeAnythingIsSent() async throws {
        let service = Service(valid: "fresh")
        let refreshes = Refreshes()
        let client = Self.client(
            of: service,
            credential: "stale",
            refresh: { _ in
                refreshes.add()
                return "fresh"
            },
            needsRefresh: { $0 == "stale" }
        )
        let results = await Self.sendConcurrently(50, with: client)
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        #expect(refreshes.value == 1)
        #expect(service.refused == 0, "the stale token was never sent")
    }

    @Test func withoutACredentialTheFirstRequestGetsOne() async throws {
        let service = Service(valid: "first")
        let asked = Mutex<[String?]>([])
        let client = Self.client(
            of: service,
            refresh: { expired in
                asked.withLock { $0.append(expired) }
                return "first"
            }
        )
        _ = try await client.send(Self.endpoint)
        _ = try await client.send(Self.endpoint)
        #expect(asked.withLock { $0 } == [nil])
    }

    @Test func aFailedRenewalFailsEveryWaitingRequestWithItsError() async throws {
        struct SignInRequired: Error, CustomStringConvertible {
            var description: String { "the refresh token expired; see https://auth.test/help?token=secret1" }
        }
        let service = Service(valid: "never", holding: 50)
        let refreshes = Refreshes()
        let client = Self.client(
            of: service,
            credential: "t1",
            refresh: { _ in
                refreshes.add()
                throw SignInRequired()
            }
        )
        let results = await Self.sendConcurrently(50, with: client)
        #expect(refreshes.value == 1)
        #expect(service.refused == 50, "none was sent again")
        for result in results {
            guard case .failure(.authentication(let failure)) = result else {
                Issue.record("got \(result)")
                continue
            }
            #expect(failure.cause is SignInRequired)
            #expect(failure.reason.contains("token=REDACTED"), "\(failure.reason)")
            #expect(!RequestError.authentication(failure).message.contains("secret1"))
            #expect(RequestError.authentication(failure).category == .clientError)
        }

        // The token endpoint's own failure passes through as it is.
        let denied = RequestError.clientError(
            HTTPFailure(
                request: RequestSummary(method: "POST", url: "https://auth.test/token"),
                status: 400,
                reason: ""
            )
        )
        let passing = Authenticator<String>(credential: "t1", apply: Self.bearer, refresh: { _ in throw denied })
        let other = HTTPClient(transport: service, configuration: .init(middleware: [passing]))
        let error = await #expect(throws: RequestError.self) { try await other.send(Self.endpoint) }
        #expect(error?.httpFailure?.status == 400)
    }

    @Test func aRenewedCredentialRefusedAgainIsTheAnswer() async throws {
        let service = Service(valid: "nothing works")
        let refreshes = Refreshes()
        let client = Self.client(
            of: service,
            credential: "t0",
            refresh: { _ in
                refreshes.add()
                return "t\(refreshes.value)"
            }
        )
        for attempt in 1...3 {
            let error = await #expect(throws: RequestError.self) { try await client.send(Self.endpoint) }
            guard case .unauthorized = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            // One renewal and one resend a request, never more.
            #expect(refreshes.value == attempt)
            #expect(service.refused == attempt * 2)
        }
        #expect(service.seen == ["Bearer t0", "Bearer t1", "Bearer t1", "Bearer t2", "Bearer t2", "Bearer t3"])
    }

    @Test func aBodyThatCannotBeReadTwiceIsNotSentAgain() async throws {
        let service = Service(valid: "t2")
        let authenticator = Authenticator<String>(credential: "t1", apply: Self.bearer, refresh: { _ in "t2" })
        let client = HTTPClient(transport: service, configuration: .init(middleware: [authenticator]))
        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(Data("once".utf8))
            continuation.finish()
        }
        let upload = Endpoint<Data>(method: .post, host: "api.test", path: "/upload", body: .stream(chunks))
        let error = await #expect(throws: RequestError.self) { try await client.send(upload) }
        guard case .unauthorized = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(service.refused == 1)
        // The credential was renewed all the same: the next request goes with the new one.
        _ = try await client.send(Self.endpoint)
        #expect(service.seen.last == "Bearer t2")
        #expect(service.refused == 1)
    }
}
