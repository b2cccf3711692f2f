// Without libFuzzer (a plain `swift build`), PatternFuzz replays inputs: `PatternFuzz TARGET FILE|DIR...`
// runs each file once through the target, so a crash file or the corpus can be checked without sanitizers.
// The libFuzzer build passes -parse-as-library -D PATTERN_LIBFUZZER, and libFuzzer's main runs instead.
// (Only a declaration here: the parser rejects top-level statements even in an inactive #if under
// -parse-as-library. As top-level code it runs at start-up; in library mode it never runs.)
#if !PATTERN_LIBFUZZER
    let replayed: Void = Replay.main()
#endif
