import Courier
import Foundation
import Synchronization

/// A one-line progress bar for standard error: bar, percentage, bytes and speed, redrawn in
/// place at most ten times a second. Nothing is drawn when standard error is not a terminal.
final class ProgressBar: Sendable {
    private struct State {
        var lastDraw: ContinuousClock.Instant?
        var drewSomething = false
    }

    private let start = ContinuousClock.now
    private let startBytes: Int64
    private let isTerminal = CommandContext.isTerminal(STDERR_FILENO)
    private let state = Mutex(State())

    init(startBytes: Int64 = 0) {
        self.startBytes = startBytes
    }

    /// Redraws the bar for `progress`, unless it was drawn less than 0.1 s ago.
    func update(_ progress: DownloadProgress) {
        draw(isLast: progress.fractionCompleted == 1) { now in
            Self.line(progress, elapsed: now - start, startBytes: startBytes)
        }
    }

    /// Redraws the bar for `done` items of `total`, unless it was drawn less than 0.1 s ago.
    func update(done: Int, of total: Int) {
        draw(isLast: done == total) { _ in Self.line(done: done, of: total) }
    }

    private func draw(isLast: Bool, _ line: (ContinuousClock.Instant) -> String) {
        guard isTerminal else { return }
        let now = ContinuousClock.now
        let shouldDraw = state.withLock { state in
            if let last = state.lastDraw, now - last < .milliseconds(100), !isLast {
                return false
            }
            state.lastDraw = now
            state.drewSomething = true
            return true
        }
        guard shouldDraw else { return }
        Terminal.write(Data(("\r" + line(now)).utf8), to: .standardError)
    }

    /// Ends the bar's line, if one was drawn.
    func finish() {
        if state.withLock({ $0.drewSomething }) { Terminal.write(Data("\n".utf8), to: .standardError) }
    }

    /// `[##########----------]  50%  5.0 MB of 10.0 MB  2.1 MB/s`.
    static func line(_ progress: DownloadProgress, elapsed: Duration, startBytes: Int64 = 0) -> String {
        let seconds = elapsed.seconds
        let speed = seconds > 0 ? Double(progress.bytesReceived - startBytes) / seconds : 0
        // A first report microseconds after the start can give an absurd speed: never one past Int64.
        let rate = "\(byteCount(speed < 9e18 ? Int64(speed) : .max))/s"
        guard let fraction = progress.fractionCompleted, let total = progress.expectedBytes else {
            return "\(byteCount(progress.bytesReceived))  \(rate)"
        }
        let percent = String(Int((fraction * 100).rounded(.down)))
        let paddedPercent = String(repeating: " ", count: max(0, 3 - percent.count)) + percent
        return
            "\(bar(fraction)) \(paddedPercent)%  \(byteCount(progress.bytesReceived)) of \(byteCount(total))  \(rate)"
    }

    /// `[##########----------]` for one half.
    private static func bar(_ fraction: Double) -> String {
        let width = 20
        let filled = min(width, max(0, Int((fraction * Double(width)).rounded(.down))))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }

    /// `[##########----------]  12/24`.
    static func line(done: Int, of total: Int) -> String {
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        return "\(bar(fraction))  \(done)/\(total)"
    }

    /// "512 B", "1.5 KB", "27.0 MB", "1.0 GB" (decimal units).
    static func byteCount(_ bytes: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }
}
