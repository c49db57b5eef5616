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

    /// What SIGINT and SIGTERM did before ``trap()``, to put back.
    struct Previous: Sendable {
        fileprivate let actions: [(Int32, sigaction)]
    }

    /// Catches SIGINT and SIGTERM from now on.
    static func trap() -> Previous {
        received.store(false, ordering: .relaxed)  // initialized before the handler can run
        var previous: [(Int32, sigaction)] = []
        for signal in [SIGINT, SIGTERM] {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { _ in StopSignal.received.store(true, ordering: .relaxed) }
            #else
            action.__sigaction_u.__sa_handler = { _ in StopSignal.received.store(true, ordering: .relaxed) }
            #endif
            sigemptyset(&action.sa_mask)
            var old = sigaction()
            sigaction(signal, &action, &old)
            previous.append((signal, old))
        }
        return Previous(actions: previous)
    }

    /// Puts back what SIGINT and SIGTERM did before ``trap()``.
    static func restore(_ previous: Previous) {
        for (signal, action) in previous.actions {
            var action = action
            sigaction(signal, &action, nil)
        }
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
