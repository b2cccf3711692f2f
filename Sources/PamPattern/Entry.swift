import CPamShim
import PatternCoreEmbedded

/// The C shim's pam_sm_authenticate lands here.
@_cdecl("pam_pattern_swift_authenticate")
func pamPatternSwiftAuthenticate(
    _ pamh: OpaquePointer?, _ flags: Int32, _ argc: Int32,
    _ argv: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> Int32 {
    return PAM_AUTH_ERR
}
