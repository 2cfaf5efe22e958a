import CProcess
import Foundation
import Testing

@testable import ImportBenchCore

/// What the second stopping signal removes before it quits (issue 47, item 3): a run directory
/// recorded when it was made, even one its usual removal had half emptied (its marker gone), and
/// never another directory put at its path since.
@Suite("Run directories removed on a quick exit")
struct QuickRemovalTests {
    @Test("a run directory halfway through its removal, its marker already gone, is removed whole")
    func halfRemoved() throws {
        let parent = try TemporaryDirectory()
        let run = try RunDirectory.create(in: parent.url)
        defer { run.remove() }
        let deep = run.url.appendingPathComponent("a/b/c")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        for index in 0..<300 { try Data("\(index)".utf8).write(to: deep.appendingPathComponent("f\(index)")) }
        // A link out of it is removed, never followed.
        let outside = parent.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: outside.appendingPathComponent("keep"))
        try FileManager.default.createSymbolicLink(at: run.url.appendingPathComponent("link"), withDestinationURL: outside)
        // What the usual removal may have done first.
        try FileManager.default.removeItem(at: run.url.appendingPathComponent(RunDirectory.markerName))
        #expect(importbench_directory_remove(run.url.path) == 0)
        #expect(!FileManager.default.fileExists(atPath: run.url.path))
        #expect(FileManager.default.fileExists(atPath: outside.appendingPathComponent("keep").path))
    }

    @Test("another directory at a recorded run directory's path, marked or not, is left alone")
    func replaced() throws {
        let parent = try TemporaryDirectory()
        let run = try RunDirectory.create(in: parent.url)
        defer { run.remove() }
        // Made while the run's still exists, so it cannot reuse its inode.
        let other = parent.url.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data().write(to: other.appendingPathComponent(RunDirectory.markerName))
        try Data("mine".utf8).write(to: other.appendingPathComponent("mine"))
        try FileManager.default.moveItem(at: run.url, to: parent.url.appendingPathComponent("moved"))
        try FileManager.default.moveItem(at: other, to: run.url)
        #expect(importbench_directory_remove(run.url.path) == -1)
        #expect(FileManager.default.fileExists(atPath: run.url.appendingPathComponent("mine").path))
        // Removed the usual way, it is forgotten.
        run.remove()
        try FileManager.default.createDirectory(at: run.url, withIntermediateDirectories: true)
        #expect(importbench_directory_remove(run.url.path) == -1)
        #expect(FileManager.default.fileExists(atPath: run.url.path))
    }
}
