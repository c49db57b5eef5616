#if canImport(Glibc)
import Glibc
#endif

/// The blocking socket calls of the servers the tests write themselves (``HostileGitServer``,
/// ``ScriptedHTTPServer``), each serving a connection on a thread of its own.
enum ServerSocket {
    /// Makes reads and writes on `connection` fail after 20 s without progress, so that a
    /// client that went quiet cannot keep a server's thread for ever.
    static func limitWaits(of connection: Int32) {
        var interval = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes all of `bytes` to `connection`, calling `wrote` with each write's count; `false`
    /// once the client has gone away.
    static func write(_ bytes: [UInt8], to connection: Int32, wrote: (Int) -> Void = { _ in }) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            offset += count
            wrote(count)
        }
        return true
    }
}
