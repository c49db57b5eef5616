/// The 64-bit FNV-1a hash: fast, stable across runs and platforms (unlike `Hasher`), and good
/// enough to name cache files, check them for damage, tell data sets apart and make entity tags.
/// Not for security: anyone can make two inputs with the same hash.
///
/// ```swift
/// let body = Data("[1, 2, 3]".utf8)
/// let entityTag = "\"" + String(FNV1a.hash(body), radix: 16) + "\""
/// ```
package enum FNV1a {
    /// The hash of `bytes`.
    ///
    /// - Parameter bytes: Any bytes.
    /// - Returns: Their 64-bit FNV-1a hash, the same on every machine and in every run.
    package static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        // Contiguous bytes (an array, a slice, `Data`) are hashed through a pointer: a loop over
        // a sequence the compiler has not specialized for its type allocates for every byte.
        if let contiguous = bytes.withContiguousStorageIfAvailable({ Self.hash(UnsafeRawBufferPointer($0)) }) {
            return contiguous
        }
        var hash = offsetBasis
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* prime
        }
        return hash
    }

    /// The hash of the bytes in `buffer`.
    package static func hash(_ buffer: UnsafeRawBufferPointer) -> UInt64 {
        var hash = offsetBasis
        for byte in buffer {
            hash = (hash ^ UInt64(byte)) &* prime
        }
        return hash
    }

    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3
}
