extension Duration {
    /// The duration in seconds, as a `Double`.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in whole milliseconds.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// Whole seconds, rounded up, at least 1: a wait to tell a person or put in `Retry-After`.
    package var roundedUpSeconds: Int {
        let (seconds, attoseconds) = components
        return max(1, Int(clamping: seconds) + (attoseconds > 0 && seconds < .max ? 1 : 0))
    }

    /// `1s`, `0.3s`: seconds for messages, to the millisecond.
    var secondsDescription: String {
        let (seconds, attoseconds) = components
        if attoseconds == 0 { return "\(seconds)s" }
        return "\((self.seconds * 1000).rounded() / 1000)s"
    }
}
