import Testing

@testable import PatternCore

@Suite struct SymmetryTests {
    private let z = Pattern(canonicalDots: [1, 2, 3, 5, 7, 8, 9])

    @Test func eightDistinctValidImagesOfZ() throws {
        let images = Symmetry.allCases.map { z.applying($0) }
        #expect(images.count == 8)
        #expect(Set(images).count == 8)
        for image in images {
            // Valid: parses from its own digits to itself.
            #expect(try Pattern.parse(image.digits) == image)
        }
        #expect(z.symmetricVariants.count == 8)
        #expect(z.symmetricVariants.first == z)
    }

    @Test(arguments: [
        (Symmetry.identity, "123456789"),
        (.rotate90, "369258147"),
        (.rotate180, "987654321"),
        (.rotate270, "741852963"),
        (.mirrorLeftRight, "321654987"),
        (.mirrorTopBottom, "789456123"),
        (.mirrorMainDiagonal, "147258369"),
        (.mirrorAntiDiagonal, "963852741"),
    ])
    func whereEachSymmetrySendsTheDots(symmetry: Symmetry, images: String) {
        // images[i] is where dot i+1 goes. rotate90 is clockwise: dot 1 -> dot 3 means the
        // top-left dot moves to the top right; reading image positions as dots 1...9.
        let expected = Array(images.utf8).map { $0 - 0x30 }
        let actual = (1...9).map { symmetry.apply(toDot: UInt8($0)) }
        #expect(actual == Self.inverseTable(expected) || actual == expected)
        #expect(actual == expected)
    }

    private static func inverseTable(_ t: [UInt8]) -> [UInt8] {
        var inv = [UInt8](repeating: 0, count: 9)
        for (i, v) in t.enumerated() { inv[Int(v) - 1] = UInt8(i + 1) }
        return inv
    }

    @Test func inverseUndoesAndRotationsCompose() {
        for symmetry in Symmetry.allCases {
            for dot: UInt8 in 1...9 {
                #expect(symmetry.inverse.apply(toDot: symmetry.apply(toDot: dot)) == dot)
            }
        }
        for dot: UInt8 in 1...9 {
            let twice = Symmetry.rotate90.apply(toDot: Symmetry.rotate90.apply(toDot: dot))
            #expect(twice == Symmetry.rotate180.apply(toDot: dot))
            #expect(Symmetry.rotate90.apply(toDot: twice).self == Symmetry.rotate270.apply(toDot: dot))
        }
        // The centre is fixed by all; values outside 1...9 are left alone (no trap).
        for symmetry in Symmetry.allCases {
            #expect(symmetry.apply(toDot: 5) == 5)
            #expect(symmetry.apply(toDot: 0) == 0)
            #expect(symmetry.apply(toDot: 200) == 200)
        }
    }

    @Test func symmetriesMapValidPatternsToValidPatterns() throws {
        // Every 4..6-dot pattern under every symmetry stays canonical (re-parses to itself),
        // and each symmetry is a bijection on the set.
        for length in 4...6 {
            let all = Pattern.allValid(length: length)
            let set = Set(all)
            for symmetry in Symmetry.allCases {
                var images = Set<Pattern>()
                for pattern in all {
                    let image = pattern.applying(symmetry)
                    #expect(set.contains(image))
                    images.insert(image)
                }
                #expect(images.count == all.count)
            }
        }
    }
}
