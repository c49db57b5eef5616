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
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, listen(listener, 4) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
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
        var interval = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
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
            var offset = 0
            while offset < chunk.count {
                let count = chunk[offset...].withUnsafeBytes {
                    send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                guard count > 0 else { return }
                offset += count
                sent.withLock { $0 += count }
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
