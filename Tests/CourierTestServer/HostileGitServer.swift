import Foundation
import GitWire
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A `git://` server on a free port of 127.0.0.1 that answers one connection the way a hostile
/// or broken server would: too many refs, too many bytes, a byte at a time, or without end.
/// It reads the client's request, then writes `answer`'s chunks until they run out or the client
/// goes away, and closes.
public final class HostileGitServer: Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    private let listener: Int32
    /// How many bytes the client took before it went away or the answer ran out.
    private let sent = Mutex(0)
    /// The total once the server is done, or who waits for it.
    private let outcome = Mutex<(total: Int?, waiter: CheckedContinuation<Int, Never>?)>((nil, nil))

    /// Starts listening and answers the first connection on a thread of its own, with the
    /// chunks `answer` returns one by one (`nil`: the answer is over). `pause` runs between
    /// chunks (a server pacing itself).
    public init(pause: Duration? = nil, answer: @escaping @Sendable () -> [UInt8]?) throws {
        let (listener, port) = try LoopbackPort.listening(backlog: 4)
        self.listener = listener
        self.port = port
        Thread { [self] in
            let connection = accept(listener, nil, nil)
            if connection >= 0 {
                serve(connection, pause: pause, answer: answer)
                close(connection)
            }
            finish()
        }.start()
    }

    deinit {
        close(listener)
    }

    /// `git://127.0.0.1:port/repository`.
    public func url(_ repository: String = "x.git") -> String { "git://127.0.0.1:\(port)/\(repository)" }

    /// The bytes the server managed to send, once it is done.
    public func bytesSent() async -> Int {
        await withCheckedContinuation { continuation in
            let total: Int? = outcome.withLock { outcome in
                if outcome.total == nil { outcome.waiter = continuation }
                return outcome.total
            }
            if let total { continuation.resume(returning: total) }
        }
    }

    // MARK: - Serving

    private func serve(_ connection: Int32, pause: Duration?, answer: @Sendable () -> [UInt8]?) {
        ServerSocket.limitWaits(of: connection)
        // The request: one packet, its length in its first four bytes.
        var request = [UInt8](repeating: 0, count: 4096)
        guard request.withUnsafeMutableBytes({ recv(connection, $0.baseAddress, $0.count, 0) }) > 0 else { return }
        var first = true
        while let chunk = answer() {
            if !first, let pause {
                let (seconds, attoseconds) = pause.components
                usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
            }
            first = false
            guard ServerSocket.write(chunk, to: connection, wrote: { count in sent.withLock { $0 += count } }) else {
                return
            }
        }
    }

    private func finish() {
        let total = sent.withLock { $0 }
        let waiter = outcome.withLock { outcome in
            outcome.total = total
            return outcome.waiter.take()
        }
        waiter?.resume(returning: total)
    }
}

/// Answers for ``HostileGitServer``.
public enum HostileAnswer {
    /// The object id every ref points at.
    public static let objectID = String(repeating: "a1", count: 20)

    /// `count` ref packets of a protocol v0 advertisement, then a flush; the first with
    /// capabilities.
    public static func refs(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for index in 0..<count { bytes += refPacket(index) }
        return bytes + Array("0000".utf8)
    }

    /// The packet of the `index`th ref.
    public static func refPacket(_ index: Int) -> [UInt8] {
        var line = "\(objectID) refs/heads/branch-\(index)"
        if index == 0 { line += "\u{0}multi_ack symref=HEAD:refs/heads/main agent=hostile/1" }
        return (try? PktLine.data(Array((line + "\n").utf8)).encoded()) ?? []
    }

    /// Chunks of `bytes`, `size` at a time.
    public static func chunks(of bytes: [UInt8], size: Int) -> @Sendable () -> [UInt8]? {
        let next = Mutex(0)
        return {
            next.withLock { offset in
                guard offset < bytes.count else { return nil }
                defer { offset += size }
                return Array(bytes[offset..<min(offset + size, bytes.count)])
            }
        }
    }

    /// A ref and then `shallow` packets without end, 64 at a time: no ref count limits them.
    public static func endlessShallowLines() -> @Sendable () -> [UInt8]? {
        let first = Mutex(true)
        let shallow = (try? PktLine.data(Array("shallow \(objectID)\n".utf8)).encoded()) ?? []
        let batch = Array([[UInt8]](repeating: shallow, count: 64).joined())
        return {
            first.withLock { isFirst in
                defer { isFirst = false }
                return isFirst ? refPacket(0) : batch
            }
        }
    }
}
