import Testing

@testable import PatternCore

@Suite struct HumanChoiceModelTests {
    let published = HumanChoiceModel.published

    @Test func theShippedTableIsWellFormed() throws {
        #expect(published.costs.count == HumanChoiceModel.costCount)
        #expect(published.commonShapes == published.commonShapes.sorted())
        #expect(Set(published.commonShapes).count == published.commonShapes.count)
        for key in published.commonShapes {
            // Each entry is a valid pattern, written as the smallest of its images.
            let p = try Pattern.parse(Array(String(key).utf8))
            #expect(HumanChoiceModel.shapeKey(p) == key)
        }
        #expect(published.likelyCost > 0)
    }

    @Test func aShapeKeyIsTheSameForEveryImage() throws {
        let p = try Pattern.parse(Array("2486".utf8))
        let key = HumanChoiceModel.shapeKey(p)
        #expect(key == 2486)
        for symmetry in Symmetry.allCases { #expect(HumanChoiceModel.shapeKey(p.applying(symmetry)) == key) }
        #expect(HumanChoiceModel.shapeKey(try Pattern.parse(Array("987654321".utf8))) == 123456789)
    }

    @Test func costsAddStartMovesAndLength() throws {
        var costs = [UInt8](repeating: 0, count: HumanChoiceModel.costCount)
        costs[0] = 1  // start at dot 1
        costs[9 + 0 * 9 + 1] = 10  // 1 -> 2
        costs[9 + 1 * 9 + 2] = 20  // 2 -> 3
        costs[9 + 2 * 9 + 5] = 40  // 3 -> 6
        costs[90] = 100  // 4 dots
        let model = HumanChoiceModel(commonShapes: [], costs: costs, likelyCost: 171)
        let p = try Pattern.parse(Array("1236".utf8))
        #expect(model.cost(of: p) == 171)
        #expect(model.isLikely(p))
        #expect(!HumanChoiceModel(commonShapes: [], costs: costs, likelyCost: 170).isLikely(p))
    }

    @Test func aTableOfTheWrongSizeRefusesNothingAndNeverTraps() throws {
        let broken = HumanChoiceModel(commonShapes: [], costs: [1, 2, 3], likelyCost: 1000)
        let p = try Pattern.parse(Array("2759148".utf8))
        #expect(broken.cost(of: p) == nil)
        #expect(!broken.isLikely(p))
        #expect(p.weakness(model: broken) == nil)
    }

    @Test func lookupFindsEveryShapeAndNothingElse() throws {
        let model = HumanChoiceModel(commonShapes: [1256, 2486, 123654], costs: [], likelyCost: -1)
        #expect(model.isCommonShape(try Pattern.parse(Array("8624".utf8))))
        #expect(model.isCommonShape(try Pattern.parse(Array("1256".utf8))))
        #expect(model.isCommonShape(try Pattern.parse(Array("123654".utf8))))
        #expect(!model.isCommonShape(try Pattern.parse(Array("1254".utf8))))
        #expect(
            !HumanChoiceModel(commonShapes: [], costs: [], likelyCost: -1).isCommonShape(
                try Pattern.parse(Array("1256".utf8))))
    }
}
