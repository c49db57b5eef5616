import DequeModule
import Dispatch
import Foundation
import Synchronization

/// A serial executor with a thread of its own, for blocking file I/O.
///
/// Reading and writing files blocks the calling thread. Swift concurrency shares a few threads
/// among all tasks (on Linux, with Dispatch), so file work done there stalls unrelated tasks —
/// servers in the same process among them. Actors that do file I/O run on this executor
/// instead, as AsyncHTTPClient keeps its file I/O on a thread pool of its own.
final class FileIOExecutor: SerialExecutor {
    /// The one file I/O thread of the process; it lives as long as the process.
    static let shared = FileIOExecutor()

    private let jobs = Mutex(Deque<UnownedJob>())
    /// Signalled once per enqueued job.
    private let jobArrived = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in run() }
        thread.name = "Courier file I/O"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        jobArrived.signal()
    }

    private func run() -> Never {
        let executor = asUnownedSerialExecutor()
        while true {
            jobArrived.wait()
            if let job = jobs.withLock({ $0.popFirst() }) { job.runSynchronously(on: executor) }
        }
    }
}
