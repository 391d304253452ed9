// The registry of index kinds by name (docs/indexes.md): what a spec's `kind` may name. One
// per process, filled by the application before it opens a store that uses its kinds.

import Synchronization

/// The index kinds this process knows by name.
public enum IndexKinds {
    private static let registered = Mutex<[String: any PathIndex.Type]>([:])

    /// The spec types of the built-in kinds, which no registered kind may take.
    package static let builtInNames: Set<String> = ["string", "integer", "floating", "full_text", "json1"]

    /// Why a registration was refused.
    public enum RegistrationProblem: Error, Sendable, Hashable {
        /// The name is empty, longer than 64 bytes, not letters, digits and `_`, or a
        /// built-in type.
        case invalidName(String)
        /// Another type is registered under the name.
        case nameTaken(String)
    }

    /// Registers `kind` under its ``PathIndex/kindName``. Registering the same type again
    /// does nothing.
    ///
    /// - Throws: ``RegistrationProblem``.
    public static func register(_ kind: any PathIndex.Type) throws(RegistrationProblem) {
        let name = kind.kindName
        guard isValidName(name) else { throw .invalidName(name) }
        let taken = registered.withLock { table -> Bool in
            if let existing = table[name] { return existing != kind }
            table[name] = kind
            return false
        }
        if taken { throw .nameTaken(name) }
    }

    /// The kind registered under `name`, if any.
    package static func kind(named name: String) -> (any PathIndex.Type)? {
        registered.withLock { $0[name] }
    }

    /// Whether `name` may name a registered kind.
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && !builtInNames.contains(name)
            && name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F }
    }
}
