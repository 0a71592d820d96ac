extension String {
    /// Whether the two hold the same UTF-8 bytes: at once when they are the same string (the
    /// reader's table hands out the same strings again and again), else by comparing bytes.
    /// Not `==`, which compares by Unicode's canonical equivalence, at some cost for text
    /// that is not ASCII ("Max’s Apple Watch"); the reader wants the bytes as written.
    @inline(__always)
    func hasSameBytes(as other: String) -> Bool {
        isSameString(as: other) || hasEqualBytes(other)
    }

    /// Whether the two are the very same string (the same storage, or equal small strings
    /// held inline): the quick test the reader's caches ask first.
    @inline(__always)
    func isSameString(as other: String) -> Bool {
        // A string's bits are its storage's address and count, or its inline bytes.
        unsafeBitCast(self, to: (UInt64, UInt64).self) == unsafeBitCast(other, to: (UInt64, UInt64).self)
    }

    private func hasEqualBytes(_ other: String) -> Bool {
        let same = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                XMLScanner.equal(UnsafeRawBufferPointer(mine), UnsafeRawBufferPointer(theirs))
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
