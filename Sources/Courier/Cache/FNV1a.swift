/// The 64-bit FNV-1a hash: fast, stable across runs and platforms (unlike `Hasher`), and good
/// enough to name cache files, check them for damage and tell data sets apart. Not for security.
package enum FNV1a {
    /// The hash of `bytes`.
    package static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
