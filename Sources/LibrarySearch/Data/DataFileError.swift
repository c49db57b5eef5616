public import Courier

/// A data file the service cannot serve: which file, where in it, and what is wrong.
///
/// Printed the way compilers print, so editors and terminals can jump to the place:
/// `data/catalog.json:12:14: [3].year: expected a whole number, found a string`.
public struct DataFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    public var file: String
    /// Where in the file, if the problem has a place.
    public var position: JSONTextPosition?
    /// What is wrong.
    public var problem: String

    /// Creates a data file error.
    public init(file: String, position: JSONTextPosition? = nil, problem: String) {
        self.file = file
        self.position = position
        self.problem = problem
    }

    /// `file:line:column: problem`.
    public var description: String {
        guard let position else { return "\(file): \(problem)" }
        return "\(file):\(position.line):\(position.column): \(problem)"
    }
}
