/// How much of a list an ingest's summary names: a person reads it, and an archive of a
/// hundred thousand shoes must not make it a megabyte. The first ``named`` items are named,
/// the rest counted — in the text, in `ingest --json` and over HTTP alike.
public enum SummaryList {
    /// The items of one list a summary names.
    public static let named = 50

    /// The items a summary names, and how many it leaves unnamed.
    public static func cut<Items: Collection>(_ items: Items) -> (named: Items.SubSequence, notNamed: Int) {
        (items.prefix(named), max(0, items.count - named))
    }
}
