public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL server of the test's own: a new cluster in a temporary directory
/// (`initdb`), listening on a free port of 127.0.0.1 (`pg_ctl`), with a `courier` superuser
/// that needs no password; stopped and deleted by ``stop()``.
///
/// `initdb` refuses to run as root: under root, PostgreSQL's programs run as the `postgres`
/// user (`runuser`), which owns the directory. Debian's `postgresql` package provides both.
///
/// ```swift
/// try await PostgresTestServer.withServer { server in
///     let url = try await server.createDatabase()  // postgres://courier@127.0.0.1:PORT/test_…
/// }
/// ```
public final class PostgresTestServer: Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// Its cluster and socket directory.
    public let directory: URL
    private let binaries: URL

    /// The directory of PostgreSQL's programs (the newest version installed), if any.
    public static let binaryDirectory: URL? = {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.compactMap(Int.init).sorted().reversed().lazy
            .map { root.appendingPathComponent("\($0)/bin") }
            .first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path) }
    }()

    /// Whether a server can be started here: PostgreSQL's programs are installed, and under
    /// root there is a `postgres` user to run them as.
    public static var isAvailable: Bool {
        binaryDirectory != nil && (geteuid() != 0 || getpwnam("postgres") != nil)
    }

    /// Starts a server, runs `body`, and stops the server however `body` ends.
    public static func withServer<Result: Sendable>(
        _ body: (PostgresTestServer) async throws -> Result
    ) async throws -> Result {
        let server = try await start()
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Runs `body` with a server shared by the tests that run at the same time, each in a
    /// database of its own (``createDatabase()``): one cluster for many tests on a loaded
    /// machine. The first user starts it and the last one stops it.
    public static func withSharedServer<Result: Sendable>(
        _ body: (PostgresTestServer) async throws -> Result
    ) async throws -> Result {
        let server = try await SharedServer.instance.acquire()
        do {
            let result = try await body(server)
            await SharedServer.instance.release()
            return result
        } catch {
            await SharedServer.instance.release()
            throw error
        }
    }

    /// Creates the cluster and starts the server.
    public static func start() async throws -> PostgresTestServer {
        guard let binaries = binaryDirectory else {
            throw PostgresTestServerError("PostgreSQL is not installed: apt-get install postgresql")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if geteuid() == 0 {
            guard let user = getpwnam("postgres") else {
                throw PostgresTestServerError("initdb refuses root, and there is no postgres user to run it as")
            }
            guard chown(directory.path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                throw PostgresTestServerError("cannot give \(directory.path) to the postgres user")
            }
        }

        let initdb = try await run(
            binaries.appendingPathComponent("initdb"),
            [
                "--no-sync", "--auth=trust", "--username=courier", "--encoding=UTF8", "--no-locale", "-D",
                "\(directory.path)/data",
            ]
        )
        guard initdb.status == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw PostgresTestServerError("initdb failed: \(initdb.output)")
        }
        // A port that was free a moment ago can be taken by the time the server binds it:
        // try a few.
        var lastFailure = ""
        for _ in 0..<5 {
            let port = try LoopbackPort.free()
            let server = PostgresTestServer(port: port, directory: directory, binaries: binaries)
            let started = try await server.startServer()
            if started.status == 0 { return server }
            lastFailure = started.output
        }
        try? FileManager.default.removeItem(at: directory)
        throw PostgresTestServerError("pg_ctl start failed: \(lastFailure)")
    }

    private init(port: Int, directory: URL, binaries: URL) {
        self.port = port
        self.directory = directory
        self.binaries = binaries
    }

    /// `postgres://courier@127.0.0.1:PORT/DATABASE?sslmode=disable`.
    public func url(database: String) -> String {
        "postgres://courier@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Creates an empty database with a new name and returns its URL.
    public func createDatabase() async throws -> String {
        let name = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let result = try await Self.run(
            binaries.appendingPathComponent("createdb"),
            ["-h", "127.0.0.1", "-p", String(port), "-U", "courier", name]
        )
        guard result.status == 0 else { throw PostgresTestServerError("createdb failed: \(result.output)") }
        return url(database: name)
    }

    /// Runs SQL with `psql` in `database` and returns what it printed (unaligned, tuples only).
    public func psql(_ sql: String, database: String) async throws -> String {
        let result = try await Self.run(
            binaries.appendingPathComponent("psql"),
            [
                "-h", "127.0.0.1", "-p", String(port), "-U", "courier", "-d", database, "-X", "-A", "-t", "-v",
                "ON_ERROR_STOP=1", "-c", sql,
            ]
        )
        guard result.status == 0 else { throw PostgresTestServerError("psql failed: \(result.output)") }
        return result.output
    }

    /// Stops the server at once, as a crash would (`pg_ctl stop -m immediate`); the cluster
    /// stays, for ``resume()``.
    public func halt() async throws {
        let result = try await Self.run(
            binaries.appendingPathComponent("pg_ctl"),
            ["-D", "\(directory.path)/data", "-m", "immediate", "-w", "-s", "stop"]
        )
        guard result.status == 0 else { throw PostgresTestServerError("pg_ctl stop failed: \(result.output)") }
    }

    /// Starts the server again on the same port after ``halt()``.
    public func resume() async throws {
        let result = try await startServer()
        guard result.status == 0 else { throw PostgresTestServerError("pg_ctl start failed: \(result.output)") }
    }

    /// Stops the server and deletes its cluster.
    public func stop() async {
        _ = try? await halt()
        try? FileManager.default.removeItem(at: directory)
    }

    private func startServer() async throws -> (status: Int32, output: String) {
        let options = [
            "-p \(port)", "-k \(directory.path)", "-c listen_addresses=127.0.0.1", "-c fsync=off",
            "-c synchronous_commit=off", "-c full_page_writes=off", "-c max_connections=1000",
        ]
        let result = try await Self.run(
            binaries.appendingPathComponent("pg_ctl"),
            [
                "-D", "\(directory.path)/data", "-o", options.joined(separator: " "), "-l", "\(directory.path)/log",
                "-w",
                "-t", "120", "-s", "start",
            ]
        )
        if result.status != 0 {
            let log = (try? String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)) ?? ""
            return (result.status, result.output + log)
        }
        return result
    }

    /// Runs a PostgreSQL program, as the `postgres` user under root, and waits for it on a
    /// thread of its own. Spawned directly rather than with `Process`, whose wait for a child
    /// that has already ended can spin.
    private static func run(_ program: URL, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        // From `/`, which the postgres user may enter whatever the test's directory.
        let command =
            ["/usr/bin/env", "-C", "/"]
            + (geteuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [program.path] + arguments
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw PostgresTestServerError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        var pid: pid_t = 0
        let argv = command.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw PostgresTestServerError("cannot start \(command[0]): \(String(cString: strerror(spawned)))")
        }
        let (reading, child) = (pipeEnds[0], pid)
        return await withCheckedContinuation { continuation in
            // Blocking, so on a thread of its own rather than one of the concurrency pool's.
            Thread {
                let handle = FileHandle(fileDescriptor: reading, closeOnDealloc: true)
                let text = String(decoding: PipeReader.readAll(handle), as: UTF8.self)
                var status: Int32 = 0
                while waitpid(child, &status, 0) < 0, errno == EINTR {}
                let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
                continuation.resume(returning: (exit, text))
            }.start()
        }
    }
}

/// The server ``PostgresTestServer/withSharedServer(_:)`` lends, and how many borrow it.
private actor SharedServer {
    static let instance = SharedServer()

    private var server: Task<PostgresTestServer, any Error>?
    private var users = 0

    func acquire() async throws -> PostgresTestServer {
        users += 1
        let starting = server ?? Task { try await PostgresTestServer.start() }
        server = starting
        do {
            return try await starting.value
        } catch {
            users -= 1
            if users == 0 { server = nil }
            throw error
        }
    }

    func release() async {
        users -= 1
        guard users == 0, let stopping = server else { return }
        server = nil
        await (try? stopping.value)?.stop()
    }
}

/// PostgreSQL could not be started or used.
public struct PostgresTestServerError: Error, CustomStringConvertible {
    /// What failed, with what the program printed.
    public let description: String
    init(_ description: String) { self.description = description }
}
