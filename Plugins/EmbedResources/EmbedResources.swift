import Foundation
import PackagePlugin

/// Builds a target's `Resources/` folder into its code, as `EmbeddedResources`, so that the
/// `courier` binary is one file: a resource bundle beside it would have to travel with it, and
/// SwiftPM's `Bundle.module` falls back to the build directory's absolute path, which exists only
/// where it was built.
@main
struct EmbedResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let resources = target.directoryURL.appending(path: "Resources")
        guard FileManager.default.fileExists(atPath: resources.path(percentEncoded: false)) else {
            throw Failure(description: "\(target.name) uses EmbedResources but has no Resources folder")
        }
        let files = try Self.files(under: resources)
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) resources of \(target.name)",
                executable: try context.tool(named: "EmbedResourcesTool").url,
                arguments: [output.path(percentEncoded: false), resources.path(percentEncoded: false)]
                    + files.map { $0.path(percentEncoded: false) },
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }

    /// Why the plugin cannot embed a target's resources.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The regular files under `directory`, in a stable order. Hidden files (`.DS_Store`, an
    /// editor's swap file) are left out.
    private static func files(under directory: URL) throws -> [URL] {
        guard
            let walker = FileManager.default.enumerator(
                at: directory,
                includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles]
            )
        else { return [] }
        var files: [URL] = []
        for case let url as URL in walker
        where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }
}
