import StrideEvents

/// The form of an access token: `stride_` and 64 lowercase hexadecimal digits, 32 bytes drawn
/// from the system's cryptographic random source.
///
/// The prefix lets a person, a log scrubber or a secret scanner recognise a Stride token on
/// sight. Hexadecimal rather than base64: only letters, digits and the one underscore, so a
/// double-click selects the whole token in a terminal or a browser, it survives any header,
/// URL or form field unescaped, and no character can be mistaken for another. It is longer
/// (71 characters), which costs nothing: it is pasted once into the app that sends with it.
public enum AccessToken {
    /// What every token begins with.
    public static let prefix = "stride_"
    /// The random bytes behind a token: 256 bits, beyond any search.
    public static let randomByteCount = 32

    /// The token made of `bytes` (``randomByteCount`` random bytes).
    public static func text(from bytes: [UInt8]) -> String {
        prefix + Hex.string(bytes)
    }

    /// A new token, from the system's random source (`SystemRandomNumberGenerator`: the
    /// kernel's `getrandom` on Linux, a cryptographically secure generator).
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return text(from: (0..<randomByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
