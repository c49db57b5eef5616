import Courier
import CourierTestTraits
import Testing

/// A wait said in whole seconds: rounded up, at least one, never overflowing.
@Suite(.loadLimited)
struct DurationUnitsTests {
    @Test(arguments: [
        (Duration.seconds(30), 30), (.milliseconds(1200), 2), (.zero, 1), (.milliseconds(1), 1),
        (.seconds(-5), 1), (.seconds(Int64.max), Int.max),
    ])
    func aWaitIsSaidInWholeSecondsRoundedUp(wait: Duration, seconds: Int) {
        #expect(wait.roundedUpSeconds == seconds)
    }
}
