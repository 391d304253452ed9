// Snapshot isolation of the key directory: a copy is frozen while the original changes and the
// other way round, and readers on other threads see their snapshot while the writer goes on.
import Dispatch
import Synchronization
import Testing
import StockpotStorage
import StockpotTestSupport

@Suite struct KeyDirectorySnapshotTests {
    typealias T = KeyDirectoryTesting

    /// A directory of `count` random keys and its model.
    static func filled(_ count: Int, seed: UInt64, leaf: Int = 8, branch: Int = 8) -> (KeyDirectory, T.IndexedModel) {
        var rng = SeededRandom(seed: seed)
        var directory = KeyDirectory(leafCapacity: leaf, branchCapacity: branch)
        var model = T.IndexedModel()
        var pool: [[UInt8]] = []
        while model.count < count {
            let key = T.randomKey(&rng, pool: pool)
            pool.append(key)
            let location = T.location(rng.next())
            directory.setLocation(location, for: key)
            model.set(location, for: key)
        }
        return (directory, model)
    }

    /// Overwrites, removes and inserts about `steps` keys of `directory` and `model` alike.
    static func churn(_ directory: inout KeyDirectory, _ model: inout T.IndexedModel, steps: Int, seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        for _ in 0..<steps {
            switch rng.below(3) {
            case 0:
                if let key = model.randomKey(&rng) {
                    let location = T.location(rng.next())
                    directory.setLocation(location, for: key)
                    model.set(location, for: key)
                }
            case 1:
                if let key = model.randomKey(&rng) {
                    directory.removeLocation(for: key)
                    model.remove(key)
                }
            default:
                let key = T.randomKey(&rng, pool: [])
                let location = T.location(rng.next())
                directory.setLocation(location, for: key)
                model.set(location, for: key)
            }
        }
    }

    @Test func aCopyIsUnchangedWhenTheOriginalIsMutated() {
        let seed: UInt64 = 0x5A1
        var (original, model) = Self.filled(3000, seed: seed)
        let snapshot = original
        let frozen = model.values
        Self.churn(&original, &model, steps: 6000, seed: seed + 1)
        // Empty the original completely too: the snapshot must keep every node it shares.
        let expectedOriginal = model.values
        #expect(T.difference(original, expectedOriginal) == nil, "seed \(seed)")
        var emptied = original
        for key in expectedOriginal.keys { emptied.removeLocation(for: key) }
        #expect(emptied.count == 0, "seed \(seed)")
        let problem = T.difference(snapshot, frozen)
        #expect(problem == nil, "seed \(seed): \(problem ?? "")")
        #expect(T.difference(original, expectedOriginal) == nil, "seed \(seed)")
    }

    @Test func theOriginalIsUnchangedWhenACopyIsMutated() {
        let seed: UInt64 = 0x5A2
        let (original, model) = Self.filled(3000, seed: seed)
        var copy = original
        var copyModel = model
        Self.churn(&copy, &copyModel, steps: 6000, seed: seed + 1)
        #expect(T.difference(copy, copyModel.values) == nil, "seed \(seed)")
        let problem = T.difference(original, model.values)
        #expect(problem == nil, "seed \(seed): \(problem ?? "")")
    }

    @Test func copiesOfCopiesDivergeIndependently() {
        let seed: UInt64 = 0x5A3
        var (a, modelA) = Self.filled(1000, seed: seed, leaf: 3, branch: 4)
        var b = a
        var modelB = modelA
        var c = b
        var modelC = modelB
        Self.churn(&a, &modelA, steps: 1500, seed: seed + 1)
        Self.churn(&b, &modelB, steps: 1500, seed: seed + 2)
        Self.churn(&c, &modelC, steps: 1500, seed: seed + 3)
        #expect(T.difference(a, modelA.values) == nil, "seed \(seed): a")
        #expect(T.difference(b, modelB.values) == nil, "seed \(seed): b")
        #expect(T.difference(c, modelC.values) == nil, "seed \(seed): c")
    }

    @Test func readersOnOtherThreadsSeeTheirSnapshotWhileTheWriterMutates() {
        let seed: UInt64 = 0x5A4
        var (writer, model) = Self.filled(4000, seed: seed, leaf: 16, branch: 8)
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        let queue = DispatchQueue(label: "key-directory-readers", attributes: .concurrent)
        for round in 0..<8 {
            let snapshot = writer
            let expected = model.values
            group.enter()
            queue.async {
                defer { group.leave() }
                // Read the snapshot several times over while the writer keeps going.
                for pass in 0..<3 {
                    if let problem = T.difference(snapshot, expected) {
                        failures.withLock { $0.append("seed \(seed), round \(round), pass \(pass): \(problem)") }
                        return
                    }
                }
            }
            Self.churn(&writer, &model, steps: 2000, seed: seed &+ UInt64(round) &+ 1)
        }
        group.wait()
        let found = failures.withLock { $0 }
        #expect(found.isEmpty, "\(found.joined(separator: "; "))")
        #expect(T.difference(writer, model.values) == nil, "seed \(seed): writer")
    }
}
