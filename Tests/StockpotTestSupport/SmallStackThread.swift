// A thread with a chosen (small) stack, for the tests that pin that recursive readers stop
// before a thread's stack end instead of overflowing it.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs closures on a new thread with a chosen stack size. Stateless.
public enum SmallStackThread {
    /// Runs `body` on a new thread whose stack is `bytes` long, waits for it, and returns its
    /// result; nil when the thread cannot be started.
    public static func run<T>(stackBytes bytes: Int, _ body: @escaping () -> T) -> T? {
        let result = ResultBox<T>()
        let work = Work { result.value = body() }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, bytes)
        var thread = pthread_t()
        let unmanaged = Unmanaged.passRetained(work)
        let created = pthread_create(
            &thread, &attributes,
            { pointer in
                Unmanaged<Work>.fromOpaque(pointer!).takeRetainedValue().body()
                return nil
            }, unmanaged.toOpaque())
        guard created == 0 else {
            unmanaged.release()
            return nil
        }
        pthread_join(thread, nil)
        return result.value
    }
}

/// The closure a new thread runs once; handed over by pthread_create.
private final class Work: @unchecked Sendable {  // run by one thread, then released
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// Where the thread leaves its result for the joining thread (read only after the join).
private final class ResultBox<Value>: @unchecked Sendable {  // written before pthread_join returns
    var value: Value?
}
