import Glibc
import PatternCore

/// `patternctl set [USER]`: choose a pattern (twice, refused if weak), hash it, store it.
struct SetCommand: Subcommand {
    static let name = "set"
    static let operands = "[USER]"
    static var about: String {
        localized(
            """
            Set or replace the unlock pattern of USER (default: the user who ran sudo,
            else the current user). Needs root, except for your own pattern: then
            your current pattern comes first (counted like a login), or your account
            password when you have none yet or with --forgot.

            The pattern is asked twice with echo off; after a mismatch, a malformed or
            a weak pattern it is asked again, with the reason, until you give up with
            an empty entry or Ctrl-D (then nothing is changed, exit status 1). When
            standard input is not a terminal, the first two lines are the pattern and
            its repetition and nothing is asked again. Patterns that are easy to guess
            (common shapes, their rotations and mirror images, too few dots) are
            refused with the reason. On success the pattern is drawn and the failure
            count of USER is cleared.

            With --draw the entries are drawn in a window (pattern-draw, on the
            desktop of this session) instead of typed: the current pattern or the
            account password, then the new pattern twice; Esc there changes nothing.

            With tpm = yes in pam_pattern.conf (or auto, and a TPM present) the
            pattern is held by the TPM instead of hashed, through pam_pattern_helper;
            then no --cost or --allow-weak.
            """)
    }
    static var summary: String { localized("set or replace a pattern (asked twice, weak ones refused)") }
    static let options: [OptionSpec] =
        [
            .value(
                "cost", "N",
                help: localized(
                    "yescrypt cost, %1$s (default: cost= of the configuration file,\nelse %2$s); each step doubles the memory and time\nof every login attempt; see 'patternctl bench'",
                    HelpScreen.range(costRange), "\(PatternHash.defaultCost)")),
            .flag("allow-weak", help: localized("accept a pattern that is easy to guess")),
            .flag(
                "forgot",
                help: localized(
                    "you forgot your pattern: your account password instead\n(root needs neither; off with self_enroll = no)"
                )),
            .flag("draw", help: localized("draw the patterns in a window instead of typing them")),
        ] + DrawingChoice.specs
    static let needsRoot = true
    static let selfService = true
    /// yescrypt costs libxcrypt accepts (crypt_gensalt "$y$" count 1..11; 2^(cost-1) MiB each).
    static let costRange = PatternOption.countRange(.cost)

    let user: String?
    /// --cost, else the configuration's cost=.
    let costOption: Int?
    var cost: Int { costOption ?? global.cost }
    let allowWeak: Bool
    /// --forgot: the account password instead of the forgotten current pattern (a user's own only).
    let forgot: Bool
    /// --draw: every entry from the drawing window (DrawWindow), not the terminal.
    let draw: Bool
    let style: DrawingStyle
    let global: GlobalOptions

    init(arguments: ParsedArguments, global: GlobalOptions) throws(UsageError) {
        user = try arguments.operands(["USER"], required: 0)[0]
        costOption = try arguments.integer("cost", in: Self.costRange)
        allowWeak = arguments.has("allow-weak")
        forgot = arguments.has("forgot")
        draw = arguments.has("draw")
        style = try DrawingChoice.style(from: arguments)
        self.global = global
    }

    func run() -> ExitStatus {
        guard draw else { return converse() }
        guard DrawWindow.open() else { return .failure }
        let status = converse()
        if status == .success { DrawWindow.say(.done, "") }
        DrawWindow.end()
        return status
    }

    /// Entries are read from the terminal, stdin or the drawing window (`readEntry`).
    var interactive: Bool { DrawWindow.isOpen || Terminal.inputIsTerminal }

    private func converse() -> ExitStatus {
        if geteuid() != 0 {
            let rootOnly = (costOption != nil ? ["cost"] : []) + (allowWeak ? ["allow-weak"] : [])
            guard let own = OwnPattern.caller(requested: user, command: "set", global: global, rootOnly: rootOnly)
            else {
                return .failure
            }
            return OwnPattern.set(user: own, command: self, global: global)
        }
        guard let name = user ?? UserDatabase.invokingUser() else {
            Output.error(localized("cannot tell who you are; name the user: patternctl set USER"))
            return .failure
        }
        guard UserDatabase.exists(name) else {
            Output.error(localized("no such user: '%s'; nothing was changed", name))
            return .failure
        }
        let userBytes = Array(name.utf8)
        let store = global.store
        // An unsafe or unreadable store would refuse the save anyway: say so before asking.
        // A missing directory is fine: the save creates it (root-owned, 0700).
        do throws(StoreError) {
            _ = try store.load()
        } catch .missingDirectory {
        } catch {
            Output.error(
                localized(
                    "cannot use the pattern store %s: %s; nothing was changed", StoreAccess.describe(global),
                    error.message))
            return .failure
        }
        guard let inTPM = RootTPM.enrolsInTPM(global) else { return .failure }
        if inTPM {
            let hashOnly = (costOption != nil ? ["cost"] : []) + (allowWeak ? ["allow-weak"] : [])
            if let option = hashOnly.first {
                Output.error(
                    localized("option '--%s' applies to hashed patterns; tpm puts this one into the TPM", option))
                return .failure
            }
            guard RootTPM.usesSystemStore(global) else {
                Output.error(
                    localized(
                        "a pattern held by the TPM goes into the store of %s, not %s; nothing was changed",
                        "/etc/security/pam_pattern.conf", StoreAccess.describe(global)))
                return .failure
            }
        }

        Output.line(localized("Setting the unlock pattern for %s.", name))
        guard let pattern = askTwice(orSay: localized("no pattern was set for %s; nothing was changed", name)) else {
            return .failure
        }
        if inTPM {
            guard RootTPM.enroll(user: name, pattern) else { return .failure }
            Output.line(localized("Pattern set for %s (%s dots, held by the TPM):", name, "\(pattern.dots.count)"))
            Output.write(PatternDrawing.render(pattern, style: style, layout: global.layout))
            Output.line(DrawingChoice.legend(pattern, layout: global.layout))
            return .success
        }
        let replacedTPMRecord = (try? store.record(for: userBytes))??.tpmRecord != nil

        do throws(StoreError) {
            let hash: [UInt8]
            do throws(HashError) { hash = try PatternHash.make(for: pattern, cost: cost) } catch { throw .hash(error) }
            try store.save(StoreRecord(user: userBytes, hash: hash, setAt: Timestamp.now()))
        } catch {
            Output.error(localized("could not save the pattern in %s: %s", StoreAccess.describe(global), error.message))
            return .failure
        }
        Output.line(
            localized("Pattern set for %s (%s dots, yescrypt cost %s):", name, "\(pattern.dots.count)", "\(cost)"))
        Output.write(PatternDrawing.render(pattern, style: style, layout: global.layout))
        Output.line(DrawingChoice.legend(pattern, layout: global.layout))
        // The old pattern was held by the TPM: its index, named by no line now, goes too.
        if replacedTPMRecord && RootTPM.usesSystemStore(global) && RootTPM.prune() == nil {
            Output.error(localized("the old pattern's TPM index stays defined; patternctl prune deletes it"))
        }

        // Failures counted against the old pattern must not lock out the new one.
        do {
            try global.throttleStore.reset(user: userBytes)
        } catch {
            Output.error(
                localized("the pattern was set, but the old failure count could not be cleared: %s", error.message))
            return .failure
        }
        return .success
    }

    /// The new pattern and its confirmation. On a terminal or in the drawing window a refused entry (a
    /// mismatch, a malformed or a weak pattern) is asked again, with its reason, until the person gives up:
    /// an empty entry or Ctrl-D on the terminal, Esc in the window. From a file or a pipe: the first two lines
    /// only (a script's wrong line is not followed by more guesses). nil after saying why: cancelled, or
    /// `refusal`.
    func askTwice(orSay refusal: String) -> Pattern? {
        // The window shows live, by the same rules, whether the drawing would be taken.
        let rules = DrawWindowProtocol.NewAsk(minimumLength: global.minimumLength, rules: global.settings.strength)
        while true {
            guard var first = readEntry(.new, prompt: localized("New pattern: "), text: rules.encoded) else {
                Output.error(gaveUp(refusal))
                return nil
            }
            defer { Terminal.wipe(&first) }
            if interactive && first.isEmpty {
                Output.error(Self.cancelled)
                return nil
            }
            guard let pattern = judge(first, retrying: interactive) else {
                if interactive { continue }
                Output.error(refusal)
                return nil
            }
            guard var second = readEntry(.again, prompt: localized("Again: ")) else {
                Output.error(gaveUp(refusal))
                return nil
            }
            defer { Terminal.wipe(&second) }
            if interactive && second.isEmpty {
                Output.error(Self.cancelled)
                return nil
            }
            let confirmation = try? Pattern.parse(second, layout: global.layout, minimumLength: global.minimumLength)
            // The same pattern typed differently ("1379" and "1235789") is the same pattern.
            if confirmation == pattern { return pattern }
            guard interactive else {
                Output.error(localized("the two entries are not the same pattern"))
                Output.error(refusal)
                return nil
            }
            Output.error(localized("the two entries are not the same pattern; try again"))
        }
    }

    /// What giving up (an empty entry, Ctrl-D, Esc) says.
    static var cancelled: String { localized("cancelled; nothing was changed") }

    /// Appended to a refusal that is asked again: how to give up instead, where it is not obvious.
    static var tryAgain: String {
        DrawWindow.isOpen ? localized("Try again.") : localized("Try again, or press Enter alone to cancel.")
    }

    /// Parses an entry and applies the strength rules; nil after saying what is wrong.
    func judge(_ entry: [UInt8], retrying: Bool) -> Pattern? {
        let again = retrying ? " " + Self.tryAgain : ""
        let pattern: Pattern
        do {
            pattern = try Pattern.parse(entry, layout: global.layout, minimumLength: global.minimumLength)
        } catch {
            Output.error(error.message(layout: global.layout) + again)
            return nil
        }
        if let weakness = pattern.weakness(minimumLength: global.minimumLength, rules: global.settings.strength),
            !allowWeak
        {
            // --allow-weak is root's: a user is not pointed at an option the helper would refuse.
            // One concrete way to make this shape pass: the window and the terminal say the same (WeaknessText).
            let reason = weakness.said(
                for: pattern, minimumLength: global.minimumLength, rules: global.settings.strength)
            Output.error(
                (geteuid() == 0
                    ? localized(
                        "refused as too easy to guess. %s Use --allow-weak to accept it anyway.", reason)
                    : localized("refused as too easy to guess. %s", reason))
                    + again)
            return nil
        }
        return pattern
    }

    /// Why there is no entry: Esc or the window's close button says so, else `usual` (end of input, or a
    /// window that went away by itself).
    func gaveUp(_ usual: String) -> String {
        DrawWindow.cancelled ? Self.cancelled : usual
    }

    /// One entry without a SetCommand (remove): echo off on a terminal, a line otherwise.
    static func readLineOrSecret(prompt: String) -> [UInt8]? {
        Terminal.inputIsTerminal ? Terminal.readSecret(prompt: prompt) : Terminal.readLine()
    }

    /// One entry: from the drawing window with --draw (drawn, or typed there for the password; `text` goes with
    /// the request), else echo off on a terminal, a line from stdin otherwise. The caller wipes it after use.
    func readEntry(_ request: DrawWindowProtocol.Request, prompt: String, text: [UInt8] = []) -> [UInt8]? {
        if DrawWindow.isOpen { return DrawWindow.ask(request, text: text, layout: global.layout) }
        guard let line = interactive ? Terminal.readSecret(prompt: prompt) : Terminal.readLine() else {
            if !interactive {
                Output.error(
                    localized("expected two lines on standard input: the pattern, then the same pattern again"))
            }
            return nil
        }
        return line
    }
}
