import CPamShim
import CPatternSystem
import PatternCoreEmbedded

/// pam_sm_authenticate (the C shim's trampoline) lands here. Parses the
/// options, runs the flow, and returns the single mapped PAM code. Nothing in
/// here may trap: a trap would kill sudo/login.
@_cdecl("pam_pattern_swift_authenticate")
func pamPatternSwiftAuthenticate(
    _ pamh: OpaquePointer?, _ flags: Int32, _ argc: Int32,
    _ argv: UnsafeMutablePointer<UnsafePointer<CChar>?>?
) -> Int32 {
    guard let pamh else { return PAM_SYSTEM_ERR }
    pam_pattern_bind_text_domain()
    let arguments = ModuleArguments.read(argc: argc, argv: argv)
    let outcome: AuthOutcome
    let log: ModuleLog
    do {
        let (options, problems) = try PatternSettings.load(arguments: arguments)
        log = ModuleLog(handle: pamh, debugEnabled: options.debug)
        for problem in problems { log.error(problem) }
        let items = PamItems(handle: pamh)
        // A line past the stack's success: it clears, asks nothing, judges nothing, and keeps no verdict.
        if options.resetOnSuccess {
            let reset = AuthOutcome.successReset(
                SuccessReset(options: options, items: items, log: log).run(handle: pamh))
            log.debug("result: \(reset.name)")
            return reset.pamCode
        }
        // An earlier pam_pattern line of this call judged the answer already: its verdict, no prompt, no count.
        let line = UInt64(UInt(bitPattern: argv))
        if let code = StackVerdict.reuse(on: pamh, line: line, user: items.currentUser()) {
            log.debug(
                "an earlier pam_pattern line of this stack judged the answer: PAM code \(Int(code)), not asked again")
            if code != PAM_SUCCESS && code != PAM_IGNORE {
                pam_pattern_fail_delay(pamh, ModuleArguments.failDelayMicroseconds)
            }
            return code
        }
        // Cut one byte past the longest name quiet_services accepts, so a longer service never matches a cut name.
        let service = items.service(limit: ServiceNames.maximumNameBytes + 1)
        let silence = Conversation.silence(flags: flags, quietService: options.isQuiet(service: service))
        let authenticator = Authenticator(
            options: options,
            flags: flags,
            items: items,
            conversation: Conversation(handle: pamh, silence: silence),
            log: log,
            now: { Int64(time(nil)) })
        outcome = authenticator.run()
        if StackVerdict.isKept(outcome), let user = items.currentUser() {
            if !StackVerdict(code: outcome.pamCode, lines: [line], user: user).keep(on: pamh) {
                log.error("could not keep the verdict on the PAM handle; a later pam_pattern line will ask again")
            }
        }
    } catch {
        // An unsafe or malformed configuration file: fail closed, naming the file and the line.
        let (fallback, _) = PatternSettings.parse(arguments)
        log = ModuleLog(handle: pamh, debugEnabled: fallback.debug)
        log.critical(Array("configuration unusable: ".utf8) + error.messageBytes(path: fallback.confPath))
        // A reset_on_success line clears nothing then, and still changes no verdict.
        outcome = fallback.resetOnSuccess ? .successReset(.failed) : .configurationUnusable(error)
    }
    if outcome.isFailure {
        // Advisory, as pam_unix does; the throttle is the real limit.
        pam_pattern_fail_delay(pamh, ModuleArguments.failDelayMicroseconds)
    }
    log.debug("result: \(outcome.name) -> PAM code \(Int(outcome.pamCode))")
    return outcome.pamCode
}
