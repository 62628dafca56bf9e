#if canImport(Glibc)
import Glibc
#endif

/// The tool's own setting of glibc's allocator, made once at the start of the process (the tool
/// owns its process; the library sets nothing).
///
/// glibc grows a thread's heap by exactly what an allocation needs and gives the top of the heap
/// back as soon as it is free, so a batch that allocates and frees a receipt's buffers (80 KB
/// files, their parsed purchases, 135 KB of JSON for the real 187-purchase receipt) asks the
/// kernel for the same pages again and again: an `mprotect` to grow, a `madvise` to give back,
/// and a page fault for every page touched again. Keeping 4 MB at the top of each heap
/// (`M_TOP_PAD`) made 200 copies of that receipt take 1,343 page faults instead of 1,857 and
/// 15 `mprotect` calls instead of 64, for up to 2 MB more peak memory. On the bench's 200 copies
/// (the `Scripts/bench.sh --cli-only` line "--ndjson, real 187iap sha1, one core ≤ 2× the
/// library's warm validation") it saves about 0.8 ms of 64 ms CPU (median of 30 alternating
/// runs, glibc's default padding set through `MALLOC_TOP_PAD_` in the other run).
enum MallocTuning {
    /// The padding kept at the top of each heap.
    static let topPad: Int32 = 4 << 20

    /// Sets ``topPad`` unless the user set the padding already (`MALLOC_TOP_PAD_`, or
    /// `glibc.malloc.top_pad` in `GLIBC_TUNABLES`); does nothing where the C library is not glibc.
    static func apply() {
        #if canImport(Glibc)
        if getenv("MALLOC_TOP_PAD_") != nil { return }
        if let tunables = getenv("GLIBC_TUNABLES"), String(cString: tunables).contains("malloc.top_pad") { return }
        // `mallopt` is declared in <malloc.h>, which the Glibc module does not include: it is
        // looked up by name instead (RTLD_DEFAULT is the null handle; M_TOP_PAD is -2).
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(-2, topPad)
        #endif
    }
}
