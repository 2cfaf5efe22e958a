/// A growable array of plain values in memory it manages by hand: appending neither checks
/// uniqueness nor counts references, and the memory can change owner (builder to batch) without a
/// copy. The owner calls `free()` once; until then the elements stay where `base` says.
struct PODArray<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int = 64) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Makes room for `extra` more elements and returns where they go; `count` moves past them.
    @inline(__always)
    mutating func extend(by extra: Int) -> UnsafeMutablePointer<Element> {
        if count + extra > capacity { grow(to: count + extra) }
        defer { count += extra }
        return base + count
    }

    @inline(__always)
    subscript(index: Int) -> Element {
        get { base[index] }
        set { base[index] = newValue }
    }

    /// Forgets elements from `newCount` on (they are plain values: nothing to deinitialise).
    mutating func truncate(to newCount: Int) {
        count = min(count, max(newCount, 0))
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    func free() {
        base.deallocate()
    }
}
