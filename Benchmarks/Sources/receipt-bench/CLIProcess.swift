import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs the `receipt` executable as a child process, its output to a file, and reports its wall
/// time and peak resident memory (from `wait4`'s resource usage, so nothing else is counted).
enum CLIProcess {
    /// What one run of the tool took.
    struct Run {
        /// Wall-clock seconds from spawn to exit.
        var seconds: Double
        /// The child's peak resident memory (KiB).
        var peakKiB: Int
        /// The child's exit status.
        var status: Int32
    }

    /// Runs `arguments` (the first is the program, looked up in `PATH`) with stdout to `output`
    /// and stderr to /dev/null, and waits for it.
    static func run(_ arguments: [String], output: String) throws -> Run {
        try runTogether([(arguments, output)])[0]
    }

    /// Starts every command at once (each `arguments` with stdout to its `output`), waits for all
    /// of them, and reports each one's run, its seconds counted from the moment the first was
    /// started. Two one-core commands pinned to different cores measure what the machine gives two
    /// processes that share nothing: the ceiling of any two-core line.
    static func runTogether(_ commands: [(arguments: [String], output: String)]) throws -> [Run] {
        // The previous run's output (27 MB for 200 receipts of 187 purchases) is removed here,
        // untimed: opened with O_TRUNC in the child, freeing its page-cache pages took 8 to 18 ms
        // of the measured run, a quarter of a two-core run of that batch.
        for command in commands where unlink(command.output) != 0 && errno != ENOENT {
            throw BenchError("cannot remove \(command.output): \(String(cString: strerror(errno)))")
        }
        let start = Measure.now()
        var children: [pid_t] = []
        for command in commands {
            do {
                children.append(try spawn(command.arguments, output: command.output))
            } catch {
                for pid in children { _ = try? wait(for: pid, startedAt: start) }
                throw error
            }
        }
        return try children.map { try wait(for: $0, startedAt: start) }
    }

    /// Starts `arguments` with stdout to `output` and stderr to /dev/null.
    private static func spawn(_ arguments: [String], output: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchError("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }
        return pid
    }

    /// Waits for `pid` and reports its run, timed from `start`.
    private static func wait(for pid: pid_t, startedAt start: Double) throws -> Run {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let seconds = Measure.now() - start
        // WIFEXITED / WEXITSTATUS are macros: status & 0x7f == 0 means exited, (status >> 8) & 0xff its code.
        let exited = status & 0x7F == 0
        return Run(seconds: seconds, peakKiB: Int(usage.ru_maxrss), status: exited ? (status >> 8) & 0xFF : -1)
    }
}
