import CourierServerKit

extension ListenFailure {
    /// What a `courier` user does about it: the option that chooses the address.
    var commandLineHint: String? {
        switch self {
        case .portInUse: "Pass another --port."
        case .permissionDenied: "Pass a --port above 1023."
        case .addressNotAvailable: "Pass --host 127.0.0.1 or 0.0.0.0."
        case .other: nil
        }
    }
}

extension CommandFailure {
    /// A server that cannot listen on `address`: what failed, then the option to change.
    init(cannotListenOn address: String, _ failure: ListenFailure) {
        let hint = failure.commandLineHint.map { " " + $0 } ?? ""
        self.init("Cannot listen on \(address): \(failure).\(hint)", status: .network)
    }
}
