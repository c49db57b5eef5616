import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lists a repository's refs over `git://` with blocking socket calls, as the chapter's first
/// client did: full loops for partial reads and writes, and a timeout on connecting and on
/// every read. Blocks the calling thread: call it from a thread of your own, not from the Swift
/// concurrency pool.
public struct BlockingGitClient: Sendable {
    /// The longest wait to connect, and for each read.
    public var timeout: Double

    /// A client with `timeout` seconds per step.
    public init(timeout: Double = 10) {
        self.timeout = timeout
    }

    /// The refs `url` advertises, over protocol `version` (0 or 2).
    ///
    /// - Throws: ``GitWireError``.
    @available(*, noasync, message: "blocks the thread; call it from a thread of your own")
    public func lsRemote(
        _ url: GitURL,
        protocolVersion: Int = 0,
        heads: Bool = false,
        tags: Bool = false,
        symref: Bool = false
    )
        throws(GitWireError) -> RefAdvertisement
    {
        let address = url.description
        let socket = try connect(url)
        defer { close(socket) }
        try send(request(url, protocolVersion), to: socket, address: address)
        var reader = AdvertisementReader(address: address)
        var decoder = PktLineDecoder()
        var sentLsRefs = false
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while reader.state != .finished {
            if reader.state == .awaitingRefs, !sentLsRefs {
                sentLsRefs = true
                let format = reader.advertisement.capabilities.first { $0.hasPrefix("object-format=") }
                    .map { String($0.dropFirst(14)) }
                try send(
                    wrap(address) { () throws(PktLineError) in
                        try AdvertisementReader.lsRefsRequest(
                            heads: heads,
                            tags: tags,
                            symref: symref,
                            objectFormat: format
                        )
                    },
                    to: socket,
                    address: address
                )
            }
            if let packet = try wrap(address, { () throws(PktLineError) in try decoder.next() }) {
                _ = try reader.read(packet)
                continue
            }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                decoder.append(buffer[..<count])
            } else if count == 0 {
                throw .connectionLost(address)
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                throw .timedOut(address, seconds: timeout)
            } else if errno != EINTR {
                throw .connectionLost(address)
            }
        }
        // Tell the server the conversation is over, as git does.
        try? send(Array("0000".utf8), to: socket, address: address)
        return reader.advertisement
    }

    // MARK: - Socket

    private func request(_ url: GitURL, _ version: Int) throws(GitWireError) -> [UInt8] {
        try wrap(url.description) { () throws(PktLineError) in try url.uploadPackRequest(protocolVersion: version) }
    }

    private func connect(_ url: GitURL) throws(GitWireError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(url.host, String(url.port), &hints, &results) == 0, let first = results else {
            throw .hostNotFound(url.description)
        }
        defer { freeaddrinfo(results) }
        var refused = false
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let socket = Glibc.socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard socket >= 0 else { continue }
            var interval = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
            if Glibc.connect(socket, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return socket }
            let failure = errno
            close(socket)
            if failure == ECONNREFUSED { refused = true }
            if failure == EINPROGRESS || failure == EAGAIN || failure == ETIMEDOUT {
                throw .timedOut(url.description, seconds: timeout)
            }
        }
        throw refused ? .connectionRefused(url.description) : .connectionLost(url.description)
    }

    /// Writes all of `bytes`, however many calls the kernel needs.
    private func send(_ bytes: [UInt8], to socket: Int32, address: String) throws(GitWireError) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { rest in
                Glibc.send(socket, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                throw .timedOut(address, seconds: timeout)
            } else {
                throw .connectionLost(address)
            }
        }
    }
}

/// Runs `body`, turning a framing error into ``GitWireError/malformed(_:reason:)``.
func wrap<Result>(_ address: String, _ body: () throws(PktLineError) -> Result) throws(GitWireError) -> Result {
    do {
        return try body()
    } catch {
        throw .malformed(address, reason: error.description)
    }
}
