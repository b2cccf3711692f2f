import PatternCoreEmbedded

/// What authproto is waiting for.
package enum PadPrompt: Equatable {
    /// pam_pattern's prompt; `takesPassword` for forward_pass's "Pattern or password: ".
    case pattern(takesPassword: Bool)
    /// Another echo-off prompt (pam_unix's password): answered from the password field.
    case secret(label: [UInt8])
    /// An echo-on prompt (a user name, a token code): answered from the field, shown.
    case text(label: [UInt8])

    static func classify(_ packet: AuthprotoPacket) -> PadPrompt {
        let bytes = packet.bytes
        switch ModuleWords.prompt(bytes) {
        case .pattern?: return .pattern(takesPassword: false)
        case .patternOrPassword?: return .pattern(takesPassword: true)
        case nil: break
        }
        // pam_unix speaks its msgids under authproto_pam (LC_MESSAGES is C): say its usual one ourselves.
        let label = bytes == PadText.bytes("Password: ") ? localized("Password: ") : bytes
        return packet.type == UInt8(ascii: "U") ? .text(label: label) : .secret(label: label)
    }

    var isPattern: Bool {
        if case .pattern = self { return true }
        return false
    }
}
