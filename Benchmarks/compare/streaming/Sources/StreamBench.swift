import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import NIOCore

/// Reads one streamed body, or one event stream, and prints what it read and how fast:
///
///     stream-bench courier URL   # HTTPClient.stream over AsyncHTTPClientTransport
///     stream-bench ahc URL       # AsyncHTTPClient's own streaming body, no Courier
///     stream-bench lines URL     # HTTPClient.stream(…).body.lines(), counted
///     stream-bench events URL [N] # HTTPClient.events: Server-Sent Events, counted (stopping at N)
@main
enum StreamBench {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard (2...3).contains(arguments.count), let url = URL(string: arguments[1]) else {
            FileHandle.standardError.write(Data("usage: stream-bench courier|ahc|lines|events URL [EVENTS]\n".utf8))
            exit(2)
        }
        let start = ContinuousClock.now
        let count: Int
        let unit: String
        switch arguments[0] {
        case "courier":
            let transport = AsyncHTTPClientTransport()
            let response = try await HTTPClient(transport: transport).stream(Endpoint<Data>(url: url))
            var bytes = 0
            for try await chunk in response.body { bytes += chunk.count }
            try await transport.shutdown()
            count = bytes
            unit = "bytes"
        case "ahc":
            let client = AsyncHTTPClient.HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: .hours(1))
                var bytes = 0
                for try await buffer in response.body { bytes += buffer.readableBytes }
                count = bytes
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
            unit = "bytes"
        case "lines":
            let transport = AsyncHTTPClientTransport()
            let response = try await HTTPClient(transport: transport).stream(Endpoint<Data>(url: url))
            var lines = 0
            for try await _ in response.body.lines() { lines += 1 }
            try await transport.shutdown()
            count = lines
            unit = "lines"
        case "events":
            let transport = AsyncHTTPClientTransport()
            // Stops at the last event, as a client that does not reconnect stops at the end of
            // the stream (else the reconnection's wait, 3 s by default, would be counted).
            let expected = arguments.count == 3 ? Int(arguments[2]) ?? .max : .max
            var events = 0
            for try await _ in HTTPClient(transport: transport).events(Endpoint<Data>(url: url)) {
                events += 1
                if events == expected { break }
            }
            try await transport.shutdown()
            count = events
            unit = "events"
        default:
            FileHandle.standardError.write(Data("unknown mode \(arguments[0])\n".utf8))
            exit(2)
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("\(count) \(unit) in \(String(format: "%.3f", seconds)) s")
    }
}
