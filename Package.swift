// swift-tools-version:6.0
// animc: a compiler for `.anim`, a declarative Core Animation language.
// The targets mirror the pipeline: syntax -> checker -> IR -> runtime -> backends -> driver.
// A target depends only on the stages before it, and the package has no dependencies.
import PackageDescription

let readme: [String] = ["README.md"]

let package = Package(
    name: "animc",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "animc", targets: ["animc"]),
        .library(name: "AnimcRuntime", targets: ["AnimcRuntime", "AnimcTimeline"]),
        .library(name: "AnimcCompiler", targets: ["AnimcCompiler"]),
        .library(name: "AnimcLanguageServer", targets: ["AnimcLanguageServer"]),
        .library(name: "AnimcDriver", targets: ["AnimcDriver"]),
    ],
    dependencies: [],
    targets: [
        // Stage 0: sources, ranges, JSON, numbers. No Foundation.
        .target(name: "AnimcBase", exclude: readme),
        // One diagnostic model for every stage, and its renderers.
        .target(name: "AnimcDiagnostics", dependencies: ["AnimcBase"], exclude: readme),
        // Stage 1: bytes -> tokens -> syntax tree (+ diagnostics). Never fails.
        .target(name: "AnimcSyntax", dependencies: ["AnimcBase", "AnimcDiagnostics"], exclude: readme),
        // The typed, fully resolved IR and the property table. Knows nothing of syntax.
        .target(name: "AnimcIR", dependencies: ["AnimcBase"], exclude: readme),
        // Beside stage 2: pasted Swift and Objective-C, and the .anim text of each spelling,
        // printed from the syntax tree (the checker reports it with these fix-its).
        .target(name: "AnimcPorting", dependencies: ["AnimcBase", "AnimcDiagnostics", "AnimcSyntax"], exclude: readme),
        // Stage 2: syntax tree -> IR (+ diagnostics): names, units, folding, expansion, CA rules.
        .target(name: "AnimcChecker", dependencies: ["AnimcBase", "AnimcDiagnostics", "AnimcSyntax", "AnimcIR", "AnimcPorting"],
                exclude: readme),
        // Stage 3: Core Animation's timing and interpolation model over the IR. Embeddable.
        .target(name: "AnimcRuntime", dependencies: ["AnimcBase", "AnimcIR"], exclude: readme),
        // Pixels and the image codecs (PNG, deflate), written here. A leaf: the standard library only.
        .target(name: "AnimcImage", exclude: readme),
        // The native renderer: a scene state rasterised with exact-area anti-aliasing.
        .target(name: "AnimcRender", dependencies: ["AnimcBase", "AnimcIR", "AnimcRuntime", "AnimcImage"], exclude: readme),
        // Backends: the portable timeline JSON (writer and loader) and baked per-frame JSON.
        .target(name: "AnimcTimeline", dependencies: ["AnimcBase", "AnimcIR"], exclude: readme),
        .target(name: "AnimcBake", dependencies: ["AnimcBase", "AnimcIR", "AnimcRuntime"], exclude: readme),
        // The preview page: baked frames, the timing chart's schedule and a player in one HTML file.
        .target(name: "AnimcPreview", dependencies: ["AnimcBase", "AnimcIR", "AnimcRuntime", "AnimcBake"], exclude: readme),
        // Lottie 1.0 export: exact keyframes where Lottie has the form, samples where not, W08xx findings.
        .target(name: "AnimcLottie", dependencies: ["AnimcBase", "AnimcDiagnostics", "AnimcIR", "AnimcRuntime", "AnimcBake"],
                exclude: readme),
        // The library entry point: the pipeline, the registry of every diagnostic code,
        // suppression comments and the build's diagnostics. No Foundation, no I/O.
        .target(
            name: "AnimcCompiler",
            dependencies: ["AnimcBase", "AnimcDiagnostics", "AnimcSyntax", "AnimcIR", "AnimcChecker", "AnimcRuntime", "AnimcBake",
                           "AnimcLottie"],
            exclude: readme),
        // The language server: LSP over JSON-RPC, on a transport it is given.
        .target(
            name: "AnimcLanguageServer",
            dependencies: ["AnimcBase", "AnimcDiagnostics", "AnimcSyntax", "AnimcIR", "AnimcChecker", "AnimcRuntime", "AnimcCompiler"],
            exclude: readme),
        // The driver: file system, console, the commands and the preview server.
        .target(
            name: "AnimcDriver",
            dependencies: ["AnimcBase", "AnimcDiagnostics", "AnimcSyntax", "AnimcIR", "AnimcChecker", "AnimcCompiler",
                           "AnimcLanguageServer", "AnimcRuntime", "AnimcTimeline", "AnimcBake", "AnimcPreview", "AnimcLottie",
                           "AnimcImage", "AnimcRender"],
            exclude: readme),
        .executableTarget(name: "animc", dependencies: ["AnimcDriver"], exclude: readme),
        .executableTarget(
            name: "animc-bench",
            dependencies: ["AnimcDriver", "AnimcCompiler", "AnimcLanguageServer", "AnimcChecker", "AnimcSyntax", "AnimcRuntime", "AnimcIR",
                           "AnimcBake", "AnimcTimeline", "AnimcLottie", "AnimcPreview", "AnimcBase", "AnimcImage", "AnimcRender"],
            path: "Benchmarks/animc-bench", exclude: readme),

        // In-process fuzz targets (libFuzzer when built as Fuzz/README.md says; a replay
        // tool otherwise).
        .executableTarget(
            name: "animc-fuzz",
            dependencies: ["AnimcDriver", "AnimcCompiler", "AnimcSyntax", "AnimcChecker", "AnimcDiagnostics", "AnimcRuntime", "AnimcIR",
                           "AnimcTimeline", "AnimcBase", "AnimcImage", "AnimcRender", "AnimcTestSupport"],
            path: "Fuzz/animc-fuzz"),

        // Test support: golden files, fixture discovery, seeded mutations.
        .target(name: "AnimcTestSupport", dependencies: ["AnimcBase", "AnimcDiagnostics", "AnimcSyntax"], path: "Tests/AnimcTestSupport"),
        .testTarget(name: "AnimcBaseTests", dependencies: ["AnimcBase", "AnimcTestSupport"]),
        .testTarget(name: "AnimcSyntaxTests",
                    dependencies: ["AnimcSyntax", "AnimcDiagnostics", "AnimcBase", "AnimcTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "AnimcCheckerTests",
                    dependencies: ["AnimcChecker", "AnimcPorting", "AnimcSyntax", "AnimcIR", "AnimcDiagnostics", "AnimcBase",
                                   "AnimcDriver", "AnimcCompiler", "AnimcTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "AnimcRuntimeTests",
                    dependencies: ["AnimcRuntime", "AnimcIR", "AnimcBase", "AnimcTestSupport"]),
        .testTarget(name: "AnimcRenderTests",
                    dependencies: ["AnimcImage", "AnimcRender", "AnimcRuntime", "AnimcIR", "AnimcBase", "AnimcCompiler", "AnimcTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "AnimcBackendTests",
                    dependencies: ["AnimcTimeline", "AnimcBake", "AnimcRuntime", "AnimcIR", "AnimcBase",
                                   "AnimcDriver", "AnimcCompiler", "AnimcLottie", "AnimcDiagnostics", "AnimcTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "AnimcDriverTests",
                    dependencies: ["AnimcDriver", "AnimcCompiler", "AnimcRuntime", "AnimcIR", "AnimcBase", "AnimcDiagnostics", "AnimcSyntax",
                                   "AnimcChecker", "AnimcBake", "AnimcTimeline", "AnimcPreview", "AnimcLottie", "AnimcRender",
                                   "AnimcTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "AnimcLanguageServerTests",
                    dependencies: ["AnimcLanguageServer", "AnimcCompiler", "AnimcChecker", "AnimcSyntax", "AnimcBase",
                                   "AnimcTimeline", "AnimcTestSupport"],
                    exclude: ["Fixtures"]),
    ]
)
