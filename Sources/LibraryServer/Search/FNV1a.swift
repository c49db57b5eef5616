/// The 64-bit FNV-1a hash: fast, stable across runs and platforms (unlike `Hasher`), and
/// good enough to tell data sets apart in entity tags. Not for security.
enum FNV1a {
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
