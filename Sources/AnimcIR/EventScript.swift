import AnimcBase

/// A script of events sent to a composition's inputs, one grammar on the command line
/// and in tests: `tap@0.2s, open=true@0.5s, progress=0.7@1s, drag=(0, 40)@1.2s`.
///
///     script = event { "," event }
///     event  = name [ "=" value ] "@" time
///     value  = number | "true" | "false" | "(" number "," number ")"
///     time   = number [ "s" | "ms" ]
///
/// Events at the same time are sent in the order written.
public struct EventScript: Hashable, Sendable {
    public struct Event: Hashable, Sendable {
        public var input: String
        /// What a value input is set to; nil for a trigger.
        public var value: Interaction.Value?
        /// Seconds, in the composition's time.
        public var time: Double

        public init(input: String, value: Interaction.Value?, time: Double) {
            self.input = input
            self.value = value
            self.time = time
        }
    }

    public var events: [Event]

    public init(events: [Event]) { self.events = events }

    /// A mistake in a script's text, at a byte offset of it.
    public struct SyntaxError: Error, Hashable, Sendable {
        public var offset: Int
        public var message: String
    }

    /// Scripts longer than this are refused: each event adds animations.
    public static let maximumEvents = 10_000

    public static func parse(_ text: String) -> Result<EventScript, SyntaxError> {
        var reader = Reader(bytes: Array(text.utf8))
        return read(&reader)
    }

    /// Each event's input name and its byte offset in `text`, as far as the script
    /// reads (for an editor: renaming an input renames it in a test's events).
    public static func inputNames(in text: String) -> [(name: String, offset: Int)] {
        var reader = Reader(bytes: Array(text.utf8))
        _ = read(&reader)
        return reader.names
    }

    private static func read(_ reader: inout Reader) -> Result<EventScript, SyntaxError> {
        var events: [Event] = []
        reader.skipSpaces()
        if reader.atEnd { return .success(EventScript(events: [])) }
        while true {
            guard events.count < maximumEvents else {
                return .failure(SyntaxError(offset: reader.at, message: "more than \(maximumEvents) events"))
            }
            switch reader.event() {
            case .success(let e): events.append(e)
            case .failure(let error): return .failure(error)
            }
            reader.skipSpaces()
            if reader.atEnd { break }
            guard reader.take(UInt8(ascii: ",")) else {
                return .failure(SyntaxError(offset: reader.at, message: "expected ',' between events"))
            }
        }
        return .success(EventScript(events: events))
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0
        /// Every event's name read so far, with where it starts.
        var names: [(name: String, offset: Int)] = []

        var atEnd: Bool { at >= bytes.count }

        mutating func skipSpaces() {
            while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0A || bytes[at] == 0x0D { at += 1 }
        }

        mutating func take(_ c: UInt8) -> Bool {
            skipSpaces()
            guard at < bytes.count, bytes[at] == c else { return false }
            at += 1
            return true
        }

        mutating func name() -> String? {
            skipSpaces()
            let start = at
            while at < bytes.count, bytes[at] == 0x5F || (bytes[at] | 0x20) >= 0x61 && (bytes[at] | 0x20) <= 0x7A
                    || at > start && bytes[at] >= 0x30 && bytes[at] <= 0x39 { at += 1 }
            return at > start ? String(decoding: bytes[start..<at], as: UTF8.self) : nil
        }

        mutating func number() -> Double? {
            skipSpaces()
            let start = at
            if at < bytes.count, bytes[at] == 0x2D || bytes[at] == 0x2B { at += 1 }
            while at < bytes.count, bytes[at] >= 0x30 && bytes[at] <= 0x39 || bytes[at] == 0x2E { at += 1 }
            if at < bytes.count, bytes[at] == 0x65 || bytes[at] == 0x45, at + 1 < bytes.count,
               bytes[at + 1] >= 0x30 && bytes[at + 1] <= 0x39 || bytes[at + 1] == 0x2D || bytes[at + 1] == 0x2B {
                at += 2
                while at < bytes.count, bytes[at] >= 0x30 && bytes[at] <= 0x39 { at += 1 }
            }
            guard at > start, let x = Double(String(decoding: bytes[start..<at], as: UTF8.self)), x.isFinite else {
                at = start
                return nil
            }
            return x
        }

        mutating func value() -> Interaction.Value? {
            skipSpaces()
            let start = at
            if take(UInt8(ascii: "(")) {
                guard let x = number(), take(UInt8(ascii: ",")), let y = number(), take(UInt8(ascii: ")")) else { at = start; return nil }
                return .point(Point(x, y))
            }
            if let word = name() {
                if word == "true" { return .bool(true) }
                if word == "false" { return .bool(false) }
                at = start
                return nil
            }
            return number().map { .number($0) }
        }

        mutating func event() -> Result<Event, SyntaxError> {
            skipSpaces()
            let start = at
            guard let input = name() else { return .failure(SyntaxError(offset: start, message: "expected an input's name")) }
            names.append((input, at - input.utf8.count))
            var value: Interaction.Value?
            if take(UInt8(ascii: "=")) {
                let here = at
                guard let v = self.value() else {
                    return .failure(SyntaxError(offset: here, message: "expected a value for '\(input)': a number, true, false or (x, y)"))
                }
                value = v
            }
            guard take(UInt8(ascii: "@")) else {
                return .failure(SyntaxError(offset: at, message: "expected '@' and the time of '\(input)'"))
            }
            let here = at
            guard var time = number() else { return .failure(SyntaxError(offset: here, message: "expected a time such as 0.5s")) }
            if at + 1 < bytes.count, bytes[at] == 0x6D, bytes[at + 1] == 0x73 {
                at += 2
                time /= 1000
            } else if at < bytes.count, bytes[at] == 0x73 {
                at += 1
            }
            guard time >= 0 else { return .failure(SyntaxError(offset: here, message: "an event's time is 0 s or later")) }
            return .success(Event(input: input, value: value, time: time))
        }
    }
}

extension Interaction {
    /// Why `script` cannot be sent to these inputs (an unknown input, a value of the
    /// wrong kind), or nil when it can.
    public func problem(with script: EventScript) -> String? {
        script.events.lazy.compactMap(problem(with:)).first
    }

    /// Why `event` cannot be sent to these inputs, or nil when it can.
    public func problem(with event: EventScript.Event) -> String? {
        guard let i = input(named: event.input) else {
            let names = inputs.map(\.name)
            return "no input '\(event.input)'" + (closestMatch(to: event.input, in: names).map { "; did you mean '\($0)'?" }
                                                  ?? "; inputs are " + names.joined(separator: ", "))
        }
        let input = inputs[i]
        switch (input.kind, event.value) {
        case (.trigger, nil), (.bool, .bool?), (.number, .number?), (.point, .point?): return nil
        case (.trigger, _?): return "'\(input.name)' is a trigger: send it without a value"
        case (_, nil): return "'\(input.name)' is a \(input.kind.rawValue) input: send a value ('\(input.name)=...@t')"
        case (_, let v?): return "'\(input.name)' is a \(input.kind.rawValue) input, not \(v.description)"
        }
    }
}
