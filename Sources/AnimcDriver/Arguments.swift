import AnimcBase

/// A small hand-written argument parser: long options with `--name value` or
/// `--name=value`, short aliases, flags and positionals. Errors are usage errors
/// (exit 2) with a message that names the command.
struct ArgumentSpec {
    /// Options that take a value, by long name (without dashes).
    var valued: Set<String> = []
    /// Options that are flags.
    var flags: Set<String> = []
    /// Short aliases: "o" → "output".
    var aliases: [String: String] = [:]
}

struct ParsedArguments {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    func value(_ name: String) -> String? { values[name]?.last }
    /// Every value of an option that may be repeated, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ name: String) -> Bool { flags.contains(name) }
}

struct UsageError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

func parseArguments(_ args: ArraySlice<String>, spec: ArgumentSpec, command: String) throws(UsageError) -> ParsedArguments {
    var result = ParsedArguments()
    var i = args.startIndex
    var onlyPositionals = false
    while i < args.endIndex {
        let arg = args[i]
        i += 1
        if onlyPositionals || !arg.hasPrefix("-") || arg == "-" {
            result.positionals.append(arg)
            continue
        }
        if arg == "--" { onlyPositionals = true; continue }
        var name: String
        var inlineValue: String?
        if arg.hasPrefix("--") {
            name = String(arg.dropFirst(2))
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
        } else {
            let short = String(arg.dropFirst())
            guard let long = spec.aliases[short] else {
                throw UsageError(message: "unknown option '\(arg)' for '\(command)'")
            }
            name = long
        }
        if spec.flags.contains(name) {
            if inlineValue != nil { throw UsageError(message: "option '--\(name)' takes no value") }
            result.flags.insert(name)
        } else if spec.valued.contains(name) {
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard i < args.endIndex else { throw UsageError(message: "option '--\(name)' needs a value") }
                value = args[i]
                i += 1
            }
            result.values[name, default: []].append(value)
        } else {
            let known = spec.flags.union(spec.valued).map { "--" + $0 }.sorted()
            var message = "unknown option '\(arg)' for '\(command)'"
            if let guess = closestOption(arg, known) { message += "; did you mean '\(guess)'?" }
            throw UsageError(message: message)
        }
    }
    return result
}

private func closestOption(_ arg: String, _ known: [String]) -> String? {
    let bare = arg.split(separator: "=").first.map(String.init) ?? arg
    return closestMatch(to: bare, in: known)
}
