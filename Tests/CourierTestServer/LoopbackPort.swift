#if canImport(Glibc)
import Glibc
#endif

/// Ports of 127.0.0.1 for servers the tests start as programs of their own (`git daemon`,
/// PostgreSQL), which take a port number rather than choosing one.
public enum LoopbackPort {
    /// A port nothing listens on now. Another process may take it before the caller binds it:
    /// callers that can should try again with a new one.
    public static func free() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackPortError() }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw LoopbackPortError() }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// No port of 127.0.0.1 could be had.
public struct LoopbackPortError: Error, CustomStringConvertible {
    /// "cannot find a free port of 127.0.0.1".
    public var description: String { "cannot find a free port of 127.0.0.1" }
}
