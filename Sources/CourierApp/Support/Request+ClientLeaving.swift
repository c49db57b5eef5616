import Hummingbird

extension Request {
    /// Runs `operation` and cancels it if the client leaves (its connection's inbound side
    /// closes): Hummingbird's `consumeWithCancellationOnInboundClose`, with the request's body
    /// read to its end first. The routes that use it read no body.
    ///
    /// Reading it first means Hummingbird has finished the body stream it hands over before
    /// `operation` can return. When an operation returned first (a quick answer, under load)
    /// and the stream then ended without its end part, the stream was dropped unfinished, and
    /// NIO stops a debug build on that.
    func untilClientLeaves<Value: Sendable>(_ operation: () async throws -> Value) async throws -> Value {
        try await body.consumeWithCancellationOnInboundClose { body in
            for try await _ in body {}
            return try await operation()
        }
    }
}
