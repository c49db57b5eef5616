import Courier

extension Result {
    /// Whether the task ended by throwing ``RequestError/cancelled``.
    var endedCancelled: Bool {
        guard case .failure(let error) = self, case .cancelled? = error as? RequestError else { return false }
        return true
    }
}
