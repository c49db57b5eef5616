import Crypto
import Foundation
import HTTPTypes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What keeps an ``HTTPCache``'s credentials out of its files: request values that `Vary`
/// selects on and that are credentials (`Authorization`, `Cookie`, `X-API-Key`… by
/// ``Redaction``'s rule), and the URLs entries are filed under (whose paths and queries may
/// hold tokens), are kept only as HMAC-SHA256 keyed hashes. Requests still find their entries,
/// since the same value hashes the same; the files never hold the value.
///
/// The key is random for each cache. A cache with a directory keeps it there, in a file only
/// its owner can read, so that entries survive restarts.
struct CacheSecrets: Sendable {
    private let key: SymmetricKey

    /// A key for a cache that lives in memory only.
    static func random() -> CacheSecrets {
        CacheSecrets(key: SymmetricKey(size: .bits256))
    }

    static let keyFileName = ".courier-cache-key"
    private static let keyBytes = 32

    /// The key kept in `directory`, made on first use. Two processes opening a new directory
    /// at once agree on one key: each writes a candidate and links it into place, and the
    /// loser reads the winner's.
    static func stored(in directory: URL) throws(CacheStorageError) -> CacheSecrets {
        let file = directory.appendingPathComponent(keyFileName)
        if let secrets = read(file) { return secrets }
        let candidate = directory.appendingPathComponent(".\(UUID().uuidString).key.tmp")
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        defer { unlink(candidate.path) }
        do {
            try PrivateFile.write(bytes, to: candidate.path)
        } catch {
            throw CacheStorageError(directory: directory.path, reason: "its key file cannot be written (\(error))")
        }
        if link(candidate.path, file.path) != 0, errno != EEXIST {
            throw CacheStorageError(directory: directory.path, reason: String(cString: strerror(errno)))
        }
        if let secrets = read(file) { return secrets }
        // A damaged key file: a new key only makes earlier credential-selected entries misses.
        unlink(file.path)
        guard link(candidate.path, file.path) == 0, let secrets = read(file) else {
            throw CacheStorageError(directory: directory.path, reason: "its key file cannot be replaced")
        }
        return secrets
    }

    private static func read(_ file: URL) -> CacheSecrets? {
        guard let data = PrivateFile.read(file.path, limit: keyBytes + 1), data.count == keyBytes else { return nil }
        return CacheSecrets(key: SymmetricKey(data: data))
    }

    // MARK: - Hashing

    /// `hmac-sha256:` and the keyed hash of `value`, in hex.
    func hashed(_ value: some StringProtocol) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(value.utf8), using: key)
        return "hmac-sha256:" + code.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// The request's values of the `names` fields, as ``CacheRules/selectingValues(for:in:)``
    /// gives them, with credentials hashed.
    func selectingValues(for names: [String], in request: HTTPRequest) -> [String: String?] {
        var values = CacheRules.selectingValues(for: names, in: request)
        for (name, value) in values {
            guard let value, let fieldName = HTTPField.Name(name), Redaction.isSecret(fieldName) else { continue }
            values[name] = .some(hashed(value))
        }
        return values
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
