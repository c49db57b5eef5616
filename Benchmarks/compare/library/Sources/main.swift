import Foundation
import LibraryKit
import LibrarySearch

/// Writes a synthetic data set for `courier serve --data` and the Node peers:
///
///     library-data DIRECTORY BOOKS [LOCATIONS]
///     library-data DIRECTORY embedded       (the built-in data, as files)
let arguments = CommandLine.arguments.dropFirst()
guard let directory = arguments.first, arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: library-data DIRECTORY BOOKS [LOCATIONS] | DIRECTORY embedded\n".utf8))
    exit(2)
}
let data: LibraryData
if arguments.dropFirst().first == "embedded" {
    data = try LibraryData.embedded()
} else {
    guard let books = Int(arguments.dropFirst().first ?? ""), books >= 0 else {
        FileHandle.standardError.write(Data("BOOKS must be a whole number\n".utf8))
        exit(2)
    }
    let locations = Int(arguments.dropFirst(2).first ?? "") ?? 1_000
    data = LibraryData(locations: SyntheticData.locations(count: locations), books: SyntheticData.books(count: books))
}
let url = URL(fileURLWithPath: directory, isDirectory: true)
try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
let encoder = JSONEncoder()
encoder.outputFormatting = [.withoutEscapingSlashes]
try encoder.encode(data.books).write(to: url.appendingPathComponent(LibraryData.catalogFile))
try encoder.encode(data.locations).write(to: url.appendingPathComponent(LibraryData.locationsFile))
print("\(data.books.count) books and \(data.locations.count) locations in \(url.path)")
