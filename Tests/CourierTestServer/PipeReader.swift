public import Foundation

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
}
