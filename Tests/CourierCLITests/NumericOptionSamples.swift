import ArgumentParser

@testable import CourierCLI

/// The `///` sample of `NumericOption`, which the `courier` executable keeps to itself: an option
/// declared as every numeric option of the command is. Nothing parses it: the build compiles it.
struct NumericOptionSample: ParsableArguments {
    // swift-format-ignore
    @Option(help: "Give up after this many seconds (\(NumericOption.describe(NumericOption.timeouts))).",
            transform: NumericOption.seconds(in: NumericOption.timeouts))
    var timeout: Double = 30
}
