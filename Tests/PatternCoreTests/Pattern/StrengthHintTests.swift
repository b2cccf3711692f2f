import Testing

@testable import PatternCore

private func dots(_ digits: String) -> [UInt8] { Array(digits.utf8).map { $0 - 0x30 } }

private func accepted(_ dots: [UInt8], minimum: Int = 4, rules: StrengthRules = .standard) -> Bool {
    StrengthPreview(dots: dots, minimumLength: minimum, rules: rules) == .accepted
}

@Suite struct StrengthHintTests {
    /// Every refused pattern of a large sample of the whole space (each 5th, so every length and start), and
    /// every 1-3 dot drawing: following the hint gives an accepted pattern. `core-vectors hint` runs all of
    /// them, optimised, in both builds.
    @Test(arguments: [(4, StrengthRules.standard), (4, .shapes), (6, .standard), (9, .standard)])
    func followingTheHintAlwaysPasses(minimum: Int, rules: StrengthRules) {
        var refused = 0
        let all = Pattern.allValid()
        let sample = stride(from: 0, to: all.count, by: 5).map { all[$0].dots }
        let short = (1...3).flatMap { Pattern.allCanonical(length: $0) }.map { $0.dots }
        for drawing in sample + short where !accepted(drawing, minimum: minimum, rules: rules) {
            refused += 1
            guard let hint = StrengthHint.forDots(drawing, minimumLength: minimum, rules: rules) else {
                Issue.record("no hint for \(drawing)")
                continue
            }
            let followed = hint.applied(to: drawing)
            #expect(StrengthHint.visitedMask(followed) != nil, "\(drawing) -> \(followed): not a drawing")
            #expect(accepted(followed, minimum: minimum, rules: rules), "\(drawing) -> \(followed)")
        }
        #expect(refused > 400)
    }

    @Test func anAcceptedPatternNeedsNoHint() {
        #expect(StrengthHint.forDots(dots("2759148")) == nil)
    }

    @Test func theFewestDotsAreAddedAtTheEnd() throws {
        // A box's three sides: one dot more does not save it, two do.
        let drawing = dots("1236")
        let hint = try #require(StrengthHint.forDots(drawing))
        guard case .addAtEnd(let tail) = hint else {
            Issue.record("\(hint)")
            return
        }
        for dot: UInt8 in 1...9 where !drawing.contains(dot) && StrengthHint.visitedMask(drawing + [dot]) != nil {
            #expect(!accepted(drawing + [dot]) || tail.count == 1, "\(dot)")
        }
        #expect(accepted(hint.applied(to: drawing)))
    }

    @Test func theZKeepsItsStartAndChangesItsEnd() throws {
        // Neither free dot (4, 6) saves the Z at its end: its last move changes.
        let hint = try #require(StrengthHint.forDots(dots("1235789")))
        #expect(hint == .changeEnd(after: 8, to: [6]))
        #expect(accepted(hint.applied(to: dots("1235789"))))
    }

    @Test func aFullRefusedPatternChangesItsEnd() throws {
        // 9 dots: nothing can be added.
        let drawing = dots("123654789")
        #expect(!accepted(drawing))
        let hint = try #require(StrengthHint.forDots(drawing))
        guard case .changeEnd(let after, let tail) = hint else {
            Issue.record("\(hint)")
            return
        }
        let followed = hint.applied(to: drawing)
        #expect(followed != drawing && accepted(followed))
        #expect(drawing.starts(with: followed.prefix(while: { $0 != after }) + [after]))
        #expect(!tail.isEmpty)
    }

    @Test func notADrawingGetsNoHint() {
        #expect(StrengthHint.forDots([]) == nil)
        #expect(StrengthHint.forDots(dots("13")) == nil)  // passes over 2, not taken
        #expect(StrengthHint.forDots(dots("1221")) == nil)
        #expect(StrengthHint.forDots([0, 1]) == nil)
        #expect(StrengthHint.forDots(Array(repeating: 1, count: 64)) == nil)
    }

    @Test func theHintNamesTheDotsThePersonSees() {
        #expect(
            String(decoding: StrengthHint.addAtEnd([7]).said, as: UTF8.self)
                == "To make it pass, add the bottom-left dot at the end.")
        #expect(
            String(decoding: StrengthHint.addAtEnd([5, 3]).said, as: UTF8.self)
                == "To make it pass, add the centre dot, then the top-right dot at the end.")
        #expect(
            String(decoding: StrengthHint.changeEnd(after: 2, to: [6]).said, as: UTF8.self)
                == "To make it pass, draw it up to the top-middle dot, then go on to the middle-right dot instead.")
    }
}

@Suite struct StrengthPreviewTests {
    @Test func aWeakDrawingExtendedToAStrongOneChangesItsVerdict() {
        #expect(StrengthPreview(dots: dots("123")) == .tooShort)
        #expect(StrengthPreview(dots: dots("1235789")) == .commonShape)
        #expect(StrengthPreview(dots: dots("1236")) == .simpleShape)
        let hint = StrengthHint.forDots(dots("1235789"))
        #expect(StrengthPreview(dots: hint?.applied(to: dots("1235789")) ?? []) == .accepted)
    }

    @Test func theVerdictIsTheStrengthRules() {
        let all = Pattern.allValid()
        for pattern in stride(from: 0, to: all.count, by: 97).map({ all[$0] }) {
            let preview = StrengthPreview(dots: pattern.dots)
            #expect((preview == .accepted) == (pattern.weakness() == nil), "\(pattern.digitString)")
        }
    }

    @Test func aDrawingThatIsNotCanonicalIsNotAccepted() {
        #expect(StrengthPreview(dots: dots("13579")) == .tooShort)
        #expect(StrengthPreview(dots: []) == .tooShort)
    }
}
