import Courier
import CourierTestTraits
import Foundation
import Testing

/// The name a download is saved under when the person did not give one: one component that
/// stays in the directory it is written to, however the URL spells it.
@Suite(.loadLimited)
struct DownloadFileNameTests {
    @Test(arguments: [
        ("https://h/files/report.pdf", "report.pdf"),
        ("https://h/report%20Q3.pdf?x=1#y", "report Q3.pdf"),
        ("https://h/..%2Fvictim.txt", "_victim.txt"),
        ("https://h/a/..%2F..%2Fvictim.txt", "_.._victim.txt"),
        ("https://h/%2Fhome%2Fme%2F.profile", "_home_me_.profile"),
        ("https://h/x/%2E%2E", "index.html"),
        ("https://h/x/%2e", "index.html"),
        ("https://h/x/..", "index.html"),
        ("https://h/.bashrc", "bashrc"),
        ("https://h/", "index.html"),
        ("https://h", "index.html"),
        ("https://h/docs/", "index.html"),
        ("https://h/a%5C..%5Cb", "a_.._b"),
        ("https://h/a%00b", "a_b"),
        ("https://h/a%0Ab%1B%5B31m", "a_b_[31m"),
        ("https://h/evil%E2%80%AEfdp.exe", "evil_fdp.exe"),
        ("https://h/%20%20.%20x", "x"),
        ("https://h/caf%C3%A9.txt", "café.txt"),
        ("https://h/100%25", "100%"),
        ("https://h/bad%ZZescape", "bad%ZZescape"),
        ("https://h/%FF%FE", "%FF%FE"),
    ])
    func urlsGiveOneSafeName(url: String, name: String) throws {
        let url = try #require(URL(string: url))
        #expect(DownloadFileName.suggested(by: url) == name)
    }

    @Test func namesAreCutToTheLimitAtACharacterBoundary() {
        let long = String(repeating: "é", count: 500)
        let name = DownloadFileName.sanitized(long)
        #expect(name.utf8.count == DownloadFileName.maximumLength)
        #expect(name.allSatisfy { $0 == "é" })
    }

    @Test func anEmptyResultTakesTheFallbackMadeSafeToo() {
        #expect(DownloadFileName.sanitized("...", fallback: "file.bin") == "file.bin")
        #expect(DownloadFileName.sanitized("", fallback: "../x") == "_x")
        #expect(DownloadFileName.sanitized("/", fallback: "..") == "_")
        #expect(DownloadFileName.sanitized(". .", fallback: ". ") == "download")
    }

    /// Whatever the input (every string of up to three of these characters, and each of them
    /// as a URL's last segment), the name is one non-empty component that is not hidden, `.`
    /// or `..`, and has no separator or control character.
    @Test func anyInputGivesOneComponent() throws {
        let alphabet = ["/", "\\", ".", " ", "%2F", "%2E", "a", "\u{0}", "\u{1B}", "\u{202E}", "é", "\u{9B}", "%"]
        var inputs = [""]
        for _ in 0..<3 { inputs += inputs.flatMap { prefix in alphabet.map { prefix + $0 } } }
        for text in Set(inputs) {
            var names = [
                DownloadFileName.sanitized(text), DownloadFileName.sanitized(text.removingPercentEncoding ?? text),
            ]
            if let url = URL(
                string: "https://h/d/" + (text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")
            ) {
                names.append(DownloadFileName.suggested(by: url))
            }
            for name in names {
                #expect(!name.isEmpty && !name.hasPrefix("."), "\(text.debugDescription) gave \(name.debugDescription)")
                #expect(
                    !name.unicodeScalars.contains {
                        $0 == "/" || $0 == "\\" || $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
                    },
                    "\(text.debugDescription) gave \(name.debugDescription)"
                )
            }
        }
    }
}
