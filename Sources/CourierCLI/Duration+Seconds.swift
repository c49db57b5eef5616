extension Duration {
    /// The duration in seconds, for messages and rates.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
