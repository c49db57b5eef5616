import CourierTestTraits
import Foundation
import LibraryKit
import Synchronization
import Testing

@testable import LibraryPostgres

/// PostgreSQL addresses, the COPY text the import writes, and the search's LIKE patterns.
@Suite(.loadLimited)
struct DatabaseURLTests {
    @Test func readsLibpqAddresses() throws {
        let url = try DatabaseURL(
            "postgresql://libr%40rian:s3cr%2Ft@[::1]:6543/my%20library?sslmode=verify-full",
            environment: [:]
        )
        #expect(url.host == "::1")
        #expect(url.port == 6543)
        #expect(url.username == "libr@rian")
        #expect(url.password == "s3cr/t")
        #expect(url.database == "my library")
        #expect(url.tlsMode == .verifyFull)
        #expect(url.description == "postgres://libr@rian:•••@[::1]:6543/my library?sslmode=verify-full")

        let fromEnvironment = try DatabaseURL("postgres://courier@db/library", environment: ["PGPASSWORD": "hunter2"])
        #expect(fromEnvironment.password == "hunter2")
        #expect(fromEnvironment.port == 5432)
        #expect(fromEnvironment.tlsMode == .prefer)
        #expect(!fromEnvironment.description.contains("hunter2"))
    }

    @Test(
        arguments: [
            ("http://courier@db/library", "is not a postgres:// URL"),
            ("postgres:///library", "names no host"),
            ("postgres://db/library", "names no user"),
            ("postgres://courier@db", "names no database"),
            ("postgres://courier@db/a/b", "names no database"),
            ("postgres://courier:hunter2@db/library?sslmode=sometimes", "has sslmode 'sometimes'"),
            ("postgres://courier:hunter2@db/library?password=x", "has the parameter 'password'"),
            ("postgres://courier:hunter2@db:0/library", "has port 0"),
        ]
    )
    func badAddressesSayWhatIsWrongWithoutThePassword(_ text: String, _ problem: String) {
        #expect(throws: DatabaseURLError.self) { try DatabaseURL(text, environment: [:]) }
        do {
            _ = try DatabaseURL(text, environment: [:])
        } catch {
            #expect(error.description.contains(problem), "\(error)")
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test func copyTextEscapesWhatCopyReads() {
        let text = CopyText.text([("a\tb", nil as String?), ("back\\slash\r\nline", "x")]) { item, row in
            row.field(item.0)
            row.field(item.1)
        }
        #expect(text == "a\\tb\t\\N\nback\\\\slash\\r\\nline\tx\n")
    }

    @Test func likePatternsMatchOnlyTheirText() {
        #expect(LibraryQueries.likePattern(prefix: "100%_\\x") == "100\\%\\_\\\\x%")
        #expect(LibraryQueries.likePattern(prefix: "") == "%")
    }

    @Test func aDeadlineEndsAWaitThatIgnoresCancellation() async throws {
        // The body ignores cancellation, as a stuck driver call would, and waits for a gate the
        // test opens only once `withDeadline` has returned; a minute later a safety opens it,
        // so that a `withDeadline` that waits for its body fails this test instead of hanging it.
        let gate = Gate()
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { gate.open(bySafety: true) }
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(.milliseconds(50)) {
                await gate.wait()
                return 1
            }
        }
        gate.open(bySafety: false)
        #expect(!gate.openedBySafety, "withDeadline waited for a body that ignored cancellation")
        #expect(try await withDeadline(.seconds(60)) { 42 } == 42)
    }

    @Test func anAbandonmentBeforeTheWaitIsKeptForIt() async throws {
        // The database was already found unreachable when the search registered: the wait must
        // end at once with that error. The body waits for a gate the test opens after
        // `withDeadline` returns (a safety opens it after a minute, so a lost abandonment fails
        // the test instead of hanging it).
        struct Unreachable: Error {}
        let gate = Gate()
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { gate.open(bySafety: true) }
        await #expect(throws: Unreachable.self) {
            try await withDeadline(
                .seconds(3600),
                abandoning: { abandon in abandon(Unreachable()) },
                {
                    await gate.wait()
                    return 1
                }
            )
        }
        gate.open(bySafety: false)
        #expect(!gate.openedBySafety, "the abandonment before the wait was lost")
    }

    /// Opened once; whoever waits is let through then.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, bySafety: Bool, waiters: [CheckedContinuation<Void, Never>])>(
            (false, false, [])
        )

        var openedBySafety: Bool { state.withLock { $0.bySafety } }

        func open(bySafety: Bool) {
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                guard !state.open else { return [] }
                state.open = true
                state.bySafety = bySafety
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }

        func wait() async {
            await withCheckedContinuation { continuation in
                let isOpen = state.withLock { state in
                    if !state.open { state.waiters.append(continuation) }
                    return state.open
                }
                if isOpen { continuation.resume() }
            }
        }
    }
}
