import StrideEvents
import StrideProjection

/// What the daily records make of decisions about samples: a repeat or a withdrawn sample
/// stays among its days' facts, left out of the figures (``LeftOut``), so that `daily explain`
/// can say why; a restored one counts again.
extension DailyHealthProjection {
    /// The most days a fact that counts can touch: a sample that counts spans 8 days at most
    /// (``SampleQuality``'s limits), so a decision never visits more rows than this.
    public static let longestCountedSpanInDays: Int64 = 10

    func apply(_ decision: LedgerEvent, sequence: UInt64, entity: EntityReference, to rows: inout ProjectionRows<Key, Row>) {
        switch decision {
        case .sampleRepeated(let repeated): mark(repeated.sample, entity: entity, .repeated, isSet: true, sequence: sequence, in: &rows)
        case .sampleWithdrawn(let withdrawn):
            mark(withdrawn.sample, entity: entity, .withdrawn, isSet: true, sequence: sequence, in: &rows)
        case .sampleRestored(let restored):
            mark(restored.sample, entity: entity, .withdrawn, isSet: false, sequence: sequence, in: &rows)
        default: break
        }
    }

    /// Sets or clears `reason` on the facts of a sample: for a sync-identified sample, those of
    /// its entity wherever its version in force put them (and on its later versions); else
    /// those of its event, in the rows of the days its span touches.
    private func mark(
        _ sample: SampleReference, entity: EntityReference, _ reason: LeftOut, isSet: Bool, sequence: UInt64,
        in rows: inout ProjectionRows<Key, Row>
    ) {
        guard let measure = HealthTypeCatalog.code(of: sample.healthType).flatMap(Measure.of(typeCode:)) else { return }
        if SampleIdentity.isSyncIdentified(entity) {
            guard var synced = rows.row(.synced(entity.id))?.synced else { return }
            if isSet { synced.leftOut.insert(reason) } else { synced.leftOut.remove(reason) }
            rows.update(.synced(entity.id), creating: DailyHealthRow.init) { $0.synced = synced }
            for place in synced.places {
                change(place, where: { $0.syncEntity == entity.id }, reason, isSet: isSet, sequence: sequence, in: &rows)
            }
            return
        }
        let span = Fact(start: sample.start, end: sample.end, value: 0, deviceClass: .other)
        let (first, last, firstHour) = dayNumbers(of: span, for: measure)
        for days in first...min(max(first, last), first + Self.longestCountedSpanInDays) {
            let place = DailyHealthKey.facts(day: CivilDate(daysSince1970: days), measure: measure, hour: days == first ? firstHour : 0)
            change(place, where: { $0.sequence == sample.sequence }, reason, isSet: isSet, sequence: sequence, in: &rows)
        }
    }

    /// Sets or clears `reason` on the facts of one row that `matches` picks, when the row exists.
    private func change(
        _ place: DailyHealthKey, where matches: (Fact) -> Bool, _ reason: LeftOut, isSet: Bool, sequence: UInt64,
        in rows: inout ProjectionRows<Key, Row>
    ) {
        guard let row = rows.row(place), row.facts.contains(where: matches) else { return }
        keep(row.facts.filter(matches), supersededIn: place, at: sequence, in: &rows)
        rows.update(place, creating: DailyHealthRow.init) { row in
            for index in row.facts.indices where matches(row.facts[index]) {
                if isSet { row.facts[index].leftOut.insert(reason) } else { row.facts[index].leftOut.remove(reason) }
            }
            row.lastSequence = sequence
        }
    }
}
