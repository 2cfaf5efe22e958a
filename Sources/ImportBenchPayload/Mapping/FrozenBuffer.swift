/// A plan's fixed list of plain values in memory of its own: walking it takes no reference (an
/// array held by a class costs a retain and a release per loop, several loops per object read).
/// The owner calls `free()` once, when it goes.
struct FrozenBuffer<Element: BitwiseCopyable>: RandomAccessCollection {
    private let base: UnsafeMutablePointer<Element>
    let count: Int

    init(_ elements: [Element]) {
        count = elements.count
        base = .allocate(capacity: Swift.max(elements.count, 1))
        base.initialize(from: elements, count: elements.count)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    @inline(__always)
    subscript(position: Int) -> Element { base[position] }

    func free() {
        base.deallocate()
    }
}
