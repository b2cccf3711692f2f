import CPatternSystem
import Testing

@testable import PatternCore

/// Read buffers sized to the file (most of a short-lived helper's cost was page faults on 64 KiB zero-filled
/// buffers), and the read loop that must still read everything when the size was not known or was wrong.
struct SystemCallTests {
    func opened(_ bytes: [UInt8]) -> (TempDirectory, Int32) {
        let directory = TempDirectory()
        let path = directory.file("file")
        writeBytes(path, bytes)
        return (directory, pattern_open(path, O_RDONLY | O_CLOEXEC, 0))
    }

    @Test func aBufferIsTheFilesSizePlusOneWithinItsBounds() {
        for (size, expected) in [(0, 512), (73, 512), (511, 512), (2000, 2001), (65535, 65536), (200_000, 65536)] {
            #expect(SystemCall.bufferBytes(size: Int64(size), from: 0, atLeast: 512, atMost: 65536) == expected)
        }
        #expect(SystemCall.bufferBytes(size: 3000, from: 1000, atLeast: 512, atMost: 65536) == 2001)
        #expect(SystemCall.bufferBytes(size: 3000, from: 5000, atLeast: 512, atMost: 65536) == 512)
    }

    @Test func readAllSizesItsBufferFromTheSizeItIsGiven() throws {
        // A 73-byte file read with its size: one small buffer, and the bytes whole.
        let bytes = Array(repeating: UInt8(ascii: "a"), count: 73)
        let (directory, fd) = opened(bytes)
        defer {
            close(fd)
            directory.remove()
        }
        #expect(try SystemCall.readAll(fd, limit: 65536, size: 73) == bytes)
    }

    @Test func readAllReadsEverythingWhenTheSizeWasWrong() throws {
        // Told 0 bytes (as if the file grew since its check): the smallest buffer, many reads, every byte.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let bytes = (0..<3000).map { UInt8(truncatingIfNeeded: $0) }
        let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        #expect(written == 3000)
        close(ends[1])
        defer { close(ends[0]) }
        #expect(try SystemCall.readAll(ends[0], limit: 65536, size: 0) == bytes)
    }

    @Test func readAllStillStopsPastItsLimit() throws {
        let (directory, fd) = opened(Array(repeating: 0x61, count: 1001))
        defer {
            close(fd)
            directory.remove()
        }
        #expect(try SystemCall.readAll(fd, limit: 1000) == nil)
    }
}
