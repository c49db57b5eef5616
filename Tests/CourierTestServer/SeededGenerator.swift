import Foundation

/// A random number generator for tests that prints its seed, so that a failure seen once can be
/// run again: `COURIER_TEST_SEED=<seed> swift test --filter <test>`.
///
/// SplitMix64: small, fast, and good enough to drive inputs.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The seed this generator started from.
    public let seed: UInt64
    private var state: UInt64

    /// A generator seeded from `COURIER_TEST_SEED` when it is set, else from the system; the
    /// seed is printed with `name` (the test's).
    public init(for name: String = #function) {
        let given = ProcessInfo.processInfo.environment["COURIER_TEST_SEED"].flatMap { UInt64($0) }
        self.init(seed: given ?? UInt64.random(in: .min ... .max))
        print("\(name): random seed \(seed) (run again with COURIER_TEST_SEED=\(seed))")
    }

    /// A generator that always gives the same numbers for `seed`.
    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
