import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files only their owner may read or write (0600), never reached through a symbolic link:
/// the cache's entries and key.
enum PrivateFile {
    /// Why a file could not be read or written: the system's own words.
    struct Failure: Error, CustomStringConvertible {
        var path: String
        var code: Int32
        var description: String { "\(path): \(String(cString: strerror(code)))" }
    }

    /// Puts a new file holding `data` at `path` in one step: written beside it under a
    /// temporary name, flushed to the disk, then renamed over it, so that a reader or a crash
    /// finds the old file or the new one, never half of one.
    static func replace(_ path: String, with data: Data) throws(Failure) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/.\(name).\(UUID().uuidString).tmp"
        do {
            try write(data, to: temporary, synchronized: true)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw Failure(path: path, code: code)
        }
        // The rename itself on the disk too, so that a power cut does not bring the old back.
        let folder = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    /// Creates `path`, which must not exist yet, holding `data`; with `synchronized`, on the
    /// disk before it returns.
    static func write(_ data: Data, to path: String, synchronized: Bool = false) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(path: path, code: errno) }
        defer { close(descriptor) }
        let failure: Int32? = data.withUnsafeBytes { buffer in
            guard var next = buffer.baseAddress else { return nil }
            var remaining = buffer.count
            while remaining > 0 {
                let count = writeBytes(descriptor, next, remaining)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                next += count
                remaining -= count
            }
            return nil
        }
        if let failure { throw Failure(path: path, code: failure) }
        if synchronized, fsync(descriptor) != 0 { throw Failure(path: path, code: errno) }
    }

    /// The contents of `path`, or `nil` when it does not exist, is not a regular file, cannot
    /// be read, or is longer than `limit` bytes.
    static func read(_ path: String, limit: Int) -> Data? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size >= 0,
            status.st_size <= limit
        else { return nil }
        var data = Data(count: Int(status.st_size))
        let complete: Bool = data.withUnsafeMutableBytes { buffer in
            guard var next = buffer.baseAddress else { return true }
            var remaining = buffer.count
            while remaining > 0 {
                let count = readBytes(descriptor, next, remaining)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                next += count
                remaining -= count
            }
            return true
        }
        return complete ? data : nil
    }
}

// File-scope wrappers: inside `PrivateFile`, `read` and `write` name its own functions.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func readBytes(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, bytes, count)
}
