import CPatternPad
import PatternCoreEmbedded

/// The one page that ever holds the person's secret (C's pattern_pad_secret: mlock'ed, not in core dumps):
/// the trace being drawn (a PadTrace, inline storage, no heap), the typed text, and the bytes of a reply while
/// it is written to authproto. Wiped after every send and every reset; never copied into an Array.
package enum PadSecret {
    /// Typed text (a password or digits): at most this many bytes (PAM_MAX_RESP_SIZE).
    static let typedCapacity = 512
    /// Where a reply is assembled just before it is written.
    static let replyOffset = 512
    static let replyCapacity = 1024
    /// Where the PadTrace lives.
    static let traceOffset = 2048

    static var base: UnsafeMutablePointer<UInt8> {
        // The C side's static page: never NULL.
        pattern_pad_secret()
    }

    static var typed: UnsafeMutablePointer<UInt8> { base }
    static var reply: UnsafeMutablePointer<UInt8> { base + replyOffset }

    package static var trace: UnsafeMutablePointer<PadTrace> {
        UnsafeMutableRawPointer(base + traceOffset).assumingMemoryBound(to: PadTrace.self)
    }

    /// Puts an empty PadTrace in its place (once, before any use); false when it would not fit.
    package static func setUp() -> Bool {
        guard MemoryLayout<PadTrace>.size <= Int(PATTERN_PAD_SECRET_CAPACITY) - traceOffset else { return false }
        UnsafeMutableRawPointer(base + traceOffset).bindMemory(to: PadTrace.self, capacity: 1).initialize(
            to: PadTrace())
        return true
    }

    static func wipeReply() { pattern_pad_wipe(reply, replyCapacity) }
    static func wipeTyped() { pattern_pad_wipe(typed, typedCapacity) }

    /// Copies the drawn dots into the reply area as the keys of `layout`; returns their count.
    static func traceAsReply(layout: KeypadLayout) -> Int {
        wipeReply()
        return trace.pointee.withDigits { digits in
            var n = 0
            for digit in digits where n < replyCapacity {
                let dot = digit &- 0x30
                reply[n] = (layout.key(forDot: dot) ?? 0) &+ 0x30
                n += 1
            }
            return n
        }
    }

    /// Copies the typed text into the reply area; returns its count.
    static func typedAsReply(count: Int) -> Int {
        wipeReply()
        let n = min(count, typedCapacity)
        for i in 0..<n { reply[i] = typed[i] }
        return n
    }
}
