import Foundation

/// A growable array of plain values in memory it manages by hand: appending neither checks
/// uniqueness nor counts references, and the memory can change owner (builder to batch) without a
/// copy. The owner calls `free()` once; until then the elements stay where `base` says.
/// Inlinable, with its storage usable from inline code: the strategies (another module) read and
/// append to it in their hot loops.
@usableFromInline package struct PODArray<Element: BitwiseCopyable> {
    @usableFromInline var storedBase: UnsafeMutablePointer<Element>
    @usableFromInline var storedCount = 0
    @usableFromInline var storedCapacity: Int

    /// Where the elements lie; valid until the next append that grows it.
    @inlinable package var base: UnsafeMutablePointer<Element> { storedBase }
    @inlinable package var count: Int { storedCount }
    @inlinable package var capacity: Int { storedCapacity }

    package init(capacity: Int = 64) {
        storedCapacity = max(capacity, 1)
        guard let memory = malloc(storedCapacity * MemoryLayout<Element>.stride) else {
            fatalError("out of memory allocating a record buffer")
        }
        storedBase = memory.bindMemory(to: Element.self, capacity: storedCapacity)
    }

    @inlinable @inline(__always)
    package mutating func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        storedCount += 1
    }

    /// Makes room for `extra` more elements and returns where they go; `count` moves past them.
    @inlinable @inline(__always)
    package mutating func extend(by extra: Int) -> UnsafeMutablePointer<Element> {
        if count + extra > capacity { grow(to: count + extra) }
        defer { storedCount += extra }
        return base + count
    }

    @inlinable @inline(__always)
    package subscript(index: Int) -> Element {
        get { base[index] }
        set { base[index] = newValue }
    }

    /// Forgets elements from `newCount` on (they are plain values: nothing to deinitialise).
    package mutating func truncate(to newCount: Int) {
        storedCount = min(storedCount, max(newCount, 0))
    }

    /// Through `realloc`: plain values may move as bytes, and the allocator can often grow a large
    /// block where it lies instead of copying it (a whole payload's text in one batch is hundreds of MB).
    @usableFromInline @inline(never)
    mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        guard let grown = realloc(base, newCapacity * MemoryLayout<Element>.stride) else {
            fatalError("out of memory growing a record buffer to \(newCapacity * MemoryLayout<Element>.stride) bytes")
        }
        storedBase = grown.bindMemory(to: Element.self, capacity: newCapacity)
        storedCapacity = newCapacity
    }

    package func free() {
        Foundation.free(base)
    }
}
