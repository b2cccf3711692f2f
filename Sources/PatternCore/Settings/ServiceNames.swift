/// A list of PAM service names in the configuration file (`quiet_services = sddm, sddm-greeter`).
///
/// libpam lower-cases the service name and keeps only its last path component (pam_start), so PAM_SERVICE is
/// never anything but a file name of /etc/pam.d in lower case: a name here is held to the characters such names
/// use, so a name that could never match (upper case, a path) is refused instead of silently doing nothing.
public enum ServiceNames {
    /// The longest name accepted (a file name's limit).
    public static let maximumNameBytes = 255

    /// The names in `value`, separated by commas, spaces or tabs; nil when a name has another character, is too
    /// long, or there is none at all. A name given twice is kept once.
    public static func parse(_ value: ArraySlice<UInt8>) -> [[UInt8]]? {
        var names: [[UInt8]] = []
        var name: [UInt8] = []
        for byte in value + [UInt8(ascii: ",")] {
            if byte == UInt8(ascii: ",") || byte == 0x20 || byte == 0x09 {
                if !name.isEmpty && !names.contains(name) { names.append(name) }
                name = []
                continue
            }
            guard isNameByte(byte), name.count < maximumNameBytes else { return nil }
            name.append(byte)
        }
        return names.isEmpty ? nil : names
    }

    /// Lower-case letters, digits, '.', '_', '+' and '-'.
    public static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: "-")
    }
}
