#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Installs and removes process signal handlers for ``StopSignal`` and ``ReloadSignal``.
///
/// A handler runs on whichever thread gets the signal and may only do async-signal-safe
/// work: theirs store to an atomic.
enum SignalHandlers {
    /// What some signals did before ``install(_:for:)``, to put back.
    struct Previous: Sendable {
        fileprivate let actions: [(Int32, sigaction)]
    }

    /// Makes `handler` run for each of `signals` from now on.
    static func install(_ handler: @convention(c) (Int32) -> Void, for signals: [Int32]) -> Previous {
        var previous: [(Int32, sigaction)] = []
        for signal in signals {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handler
            #else
            action.__sigaction_u.__sa_handler = handler
            #endif
            sigemptyset(&action.sa_mask)
            // Calls the signal interrupts on other threads go on rather than fail with EINTR.
            action.sa_flags = SA_RESTART
            var old = sigaction()
            sigaction(signal, &action, &old)
            previous.append((signal, old))
        }
        return Previous(actions: previous)
    }

    /// Puts back what the signals did before ``install(_:for:)``.
    static func restore(_ previous: Previous) {
        for (signal, action) in previous.actions {
            var action = action
            sigaction(signal, &action, nil)
        }
    }
}
