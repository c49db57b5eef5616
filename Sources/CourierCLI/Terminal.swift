import Foundation

/// Writing to standard output and standard error.
enum Terminal {
    static func output(_ text: String) {
        write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8), to: .standardOutput)
    }

    static func error(_ text: String) {
        write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8), to: .standardError)
    }

    static func write(_ data: Data, to handle: FileHandle = .standardOutput) {
        // A closed pipe (`courier get … | head`) is not worth a crash.
        try? handle.write(contentsOf: data)
    }
}
