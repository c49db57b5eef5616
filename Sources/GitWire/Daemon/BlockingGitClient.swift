#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("BlockingGitClient needs the BSD socket calls of Glibc or Darwin")
#endif

/// Lists a repository's refs over `git://` with blocking socket calls, as the chapter's first
/// client did: full loops for partial reads and writes, a timeout on connecting and on every
/// read, and a deadline for the whole conversation. Blocks the calling thread: call it from a
/// thread of your own, not from the Swift concurrency pool.
public struct BlockingGitClient: Sendable {
    /// The longest wait to connect, and for each read or write.
    public var timeout: Duration
    /// The longest the whole conversation may take, connecting included: a server that
    /// trickles a byte now and then cannot keep the client forever. Resolving the host name is
    /// not included (the system's resolver has its own timeouts).
    public var deadline: Duration
    /// How many refs and bytes the server may send.
    public var limits: GitLimits

    /// A client with `timeout` per step and `deadline` for the whole conversation, reading at
    /// most `limits`. Values longer than a year count as a year, and shorter than a
    /// millisecond as a millisecond.
    ///
    /// ```swift
    /// let client = BlockingGitClient(timeout: .seconds(5), deadline: .seconds(60))
    /// let advertisement = try client.lsRemote(try GitURL("git://127.0.0.1/project.git"), symref: true)
    /// ```
    ///
    /// - Precondition: `timeout` and `deadline` are more than zero.
    public init(timeout: Duration = .seconds(10), deadline: Duration = .seconds(300), limits: GitLimits = .default) {
        precondition(timeout > .zero && deadline > .zero, "timeout and deadline must be more than zero")
        self.timeout = timeout
        self.deadline = deadline
        self.limits = limits
    }

    /// The refs `url` advertises, over protocol `version` (0 or 2).
    ///
    /// - Throws: ``GitWireError``: ``GitWireError/timedOut(_:after:)`` when a step takes
    ///   longer than `timeout` or the whole conversation longer than `deadline`,
    ///   ``GitWireError/limitExceeded(_:reason:)`` when the server sends more than `limits`.
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
        let clock = Clock(timeout: timeout, deadline: deadline, address: address)
        let descriptor = try openConnection(url, clock)
        defer { close(descriptor) }
        try write(request(url, protocolVersion), to: descriptor, clock)
        var reader = AdvertisementReader(address: address, limits: limits)
        var decoder = PktLineDecoder()
        var sentLsRefs = false
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while reader.state != .finished {
            if reader.state == .awaitingRefs, !sentLsRefs {
                sentLsRefs = true
                try write(reader.lsRefsRequest(heads: heads, tags: tags, symref: symref), to: descriptor, clock)
            }
            if let packet = try wrap(address, { () throws(PktLineError) in try decoder.next() }) {
                _ = try reader.read(packet)
                continue
            }
            // The decoder holds less than one packet now: reading at most 64 KiB keeps it small.
            try clock.wait(for: descriptor, events: POLLIN)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += count
                try limits.check(bytes: received, address: address)
                decoder.append(buffer[..<count])
            } else if count == 0 {
                throw .connectionLost(address)
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                throw .timedOut(address, after: Clock.used(timeout))
            } else if errno != EINTR {
                throw .connectionLost(address)
            }
        }
        // Tell the server the conversation is over, as git does.
        try? write(Array("0000".utf8), to: descriptor, clock)
        return reader.advertisement
    }

    // MARK: - Socket

    private func request(_ url: GitURL, _ version: Int) throws(GitWireError) -> [UInt8] {
        try wrap(url.description) { () throws(PktLineError) in try url.uploadPackRequest(protocolVersion: version) }
    }

    /// A connected socket to `url`'s first address that accepts, within the clock's time.
    private func openConnection(_ url: GitURL, _ clock: Clock) throws(GitWireError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Socket.stream
        var results: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(url.host, String(url.port), &hints, &results) == 0, let first = results else {
            throw .hostNotFound(url.description)
        }
        defer { freeaddrinfo(results) }
        var refused = false
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard descriptor >= 0 else { continue }
            let failure: Int32
            do throws(GitWireError) {
                failure = try connect(descriptor, to: info.pointee, clock)
            } catch {
                close(descriptor)
                throw error
            }
            if failure == 0 { return descriptor }
            close(descriptor)
            if failure == ECONNREFUSED { refused = true }
        }
        throw refused ? .connectionRefused(url.description) : .connectionLost(url.description)
    }

    /// Connects `descriptor` without waiting longer than the clock allows: 0, or why the
    /// address failed. Leaves the socket blocking, with the step timeout on reads and writes.
    private func connect(_ descriptor: Int32, to info: addrinfo, _ clock: Clock) throws(GitWireError) -> Int32 {
        Socket.configure(descriptor, milliseconds: Clock.milliseconds(timeout))
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(descriptor, F_SETFL, flags) }
        if Socket.connect(descriptor, info.ai_addr, info.ai_addrlen) == 0 { return 0 }
        guard errno == EINPROGRESS || errno == EINTR else { return errno }
        try clock.wait(for: descriptor, events: POLLOUT)
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 else { return errno }
        return failure
    }

    /// Writes all of `bytes`, however many calls the kernel needs.
    private func write(_ bytes: [UInt8], to descriptor: Int32, _ clock: Clock) throws(GitWireError) {
        var sent = 0
        while sent < bytes.count {
            try clock.wait(for: descriptor, events: POLLOUT)
            let count = bytes[sent...].withUnsafeBytes { rest in
                send(descriptor, rest.baseAddress, rest.count, Socket.sendFlags)
            }
            if count > 0 {
                sent += count
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                throw .timedOut(clock.address, after: Clock.used(timeout))
            } else {
                throw .connectionLost(clock.address)
            }
        }
    }
}

// MARK: - Time

extension BlockingGitClient {
    /// The step timeout and the conversation's deadline, measured on the monotonic clock.
    private struct Clock {
        let timeout: Duration
        let deadline: Duration
        let address: String
        private let end: ContinuousClock.Instant

        init(timeout: Duration, deadline: Duration, address: String) {
            self.timeout = timeout
            self.deadline = deadline
            self.address = address
            end = ContinuousClock.now.advanced(by: .milliseconds(Self.milliseconds(deadline)))
        }

        /// Waits until `descriptor` is ready for `events`, at most the step timeout and never
        /// past the deadline.
        ///
        /// - Throws: ``GitWireError/timedOut(_:after:)`` with the timeout or the deadline,
        ///   whichever ran out.
        func wait(for descriptor: Int32, events: Int32) throws(GitWireError) {
            while true {
                let (seconds, attoseconds) = ContinuousClock.now.duration(to: end).components
                let left = seconds * 1000 + attoseconds / 1_000_000_000_000_000  // within a year: no overflow
                let step = Self.milliseconds(timeout)
                guard left > 0 else { throw .timedOut(address, after: Self.used(deadline)) }
                var request = pollfd(fd: descriptor, events: Int16(events), revents: 0)
                let ready = poll(&request, 1, Int32(min(step, left, Int64(Int32.max))))
                if ready > 0 { return }
                if ready < 0, errno == EINTR { continue }
                if ready < 0 { throw .connectionLost(address) }
                throw .timedOut(address, after: Self.used(step <= left ? timeout : deadline))
            }
        }

        /// The time a `duration` given stands for here: whole milliseconds, at least 1, at
        /// most a year.
        static func used(_ duration: Duration) -> Duration {
            .milliseconds(milliseconds(duration))
        }

        /// `duration` as whole milliseconds, at least 1 and at most a year: a huge value
        /// cannot overflow the conversion.
        static func milliseconds(_ duration: Duration) -> Int64 {
            let year = Duration.seconds(365 * 24 * 3600)
            let (seconds, attoseconds) = max(.milliseconds(1), min(duration, year)).components
            return seconds * 1000 + attoseconds / 1_000_000_000_000_000
        }
    }
}

// MARK: - Platforms

/// The socket calls and constants that differ between Glibc and Darwin.
private enum Socket {
    #if canImport(Glibc)
    /// `SOCK_STREAM`: an enum case in Glibc.
    static let stream = Int32(SOCK_STREAM.rawValue)
    /// Glibc reports a closed peer as `EPIPE` instead of raising `SIGPIPE` when asked per call.
    static let sendFlags = Int32(MSG_NOSIGNAL)
    #elseif canImport(Darwin)
    /// `SOCK_STREAM`: a plain constant in Darwin.
    static let stream = SOCK_STREAM
    /// Darwin has no `MSG_NOSIGNAL`; the socket is set to `SO_NOSIGPIPE` instead.
    static let sendFlags: Int32 = 0
    #endif

    /// Sets the step timeout on reads and writes and, on Darwin, turns off `SIGPIPE`.
    static func configure(_ descriptor: Int32, milliseconds: Int64) {
        var interval = timeval(
            tv_sec: time_t(milliseconds / 1000),
            tv_usec: suseconds_t(milliseconds % 1000 * 1000)
        )
        let size = socklen_t(MemoryLayout<timeval>.size)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, size)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &interval, size)
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// The system's `connect`, which `BlockingGitClient.connect` hides.
    static func connect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.connect(descriptor, address, length)
        #elseif canImport(Darwin)
        Darwin.connect(descriptor, address, length)
        #endif
    }
}
