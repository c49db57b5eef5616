import Foundation
import HTTPTypes

extension HTTPFields {
    /// The fields of `-H 'Name: value'` options, in order.
    ///
    /// - Throws: ``CommandFailure`` (usage) for an option that is not `Name: value`.
    init(commandLine options: [String]) throws {
        self.init()
        for option in options {
            guard let colon = option.firstIndex(of: ":"),
                let name = HTTPField.Name(String(option[..<colon]).trimmingCharacters(in: .whitespaces))
            else {
                throw CommandFailure("-H '\(option)' is not a header field: write it as 'Name: value'.", status: .usage)
            }
            let value = String(option[option.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            append(HTTPField(name: name, value: value))
        }
    }
}
