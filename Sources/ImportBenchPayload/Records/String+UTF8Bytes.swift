extension String {
    /// The string's UTF-8, lent to `body`: a native string's own bytes through its UTF-8 view
    /// (`withUTF8` would copy the string first), a copy only for a bridged one.
    @inline(__always)
    func withUTF8Bytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        return Array(utf8).withUnsafeBytes(body)
    }
}
