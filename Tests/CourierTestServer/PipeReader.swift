public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a child process's pipe to its end. `FileHandle.readDataToEndOfFile()` traps when a
/// signal interrupts its `read` (EINTR), which happens while tests start and stop processes;
/// this retries instead.
public enum PipeReader {
    /// Everything `handle` gives until end of file (or a read error).
    public static func readAll(_ handle: FileHandle) -> Data {
        var data = Data()
        readChunks(handle) { data.append($0) }
        return data
    }

    /// Calls `body` with each piece `handle` gives, as it arrives, until end of file (or a
    /// read error).
    public static func readChunks(_ handle: FileHandle, _ body: (Data) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let descriptor = handle.fileDescriptor
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                body(Data(buffer[..<count]))
            } else if count == 0 || errno != EINTR {
                return
            }
        }
    }

    /// Waits until `handle` (a child's output) gives `marker`, at most `timeout`, and returns
    /// whether it did; the pipe is read on to its end on a thread of its own, so that the child
    /// never blocks writing. `false` as soon as the pipe ends without the marker (the child
    /// exited).
    public static func waitFor(_ marker: String, in handle: FileHandle, timeout: DispatchTimeInterval) -> Bool {
        let ready = DispatchSemaphore(value: 0)
        let seen = Mutex(false)
        Thread {
            var text = Data()
            var said = false
            readChunks(handle) { chunk in
                guard !said else { return }
                text.append(chunk)
                if String(decoding: text, as: UTF8.self).contains(marker) {
                    said = true
                    seen.withLock { $0 = true }
                    ready.signal()
                }
            }
            if !said { ready.signal() }
        }.start()
        _ = ready.wait(timeout: .now() + timeout)
        return seen.withLock { $0 }
    }
}
