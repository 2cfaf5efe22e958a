import Foundation
import ImportBenchCore
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a command writes, however much of it (issue 47, item 2): its output and error kept as
/// bounded tails, read only from their end; its progress read line by line in one pass.
@Suite("A command's output, error and progress, bounded")
struct CommandStreamTests {
    private func run(
        _ command: String, in directory: TemporaryDirectory, timeout: Double? = 60, progress: ((Int) -> Void)? = nil
    ) throws -> CommandEnding {
        try CommandProcess.run(
            command, name: "c", environment: ProcessInfo.processInfo.environment, output: directory.path("out"),
            error: directory.path("err"), timeout: timeout, progress: progress)
    }

    /// Bytes this thread has read through system calls so far (`rchar` of /proc/thread-self/io).
    private func bytesReadByThisThread() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix("rchar:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
    }

    @Test("tail(of:) reads only the end of a file: of a 512 MiB sparse file, a few KiB")
    func tailSeeks() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("err")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let file = try #require(FileHandle(forWritingAtPath: path))
        try file.truncate(atOffset: 512 << 20)
        try file.seekToEnd()
        try file.write(contentsOf: Data("first\nsecond\nlast line\n".utf8))
        try file.close()
        let before = try #require(bytesReadByThisThread())
        let tail = CommandProcess.tail(of: path)
        let read = try #require(bytesReadByThisThread()) - before
        // What tail(of:) read, and the reading of /proc/thread-self/io itself.
        #expect(read < 64 << 10, "tail(of:) read \(read) bytes")
        // "first" ends a line that starts 512 MiB earlier, outside the bytes read: not shown.
        #expect(tail == "second\nlast line")
    }

    @Test("tail(of:) shows the last 12 lines, a long one by its end")
    func tailLines() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("err")
        let long = String(repeating: "a", count: 1000) + "THE END"
        try ((1...20).map { "line \($0)" } + [long, "done"]).joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let lines = CommandProcess.tail(of: path).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 13)
        #expect(lines.first == "line 10" && lines.last == "done")
        #expect(lines[11].hasPrefix("...") && lines[11].hasSuffix("THE END") && lines[11].count == 403)
        #expect(CommandProcess.tail(of: directory.path("missing")) == "")
    }

    @Test("300 MB on standard error: the file keeps its size but holds about its last MiB on disk, and its tail is read")
    func boundedOnDisk() throws {
        let directory = try TemporaryDirectory()
        let ending = try run(#"head -c 300000000 /dev/zero | tr '\0' x >&2; echo "the real error" >&2"#, in: directory)
        #expect(ending.status == 0)
        var status = stat()
        try #require(stat(directory.path("err"), &status) == 0)
        #expect(status.st_size == 300_000_015)
        // Punched out as it was written: at most twice what is kept, and a block or two.
        #expect(Int64(status.st_blocks) * 512 <= 2 * CommandProcess.keptStreamBytes + (1 << 16), "\(status.st_blocks) blocks")
        let tail = CommandProcess.tail(of: directory.path("err"))
        // One line of 300 MB: its end alone.
        #expect(tail.hasPrefix("...xxx") && tail.hasSuffix("xthe real error") && tail.count == 403, "\(tail.prefix(100))")
    }

    @Test("20 MB of progress lines ended by \\r are all read, the last one passed on (a quadratic reading would time out)")
    func carriageReturns() throws {
        let directory = try TemporaryDirectory()
        let count = 1_200_000
        var lines = Data()
        lines.reserveCapacity(24 << 20)
        for index in 0..<count { lines.append(contentsOf: Array("occurrences \(index)\r".utf8)) }
        #expect(lines.count > 20_000_000)
        try lines.write(to: directory.url.appendingPathComponent("progress"))
        let heard = Mutex<[Int]>([])
        let ending = try run("cat '\(directory.path("progress"))' >&3", in: directory, timeout: 30) { value in
            heard.withLock { $0.append(value) }
        }
        #expect(ending.status == 0 && !ending.timedOut)
        let values = heard.withLock { $0.filter { $0 >= 0 } }
        #expect(values.last == count - 1)
        // Only the last line of each read is passed on, in order.
        #expect(values.count < count / 10 && values == values.sorted())
    }

    @Test("a progress line longer than the limit ends the reading of progress, never the command")
    func overlongLine() throws {
        let directory = try TemporaryDirectory()
        let heard = Mutex<[Int]>([])
        let ending = try run(
            #"echo "occurrences 3" >&3; head -c 4000000 /dev/zero | tr '\0' x >&3; echo "occurrences 7" >&3; echo fine"#, in: directory,
            timeout: 30
        ) { value in heard.withLock { $0.append(value) } }
        #expect(ending.status == 0 && !ending.timedOut)
        #expect(heard.withLock { $0.filter { $0 >= 0 } } == [3])
        #expect(try String(contentsOfFile: directory.path("out"), encoding: .utf8) == "fine\n")
    }
}
