/// Why a token command was refused; nothing was appended.
public enum TokenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The name is not one a device may have.
    case invalidName(problem: String)
    /// The device already has a token that is not revoked.
    case nameActive(String)
    /// No device of that name has a token that is not revoked.
    case noActiveToken(String, active: [String])

    public var description: String {
        switch self {
        case .invalidName(let problem):
            "\(problem); name the device with 1 to 64 letters, digits, \"-\", \"_\" or \".\", such as marie-iphone"
        case .nameActive(let name):
            "\(name) already has a token; revoke it first with `stride tokens revoke \(name)`, or choose another name"
        case .noActiveToken(let name, let active):
            active.isEmpty
                ? "\(name) has no token to revoke: no device has one; see `stride tokens list`"
                : "\(name) has no token to revoke; devices with one: \(active.joined(separator: ", ")) (see `stride tokens list`)"
        }
    }
}
