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

    /// How many ``handle(_:)`` calls are running, and what SIGHUP did before the first: the
    /// handler stays until the last one ends, then that is put back.
    private static let installed = Mutex<(count: Int, previous: SignalHandlers.Previous?)>((0, nil))

    private static func install() {
        installed.withLock { installed in
            if installed.count == 0 {
                installed.previous = SignalHandlers.install(
                    { _ in ReloadSignal.received.add(1, ordering: .relaxed) },
                    for: [SIGHUP]
                )
            }
            installed.count += 1
        }
    }

    private static func uninstall() {
        installed.withLock { installed in
            installed.count -= 1
            if installed.count == 0, let previous = installed.previous {
                SignalHandlers.restore(previous)
                installed.previous = nil
            }
        }
    }

    /// Calls `reload` after each SIGHUP (several at once count as one) until the task is
    /// cancelled, then puts back what SIGHUP did before (by default, end the process).
    public static func handle(_ reload: @Sendable () async -> Void) async {
        // Initialized before the handler can run: the handler must not be the first to touch it.
        var seen = received.load(ordering: .relaxed)
        install()
        defer { uninstall() }
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
