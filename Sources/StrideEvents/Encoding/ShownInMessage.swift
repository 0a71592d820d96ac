/// The one way a message repeats back what a person or a file gave (a name, a date, a unit, a
/// path inside an archive): every error, refusal and summary line of the command line, the API,
/// the pages and the ingest quotes input through ``StringProtocol/shownInMessage``.
extension StringProtocol {
    /// The text as a message repeats it back: whole up to 100 characters, else its first 100
    /// and how long it was — a pasted megabyte must not fill every error that names it.
    public var shownInMessage: String {
        let count = self.count
        guard count > 100 else { return String(self) }
        return String(prefix(100)) + "… (\(count.groupedDigits) characters)"
    }
}
