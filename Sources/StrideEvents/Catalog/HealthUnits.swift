/// The units Stride converts between: distances to metres, energy to kilocalories,
/// durations to seconds. A unit not listed is unknown: the value is kept as written and
/// left out of figures.
public enum HealthUnits {
    /// Metres in one of a distance unit (`m`, `km`, `mi`, `ft`, and a few spellings).
    public static func metres(per unit: String) -> Double? {
        switch unit {
        case "m": 1
        case "km": 1000
        case "mi": 1609.344
        case "ft": 0.3048
        case "yd": 0.9144
        case "cm": 0.01
        default: nil
        }
    }

    /// Kilocalories in one of an energy unit (`kcal`, `Cal`, `kJ`, `cal`, `J`).
    public static func kilocalories(per unit: String) -> Double? {
        switch unit {
        case "kcal", "Cal": 1
        case "kJ": 1 / 4.184
        case "cal": 0.001
        case "J": 1 / 4184
        default: nil
        }
    }

    /// Seconds in one of a duration unit (`s`, `min`, `hr`, `ms`).
    public static func seconds(per unit: String) -> Double? {
        switch unit {
        case "s": 1
        case "min": 60
        case "hr", "h": 3600
        case "ms": 0.001
        case "d": 86_400
        default: nil
        }
    }
}
