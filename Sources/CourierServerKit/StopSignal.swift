import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM, caught by a handler of its own that only sets a flag, which
/// ``wait()`` looks at ten times a second.
///
/// Not a Dispatch signal source: on Linux those read a `signalfd`, which only sees a signal
/// that every thread blocks, and a server's threads (NIO's event loops, the concurrency pool)
/// were started without blocking it — the kernel could hand the signal to one of them, and
/// Ctrl-C was lost now and then. A handler runs on whichever thread gets the signal.
enum StopSignal {
    /// Set by the handler; an atomic store is async-signal-safe.
    private static let received = Atomic<Bool>(false)

    /// Catches SIGINT and SIGTERM from now on; returns what they did before, for ``restore(_:)``.
    static func trap() -> SignalHandlers.Previous {
        received.store(false, ordering: .relaxed)  // initialized before the handler can run
        return SignalHandlers.install(
            { _ in StopSignal.received.store(true, ordering: .relaxed) },
            for: [SIGINT, SIGTERM]
        )
    }

    /// Puts back what SIGINT and SIGTERM did before ``trap()``.
    static func restore(_ previous: SignalHandlers.Previous) {
        SignalHandlers.restore(previous)
    }

    /// Returns once SIGINT or SIGTERM has come since ``trap()``, or when the task is cancelled.
    static func wait() async {
        while !received.load(ordering: .relaxed) {
            do {
                try await Task.sleep(for: .milliseconds(100))
            } catch {
                return
            }
        }
    }
}
