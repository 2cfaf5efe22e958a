import Foundation

/// A growable array of plain values in memory it manages by hand: appending neither checks
/// uniqueness nor counts references, and the memory can change owner (builder to batch) without a
/// copy. The owner calls `free()` once; until then the elements stay where `base` says.
package struct PODArray<Element: BitwiseCopyable> {
    @usableFromInline package internal(set) var base: UnsafeMutablePointer<Element>
    @usableFromInline package internal(set) var count = 0
    @usableFromInline package internal(set) var capacity: Int

    package init(capacity: Int = 64) {
        self.capacity = max(capacity, 1)
        guard let memory = malloc(self.capacity * MemoryLayout<Element>.stride) else {
            fatalError("out of memory allocating a record buffer")
        }
        base = memory.bindMemory(to: Element.self, capacity: self.capacity)
    }

    @inlinable @inline(__always)
    package mutating func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Makes room for `extra` more elements and returns where they go; `count` moves past them.
    @inlinable @inline(__always)
    package mutating func extend(by extra: Int) -> UnsafeMutablePointer<Element> {
        if count + extra > capacity { grow(to: count + extra) }
        defer { count += extra }
        return base + count
    }

    @inlinable @inline(__always)
    package subscript(index: Int) -> Element {
        get { base[index] }
        set { base[index] = newValue }
    }

    /// Forgets elements from `newCount` on (they are plain values: nothing to deinitialise).
    package mutating func truncate(to newCount: Int) {
        count = min(count, max(newCount, 0))
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
        base = grown.bindMemory(to: Element.self, capacity: newCapacity)
        capacity = newCapacity
    }

    package func free() {
        Foundation.free(base)
    }
}
