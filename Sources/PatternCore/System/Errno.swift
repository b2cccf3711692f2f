import CPatternSystem

/// A failed system call's errno, before the caller gives it a meaning.
public struct Errno: Error, Equatable {
    public var code: Int32
    static var current: Errno { Errno(code: pattern_errno()) }
}
