/// A mistake on the command line. Printed with a pointer to the help, exit status 2.
struct UsageError: Error {
    /// What was wrong, as a sentence without the "patternctl: " prefix.
    let message: String
}

/// The options and operands found on the command line, not yet given meaning.
///
/// Options may appear before or after operands (`status --store F alice` and
/// `status alice --store F` are the same); `--` ends the options. A later
/// repetition of an option replaces the earlier one, as in most tools.
struct ParsedArguments {
    /// Option values by long name; flags map to "".
    private(set) var values: [String: String] = [:]
    /// Non-option words, in order.
    private(set) var operands: [String] = []

    /// True when the flag or option was given.
    func has(_ name: String) -> Bool { values[name] != nil }

    /// The value of an option, if given.
    func value(_ name: String) -> String? { values[name] }

    /// Splits `arguments` using `specs`. `stopAtFirstOperand` is used for the
    /// words before the command name, where the first operand is the command.
    static func parse(
        _ arguments: ArraySlice<String>, specs: [OptionSpec],
        stopAtFirstOperand: Bool = false
    ) throws(UsageError) -> (ParsedArguments, rest: ArraySlice<String>) {
        var parsed = ParsedArguments()
        var index = arguments.startIndex
        var optionsEnded = false
        while index < arguments.endIndex {
            let word = arguments[index]
            index += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                parsed.operands.append(word)
                if stopAtFirstOperand { return (parsed, arguments[index...]) }
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            let spec: OptionSpec
            var inlineValue: String? = nil
            if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                let name: Substring
                if let equals = body.firstIndex(of: "=") {
                    name = body[..<equals]
                    inlineValue = String(body[body.index(after: equals)...])
                } else {
                    name = body
                }
                guard let found = specs.first(where: { $0.name == name }) else {
                    throw UsageError(message: localized("unknown option '%s'", "--\(name)"))
                }
                spec = found
            } else {
                // Only single-letter aliases exist (-h); no bundling.
                let letter = word.dropFirst()
                guard letter.count == 1, let character = letter.first,
                    let found = specs.first(where: { $0.short == character })
                else {
                    throw UsageError(message: localized("unknown option '%s'", word))
                }
                spec = found
            }
            if spec.takesValue {
                if let inlineValue {
                    parsed.values[spec.name] = inlineValue
                } else {
                    guard index < arguments.endIndex else {
                        throw UsageError(message: localized("option '--%s' needs a value", spec.name))
                    }
                    parsed.values[spec.name] = arguments[index]
                    index += 1
                }
            } else {
                if inlineValue != nil {
                    throw UsageError(message: localized("option '--%s' takes no value", spec.name))
                }
                parsed.values[spec.name] = ""
            }
        }
        return (parsed, arguments[arguments.endIndex...])
    }

    /// Parses an integer option within `range`; nil when the option is absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                message: localized(
                    "option '--%s' needs a whole number from %s to %s, not '%s'", name, "\(range.lowerBound)",
                    "\(range.upperBound)", text)
            )
        }
        return number
    }

    /// Refuses more operands than `names` lists; returns them padded with nil.
    /// `required` is how many of them must be present.
    func operands(_ names: [String], required: Int) throws(UsageError) -> [String?] {
        if operands.count < required {
            throw UsageError(message: localized("missing %s", names[operands.count]))
        }
        if operands.count > names.count {
            throw UsageError(message: localized("unexpected argument '%s'", operands[names.count]))
        }
        return names.indices.map { $0 < operands.count ? operands[$0] : nil }
    }
}
