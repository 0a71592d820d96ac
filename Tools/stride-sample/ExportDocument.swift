import Foundation

/// The fixed parts of an export: the XML declaration, the DTD (as the Health app writes it,
/// shortened) and the root's first children.
enum ExportDocument {
    static func prologue(exportDate: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 13 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate
          value CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT Correlation ((MetadataEntry|Record)*)>
        <!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics|WorkoutActivity)*)>
        <!ELEMENT WorkoutActivity ((WorkoutEvent|WorkoutStatistics|MetadataEntry)*)>
        <!ELEMENT WorkoutStatistics EMPTY>
        <!ELEMENT ActivitySummary EMPTY>
        <!ELEMENT MetadataEntry EMPTY>
        ]>
        <HealthData locale="fr_FR">
         <ExportDate value="\(exportDate)"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1988-06-12" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>

        """
    }

    /// The watch: its source name carries a curly apostrophe and a no-break space, as real ones do.
    static let watchSource = "Marie&#8217;s Apple&#160;Watch"
    static let watchDevice = "&lt;&lt;HKDevice: 0x2834c4a00&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1&gt;"
    static let phoneSource = "Marie&#8217;s iPhone"
    static let phoneDevice = "&lt;&lt;HKDevice: 0x2834c5e50&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,5, software:17.1&gt;"
}
