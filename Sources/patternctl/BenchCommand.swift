import Glibc
import PatternCore

/// `patternctl bench`: times one verification at each yescrypt cost, to help choose `set --cost`.
///
/// Each login attempt runs exactly one verification, so the "verify" column is
/// the delay a person feels; the last column is what a stolen store costs an
/// attacker who tries every valid pattern on one core.
struct BenchCommand: Subcommand {
    static let name = "bench"
    static let operands = ""
    static var about: String {
        localized(
            """
            Time one verification at each yescrypt cost from 1 to --max, and the time
            to try every valid pattern on one core at that cost, to help choose
            'patternctl set --cost'. Each login attempt runs one verification.
            Needs no root.
            """)
    }
    static var summary: String { localized("time one verification at each yescrypt cost") }
    static let options: [OptionSpec] = [
        .value(
            "max", "N",
            help: localized(
                "highest cost to time, %1$s (default %2$s)", HelpScreen.range(SetCommand.costRange),
                "\(defaultMaximum)"))
    ]
    static let needsRoot = false
    static let defaultMaximum = 9

    let maximum: Int

    init(arguments: ParsedArguments, global: GlobalOptions) throws(UsageError) {
        _ = try arguments.operands([], required: 0)
        maximum = try arguments.integer("max", in: SetCommand.costRange) ?? Self.defaultMaximum
    }

    func run() -> ExitStatus {
        // Any valid pattern: the time does not depend on which.
        guard let sample = try? Pattern.parse(Array("15926".utf8)) else {
            Output.error(localized("internal error: the sample pattern is invalid"))
            return .failure
        }
        let everyPattern = Pattern.allValid().count
        Output.line(
            localized(
                "One verification per cost (each login attempt runs one), and trying all\n%s valid patterns on one core (what a stolen store costs):",
                "\(everyPattern)"))
        Output.line()
        var rows: [[String]] = [["COST", "MEMORY", "VERIFY", "ALL PATTERNS"]]
        for cost in 1...maximum {
            let hash: [UInt8]
            do {
                hash = try PatternHash.make(for: sample, cost: cost)
            } catch {
                Output.error(localized("cannot hash at cost %s: %s", "\(cost)", error.message))
                return .failure
            }
            let start = Self.monotonicNanoseconds()
            let verified = PatternHash.verify(sample, against: hash)
            let elapsed = Self.monotonicNanoseconds() - start
            guard verified else {
                Output.error(localized("verification failed at cost %s", "\(cost)"))
                return .failure
            }
            let marker = cost == PatternHash.defaultCost ? "  (default)" : ""
            rows.append([
                "\(cost)", "\(1 << (cost - 1)) MiB", Self.milliseconds(elapsed),
                Self.duration(Double(elapsed) * Double(everyPattern) / 1e9) + marker,
            ])
        }
        Output.write(Table.render(rows))
        return .success
    }

    private static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// "105.2 ms"
    static func milliseconds(_ nanoseconds: Int64) -> String {
        oneDecimal(Double(nanoseconds) / 1e6) + " ms"
    }

    /// A duration in the largest unit that keeps it >= 1: s, min, h, d.
    static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return oneDecimal(seconds) + " s" }
        if seconds < 3600 { return oneDecimal(seconds / 60) + " min" }
        if seconds < 86400 { return oneDecimal(seconds / 3600) + " h" }
        return oneDecimal(seconds / 86400) + " d"
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
