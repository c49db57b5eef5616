import Foundation
import HTTPTypes
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cached responses on disk: one file per cache key, written to a temporary file and renamed
/// into place, checked by a checksum when read (a damaged or foreign file is deleted, not
/// served), and trimmed to a size limit by dropping the least recently used files.
///
/// A file is `CCHE`, a version byte, the key, the responses' metadata as JSON, their bodies,
/// and an FNV-1a checksum of all of that. Files are the owner's only (0600, and 0700 for a
/// directory the store creates; a directory another user owns or may write to is refused);
/// they hold neither credentials the response sets (`Set-Cookie`…) nor the URL the entry
/// belongs to: the caller passes keyed hashes as keys, and the URL back when reading.
///
/// The store is an actor on ``FileIOExecutor``: its blocking file I/O never holds one of Swift
/// concurrency's shared threads.
actor DiskCacheStore {
    private static let magic: [UInt8] = Array("CCHE".utf8) + [2]
    private static let fileExtension = "entry"

    let directory: URL
    let capacity: Int
    private let logger: Logger
    /// The bytes the directory's entries take, as far as this process knows.
    private var size: Int

    nonisolated var unownedExecutor: UnownedSerialExecutor { FileIOExecutor.shared.asUnownedSerialExecutor() }

    /// Opens (or creates) the directory, and deletes what interrupted writes left in it.
    init(directory: URL, capacity: Int, logger: Logger) throws(CacheStorageError) {
        self.directory = directory
        self.capacity = capacity
        self.logger = logger
        let manager = FileManager.default
        do {
            try manager.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
            try Self.checkPrivate(directory)
            let keys: Set<URLResourceKey> = [.fileSizeKey, .contentModificationDateKey]
            let files = try manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: Array(keys))
            let abandoned = Date().addingTimeInterval(-Self.abandonedAfter)
            var total = 0
            for file in files {
                if Self.isTemporary(file.lastPathComponent) {
                    // Left by an interrupted write; a younger one may be another process's, still writing.
                    let modified = (try? file.resourceValues(forKeys: keys).contentModificationDate) ?? .distantPast
                    if modified < abandoned { try? manager.removeItem(at: file) }
                } else if file.pathExtension == Self.fileExtension {
                    total += (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
                }
            }
            self.size = total
        } catch let error as CacheStorageError {
            throw error
        } catch {
            throw CacheStorageError(directory: directory.path, reason: (error as NSError).localizedDescription)
        }
    }

    /// How old a temporary file must be to count as left by an interrupted write.
    static let abandonedAfter: TimeInterval = 60

    /// Refuses a directory another user owns or may write to: its entries would not be ours.
    private static func checkPrivate(_ directory: URL) throws(CacheStorageError) {
        var status = stat()
        guard lstat(directory.path, &status) == 0 else {
            throw CacheStorageError(directory: directory.path, reason: String(cString: strerror(errno)))
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else {
            throw CacheStorageError(directory: directory.path, reason: "it is not a directory")
        }
        guard status.st_uid == geteuid() else {
            throw CacheStorageError(directory: directory.path, reason: "another user owns it")
        }
        guard status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw CacheStorageError(directory: directory.path, reason: "other users may write to it (chmod 700 it)")
        }
        // Ours, but others may list or read it (made by hand, or by a wide umask): a directory
        // that holds nothing but a cache is tightened; any other (the working directory, a home
        // directory) is left as it is and refused.
        guard status.st_mode & (S_IRWXG | S_IRWXO) != 0 else { return }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path),
            names.allSatisfy(isCacheFile)
        else {
            throw CacheStorageError(
                directory: directory.path,
                reason:
                    "other users may read it, and it holds more than a cache (give a directory of its own, or chmod 700 it)"
            )
        }
        guard chmod(directory.path, status.st_mode & 0o7777 & ~(S_IRWXG | S_IRWXO)) == 0 else {
            throw CacheStorageError(
                directory: directory.path,
                reason: "other users may read it, and it cannot be made private (\(String(cString: strerror(errno))))"
            )
        }
    }

    /// Whether `name` is one of the files a cache directory holds: entries, the key, and what an
    /// interrupted write leaves.
    private static func isCacheFile(_ name: String) -> Bool {
        name.hasSuffix("." + fileExtension) || name == CacheSecrets.keyFileName || isTemporary(name)
    }

    /// `.<UUID>.tmp` or `.<UUID>.key.tmp`: the names this cache writes before a rename.
    static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp") && UUID(uuidString: String(name.dropFirst().prefix(36))) != nil
    }

    // MARK: - Entries

    /// The entry filed under `key`, its responses given `url`; `nil` when there is none or it
    /// cannot be used (then it is deleted).
    func read(key: String, url: String) -> [CachedResponse]? {
        let file = self.file(for: key)
        guard let data = PrivateFile.read(file.path, limit: capacity) else { return nil }
        guard var variants = Self.decode(data, key: key) else {
            logger.warning("Deleted a damaged HTTP cache entry", metadata: ["file": "\(file.path)"])
            delete(file)
            return nil
        }
        for index in variants.indices { variants[index].url = url }
        // The modification date is the entry's last use, for eviction.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
        return variants
    }

    func write(_ variants: [CachedResponse], key: String) {
        let file = self.file(for: key)
        guard let data = Self.encode(variants, key: key), data.count <= capacity else {
            delete(file)  // an older entry would answer in its place
            return
        }
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        let previous = (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        do {
            try PrivateFile.write(data, to: temporary.path)
        } catch {
            unlink(temporary.path)
            logger.warning("Could not write an HTTP cache entry", metadata: ["reason": "\(error)"])
            return
        }
        // rename(2) replaces the old entry in one step: a reader sees the old file or the new one.
        guard rename(temporary.path, file.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            logger.warning(
                "Could not write an HTTP cache entry",
                metadata: ["file": "\(file.path)", "reason": "\(reason)"]
            )
            return
        }
        size += data.count - previous
        if size > capacity { evict() }
    }

    func remove(key: String) {
        delete(file(for: key))
    }

    func removeAll() {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        for file in files where file.pathExtension == Self.fileExtension { delete(file) }
    }

    // MARK: - Files

    private func file(for key: String) -> URL {
        directory.appendingPathComponent(String(FNV1a.hash(key.utf8), radix: 16) + "." + Self.fileExtension)
    }

    private func delete(_ file: URL) {
        let bytes = (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        if unlink(file.path) == 0 {
            size = max(0, size - bytes)
        } else if errno != ENOENT {
            logger.warning(
                "Could not delete an HTTP cache entry",
                metadata: ["file": "\(file.path)", "reason": "\(String(cString: strerror(errno)))"]
            )
        }
    }

    /// Deletes the least recently used entries until the directory is within 90% of its capacity.
    private func evict() {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey]
        let files: [URL]
        do {
            files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)
        } catch {
            logger.warning("Could not list the HTTP cache directory", metadata: ["reason": "\(error)"])
            return
        }
        let entries = files.filter { $0.pathExtension == Self.fileExtension }.map { file in
            let values = try? file.resourceValues(forKeys: Set(keys))
            return (file, values?.contentModificationDate ?? .distantPast, values?.fileSize ?? 0)
        }
        var total = entries.reduce(0) { $0 + $1.2 }
        let target = capacity / 10 * 9
        for (file, _, bytes) in entries.sorted(by: { $0.1 < $1.1 }) where total > target {
            if unlink(file.path) == 0 { total -= bytes }
        }
        size = total
    }

    // MARK: - Format

    /// The JSON part of an entry: the responses without their bodies, and the bodies' lengths.
    private struct Metadata: Codable {
        var responses: [CachedResponse]
        var bodyLengths: [Int]
    }

    /// The bytes of an entry, or `nil` when it is not to be written. Header fields holding
    /// credentials (``Redaction``'s rule) and the responses' URLs are left out, and the
    /// credentials in URLs other fields carry (`Content-Location`, `Link`: `?access_token=…`)
    /// are `REDACTED`. A response whose `Location` carries one is not written at all: redacted,
    /// it would send the next request somewhere else, so it stays in memory only.
    static func encode(_ variants: [CachedResponse], key: String) -> Data? {
        var kept = variants
        for index in kept.indices {
            kept[index].url = ""
            var fields = HTTPFields()
            for field in kept[index].head.headerFields where !Redaction.isSecret(field.name) {
                let shown = Redaction.redactingURLs(in: field.value)
                if shown != field.value, field.name == .location { return nil }
                fields.append(shown == field.value ? field : HTTPField(name: field.name, value: shown))
            }
            kept[index].head.headerFields = fields
        }
        let metadata = Metadata(responses: kept, bodyLengths: variants.map(\.body.count))
        guard let json = try? JSONEncoder().encode(metadata), key.utf8.count <= UInt32.max, json.count <= UInt32.max
        else { return nil }
        var bytes = magic
        appendLength(key.utf8.count, to: &bytes)
        bytes.append(contentsOf: key.utf8)
        appendLength(json.count, to: &bytes)
        bytes.append(contentsOf: json)
        for variant in variants { bytes.append(contentsOf: variant.body) }
        let checksum = FNV1a.hash(bytes)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: checksum >> shift)) }
        return Data(bytes)
    }

    /// The responses in an entry's bytes, or `nil` when the bytes are not an entry for `key`:
    /// every length is checked against what is left before it is used, so no value in the
    /// file can make the arithmetic overflow or a read run past the end.
    static func decode(_ data: Data, key: String) -> [CachedResponse]? {
        let bytes = [UInt8](data)
        guard bytes.count >= magic.count + 16, bytes.starts(with: magic) else { return nil }
        let content = bytes[..<(bytes.count - 8)]
        let stored = bytes[(bytes.count - 8)...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard FNV1a.hash(content) == stored else { return nil }
        var offset = magic.count
        guard let keyBytes = take(readLength(content, &offset), from: content, at: &offset),
            keyBytes.elementsEqual(key.utf8),
            let json = take(readLength(content, &offset), from: content, at: &offset),
            let metadata = try? JSONDecoder().decode(Metadata.self, from: Data(json)),
            metadata.responses.count == metadata.bodyLengths.count,
            metadata.responses.allSatisfy({ isPlausible($0.requestTime) && isPlausible($0.responseTime) })
        else { return nil }
        var variants = metadata.responses
        for index in variants.indices {
            guard let body = take(metadata.bodyLengths[index], from: content, at: &offset),
                variants[index].partial?.isConsistent(bodyCount: body.count) ?? true
            else { return nil }
            variants[index].body = Data(body)
        }
        return offset == content.endIndex ? variants : nil
    }

    /// Whether `date` could be when this cache stored something: from 1970 to 9999.
    private static func isPlausible(_ date: Date) -> Bool {
        (0...253_402_300_799).contains(date.timeIntervalSince1970)
    }

    /// The next `length` bytes, or `nil` when the length is missing, negative or longer than
    /// what is left.
    private static func take(_ length: Int?, from bytes: ArraySlice<UInt8>, at offset: inout Int) -> ArraySlice<UInt8>?
    {
        guard let length, length >= 0, length <= bytes.endIndex - offset else { return nil }
        defer { offset += length }
        return bytes[offset..<(offset + length)]
    }

    private static func appendLength(_ length: Int, to bytes: inout [UInt8]) {
        let value = UInt32(truncatingIfNeeded: length)
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    private static func readLength(_ bytes: ArraySlice<UInt8>, _ offset: inout Int) -> Int? {
        guard bytes.endIndex - offset >= 4 else { return nil }
        let value = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        offset += 4
        return value
    }
}
