import PatternCore

/// Every text patternctl prints for --help and --version, in one place so the
/// help, the man page and the golden tests are easy to keep in step.
enum Help {
    /// The version printed by --version.
    static let version = "patternctl (pam_pattern) 0.1.0"

    private static var defaultStore: String { String(decoding: PatternStore.defaultPath, as: UTF8.self) }
    private static var defaultState: String { String(decoding: ThrottleStore.defaultDirectory, as: UTF8.self) }
    private static var defaults: ThrottleSettings { ThrottleSettings() }
    private static var defaultConf: String { String(decoding: ConfFile.defaultPath, as: UTF8.self) }

    /// "4..9": an option's accepted numbers, from the option table.
    private static func range(_ key: OptionKey) -> String {
        guard let range = PatternOption.spec(for: key).range else { return "" }
        return "\(range.lowerBound)..\(range.upperBound)"
    }

    /// Global options, shown by every help text.
    static var globalOptions: String {
        """
        Options for every command (the settings come from \(defaultConf),
        as the module reads them; these override it for one run):
          --conf PATH            another configuration file (root only)
          --store PATH           pattern store, as store= (default \(defaultStore))
          --state DIR            throttle state directory, as state=
                                 (default \(defaultState))
          --layout phone|numpad  how typed digits map to dots, as layout=
                                 (default phone; numpad: 7 8 9 is the top row)
          --min-length N         shortest pattern, \(range(.minlen)), as minlen= (default \(Pattern.defaultMinimumLength))
          --deny N               failures before the first wait, as deny= (default \(defaults.deny))
          --unlock-time S        seconds of the first wait, as unlock_time= (default \(defaults.unlockTime))
          --lock-after N         failures that disable the pattern, as lock_after=
                                 (0: never; default \(defaults.lockAfter))
          -h, --help             show help and exit
          --version              show the version and exit

        """
    }

    /// Exit status, shown by every help text.
    static let exitStatus = """
        Exit status: 0 success, 1 refused or failed, 2 usage error.

        """

    /// `patternctl --help`.
    static var overview: String {
        """
        Usage: patternctl [OPTIONS] COMMAND [ARGS]

        Set, inspect and administer pam_pattern unlock patterns. A pattern is
        typed as the digits of the dots in drawing order on this grid:

            1 2 3
            4 5 6      the "Z" shape is 1235789
            7 8 9

        Commands:
          set [USER]      set or replace a pattern (asked twice, weak ones refused)
          remove USER     delete a user's pattern
          reset USER      clear a user's failed attempts and lock
          status [USER]   show enrolment, failures and lock of one user
          list            show every enrolled user, one line each
          prune           remove the patterns of deleted accounts
          show CODE       show a pattern's canonical digits, drawing and strength
          bench           time one verification at each yescrypt cost
          help [COMMAND]  show the help of a command

        set, remove, reset, status, list and prune need root; show, bench and help do not.
        Without root, set, remove and status work on your own pattern, through
        pam_pattern_helper (the current pattern, or your password, first).
        USER defaults to the user who ran sudo (SUDO_USER), else the current user.

        """ + "\n" + section(globalOptions) + section(exitStatus) + "See patternctl(8) and pam_pattern(8).\n"
    }

    /// `patternctl set --help`.
    static var set: String {
        """
        Usage: patternctl set [OPTIONS] [USER]

        Set or replace the unlock pattern of USER (default: the user who ran sudo,
        else the current user). Needs root, except for your own pattern: then
        your current pattern comes first (counted like a login), or your account
        password when you have none yet.

        The pattern is asked twice with echo off; after a mismatch, a malformed or
        a weak pattern it is asked again, three rounds at most. When standard input
        is not a terminal, the first two lines are the pattern and its repetition
        and nothing is asked again. Patterns that are easy to guess (common shapes,
        their rotations and mirror images, too few dots) are refused with the
        reason. On success the pattern is drawn and the failure count of USER is
        cleared.

        Options:
          --cost N        yescrypt cost, \(range(.cost)) (default: cost= of the configuration file,
                          else \(PatternHash.defaultCost)); each step doubles the memory and time
                          of every login attempt; see 'patternctl bench'
          --allow-weak    accept a pattern that is easy to guess
          --ascii         draw with ASCII characters
          --unicode       draw with box-drawing characters (default on a UTF-8 terminal)

        """ + "\n" + section(globalOptions) + exitStatus
    }

    /// `patternctl prune --help`.
    static var prune: String {
        """
        Usage: patternctl prune [OPTIONS]

        Remove every pattern whose account is gone: a pattern belongs to the
        account (uid) it was set for, and the module refuses it once that name
        has another uid or no account. 'list' shows such patterns as
        "mismatch". Needs root.

        """ + "\n" + section(globalOptions) + exitStatus
    }

    /// `patternctl remove --help`.
    static var remove: String {
        """
        Usage: patternctl remove [OPTIONS] USER

        Delete the unlock pattern of USER from the store. USER then cannot use a
        pattern until one is set again. Needs root, except for your own pattern
        (patternctl remove, without USER): your current pattern first.

        """ + "\n" + section(globalOptions) + exitStatus
    }

    /// `patternctl reset --help`.
    static var reset: String {
        """
        Usage: patternctl reset [OPTIONS] USER

        Clear the failed attempts of USER, which ends a wait or a disabled pattern.
        A malformed state file is repaired; an unsafe one (owner, mode, links,
        type) is refused and left as it is. Needs root.

        """ + "\n" + section(globalOptions) + exitStatus
    }

    /// `patternctl status --help`.
    static var status: String {
        """
        Usage: patternctl status [OPTIONS] [USER]

        Show whether USER (default: the user who ran sudo, else the current user)
        has a pattern, and the throttle as the module sees it. Needs root, except
        for your own status. Prints:

          user: NAME
          enrolled: yes|no
          set: DATE                 UTC, like 2026-11-30T01:55:05Z ("-" if none)
          cost: N                   yescrypt cost ("-" if none)
          failures: N
          locked: no|until DATE (N s)|disabled
          unseen failures: N        failures the user has not been told of yet
          failure: DATE SERVICE TTY [from HOST]
                                    one per recent failed attempt, oldest first
                                    (at most 16; "-" for an unset field)

        deny, unlock_time and lock_after come from the configuration file, as
        the module reads them; --deny, --unlock-time and --lock-after override
        them, e.g. for a service whose pam.d line sets its own.

        Options:
          --json          print one JSON object instead: user, enrolled (true|false),
                          set (DATE|null), cost (N|null), failures, locked
                          ("no"|"wait"|"disabled"), locked_until (DATE|null),
                          wait_seconds (N|null); see patternctl(8)

        """ + "\n" + section(globalOptions) + exitStatus
    }

    /// `patternctl list --help`.
    static var list: String {
        """
        Usage: patternctl list [OPTIONS]

        Show every enrolled user, one line each, under a header line:
        USER, SET (UTC), COST, FAILURES and LOCKED, with the meaning of status.
        A pattern that does not belong to the account with its name now is
        flagged on stderr (see prune).
        Needs root.

        Options:
          --json          print {"users": [...]} instead, one object per user with
                          the fields of 'status --json'

        """ + "\n" + section(globalOptions) + exitStatus
    }

    /// `patternctl show --help`.
    static var show: String {
        """
        Usage: patternctl show [OPTIONS] CODE

        Show the canonical digits of the pattern CODE (dots passed over are added:
        1379 is 1235789), its drawing, and whether it is weak and why. CODE "-"
        reads the pattern from standard input (with echo off on a terminal), which
        keeps it out of the shell history. Needs no root and no store. Exits 1 with
        the reason when CODE is not a valid pattern.

        Options:
          --ascii         draw with ASCII characters
          --unicode       draw with box-drawing characters (default on a UTF-8 terminal)

        """ + "\n" + section(globalOptions) + exitStatus
    }

    /// `patternctl bench --help`.
    static var bench: String {
        """
        Usage: patternctl bench [OPTIONS]

        Time one verification at each yescrypt cost from 1 to --max, and the time
        to try every valid pattern on one core at that cost, to help choose
        'patternctl set --cost'. Each login attempt runs one verification.
        Needs no root.

        Options:
          --max N         highest cost to time, 1..11 (default \(BenchCommand.defaultMaximum))

        """ + "\n" + section(globalOptions) + exitStatus
    }

    /// A block of lines followed by an empty line (multi-line literals drop their last newline).
    private static func section(_ text: String) -> String { text + "\n" }

    /// `patternctl help --help`.
    static var helpCommand: String {
        """
        Usage: patternctl help [COMMAND]

        Show the help of COMMAND, or the overview.

        """ + "\n" + exitStatus
    }
}
