// The libFuzzer entry point: built only with STRIDE_FUZZ=1 and `-sanitize=fuzzer`
// (see Tools/fuzz). Each input goes through the reader `stride ingest` uses, format
// detection included; any outcome but a crash is fine.
import Foundation
import StrideIngest

private let input = NSTemporaryDirectory() + "stride-fuzz-\(getpid())"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    _ = FileManager.default.createFile(atPath: input, contents: data.map { Data(bytes: $0, count: size) } ?? Data())
    _ = try? IngestReader.read(file: input, batchSize: 1_000) { _ in }
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM names an executable's entry `<module>_main`; it hands over to libFuzzer's driver.
@_cdecl("stride_fuzz_main")
public func strideFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOneInput)
}
