import StrideEvents

/// An `ActivitySummary`: one empty element, every attribute kept.
enum ActivitySummaryDraft {
    /// The pending event for the element.
    /// - Throws: ``XMLStructureError`` when it has no readable `dateComponents`.
    static func event(
        _ element: XMLElement, attributes reader: inout AttributeReader, identity: inout IdentityHasher
    ) throws
        -> PendingEvent
    {
        guard let dayAttribute = element.attribute(Names.dateComponents) else {
            throw RecordDraft.missing("dateComponents", line: element.line, element: "ActivitySummary")
        }
        let day = reader.string(dayAttribute, in: element)
        guard let date = CivilDate(day) else {
            throw XMLStructureError(
                line: element.line, problem: "an <ActivitySummary> has dateComponents=\"\(day.shownInMessage)\", not a date like 2024-05-01")
        }
        var others: [MetadataEntry] = []
        for attribute in element.attributes where !Names.dateComponents.matches(element.name(of: attribute)) {
            others.append(
                MetadataEntry(
                    key: String(decoding: element.name(of: attribute), as: UTF8.self), value: reader.string(attribute, in: element)))
        }
        let dayStart = Timestamp(secondsSince1970: date.daysSince1970 * 86_400)
        let id = SampleIdentity.make(start: dayStart, hash: identity.attributeHash(kind: "ActivitySummary", of: element, attributes: &reader))
        return PendingEvent(
            .activitySummaryRecorded(ActivitySummaryRecorded(day: day, attributes: others)), occurredAt: dayStart,
            entity: EntityReference(.activitySummary, id: id), idempotencyKey: IdempotencyKey(id))
    }
}
