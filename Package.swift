// swift-tools-version:6.0
// pam_pattern: Android-style unlock patterns for Linux PAM. ARCHITECTURE.md says which process runs each target.
//
// The core (Sources/PatternCore, one subfolder per component: pattern language, store, throttle, settings,
// helper protocol, system calls, text, hashing, TPM records, the pad's hit rules) is compiled twice: as normal
// Swift for patternctl and the tests, and as Embedded Swift (Sources/PatternCoreEmbedded, a symlink to the same
// files) for the module, the setuid helper and the pad, which must carry no Swift runtime inside sudo, login, su,
// a setuid process or the process that holds a lock screen's secret.
import PackageDescription

let embedded: [SwiftSetting] = [
    .enableExperimentalFeature("Embedded"),
    .unsafeFlags(["-wmo", "-Osize", "-Xfrontend", "-function-sections"]),
]

let packageDir = Context.packageDirectory

// How an Embedded Swift program with a C main is linked (the setuid helper, the pad): no Swift runtime, every
// symbol resolved at link time, unused sections dropped, relocations read-only, position-independent.
let embeddedExecutable: [LinkerSetting] = [
    .unsafeFlags([
        "-enable-experimental-feature", "Embedded",
        "-use-ld=lld",
        "-Xlinker", "-z", "-Xlinker", "defs",
        "-Xlinker", "--gc-sections",
        "-Xlinker", "-z", "-Xlinker", "now",
        "-Xlinker", "-z", "-Xlinker", "relro",
        "-Xlinker", "-pie",
    ])
]

// Flags for the C targets' own compiles where the build names them (debian/rules: dpkg-buildflags' hardening
// CPPFLAGS and CFLAGS, in PAM_PATTERN_CFLAGS). Not by -Xcc: that also gives _FORTIFY_SOURCE to the Swift importer,
// whose fortified overloads of glibc's pread make the core's call to it ambiguous.
let buildCFlags: [CSetting] =
    Context.environment["PAM_PATTERN_CFLAGS"].map { [.unsafeFlags($0.split(separator: " ").map(String.init))] } ?? []

let package = Package(
    name: "pam_pattern",
    products: [
        .library(name: "pam_pattern", type: .dynamic, targets: ["PamPattern"]),
        .executable(name: "patternctl", targets: ["patternctl"]),
        .executable(name: "pam_pattern_helper", targets: ["pam_pattern_helper"]),
        .executable(name: "auth_pattern", targets: ["auth_pattern"]),
        .executable(name: "pattern-draw", targets: ["pattern-draw"]),
        .executable(name: "pattern-lock", targets: ["pattern-lock"]),
        .executable(name: "pam-pattern-greeter", targets: ["pam-pattern-greeter"]),
    ],
    targets: [
        // libc, libcrypt and libpam, as seen from Swift (both builds). libcrypt is linked by the targets that hash
        // in their own process (the module, patternctl, the fuzzers, the tests); the setuid helper dlopens it at
        // its first hash (pattern_crypt.c), so a run that hashes nothing maps libc alone.
        .target(name: "CPatternSystem", cSettings: buildCFlags),
        // The core, normal Swift: the pattern rules and the policies are functions of their inputs, the files and
        // system calls (store, throttle state, flock, rlimits, passwd lookups, the helper's spawn) have one home each.
        .target(
            name: "PatternCore",
            dependencies: ["CPatternSystem"]
        ),
        // The same sources, Embedded Swift, for the module.
        .target(
            name: "PatternCoreEmbedded",
            dependencies: ["CPatternSystem"],
            swiftSettings: embedded
        ),
        // pam_sm_* trampolines and the variadic libpam calls Swift cannot make.
        .target(
            name: "CPamShim",
            cSettings: buildCFlags,
            linkerSettings: [.linkedLibrary("pam")]
        ),
        // The module's logic (Embedded Swift); product libpam_pattern.so.
        .target(
            name: "PamPattern",
            dependencies: ["PatternCoreEmbedded", "CPamShim", "CPatternSystem"],
            swiftSettings: embedded,
            linkerSettings: [
                .linkedLibrary("crypt"),
                .unsafeFlags([
                    "-enable-experimental-feature", "Embedded",
                    // lld, not gold: gold leaves the Embedded class metadata (forced local by
                    // the version script) in .dynsym as LOCAL entries; lld exports only pam_sm_*.
                    "-use-ld=lld",
                    "-Xlinker", "--version-script=\(packageDir)/Sources/CPamShim/pam_pattern.map",
                    "-Xlinker", "-z", "-Xlinker", "defs",
                    "-Xlinker", "--gc-sections",
                    "-Xlinker", "-z", "-Xlinker", "now",
                    "-Xlinker", "-z", "-Xlinker", "relro",
                    // libpam dlcloses the module at every pam_end; each reload ran the Swift
                    // globals' initialisers again and leaked their heap (~200 B per cycle,
                    // measured by Tests/PamPatternTests/test_cycles.py). nodelete: load once.
                    "-Xlinker", "-z", "-Xlinker", "nodelete",
                ]),
            ]
        ),
        // tpm2-tss ESAPI conversations for the TPM mode. Only the setuid helper (and its test driver)
        // links this: the module never maps libtss2 or libcrypto.
        .target(
            name: "CPatternTPM",
            cSettings: buildCFlags,
            // tpm2-tss is dlopened (pattern_tss.c), not linked: only its headers are needed here.
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // The TPM mode in Embedded Swift: PIN Fail indexes per user, outcomes, records.
        .target(
            name: "PatternTPM",
            dependencies: ["PatternCoreEmbedded", "CPatternTPM"],
            swiftSettings: embedded
        ),
        // Test driver for PatternTPM against swtpm (Tests/TPMTests), never installed: under Tools/, not Sources/.
        .executableTarget(
            name: "tpm-driver",
            dependencies: ["PatternTPM", "PatternCoreEmbedded", "CPatternSystem"],
            path: "Tools/tpm-driver",
            // Embedded Swift has no CommandLine: the driver defines the C main itself.
            swiftSettings: embedded + [.unsafeFlags(["-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-enable-experimental-feature", "Embedded"])]
        ),
        // What the setuid helper needs from C (hardening, syslog, passwd lookup).
        // libpam is dlopened for enroll's password check only (the "patternctl" service, as chsh/chfn use it).
        .target(name: "CPatternHelper", cSettings: buildCFlags, linkerSettings: [.linkedLibrary("dl")]),
        // The setuid helper's logic: Embedded Swift like the module, so no Swift runtime runs setuid.
        .target(
            name: "PatternHelper",
            dependencies: ["PatternCoreEmbedded", "CPatternHelper", "CPatternSystem", "PatternTPM"],
            swiftSettings: embedded
        ),
        // The setuid-root helper for callers that do not run as root (screen lockers): a C main (Embedded
        // Swift cannot see argv) that hardens the process, then PatternHelper.
        .executableTarget(
            name: "pam_pattern_helper",
            dependencies: ["PatternHelper", "CPatternHelper"],
            linkerSettings: embeddedExecutable
        ),
        // Xlib, XRandR and Xft drawing, the authproto child, the locked secret page and gettext for the pad.
        .target(
            name: "CPatternPad",
            path: "Sources/Surfaces/shared/x11-c",
            // Xft.h includes FreeType's headers, which Debian keeps in their own directory.
            cSettings: [.unsafeFlags(["-I/usr/include/freetype2"])] + buildCFlags,
            linkerSettings: [.linkedLibrary("X11"), .linkedLibrary("Xrandr"), .linkedLibrary("Xft")]
        ),
        // The Wayland lock screen's compositor side: the lock (ext-session-lock-v1, or wlr-layer-shell +
        // wlr-input-inhibitor), wl_shm buffers drawn with cairo, the seat's pointer, touch and keyboard (xkbcommon).
        // The protocols' glue is wayland-scanner's output, committed (make wayland-protocols regenerates it).
        .target(
            name: "CPatternLock",
            dependencies: ["CPatternPad"],
            path: "Sources/Surfaces/wayland/wayland-c",
            // cairo.h lives in its own directory on Debian.
            cSettings: [.unsafeFlags(["-I/usr/include/cairo"])],
            linkerSettings: [.linkedLibrary("wayland-client"), .linkedLibrary("cairo"), .linkedLibrary("xkbcommon")]
        ),
        // The lock screen's logic in Embedded Swift: no Swift runtime in a process that holds a secret.
        // One module over the X11 surfaces' Swift: what they share, the pad's screen and the drawing window's.
        .target(
            name: "PatternPad",
            dependencies: ["PatternCoreEmbedded", "CPatternPad"],
            path: "Sources/Surfaces",
            // Everything else under Sources/Surfaces: the other targets' folders, the QML surfaces, each surface's
            // package list and test driver, the drawing window's desktop entry.
            exclude: [
                "shared/x11-c", "shared/qml", "shared/driver_xvfb.py", "shared/driver_pointer.py",
                "shared/driver_syslog.py", "shared/driver_wait.py", "shared/driver_daemon.py", "kde", "sddm",
                "gnome",
                "pad/main", "pad/package.list", "pad/driver.py",
                "draw/main", "draw/package.list", "draw/driver.py", "draw/ui/pam-pattern-draw.desktop.in",
                "wayland",
                "lightdm/main", "lightdm/package.list", "lightdm/driver.py", "lightdm/ui/pam-pattern-greeter.desktop",
            ],
            sources: ["shared/x11", "pad/ui", "draw/ui", "lightdm/ui"],
            swiftSettings: embedded
        ),
        // auth_pattern, the xsecurelock auth module: a C main (Embedded Swift cannot see argv), then PatternPad.
        .executableTarget(
            name: "auth_pattern",
            dependencies: ["PatternPad", "CPatternPad"],
            path: "Sources/Surfaces/pad/main",
            linkerSettings: embeddedExecutable
        ),
        // pattern-draw, the window of `patternctl set --draw`: the pad's drawing in a window of its own, run by the
        // person with no privileges; a C main like the pad's, then PatternPad (DrawMain.swift).
        .executableTarget(
            name: "pattern-draw",
            dependencies: ["PatternPad", "CPatternPad"],
            path: "Sources/Surfaces/draw/main",
            linkerSettings: embeddedExecutable
        ),
        // The Wayland lock screen's loop (Embedded Swift): the pad's conversation and renderer (PatternPad, its
        // `package` parts) fed by the compositor's events. A target of its own, so the X11 surfaces link no Wayland.
        .target(
            name: "PatternLock",
            dependencies: ["PatternPad", "PatternCoreEmbedded", "CPatternPad", "CPatternLock"],
            path: "Sources/Surfaces/wayland/ui",
            swiftSettings: embedded
        ),
        // pattern-lock, the Wayland lock screen (sway and other wlroots compositors): a C main like the pad's, then
        // PatternLock (LockMain.swift) with the pad's conversation and renderer, drawn with cairo.
        .executableTarget(
            name: "pattern-lock",
            dependencies: ["PatternLock", "CPatternPad", "CPatternLock"],
            path: "Sources/Surfaces/wayland/main",
            linkerSettings: embeddedExecutable
        ),
        // liblightdm-gobject, GLib and GObject, for the LightDM greeter's C main only.
        .systemLibrary(name: "CLightDM", path: "Sources/CLightDM", pkgConfig: "liblightdm-gobject-1"),
        // pam-pattern-greeter, the LightDM greeter: a C main that connects to the daemon (the only code that links
        // liblightdm), then PatternPad (GreeterMain.swift) through a table of the daemon's calls.
        .executableTarget(
            name: "pam-pattern-greeter",
            dependencies: ["PatternPad", "CPatternPad", "CLightDM"],
            path: "Sources/Surfaces/lightdm/main",
            linkerSettings: embeddedExecutable + [
                .linkedLibrary("lightdm-gobject-1"), .linkedLibrary("gobject-2.0"), .linkedLibrary("glib-2.0"),
            ]
        ),
        // libbsd's readpassphrase(3) for patternctl's prompts; never a dependency of the module.
        .systemLibrary(name: "CReadPassphrase", path: "Sources/CReadPassphrase"),
        .executableTarget(
            name: "patternctl",
            dependencies: ["PatternCore", "CPatternSystem", "CReadPassphrase"],
            // Relocations read-only and bound at start, as Debian's hardening asks: by lld, as the Embedded
            // programs are linked (Debian's swiftlang's default linker made no RELRO segment even when asked).
            linkerSettings: [
                .linkedLibrary("crypt"),
                .unsafeFlags([
                    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "relro", "-Xlinker", "-z", "-Xlinker", "now",
                ]),
            ]
        ),
        // libFuzzer targets over the core's parsers (make fuzz); a plain build replays inputs instead.
        // Beside the other fuzzing code (fuzz/pam_fuzz.c, the corpus), never installed.
        .executableTarget(
            name: "PatternFuzz",
            dependencies: ["PatternCore", "CPatternSystem"],
            path: "fuzz/PatternFuzz",
            linkerSettings: [.linkedLibrary("crypt")]
        ),
        // Test tool, never installed: every pattern's drawing read back (make test-swift, optimised).
        .executableTarget(
            name: "drawing-roundtrip",
            dependencies: ["PatternCore"],
            path: "Tools/drawing-roundtrip"
        ),
        // Test tools, never installed: the core's pure functions over inputs from stdin, one source compiled as
        // normal Swift and as Embedded Swift at -Osize (a symlink), compared by Tests/CoreVectorsTests.
        .executableTarget(
            name: "core-vectors",
            dependencies: ["PatternCore"],
            path: "Tools/core-vectors",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "core-vectors-embedded",
            dependencies: ["PatternCoreEmbedded"],
            path: "Tools/core-vectors-embedded",
            swiftSettings: embedded + [.unsafeFlags(["-parse-as-library"]), .define("EMBEDDED")],
            linkerSettings: [.unsafeFlags(["-enable-experimental-feature", "Embedded"])]
        ),
        // Tool, never installed: learns the strength rules' table from people's patterns and prints the rules'
        // cross-validated figures (make strength-table, make bench).
        .executableTarget(
            name: "strength-table",
            dependencies: ["PatternCore"],
            path: "Tools/strength-table"
        ),
        .testTarget(
            name: "PatternCoreTests",
            dependencies: ["PatternCore"],
            exclude: ["Pattern/Golden"],
            linkerSettings: [.linkedLibrary("crypt")]
        ),
    ]
)
