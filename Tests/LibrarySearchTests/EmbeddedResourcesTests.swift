import CourierTestTraits
import Foundation
import Testing

@testable import LibrarySearch

/// The EmbedResources plugin's output (`EmbeddedResources`, generated for each module with a
/// `Resources` folder): every file's bytes as they are on disk, accented text and emoji
/// included, and nothing for a path that is not there.
@Suite(.loadLimited)
struct EmbeddedResourcesTests {
    @Test func everyFileIsBuiltInByteForByte() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/LibrarySearch/Resources").standardized
        let paths = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        let files = paths.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(path).path,
                isDirectory: &isDirectory
            )
                && !isDirectory.boolValue
        }
        #expect(files.sorted() == ["Data/catalog.json", "Data/locations.json"])
        for path in files {
            let onDisk = try Data(contentsOf: folder.appendingPathComponent(path))
            #expect(EmbeddedResources.bytes(path) == Array(onDisk), "\(path)")
        }
        #expect(EmbeddedResources.bytes("Data/missing.json") == nil)
        #expect(EmbeddedResources.bytes("catalog.json") == nil, "paths are relative to Resources")
    }
}
