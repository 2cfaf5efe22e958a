import Foundation
import Testing

@testable import ImportBenchCore

@Suite("Run directories")
struct RunDirectoryTests {
    @Test("only a marked run directory of a process that is gone is removed")
    func abandoned() throws {
        let parent = try TemporaryDirectory()
        let mine = try RunDirectory.create(in: parent.url)
        // A process that has exited: a child we started and reaped.
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let gonePID = finished.processIdentifier
        let abandoned = parent.url.appendingPathComponent("importbench-\(gonePID)-0a1b2c3d")
        try FileManager.default.createDirectory(at: abandoned.appendingPathComponent("deep"), withIntermediateDirectories: true)
        try Data().write(to: abandoned.appendingPathComponent(RunDirectory.markerName))
        // Not ours: no marker, a name of another shape, a plain file with a run's name.
        let unmarked = parent.url.appendingPathComponent("importbench-\(gonePID)-11111111")
        try FileManager.default.createDirectory(at: unmarked, withIntermediateDirectories: true)
        let otherShape = parent.url.appendingPathComponent("importbench-test-\(gonePID)")
        try FileManager.default.createDirectory(at: otherShape, withIntermediateDirectories: true)
        try Data().write(to: otherShape.appendingPathComponent(RunDirectory.markerName))
        let file = parent.url.appendingPathComponent("importbench-\(gonePID)-22222222")
        try Data("a file".utf8).write(to: file)

        #expect(RunDirectory.removeAbandoned(in: parent.url) == [abandoned.path])
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: parent.url.path))
        #expect(left == [mine.url.lastPathComponent, unmarked.lastPathComponent, otherShape.lastPathComponent, file.lastPathComponent])
        mine.remove()
        #expect(!FileManager.default.fileExists(atPath: mine.url.path))
    }

    @Test(
        "names",
        arguments: [
            ("importbench-123-0a1b2c3d", 123), ("importbench-0-0a1b2c3d", nil), ("importbench-12-0a1b2c3", nil),
            ("importbench-x1-0a1b2c3d", nil), ("importbench-test-ABCDEF12", nil), ("other-123-0a1b2c3d", nil),
        ] as [(String, Int32?)])
    func names(name: String, pid: Int32?) {
        #expect(RunDirectory.processID(inName: name) == pid)
    }
}
