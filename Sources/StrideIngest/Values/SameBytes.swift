extension String {
    /// Whether the two hold the same UTF-8 bytes: at once when they are the same string (the
    /// reader's table hands out the same strings again and again), else by comparing bytes.
    /// Not `==`, which compares by Unicode's canonical equivalence, at some cost for text
    /// that is not ASCII ("Max’s Apple Watch"); the reader wants the bytes as written.
    func hasSameBytes(as other: String) -> Bool {
        let same = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                // The very same storage first, then the bytes.
                (mine.baseAddress == theirs.baseAddress && mine.count == theirs.count)
                    || XMLScanner.equal(UnsafeRawBufferPointer(mine), UnsafeRawBufferPointer(theirs))
            }
        }
        return (same ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}

extension Optional<String> {
    /// ``Swift/String/hasSameBytes(as:)`` for optional text: both nil, or the same bytes.
    func hasSameBytes(as other: String?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let mine?, let theirs?): mine.hasSameBytes(as: theirs)
        default: false
        }
    }
}
