import Glibc

/// The target chosen by PATTERN_FUZZ_TARGET, read once (default: pattern).
let selectedTarget: FuzzTarget = {
    guard let raw = getenv("PATTERN_FUZZ_TARGET") else { return .pattern }
    let name = String(cString: raw)
    guard let target = FuzzTarget.named(name) else {
        let text = Array("PatternFuzz: unknown PATTERN_FUZZ_TARGET '\(name)'\n".utf8)
        text.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
        exit(2)
    }
    if target.needsRoot && geteuid() != 0 {
        let text = Array(
            "PatternFuzz: the \(name) target needs root (the store refuses files not owned by root)\n".utf8)
        text.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
        exit(2)
    }
    return target
}()

/// libFuzzer's entry point. Present in every build (it is just a function); only the sanitizer build
/// (make fuzz: -sanitize=fuzzer, -parse-as-library, -D PATTERN_LIBFUZZER) lets libFuzzer's main call it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    selectedTarget.run(UnsafeBufferPointer(start: size > 0 ? data : nil, count: size))
    return 0
}
