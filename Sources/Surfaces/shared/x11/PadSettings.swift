import CPatternPad
import PatternCoreEmbedded

/// What the pad reads before it draws: the system's pattern rules from pam_pattern.conf (world-readable; the
/// same reader the module uses) and the person's own choices from XSECURELOCK_* variables, which xsecurelock
/// passes on (man/auth_pattern.8).
package struct PadSettings {
    /// The fewest dots the module accepts: a shorter drawing is shaken off, never sent.
    var minimumLength = 4
    /// How the module reads typed digits: drawn dots are sent as the keys of this layout.
    var layout: KeypadLayout = .phone
    /// XSECURELOCK_PATTERN_TRAIL=0 hides the line and the lit dots (Android's "make pattern visible" off).
    var trailVisible = true
    /// XSECURELOCK_AUTH_TIMEOUT: seconds without a key or a pointer move before the pad gives up (cancels).
    var timeoutSeconds: Int64 = 5 * 60
    /// XSECURELOCK_AUTHPROTO: the PAM child.
    package var authproto: [UInt8] = AuthprotoRun.defaultPath
    /// XSECURELOCK_PATTERN_SIZE: pixels between neighbouring dots (0: from the monitor's size).
    package var spacing: Int32 = 0

    package static func load() -> PadSettings {
        var settings = PadSettings()
        // A conf file the module refuses leaves the pad at the defaults: the module says what is wrong.
        if let loaded = try? PatternSettings.load(arguments: []) {
            settings.minimumLength = loaded.options.minimumLength
            settings.layout = loaded.options.layout
        }
        if let value = variable("XSECURELOCK_PATTERN_TRAIL") {
            settings.trailVisible = !(value == [0x30] || value == Array("no".utf8) || value == Array("false".utf8))
        }
        if let value = variable("XSECURELOCK_AUTH_TIMEOUT"), let n = TextCodec.parseDecimal(value[...]), n > 0 {
            settings.timeoutSeconds = n
        }
        if let value = variable("XSECURELOCK_AUTHPROTO"), value.first == UInt8(ascii: "/") {
            settings.authproto = value
        }
        if let value = variable("XSECURELOCK_PATTERN_SIZE"), let n = TextCodec.parseDecimal(value[...]),
            n >= 24 && n <= 1000
        {
            settings.spacing = Int32(n)
        }
        return settings
    }

    /// A variable's bytes; nil when unset or empty.
    package static func variable(_ name: StaticString) -> [UInt8]? {
        guard name.hasPointerRepresentation else { return nil }
        let value = name.utf8Start.withMemoryRebound(to: CChar.self, capacity: name.utf8CodeUnitCount + 1) {
            pattern_pad_getenv($0)
        }
        guard let bytes = PadText.bytes(value, limit: 4096), !bytes.isEmpty else { return nil }
        return bytes
    }
}
