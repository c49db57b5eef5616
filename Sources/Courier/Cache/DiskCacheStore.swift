import Foundation
import Synchronization

/// Cached responses on disk: one file per cache key, written to a temporary file and renamed
/// into place, checked by a checksum when read (a damaged or foreign file is deleted, not
/// served), and trimmed to a size limit by dropping the least recently used files.
///
/// A file is `CCHE`, a version byte, the key, the responses' metadata as JSON, their bodies,
/// and an FNV-1a checksum of all of that.
final class DiskCacheStore: Sendable {
    private static let magic: [UInt8] = Array("CCHE".utf8) + [1]
    private static let fileExtension = "entry"

    let directory: URL
    let capacity: Int
    /// The bytes the directory's entries take, as far as this process knows.
    private let size: Mutex<Int>

    init(directory: URL, capacity: Int) throws(CacheStorageError) {
        self.directory = directory
        self.capacity = capacity
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let files = try FileManager.default.contentsOfDirectory(
                at: directory,
                includingPropertiesForKeys: [.fileSizeKey]
            )
            let total = files.filter { $0.pathExtension == Self.fileExtension }
                .reduce(0) { $0 + ((try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
            self.size = Mutex(total)
        } catch {
            throw CacheStorageError(directory: directory.path, reason: (error as NSError).localizedDescription)
        }
    }

    // MARK: - Entries

    func read(key: String) -> [CachedResponse]? {
        let file = url(for: key)
        guard let data = try? Data(contentsOf: file) else { return nil }
        guard let variants = Self.decode(data, key: key) else {
            delete(file)
            return nil
        }
        // The modification date is the entry's last use, for eviction.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
        return variants
    }

    func write(_ variants: [CachedResponse], key: String) {
        guard let data = Self.encode(variants, key: key), data.count <= capacity else { return }
        let file = url(for: key)
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        let previous = (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        do {
            try data.write(to: temporary)
            // rename(2) replaces the old entry in one step: a reader sees the old file or the new one.
            guard rename(temporary.path, file.path) == 0 else {
                try? FileManager.default.removeItem(at: temporary)
                return
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        let total = size.withLock { size in
            size += data.count - previous
            return size
        }
        if total > capacity { evict() }
    }

    func remove(key: String) {
        delete(url(for: key))
    }

    func removeAll() {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        for file in files where file.pathExtension == Self.fileExtension { delete(file) }
    }

    // MARK: - Files

    private func url(for key: String) -> URL {
        directory.appendingPathComponent(String(FNV1a.hash(key.utf8), radix: 16) + "." + Self.fileExtension)
    }

    private func delete(_ file: URL) {
        let bytes = (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        if (try? FileManager.default.removeItem(at: file)) != nil {
            size.withLock { $0 = max(0, $0 - bytes) }
        }
    }

    /// Deletes the least recently used entries until the directory is within 90% of its capacity.
    private func evict() {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey]
        guard let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)
        else { return }
        let entries = files.filter { $0.pathExtension == Self.fileExtension }.map { file in
            let values = try? file.resourceValues(forKeys: Set(keys))
            return (file, values?.contentModificationDate ?? .distantPast, values?.fileSize ?? 0)
        }
        var total = entries.reduce(0) { $0 + $1.2 }
        let target = capacity / 10 * 9
        for (file, _, bytes) in entries.sorted(by: { $0.1 < $1.1 }) where total > target {
            if (try? FileManager.default.removeItem(at: file)) != nil { total -= bytes }
        }
        size.withLock { $0 = total }
    }

    // MARK: - Format

    /// The JSON part of an entry: the responses without their bodies, and the bodies' lengths.
    private struct Metadata: Codable {
        var responses: [CachedResponse]
        var bodyLengths: [Int]
    }

    static func encode(_ variants: [CachedResponse], key: String) -> Data? {
        let metadata = Metadata(responses: variants, bodyLengths: variants.map(\.body.count))
        guard let json = try? JSONEncoder().encode(metadata) else { return nil }
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

    static func decode(_ data: Data, key: String) -> [CachedResponse]? {
        let bytes = [UInt8](data)
        guard bytes.count >= magic.count + 16, bytes.starts(with: magic) else { return nil }
        let content = bytes[..<(bytes.count - 8)]
        let stored = bytes[(bytes.count - 8)...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard FNV1a.hash(content) == stored else { return nil }
        var offset = magic.count
        guard let keyLength = readLength(content, &offset), offset + keyLength <= content.endIndex,
            Array(content[offset..<(offset + keyLength)]) == Array(key.utf8)
        else { return nil }
        offset += keyLength
        guard let jsonLength = readLength(content, &offset), offset + jsonLength <= content.endIndex,
            let metadata = try? JSONDecoder().decode(
                Metadata.self,
                from: Data(content[offset..<(offset + jsonLength)])
            ),
            metadata.responses.count == metadata.bodyLengths.count
        else { return nil }
        offset += jsonLength
        var variants = metadata.responses
        for index in variants.indices {
            let length = metadata.bodyLengths[index]
            guard length >= 0, offset + length <= content.endIndex else { return nil }
            variants[index].body = Data(content[offset..<(offset + length)])
            offset += length
        }
        return offset == content.endIndex ? variants : nil
    }

    private static func appendLength(_ length: Int, to bytes: inout [UInt8]) {
        let value = UInt32(truncatingIfNeeded: length)
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    private static func readLength(_ bytes: ArraySlice<UInt8>, _ offset: inout Int) -> Int? {
        guard offset + 4 <= bytes.endIndex else { return nil }
        let value = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        offset += 4
        return value
    }
}
