import Foundation
import StrideEvents

/// The gear of a Garmin Connect account export (`DI_CONNECT/DI-Connect-Fitness/<email>_gear.json`):
/// the shoes with their status and goal, which activity was on which gear, and the default
/// gear per activity type. `[{}]` is an account without gear.
public struct GarminGear: Equatable, Sendable {
    /// A shoe of the export (`gearTypeName` "Shoes"; bikes are counted, not kept).
    public struct Shoe: Equatable, Sendable {
        /// `gearPk`: what the activities' links name.
        public var key: String
        /// `displayName`, else `customMakeModel`.
        public var name: String
        public var isRetired: Bool
        /// `retiredDate`, epoch ms, when retired.
        public var retiredAt: Timestamp?
        /// `maximumMeters`: the distance after which Garmin says to replace it.
        public var goalMeters: Double?
        /// Whether it is the default gear for running (`gearActivityTypeDTOS`).
        public var isDefaultForRuns: Bool
    }

    public var shoes: [Shoe]
    /// Bikes and other gear read and left off the rack.
    public var otherGear: Int
    /// Which gear each activity was on: activity id → `gearPk` (shoes and bikes alike).
    public var gearOfActivity: [String: String]

    /// Garmin's running activity types, whose default gear is the default shoe.
    public static let runningTypes: Set<String> = ["running", "trail_running", "treadmill_running", "track_running", "street_running"]

    /// The gear of a parsed `gear.json`.
    /// - Throws: ``GarminFieldError`` naming the field that is not as Garmin writes it.
    public init(_ document: JSONNode) throws {
        // The file is an array of one object (`[{}]` without gear), or that object alone.
        let root: [String: JSONNode]
        switch document {
        case .array(let items):
            guard items.count <= 1 else { throw GarminFieldError(field: "", problem: "holds \(items.count) objects, not one") }
            guard case .object(let object)? = items.first ?? .object([:]) else { throw GarminFieldError(field: "[0]", problem: "is not an object") }
            root = object
        case .object(let object): root = object
        default: throw GarminFieldError(field: "", problem: "is neither an array nor an object")
        }
        var defaults: Set<String> = []
        for (index, entry) in try Self.array(root["gearActivityTypeDTOS"], "gearActivityTypeDTOS").enumerated() {
            let field = "gearActivityTypeDTOS[\(index)]"
            guard case .object(let object) = entry else { throw GarminFieldError(field: field, problem: "is not an object") }
            let isDefault = try Self.flag(object["defaultFlag"], field + ".defaultFlag")
            guard isDefault, let type = Self.text(object["activityType"]), Self.runningTypes.contains(type) else { continue }
            guard let key = Self.key(object["gearPk"]) else { throw GarminFieldError(field: field + ".gearPk", problem: "is missing") }
            defaults.insert(key)
        }
        var shoes: [Shoe] = []
        var other = 0
        for (index, entry) in try Self.array(root["gearDTOS"], "gearDTOS").enumerated() {
            let field = "gearDTOS[\(index)]"
            guard case .object(let object) = entry else { throw GarminFieldError(field: field, problem: "is not an object") }
            guard let key = Self.key(object["gearPk"]) else { throw GarminFieldError(field: field + ".gearPk", problem: "is missing") }
            guard Self.text(object["gearTypeName"])?.lowercased() == "shoes" else {
                other += 1
                continue
            }
            let name = [object["displayName"], object["customMakeModel"]].compactMap { Self.text($0) }.first { !$0.isEmpty }
            guard let name else { throw GarminFieldError(field: field + ".displayName", problem: "is missing, as is customMakeModel") }
            let isRetired = Self.text(object["gearStatusName"])?.lowercased() == "retired"
            let retiredAt = Self.number(object["retiredDate"]).map { Timestamp(millisecondsSince1970: Int64($0)) }
            let goal = Self.number(object["maximumMeters"]).flatMap { $0 > 0 ? $0 : nil }
            shoes.append(
                Shoe(
                    key: key, name: name, isRetired: isRetired, retiredAt: isRetired ? retiredAt : nil, goalMeters: goal,
                    isDefaultForRuns: defaults.contains(key)))
        }
        var links: [String: String] = [:]
        if let activities = root["gearActivityDTOs"], activities != .null {
            guard case .object(let byGear) = activities else { throw GarminFieldError(field: "gearActivityDTOs", problem: "is not an object") }
            for (gear, list) in byGear {
                for (index, entry) in try Self.array(list, "gearActivityDTOs.\(gear.shownInMessage)").enumerated() {
                    guard case .object(let object) = entry, let activity = Self.key(object["activityId"]) else {
                        throw GarminFieldError(field: "gearActivityDTOs.\(gear.shownInMessage)[\(index)].activityId", problem: "is missing")
                    }
                    links[activity] = Self.key(object["gearPk"]) ?? gear
                }
            }
        }
        self.shoes = shoes
        otherGear = other
        gearOfActivity = links
    }

    private static func array(_ node: JSONNode?, _ field: String) throws -> [JSONNode] {
        switch node {
        case nil, .null?: return []
        case .array(let items)?: return items
        default: throw GarminFieldError(field: field, problem: "is not an array")
        }
    }

    private static func text(_ node: JSONNode?) -> String? {
        if case .string(let text)? = node { return text.trimmingCharacters(in: .whitespaces) }
        return nil
    }

    private static func number(_ node: JSONNode?) -> Double? {
        if case .number(let value)? = node, value.isFinite { return value }
        return nil
    }

    /// A `defaultFlag` as archives write it: `true`, `1` or `"true"` (any case) is set; `false`,
    /// `0`, `"false"` or `null` is not. A missing flag is set: the entry itself names the
    /// default gear of its activity type.
    /// - Throws: ``GarminFieldError`` for another value, rather than guess.
    static func flag(_ node: JSONNode?, _ field: String) throws -> Bool {
        switch node {
        case nil, .bool(true)?, .number(1)?: return true
        case .null?, .bool(false)?, .number(0)?: return false
        case .string(let text)? where text.lowercased() == "true": return true
        case .string(let text)? where text.lowercased() == "false": return false
        default: throw GarminFieldError(field: field, problem: "is neither true nor false (true, 1, \"true\"; false, 0, \"false\")")
        }
    }

    /// An id Garmin writes as a number (or, now and then, as text).
    private static func key(_ node: JSONNode?) -> String? {
        switch node {
        case .number(let value)?: ArchiveID.text(value)
        case .string(let text)?: text.isEmpty ? nil : text
        default: nil
        }
    }
}

/// A field of a Garmin Connect export's JSON that is not as Garmin writes it, named by its path
/// in the file (`[0].summarizedActivitiesExport[5].startTimeGmt`, `gearDTOS[2].gearPk`); the
/// ingest names the file.
public struct GarminFieldError: Error, Equatable, CustomStringConvertible {
    public let field: String
    public let problem: String

    public var description: String { field.isEmpty ? "the document \(problem)" : "\(field) \(problem)" }
}
