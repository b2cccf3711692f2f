import CPatternSystem

/// yescrypt hashing of a pattern's canonical digits through libxcrypt (crypt_gensalt_rn "$y$" + crypt_rn).
/// The phrase is the ASCII digits of the canonical dots ("1235789"), so `mkpasswd -m yescrypt` or any
/// libxcrypt can check a stored hash.
public enum PatternHash {
    /// Default yescrypt cost: 7 (64 MiB, ~0.1 s here). The whole pattern space then takes ~76 min on 16 cores
    /// instead of ~26 min at Debian's default 5.
    public static let defaultCost = 7
    /// The costs accepted, 1...11: what crypt_gensalt_rn accepts for "$y$" (0 would silently mean "default",
    /// so it is refused); the option table's `cost` takes it from here.
    public static let costRange: ClosedRange<Int> = 1...11

    /// Longest hash accepted. A default yescrypt string is 73 bytes; extra parameters make it longer.
    public static let maximumHashBytes = 128

    /// True for a well-formed yescrypt string: "$y$", then exactly three more '$'-separated non-empty fields
    /// (params, salt, hash), only crypt(5) base-64 characters [./0-9A-Za-z], at most maximumHashBytes bytes.
    public static func isValidHash(_ hash: [UInt8]) -> Bool {
        if hash.count < 4 || hash.count > maximumHashBytes { return false }
        if hash[0] != 0x24 || hash[1] != 0x79 || hash[2] != 0x24 { return false }  // "$y$"
        var fields = 1  // the field after "$y$"
        var fieldLength = 0
        var index = 3
        while index < hash.count {
            let byte = hash[index]
            if byte == 0x24 {
                if fieldLength == 0 { return false }
                fields += 1
                fieldLength = 0
            } else if isCryptBase64(byte) {
                fieldLength += 1
            } else {
                return false
            }
            index += 1
        }
        return fields == 3 && fieldLength > 0
    }

    static func isCryptBase64(_ byte: UInt8) -> Bool {
        return byte == 0x2E || byte == 0x2F || (byte >= 0x30 && byte <= 0x39)
            || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// Output buffer: CRYPT_OUTPUT_SIZE (384).
    static let outputSize = 384
    /// Setting buffer: CRYPT_GENSALT_OUTPUT_SIZE (192).
    static let settingSize = 192

    /// A new "$y$..." hash of the pattern with a fresh random salt.
    public static func make(for pattern: Pattern, cost: Int) throws(HashError) -> [UInt8] {
        guard costRange.contains(cost) else { throw .invalidCost(cost) }
        var setting = [CChar](repeating: 0, count: settingSize)
        if pattern_yescrypt_setting(UInt(cost), &setting, Int32(settingSize)) != 0 {
            throw .failed(errno: pattern_errno())
        }
        guard var phrase = phrase(of: pattern) else { throw .invalidPattern }
        defer { zero(&phrase) }
        var output = [CChar](repeating: 0, count: outputSize)
        defer { zero(&output) }
        if pattern_crypt(phrase, setting, &output, outputSize) != 0 {
            throw .failed(errno: pattern_errno())
        }
        var hash: [UInt8] = []
        for byte in output {
            if byte == 0 { break }
            hash.append(UInt8(bitPattern: byte))
        }
        guard isValidHash(hash) else { throw .failed(errno: EINVAL) }
        return hash
    }

    /// True if `pattern` hashes to `hash`. The comparison takes the same time wherever the bytes differ.
    /// A malformed hash or pattern is false (after no hashing: there is nothing to time); a hash libcrypt
    /// could not compute is false too (use `matches` to tell that apart).
    public static func verify(_ pattern: Pattern, against hash: [UInt8]) -> Bool {
        return (try? matches(pattern, against: hash)) ?? false
    }

    /// Like `verify`, but a hash libcrypt could not compute (no memory for yescrypt's 64 MiB under a small
    /// inherited RLIMIT_AS, for one) throws `HashError.failed` instead of looking like a wrong pattern.
    public static func matches(_ pattern: Pattern, against hash: [UInt8]) throws(HashError) -> Bool {
        guard isValidHash(hash), var setting = SystemCall.cString(hash) else { return false }
        guard var phrase = phrase(of: pattern) else { return false }
        defer { zero(&phrase) }
        var output = [CChar](repeating: 0, count: outputSize)
        defer { zero(&output) }
        let status = pattern_crypt(phrase, setting, &output, outputSize)
        let code = pattern_errno()
        zero(&setting)
        if status != 0 { throw .failed(errno: code) }
        return constantTimeEqual(output, hash)
    }

    /// Runs one hash of the same cost against a throwaway setting, so an unenrolled user takes as long as an
    /// enrolled one (CVE-2016-6210). Invalid costs fall back to the default.
    public static func dummyVerify(cost: Int) {
        guard let setting = dummySetting(cost: cost) else { return }
        var phrase: [CChar] = [0x30, 0]
        var output = [CChar](repeating: 0, count: outputSize)
        _ = pattern_crypt(phrase, setting, &output, outputSize)
        zero(&output)
        zero(&phrase)
    }

    /// The throwaway setting dummyVerify hashes against: a fresh yescrypt setting of `cost` (the default for
    /// an invalid cost). Equal cost is what makes the timing equal; the tests check it here, not with a clock.
    static func dummySetting(cost: Int) -> [CChar]? {
        let used = costRange.contains(cost) ? cost : defaultCost
        var setting = [CChar](repeating: 0, count: settingSize)
        if pattern_yescrypt_setting(UInt(used), &setting, Int32(settingSize)) != 0 { return nil }
        return setting
    }

    /// The cost crypt_gensalt_rn("$y$", cost) was given, read back from the parameter field: flags 'j', then
    /// N and r in crypt base-64. Costs 1-2 use r=8 ('5') with N=2^10, 2^11; costs 3-11 use r=32 ('T') with
    /// N=2^(cost+7). nil for parameters gensalt never produces (a hand-made or future setting).
    public static func cost(ofHash hash: [UInt8]) -> Int? {
        // "$y$" + 3 parameter bytes + "$"
        guard hash.count >= 7, hash[0] == 0x24, hash[1] == 0x79, hash[2] == 0x24, hash[3] == 0x6A, hash[6] == 0x24
        else { return nil }
        guard let nIndex = base64Index(hash[4]) else { return nil }
        let nLog2 = nIndex + 1  // the N field stores log2(N) - 1
        switch hash[5] {
        case 0x35:  // '5': r = 8
            return (nLog2 == 10 || nLog2 == 11) ? nLog2 - 9 : nil
        case 0x54:  // 'T': r = 32
            let cost = nLog2 - 7
            return (3...11).contains(cost) ? cost : nil
        default:
            return nil
        }
    }

    /// Position of a byte in crypt's base-64 alphabet "./0-9A-Za-z".
    static func base64Index(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x2E: return 0
        case 0x2F: return 1
        case 0x30...0x39: return Int(byte - 0x30) + 2
        case 0x41...0x5A: return Int(byte - 0x41) + 12
        case 0x61...0x7A: return Int(byte - 0x61) + 38
        default: return nil
        }
    }

    /// The NUL-terminated ASCII digits of the canonical dots; nil unless 1...9 dots, each 1...9 (the input cap:
    /// nothing longer than 9 bytes is ever hashed).
    static func phrase(of pattern: Pattern) -> [CChar]? {
        let dots = pattern.dots
        guard !dots.isEmpty, dots.count <= 9 else { return nil }
        var phrase = [CChar](repeating: 0, count: dots.count + 1)
        for index in dots.indices {
            let dot = dots[index]
            guard dot >= 1 && dot <= 9 else {
                zero(&phrase)
                return nil
            }
            phrase[index] = CChar(0x30 + dot)
        }
        return phrase
    }

    /// Compares the NUL-terminated crypt output with the stored hash, touching every byte of the stored hash
    /// whatever differs. The lengths are public (the hash is in the store), the content is not.
    static func constantTimeEqual(_ output: [CChar], _ hash: [UInt8]) -> Bool {
        var difference: UInt8 = 0
        var outputLength = 0
        while outputLength < output.count && output[outputLength] != 0 { outputLength += 1 }
        if outputLength != hash.count { difference = 1 }
        for index in hash.indices {
            let produced = index < outputLength ? UInt8(bitPattern: output[index]) : 0
            difference |= produced ^ hash[index]
        }
        return difference == 0
    }

    /// Overwrites a buffer with zeroes through explicit_bzero, which the optimizer may not remove.
    static func zero(_ buffer: inout [CChar]) {
        buffer.withUnsafeMutableBytes { bytes in
            pattern_secure_zero(bytes.baseAddress, bytes.count)
        }
    }
}
