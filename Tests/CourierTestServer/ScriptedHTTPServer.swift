public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on a free port of 127.0.0.1 that answers connections by a script, for what
/// a well-behaved server does not do: close a connection as a request arrives on it, as a server
/// does whose idle timeout ends just as a client reuses the connection.
///
/// Connection after connection, it reads one request head, then writes the next of its answers
/// and closes; an empty answer closes without a word. Once the answers run out, it stops
/// listening.
public final class ScriptedHTTPServer: Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    private let listener: Int32
    /// The request lines read, and whether the listener is still open (once the serving thread
    /// closes it, its descriptor may be another socket's).
    private let state = Mutex<(lines: [String], listening: Bool)>(([], true))

    /// A 200 response with a JSON body, whole, that closes its connection.
    public static func json(_ body: String) -> [UInt8] {
        Array(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n\(body)"
                .utf8
        )
    }

    /// Starts a server with `answers`, runs `body` with it, and stops it.
    public static func withRunning<Result>(
        answers: [[UInt8]],
        _ body: (ScriptedHTTPServer) async throws -> Result
    ) async throws -> Result {
        let server = try ScriptedHTTPServer(answers: answers)
        defer { server.stop() }
        return try await body(server)
    }

    private init(answers: [[UInt8]]) throws {
        let (listener, port) = try LoopbackPort.listening()
        self.listener = listener
        self.port = port
        Thread { [self] in
            for answer in answers {
                var connection: Int32
                repeat { connection = accept(listener, nil, nil) } while connection < 0 && errno == EINTR
                guard connection >= 0 else { break }  // stopped
                serve(connection, answer: answer)
                close(connection)
            }
            state.withLock { state in
                state.listening = false
                close(listener)
            }
        }.start()
    }

    /// `http://127.0.0.1:<port><path>`, as ``TestServer/url(_:)`` gives its own.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The request lines read so far, one a connection, such as `GET /a HTTP/1.1`.
    public var requestLines: [String] { state.withLock { $0.lines } }

    /// Stops listening: a thread waiting for a connection wakes and ends.
    private func stop() {
        state.withLock { state in
            if state.listening { shutdown(listener, Int32(SHUT_RDWR)) }
        }
    }

    private func serve(_ connection: Int32, answer: [UInt8]) {
        ServerSocket.limitWaits(of: connection)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while received.count < 65_536, received.firstRange(of: end) == nil {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            received += buffer[..<count]
        }
        let line = received.split(separator: UInt8(ascii: "\r"), maxSplits: 1).first ?? []
        state.withLock { $0.lines.append(String(decoding: line, as: UTF8.self)) }
        _ = ServerSocket.write(answer, to: connection)
    }
}
