import CPatternSystem

/// A valid, canonical unlock pattern: the dots in drawing order.
public struct Pattern: Hashable, Sendable {
    public let dots: [UInt8]
    public init(canonicalDots: [UInt8]) { self.dots = canonicalDots }
}
