import Glibc
import Testing

@testable import PatternCore

private func parse(_ text: String) throws(ConfError) -> PatternSettings {
    var options = PatternSettings()
    options.apply(try ConfFile.parse(Array(text.utf8)))
    return options
}

private func failure(_ text: String) -> String? {
    do {
        _ = try parse(text)
        return nil
    } catch {
        return error.message(path: Array("/etc/security/pam_pattern.conf".utf8))
    }
}

/// The repository's commented default file.
private let shippedPath =
    String(#filePath.dropLast("Tests/PatternCoreTests/Settings/ConfFileTests.swift".count))
    + "security/pam_pattern.conf"

@Suite struct ConfFileParseTests {
    @Test func keysValuesCommentsAndBlankLines() throws {
        let options = try parse(
            """
            # policy
            deny = 2
            unlock_time=120
              layout\t=  numpad   # the keypad way

            minlen = 6
            lock_after = 0
            cost = 3
            strength = 1
            self_enroll = no
            store = /srv/p/patterns
            state = /srv/p/state
            quiet_services = sddm, kde   # SDDM 0.19
            """)
        #expect(options.throttle == ThrottleSettings(deny: 2, unlockTime: 120, lockAfter: 0))
        #expect(options.layout == .numpad)
        #expect(options.minimumLength == 6)
        #expect(options.cost == 3)
        #expect(options.strength == .shapes)
        #expect(!options.selfEnroll)
        #expect(options.storePath == Array("/srv/p/patterns".utf8))
        #expect(options.stateDirectory == Array("/srv/p/state".utf8))
        #expect(options.quietServices == [Array("sddm".utf8), Array("kde".utf8)])
    }

    @Test func emptyFileIsTheDefaults() throws {
        #expect(try parse("") == PatternSettings())
        #expect(try parse("\n\n# nothing\n") == PatternSettings())
    }

    @Test func malformedLinesAreNamed() {
        #expect(
            failure("deny = 2\ndeny = 0\n")
                == "/etc/security/pam_pattern.conf line 2: deny must be a whole number from 1 to 1000")
        #expect(
            failure("strength = 4\n")
                == "/etc/security/pam_pattern.conf line 1: strength must be a whole number from 0 to 3")
        #expect(failure("\n\ndenny = 3\n") == "/etc/security/pam_pattern.conf line 3: unknown key \"denny\"")
        #expect(
            failure("deny 3\n")
                == "/etc/security/pam_pattern.conf line 1: expected 'key = value' (or a comment starting with '#')")
        #expect(
            failure("nullok = yes\n")
                == "/etc/security/pam_pattern.conf line 1: nullok is a module argument for pam.d lines, not a key of this file"
        )
        #expect(
            failure("prompt = PIN\n")?.hasSuffix("prompt is a module argument for pam.d lines, not a key of this file")
                == true)
        #expect(
            failure("deny = 2\n\ndeny = 2\n") == "/etc/security/pam_pattern.conf line 3: deny is already set on line 1")
        #expect(
            failure("deny = 2\r\n") == "/etc/security/pam_pattern.conf line 1: the line contains a control character")
        #expect(failure("deny =\n") == "/etc/security/pam_pattern.conf line 1: deny needs a value")
        #expect(
            failure("self_enroll = true\n") == "/etc/security/pam_pattern.conf line 1: self_enroll must be yes or no")
        #expect(failure("store = patterns\n")?.contains("line 1: store must be an absolute path") == true)
        #expect(failure("layout = qwerty\n") == "/etc/security/pam_pattern.conf line 1: layout must be phone or numpad")
        #expect(
            failure("deny = 3\nquiet_services = SDDM\n")
                == "/etc/security/pam_pattern.conf line 2: quiet_services must be PAM service names (lower-case letters, digits, . _ + -, at most 255 bytes each) separated by commas or spaces"
        )
        #expect(failure("quiet_services = /etc/pam.d/sddm\n")?.contains("line 1: quiet_services must be PAM") == true)
        #expect(failure("quiet_services =\n") == "/etc/security/pam_pattern.conf line 1: quiet_services needs a value")
        #expect(failure("deny = 99999999999999999999999\n") != nil)
        #expect(failure("x\u{0}y = 1\n") != nil)
        #expect(
            failure(String(repeating: "#", count: 8193))
                == "/etc/security/pam_pattern.conf line 1: the line is longer than 8192 bytes")
    }

    @Test func aLineOfAnotherFileIsNotQuotedBack() {
        // A wrong conf= could name /etc/shadow: its lines must not reach syslog.
        let message = failure("root:$y$j9T$secret:19000:0:99999:7:::\n") ?? ""
        #expect(!message.contains("secret"))
        let other = failure("Pa$$word = 1\n") ?? ""
        #expect(!other.contains("word"))
    }

    @Test func theShippedDefaultFileChangesNothingAndDocumentsEveryKey() throws {
        let bytes = try #require(readBytes(shippedPath))
        #expect(try ConfFile.parse(bytes) == [])
        // Uncommenting every "# key = value" example gives exactly the defaults, one line per conf key.
        let text = String(decoding: bytes, as: UTF8.self)
        var uncommented: [String] = []
        for line in text.split(separator: "\n") where line.hasPrefix("# ") {
            let body = line.dropFirst(2)
            guard let key = body.split(separator: " ").first, body.dropFirst(key.count).hasPrefix(" = "),
                key.allSatisfy({ $0 == "_" || ("a"..."z").contains($0) })
            else { continue }
            uncommented.append(String(body))
        }
        let settings = try ConfFile.parse(Array(uncommented.joined(separator: "\n").utf8))
        #expect(settings.map { $0.key } == PatternOption.table.filter { $0.isConfKey }.map { $0.key })
        var options = PatternSettings()
        options.apply(settings)
        // quiet_services is empty by default, which no line can write: its example names the service it is for.
        #expect(options.quietServices == [Array("sddm".utf8)])
        options.quietServices = []
        #expect(options == PatternSettings())
    }
}

@Suite(.enabled(if: runningAsRoot, rootOnlyReason)) struct ConfFileReadTests {
    @Test func missingFileOrDirectoryIsTheDefaults() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        #expect(try ConfFile(path: dir.pathBytes("absent.conf")).settings() == [])
        #expect(try ConfFile(path: dir.pathBytes("absent/pam_pattern.conf")).settings() == [])
    }

    @Test func rootOwnedReadableFileIsRead() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        writeBytes(dir.file("c"), Array("deny = 2\n".utf8), mode: 0o644)
        #expect(try ConfFile(path: dir.pathBytes("c")).settings() == [OptionSetting(.deny, .number(2))])
    }

    @Test func unsafeFilesFailClosed() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        let path = dir.file("c")
        writeBytes(path, Array("deny = 2\n".utf8), mode: 0o664)
        #expect(throws: ConfError.unsafe(.writableByOthers(mode: 0o664))) {
            try ConfFile(path: dir.pathBytes("c")).settings()
        }
        chmod(path, 0o644)
        chown(path, 65534, 0)
        #expect(throws: ConfError.unsafe(.notOwnedByRoot(uid: 65534))) {
            try ConfFile(path: dir.pathBytes("c")).settings()
        }
        chown(path, 0, 0)
        symlink(path, dir.file("link"))
        #expect(throws: ConfError.unsafe(.isSymlink)) { try ConfFile(path: dir.pathBytes("link")).settings() }
        link(path, dir.file("hard"))
        #expect(throws: ConfError.unsafe(.hardLinked(links: 2))) { try ConfFile(path: dir.pathBytes("c")).settings() }
        unlink(dir.file("hard"))
        mkfifo(dir.file("fifo"), 0o644)
        #expect(throws: ConfError.unsafe(.notRegularFile)) { try ConfFile(path: dir.pathBytes("fifo")).settings() }
        chmod(dir.path, 0o777)
        #expect(throws: ConfError.unsafe(.directoryWritableByOthers(mode: 0o777))) {
            try ConfFile(path: dir.pathBytes("c")).settings()
        }
        chmod(dir.path, 0o700)
        writeBytes(path, [UInt8](repeating: 0x23, count: 65537), mode: 0o644)
        #expect(throws: ConfError.unsafe(.tooLarge(bytes: 65537, limit: 65536))) {
            try ConfFile(path: dir.pathBytes("c")).settings()
        }
    }

    @Test func argumentsOverrideTheFileForTheModule() throws {
        let dir = TempDirectory()
        defer { dir.remove() }
        writeBytes(dir.file("c"), Array("deny = 2\nunlock_time = 120\nlayout = numpad\n".utf8), mode: 0o644)
        let conf = "conf=" + dir.file("c")
        let (options, problems) = try PatternSettings.load(arguments: [ascii(conf), ascii("deny=4"), ascii("deny=0")])
        #expect(problems.count == 1)  // deny=0 ignored: the argument deny=4 stays, over the file's 2
        #expect(options.throttle == ThrottleSettings(deny: 4, unlockTime: 120, lockAfter: 20))
        #expect(options.layout == .numpad)
        #expect(options.confPath == ascii(dir.file("c")))
        writeBytes(dir.file("c"), Array("deny = 0\n".utf8), mode: 0o644)
        #expect(throws: ConfError.malformed(line: 1, problem: .badValue(.deny, .outOfRange(1...1000)))) {
            try PatternSettings.load(arguments: [ascii(conf), ascii("deny=4")])
        }
    }
}
