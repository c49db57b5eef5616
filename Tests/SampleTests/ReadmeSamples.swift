import GitWire

/// The README's samples that do not open with `import` lines, each in the context it takes for
/// granted (those that do are files of their own: `ReadmeStoreSample.swift`,
/// `ReadmeFavoritesSample.swift`). Nothing calls them: the build compiles them.
enum ReadmeSamples {
    // MARK: - README.md, "courier ls-remote"

    static func lsRemote() async throws {
        let url = try GitURL("git://127.0.0.1:9418/project.git")
        for try await ref in AsyncGitClient().refs(url) {
            print(ref.objectID, ref.name)
        }
    }
}
