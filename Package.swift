// swift-tools-version:6.1
import PackageDescription

/// One settings list shared by every target: Swift 6 language mode is the tools default; these keep the build
/// honest about existentials, about which imports a module re-exports (`InternalImportsByDefault`: an import is
/// internal unless it says `package` or `public`) and about where members come from (`MemberImportVisibility`).
/// `scripts/fuzz` sets BOXOFFICE_FUZZ=1: the project's own modules are then compiled with libFuzzer's coverage and
/// AddressSanitizer (dependencies and build tools stay as they are), and the fuzz targets of Fuzz/ are added below.
let fuzzing = Context.environment["BOXOFFICE_FUZZ"] == "1"
let strictSettings: [SwiftSetting] =
    [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ] + (fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address"])] : [])

let package = Package(
    name: "boxoffice-worker",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "boxoffice-worker", targets: ["boxoffice-worker"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.20.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.65.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]
        ),
        .systemLibrary(name: "CMalloc"),
        // glibc's memmem and pwritev2, which Swift's Glibc module leaves out (ByteSearch, OutputWriter).
        .systemLibrary(name: "CGlibcGNU"),
        // SQLite's C API (linked statically by scripts/release-build) and the thin typed layer over it, a room of
        // its own as Jansson's: GRDB imports full Foundation on Linux, which brought ICU into the binary.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "SQLite", dependencies: ["CSQLite", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            swiftSettings: strictSettings),
        // libpq's C functions, loaded at run time, and the client over them: postgres-nio imports full Foundation.
        .target(name: "CPostgres"),
        .target(name: "Postgres", dependencies: ["CPostgres"], swiftSettings: strictSettings),
        // The drawing libraries (cairo, Pango, gdk-pixbuf, zlib) the cards load at run time: their C declarations
        // and the loader, the second room for C beside Jansson's.
        .target(name: "CDrawing"),
        // arc4random for the statically linked libstdc++ (scripts/release-build), so the binary's glibc floor stays
        // 2.35: no Swift code imports it.
        .target(name: "CGlibcFloor"),
        .target(name: "JSONCore", dependencies: ["CJansson"], swiftSettings: strictSettings),
        .target(name: "JSONSchema", dependencies: ["JSONCore"], swiftSettings: strictSettings),
        .target(
            name: "JSONRPC",
            dependencies: [
                "JSONSchema", "JSONCore", "CGlibcGNU", .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "MCP",
            dependencies: [
                "JSONRPC", "JSONSchema", "JSONCore", .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings),
        .target(
            name: "BoxOfficeCore",
            dependencies: [
                "JSONCore", "SQLite", "Postgres", "CGlibcGNU",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "embed-resources",
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]),
        .plugin(name: "EmbedResources", capability: .buildTool(), dependencies: ["embed-resources"]),
        // The methods: typed inputs and outputs, the answer encoding, the error map and the runtime they share. No
        // view: the compiler refuses an arrow from here to BoxOfficeViews.
        .target(
            name: "BoxOfficeMethods",
            dependencies: [
                "JSONRPC", "BoxOfficeCore", "JSONSchema", "JSONCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings,
            plugins: ["EmbedResources"]
        ),
        // The views: one view model of an answer and its renderers (terminal screens and graphics, rows, chat
        // formats, HTML pages and the site, cards). They read the domain's values, never a method.
        .target(
            name: "BoxOfficeViews",
            dependencies: [
                "BoxOfficeCore", "JSONCore", "CDrawing",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSettings
        ),
        // The app: the composition root, the presenter, the MCP tools and the CLI session.
        .target(
            name: "BoxOfficeWorker",
            dependencies: [
                "BoxOfficeMethods", "BoxOfficeViews", "JSONRPC", "MCP", "BoxOfficeCore", "JSONSchema", "JSONCore",
                "CGlibcGNU", .target(name: "CMalloc", condition: .when(platforms: [.linux])),
                // The commands' flags are declared once, where the session reads them (BoxOfficeFlags).
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "boxoffice-worker",
            dependencies: [
                "BoxOfficeWorker", "BoxOfficeMethods", "BoxOfficeViews", "BoxOfficeCore", "CGlibcFloor",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings,
            linkerSettings: [
                // Export no symbols from the release executable: the dynamic loader then has a small symbol table
                // to search (glibc's dladdr walks it at start), about half a millisecond of cold start.
                .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(configuration: .release))
            ]
                // In a fuzz build (`scripts/fuzz --worker`) the worker links AddressSanitizer's runtime, whose weak
                // coverage hooks serve the modules' libFuzzer instrumentation; the worker keeps its own main.
                + (fuzzing ? [.unsafeFlags(["-sanitize=address"])] : [])
        ),
        // The schema benchmark (Benchmarks/run-schema builds it by name); a target, not a product: nothing ships it.
        .executableTarget(
            name: "schema-bench", dependencies: ["JSONSchema", "JSONCore"], path: "Benchmarks/SchemaBench",
            swiftSettings: strictSettings
        ),
        // Test support in three layers, so that a test target builds no more than it tests: TestSupport for every
        // target (pure: shared data, JSON helpers, an in-memory host, temporary directories), WorkerTestSupport for
        // the worker served in memory, ProcessTestSupport for the built binary and fake upstreams on loopback.
        .target(
            name: "TestSupport",
            dependencies: ["JSONCore", "JSONRPC", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings),
        .target(
            name: "WorkerTestSupport",
            dependencies: ["BoxOfficeWorker", "BoxOfficeMethods", "JSONRPC", "MCP", "TestSupport"],
            path: "Tests/WorkerTestSupport", swiftSettings: strictSettings),
        .target(
            name: "ProcessTestSupport",
            dependencies: ["JSONCore", "TestSupport"], path: "Tests/ProcessTestSupport", swiftSettings: strictSettings),
        .testTarget(name: "JSONCoreTests", dependencies: ["JSONCore", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "BoxOfficeCoreTests",
            dependencies: [
                "BoxOfficeCore", "SQLite", "TestSupport", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "JSONSchemaTests", dependencies: ["JSONSchema", "JSONCore", "TestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "JSONRPCTests",
            dependencies: [
                "JSONRPC", "JSONSchema", "JSONCore", "TestSupport", "CGlibcGNU",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "MCPTests",
            // BoxOfficeWorker: OfflineWorker's stored types come from it (a test target that holds one must be rebuilt
            // when they change; an incremental build that did not crashed in OfflineWorker's destructor).
            dependencies: [
                "MCP", "JSONRPC", "JSONSchema", "JSONCore", "TestSupport", "WorkerTestSupport", "BoxOfficeWorker",
                "BoxOfficeMethods",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "BoxOfficeWorkerTests",
            dependencies: [
                "BoxOfficeWorker", "BoxOfficeMethods", "BoxOfficeViews", "BoxOfficeCore", "JSONRPC", "JSONSchema",
                "JSONCore", "TestSupport", "WorkerTestSupport", .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WorkerEndToEndTests",
            // ArgumentParser: the flag table tests parse with the executable's swift-argument-parser declarations.
            dependencies: [
                "boxoffice-worker", "BoxOfficeWorker", "BoxOfficeMethods", "BoxOfficeViews", "BoxOfficeCore",
                "JSONSchema", "JSONCore", "TestSupport",
                "WorkerTestSupport", "ProcessTestSupport", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)

// Fuzz targets (Fuzz/): built only by scripts/fuzz (BOXOFFICE_FUZZ=1); each main hands over to libFuzzer's driver,
// which an ordinary build (and `swift build --build-tests`) does not link.
if fuzzing {
    let fuzzSettings = strictSettings
    let fuzzLinking: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]
    package.targets += [
        .target(
            name: "FuzzSupport", dependencies: ["JSONRPC", "JSONCore", "MCP"], path: "Fuzz/Support",
            swiftSettings: strictSettings),
        .executableTarget(
            name: "fuzz-decoders", dependencies: ["BoxOfficeCore", "FuzzSupport"], path: "Fuzz/Decoders",
            swiftSettings: fuzzSettings,
            linkerSettings: fuzzLinking),
        .executableTarget(
            name: "fuzz-schema", dependencies: ["JSONSchema", "JSONCore", "FuzzSupport"], path: "Fuzz/Schema",
            swiftSettings: fuzzSettings, linkerSettings: fuzzLinking),
        .executableTarget(
            name: "fuzz-lines", dependencies: ["BoxOfficeWorker", "BoxOfficeMethods", "FuzzSupport", "JSONRPC"],
            path: "Fuzz/Lines",
            swiftSettings: fuzzSettings, linkerSettings: fuzzLinking),
        .target(
            name: "FuzzProbes",
            dependencies: ["BoxOfficeWorker", "BoxOfficeMethods", "JSONRPC", "JSONSchema", "JSONCore"],
            path: "Fuzz/Probes", swiftSettings: strictSettings),
        .executableTarget(
            name: "fuzz-rpc", dependencies: ["FuzzProbes", "FuzzSupport", "JSONRPC"], path: "Fuzz/RPC",
            swiftSettings: fuzzSettings, linkerSettings: fuzzLinking),
        .executableTarget(
            name: "fuzz-mcp-probes",
            dependencies: ["BoxOfficeWorker", "BoxOfficeMethods", "FuzzProbes", "FuzzSupport", "JSONRPC", "MCP"],
            path: "Fuzz/MCPProbes",
            swiftSettings: fuzzSettings, linkerSettings: fuzzLinking),
        .executableTarget(
            name: "fuzz-mcp",
            dependencies: ["BoxOfficeWorker", "BoxOfficeMethods", "FuzzSupport", "JSONRPC", "MCP"], path: "Fuzz/MCP",
            swiftSettings: fuzzSettings, linkerSettings: fuzzLinking),
    ]
}
