import CourierTestTraits
import Foundation
import Testing

/// A library speaks its own terms: no message in a library module tells its reader to run a
/// `courier` subcommand or pass one of its flags. The command adds those hints itself.
@Suite(.loadLimited)
struct LibraryTermsTests {
    /// Files whose flags are another program's: the curl command a request prints as.
    static let othersFlags: Set<String> = ["PreparedRequest+cURL.swift"]

    @Test func noLibraryMessageNamesTheCommandOrItsFlags() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources").standardized
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0 != "CourierCLI" }
        #expect(modules.count >= 10)
        let pattern = try Regex(#"courier [a-z]|(^|[^\w-])--[a-z][a-z-]+"#)
        var found: [String] = []
        for module in modules {
            let directory = sources.appendingPathComponent(module)
            guard let files = FileManager.default.enumerator(atPath: directory.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                guard !Self.othersFlags.contains((file as NSString).lastPathComponent) else { continue }
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    guard !code.hasPrefix("//"), code.contains(pattern) else { continue }
                    found.append("\(module)/\(file):\(number + 1): \(code)")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
