import PatternCore

/// pam_pattern_helper's input parsers (HelperProtocol.swift): the NUL-framed stdin, argv, and, for callers, the
/// verdict line. Byte 0: bits 0-1 pick the parser (0 stdin, 1 verdict, 2 argv, 3 all), bits 2-4 the field count
/// or exit status; the rest is the input.
enum FuzzHelper {
    static func run(_ data: UnsafeBufferPointer<UInt8>) {
        guard let control = data.first else { return }
        let input = Array(data[1...])
        let which = control & 3
        let number = Int((control >> 2) & 7)
        if which == 0 || which == 3 { fields(input, count: number % 4) }
        if which == 1 || which == 3 { verdict(input, status: Int32(number)) }
        if which == 2 || which == 3 { arguments(input) }
    }

    /// Accepted input is exactly the fields re-encoded; well-framed input within the limits is always accepted.
    static func fields(_ input: [UInt8], count: Int) {
        let parsed = HelperRequest.parseFields(input, count: count)
        let segments = input.split(separator: 0, omittingEmptySubsequences: false)
        let wellFramed =
            input.count <= HelperRequest.maximumInputBytes
            && (count == 0 ? input.isEmpty : input.last == 0 && segments.count == count + 1)
            && segments.allSatisfy { $0.count <= HelperRequest.maximumFieldBytes }
        require(
            (parsed != nil) == wellFramed, "framing verdict \(parsed != nil) for \(input.count) bytes, count \(count)")
        guard let parsed else { return }
        require(parsed.count == count, "field count \(parsed.count) != \(count)")
        require(HelperRequest.encodeFields(parsed) == input, "fields do not re-encode to the input")
        for field in parsed {
            require(!field.contains(0) && field.count <= HelperRequest.maximumFieldBytes, "bad field accepted")
        }
    }

    /// A decoded verdict is the canonical line for its exit status: nothing else decodes.
    static func verdict(_ output: [UInt8], status: Int32) {
        guard let decoded = HelperVerdict.decode(exitStatus: status, output: output) else { return }
        require(decoded.line == output, "decoded line is not canonical")
        require(decoded.exit.rawValue == status, "exit status \(status) decoded as \(decoded.exit.rawValue)")
        if case .locked(let throttle) = decoded, case .allowed = throttle { require(false, "locked allowed decoded") }
    }

    /// argv split on NUL: accepted only as exactly OPERATION USER with a known operation and a storable name.
    static func arguments(_ input: [UInt8]) {
        let arguments = input.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
        switch HelperRequest.parseArguments(arguments) {
        case .success(let (operation, user)):
            require(arguments.count == 2, "\(arguments.count) arguments accepted")
            require(operation.word == arguments[0], "operation word differs")
            require(user == arguments[1] && StoreRecord.isValidUserName(user), "user not valid or not argv[2]")
        case .failure(let error):
            if arguments.count == 2, HelperOperation(word: arguments[0]) != nil {
                require(error.refusal == .user && !StoreRecord.isValidUserName(arguments[1]), "valid call refused")
            } else {
                require(error.refusal == .usage, "usage error reported as \(error.refusal)")
            }
        }
    }
}
