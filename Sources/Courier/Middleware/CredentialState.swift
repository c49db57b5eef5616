/// The credential an ``Authenticator`` and all its copies share, and the one renewal in flight.
///
/// Each credential has a generation: a request remembers the one it was sent with, so that a
/// 401 to a credential renewed since is answered with the new one, not with another renewal.
/// A renewal that fails is remembered too: a request sent before it failed, and refused, gets
/// its error instead of starting another; a request that starts afterwards may try again.
actor CredentialState<Credential: Sendable> {
    typealias Refresh = @Sendable (Credential?) async throws -> Credential

    /// A credential as a request got it.
    struct Issued: Sendable {
        var credential: Credential
        var generation: Int
        /// How many renewals had failed when the request got it.
        var failuresSeen: Int
    }

    private var current: (credential: Credential, generation: Int)?
    private var renewal: Task<Issued, any Error>?
    /// The last generation handed out.
    private var generations = 0
    /// How many renewals failed, and the last failure with the generation it was to replace.
    private var failures = 0
    private var lastFailure: (generation: Int, error: any Error)?
    private let refresh: Refresh

    init(credential: Credential?, refresh: @escaping Refresh) {
        self.current = credential.map { ($0, 0) }
        self.refresh = refresh
    }

    /// The credential to send: the current one, unless there is none or `isStale` says it must
    /// be renewed first; then the renewal in flight, or a new one.
    func credential(isStale: (Credential) -> Bool) async throws -> Issued {
        if let renewal { return try await renewal.value }
        if let current, !isStale(current.credential) {
            return Issued(credential: current.credential, generation: current.generation, failuresSeen: failures)
        }
        return try await renew()
    }

    /// The credential to send again after `refused` was refused: a newer one if another request
    /// renewed it meanwhile, the renewal in flight, or a new one; the error of a renewal that
    /// failed after `refused` was handed out.
    func credential(replacing refused: Issued) async throws -> Issued {
        if let renewal { return try await renewal.value }
        if let current, current.generation != refused.generation {
            return Issued(credential: current.credential, generation: current.generation, failuresSeen: failures)
        }
        if let lastFailure, lastFailure.generation == refused.generation, refused.failuresSeen < failures {
            throw lastFailure.error
        }
        return try await renew()
    }

    /// Starts the one renewal; every caller until it ends waits for the same result. The task
    /// runs on this actor (but for `refresh` itself) and records the result before it returns
    /// it, so no waiter can see the old credential as current after getting the new one.
    private func renew() async throws -> Issued {
        let previous = current
        let refresh = self.refresh
        generations += 1
        let generation = generations
        let task = Task {
            do {
                let credential = try await refresh(previous?.credential)
                current = (credential, generation)
                renewal = nil
                return Issued(credential: credential, generation: generation, failuresSeen: failures)
            } catch {
                failures += 1
                lastFailure = (previous?.generation ?? -1, error)
                renewal = nil
                throw error
            }
        }
        renewal = task
        return try await task.value
    }
}
