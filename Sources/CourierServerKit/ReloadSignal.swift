import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGHUP, the signal that asks a server to read its files again, caught by a handler that
/// only counts it (not a Dispatch signal source: on Linux those miss signals that not every thread blocks).
///
/// ```swift
/// await ReloadSignal.handle { library.reload(force: true) }  // until the task is cancelled
/// ```
public enum ReloadSignal {
    /// SIGHUPs received; an atomic add is async-signal-safe.
    private static let received = Atomic<Int>(0)

    /// Calls `reload` after each SIGHUP (several at once count as one) until the task is
    /// cancelled, then puts back what SIGHUP did before (by default, end the process).
    public static func handle(_ reload: @Sendable () async -> Void) async {
        let previous = SignalHandlers.install(
            { _ in ReloadSignal.received.add(1, ordering: .relaxed) },
            for: [SIGHUP]
        )
        defer { SignalHandlers.restore(previous) }
        var seen = received.load(ordering: .relaxed)
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: .milliseconds(100))
            } catch {
                return
            }
            let now = received.load(ordering: .relaxed)
            if now != seen {
                seen = now
                await reload()
            }
        }
    }
}
