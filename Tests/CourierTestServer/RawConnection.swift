import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection to a port of 127.0.0.1, for what an HTTP client will not do: stay
/// silent, or send a `Host` of its choosing. Reads block, so they run on a thread of their own.
public final class RawConnection: Sendable {
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port`.
    public init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED)
        }
    }

    deinit { Glibc.close(descriptor) }

    /// Sends `text` as it is.
    public func send(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What arrives within `timeout` seconds — or until what arrived contains `marker` — and
    /// whether the other side closed (or reset) the connection in that time.
    public func read(for timeout: Int, until marker: String? = nil) async -> (text: String, closed: Bool) {
        await withCheckedContinuation { continuation in
            Thread { [descriptor] in
                var limit = timeval(tv_sec: timeout, tv_usec: 0)
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                var received: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = recv(descriptor, &buffer, buffer.count, 0)
                    if count > 0 {
                        received += buffer[..<count]
                        if let marker, String(decoding: received, as: UTF8.self).contains(marker) {
                            continuation.resume(returning: (String(decoding: received, as: UTF8.self), false))
                            return
                        }
                        continue
                    }
                    if count < 0, errno == EINTR { continue }
                    // A reset is the other side closing too (it had unread bytes, or it exited).
                    let closed = count == 0 || errno == ECONNRESET
                    continuation.resume(returning: (String(decoding: received, as: UTF8.self), closed))
                    return
                }
            }.start()
        }
    }
}
