#if canImport(Glibc)
import Glibc
#endif

/// Ports of 127.0.0.1 for servers the tests start as programs of their own (`git daemon`,
/// PostgreSQL), which take a port number rather than choosing one.
public enum LoopbackPort {
    /// A port nothing listens on now. Another process may take it before the caller binds it:
    /// callers that can should try again with a new one.
    public static func free() throws -> Int {
        let (descriptor, port) = try bound()
        close(descriptor)
        return port
    }

    /// A port of 127.0.0.1 that refuses connections for as long as the returned socket, bound
    /// to it but not listening, stays open: no other process can take it meanwhile. The
    /// caller closes the socket.
    public static func refusing() throws -> (descriptor: Int32, port: Int) {
        try bound()
    }

    /// A socket listening on a free port of 127.0.0.1, for the servers the tests write
    /// themselves; the caller closes it.
    public static func listening(backlog: Int32 = 8) throws -> (descriptor: Int32, port: Int) {
        let (descriptor, port) = try bound()
        guard listen(descriptor, backlog) == 0 else {
            close(descriptor)
            throw LoopbackPortError()
        }
        return (descriptor, port)
    }

    /// A socket bound to a port of 127.0.0.1 that the system chose, and the port.
    private static func bound() throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackPortError() }
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
        guard bound else {
            close(descriptor)
            throw LoopbackPortError()
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// No port of 127.0.0.1 could be had.
public struct LoopbackPortError: Error, CustomStringConvertible {
    /// "cannot find a free port of 127.0.0.1".
    public var description: String { "cannot find a free port of 127.0.0.1" }
}
