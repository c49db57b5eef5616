import ArgumentParser
import Foundation

/// The one rule for numeric options: a number is parsed and checked against its range in one
/// step, as the option is read, so nothing the program cannot use (infinity, NaN, a negative
/// count, a timeout whose `Duration` would overflow) gets past the argument parser.
///
/// Declare every numeric option with one of these transforms; a value outside the range is a
/// usage error (exit status 2) naming the option, the value and the range:
///
/// ```swift
/// @Option(help: "Give up after this many seconds (\(NumericOption.describe(NumericOption.timeouts))).",
///         transform: NumericOption.seconds(in: NumericOption.timeouts))
/// var timeout: Double = 30
/// ```
///
/// `courier get URL --timeout 1e10` then says
/// `The value '1e10' is invalid for '--timeout <timeout>': give a number of seconds from 0.001 to 86400.`
enum NumericOption {
    // MARK: - Shared ranges

    /// Every timeout, in seconds: a millisecond to a day.
    static let timeouts: ClosedRange<Double> = 0.001...86_400

    /// A port to listen on; 0 picks a free one.
    static let ports = 0...65_535

    // MARK: - Parsing

    /// Reads a number of seconds in `range`: decimals and exponents are accepted; infinity and
    /// NaN never are.
    static func seconds(in range: ClosedRange<Double>) -> @Sendable (String) throws -> Double {
        { text in
            guard let value = Double(text), range.contains(value) else {
                throw ValidationError("give a number of seconds from \(describe(range)).")
            }
            return value
        }
    }

    /// Reads a whole number in `range`.
    static func integer(in range: ClosedRange<Int>) -> @Sendable (String) throws -> Int {
        { text in
            guard let value = Int(text), range.contains(value) else {
                throw ValidationError("give a whole number from \(describe(range)).")
            }
            return value
        }
    }

    /// Reads a duration in seconds, at most `maximum`: a number with `s`, `m`, `h` or `d`
    /// (`7d`, `12h`, `30m`, `45s`), or a bare number of seconds.
    static func duration(upTo maximum: Double) -> @Sendable (String) throws -> Double {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        return { text in
            let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
            let unit = trimmed.last.flatMap { units[$0] }
            let number = unit == nil ? trimmed : String(trimmed.dropLast())
            guard let value = Double(number).map({ $0 * (unit ?? 1) }), (0...maximum).contains(value) else {
                throw ValidationError(
                    "give a duration such as 7d, 12h, 30m, 45s or 0, at most \(format(maximum / 86_400))d."
                )
            }
            return value
        }
    }

    // MARK: - Using the values

    /// `seconds` of a timeout option as a `Duration`, to the millisecond.
    ///
    /// - Precondition: `seconds` is in ``timeouts``, as the option's transform ensures.
    static func duration(seconds: Double) -> Duration {
        precondition(timeouts.contains(seconds), "a timeout is read with NumericOption.seconds(in: timeouts)")
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// "0.001 to 86400", for help texts and messages.
    static func describe(_ range: ClosedRange<Double>) -> String {
        "\(format(range.lowerBound)) to \(format(range.upperBound))"
    }

    /// "1 to 200", for help texts and messages.
    static func describe(_ range: ClosedRange<Int>) -> String {
        "\(range.lowerBound) to \(range.upperBound)"
    }

    /// `86400`, not `86400.0`; `0.001` as it is.
    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
