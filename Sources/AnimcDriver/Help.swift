/// Usage texts. Kept beside the commands they describe and checked by tests: every
/// command has a help text and every option in a spec appears in it.
enum Help {
    static let commands = ["check", "lint", "fmt", "lsp", "parse", "build", "eval", "preview", "render", "test", "explain", "help", "version"]

    static let main = """
    animc \(CommandLineTool.version): compile .anim animations

    USAGE: animc <command> [options]

    COMMANDS:
      build FILE...          compile to timeline, baked or Lottie JSON
      check PATH...          report every diagnostic (--fix: apply the safe fixes; alias: lint)
      eval FILE --at TIME    print property values at given times
      preview FILE           write an HTML page that plays it (--serve: live)
      render FILE --at TIME  draw frames as PNG, without a browser
      test [PATH...]         run the files' test blocks: values and snapshots
      fmt PATH...            format files in place (--check: print a diff instead)
      lsp                    run the language server on stdin and stdout
      parse FILE --dump      print the syntax tree
      explain CODE           explain a diagnostic code (--list for all)
      help [COMMAND]         show help for a command
      --version              print the version

    OPTIONS OF EVERY COMMAND THAT READS FILES:
      --root DIR             the project root: imports and image files must lie inside
                             it (default: the nearest folder above the file holding
                             .animc-root, .git, .hg, .jj, .svn or Package.swift, else
                             the file's own folder; see docs/files.md)

    EXIT STATUS: 0 success, 1 findings or compile errors, 2 usage or I/O error.
    Run 'animc <command> --help' for a command's options.

    """

    static func command(_ name: String) -> String? {
        switch name {
        case "check", "lint": return check(name)
        case "parse": return parse
        case "fmt": return fmt
        case "lsp": return lsp
        case "explain": return explain
        case "build": return build
        case "eval": return eval
        case "preview": return preview
        case "render": return render
        case "test": return test
        case "help": return main
        case "version": return "USAGE: animc --version\n"
        default: return nil
        }
    }

    static func check(_ name: String) -> String {
        """
        USAGE: animc \(name) PATH... [options]

        Parse and check .anim files and report every diagnostic. Writes no output files,
        and changes none unless --fix is given. Directories are searched recursively for
        *.anim files; symbolic links are followed only when they lead to a place inside
        the directory given. Each file is checked with the files it imports; a file
        imported by several is checked once, and its findings are reported once, at its
        own path.

        OPTIONS:
          --format FORMAT   human (default, to stderr), json (JSON Lines), sarif, github
                            (machine formats go to stdout)
          --werror          treat warnings as errors (exit 1 when any warning remains)
          --color WHEN      auto (default), always or never; NO_COLOR disables auto colour
          --fix             first apply every fix-it that keeps the meaning (pasted Swift
                            and Objective-C written the .anim way, C float suffixes and
                            casts removed, bare seconds given their unit), re-checking
                            until none is left; then report what remains. Guesses (a
                            typo's closest name) are left for you. A file the fixes would
                            give more errors is left as it was.
          --dry-run         with --fix: print the changes as a unified diff and report
                            what the fixed text would leave; write nothing

        Suppress one finding with a comment on the line before it:
            // animc-ignore W0501: the flash is hidden behind the logo

        EXIT STATUS: 0 clean, 1 errors (or warnings with --werror), 2 usage or I/O error.

        """
    }

    static let fmt = """
    USAGE: animc fmt PATH... [--check] [--color WHEN]
           animc fmt - [--check]

    Rewrite .anim files in their one canonical layout (there are no style options).
    Only whitespace between tokens changes: line breaks and comments are kept, so the
    meaning is always the same. Directories are searched recursively for *.anim files.
    Files are replaced atomically and only when their layout changes. A file with
    syntax errors is left untouched and its errors are printed.

    With '-', standard input is formatted to standard output (editors pipe buffers
    this way); input with syntax errors is written back unchanged.

    OPTIONS:
      --check           change nothing; print a unified diff of what would change
      --color WHEN      auto (default), always or never, for syntax errors

    EXIT STATUS: 0 formatted (or, with --check, already formatted), 1 syntax errors
    or (with --check) files that are not formatted, 2 usage or I/O error.

    """

    static let lsp = """
    USAGE: animc lsp

    Run the Language Server Protocol 3.17 server over standard input and output (for
    editors: see editors/README.md). Diagnostics, hover (values, property facts and
    animations' intervals on the composition's timeline), completion, definition,
    references, rename, outline, semantic tokens, folding, fixes and formatting.

    """

    static let parse = """
    USAGE: animc parse FILE [--dump] [--color WHEN]

    Parse one file. With --dump, print its syntax tree (one node per line with
    line:column ranges, then its diagnostics) to stdout.

    """

    static let explain = """
    USAGE: animc explain CODE
           animc explain --list

    Print the long explanation of a diagnostic code such as E0203, or list every code
    with its severity and summary.

    """

    static let build = """
    USAGE: animc build FILE... [options]

    Compile .anim files. Diagnostics are printed; a file with errors produces no output.
    Each output is written atomically: a failure never leaves a partial file.

    OPTIONS:
      --target TARGET   timeline (default): the evaluable timeline, NAME.timeline.json
                        baked: values per frame, NAME.baked.json
                        lottie: a Lottie 1.0 file for the players apps ship,
                        NAME.lottie.json; what it samples is reported (W08xx)
      -o, --output PATH where to write: a file (one input), a directory, or - for
                        standard output; by default the output goes beside the input.
                        An output that is an input is refused; a device such as
                        /dev/null is written through; a symbolic link is followed
                        and its target replaced
      --fps N           frames per second for baking and Lottie (default: the
                        composition's fps)
      --window A..B     the time window to bake or export, in seconds: 0..3 (half-open), 0..<3,
                        or 0...3 (end included) (default: the composition's window)
      --format FORMAT   diagnostics as human (default), json, sarif or github
      --werror          treat warnings as errors (no output when any warning remains)
      --strict-lottie   with --target lottie: refuse anything not exported exactly
                        (every W08xx finding becomes an error, and no file is written)
      --events SCRIPT   send events to the file's inputs first ('tap@0.2s, level=0.5@1s'):
                        the output plays the transitions they fire
      --color WHEN      auto (default), always or never

    EXAMPLES:
      animc build examples/splash.anim
      animc build examples/splash.anim --target baked --fps 30 -o out/
      animc build examples/splash.anim --target lottie -o splash.json

    """

    static let eval = """
    USAGE: animc eval FILE --at TIMES [--at TIMES...] [options]
           animc eval FILE --times-from FILE [options]
           animc eval FILE --fraction F --animation NAME [--scrub timing|linear] [options]

    Print property values at given times: what the animated properties of every layer
    are, or every property of one layer with --layer.

    OPTIONS:
      --at TIMES          comma-separated times in seconds: 0.5, 1.5s, 250ms, or
                          ranges START..END/RATE: 0..3/60 is 60 times a second from
                          0 up to 3 s (0...3/60 includes 3); may be repeated
      --times-from FILE   times or ranges, one per line (# starts a comment);
                          samples are printed as they are computed
      --fraction F        a fraction of an animation's duration (with --animation)
      --animation NAME    the animation: its name (spin), path (looping/strokeEnd) or
                          LAYER/NAME when the name is not unique
      --scrub MODE        timing (default): the animation's timing function applies;
                          linear: the fraction is the progress, as a paused
                          UIViewPropertyAnimator shows while scrubbed
      --layer ID          only this layer (a dotted id such as logo.circle)
      --property KEYPATH  only this key path (opacity, transform.rotation.z, ...)
      --events SCRIPT     send events to the file's inputs first: 'tap@0.2s,
                          progress=0.5@1s, drag=(0, 40)@1.2s' (each fires the first
                          enabled transition; docs/language.md, States)
      --format FORMAT     human (default) or json
      --color WHEN        auto (default), always or never (for diagnostics)

    EXAMPLES:
      animc eval examples/scrub.anim --at 0,1,2
      animc eval examples/door.anim --events 'tap@0.5s, tap@0.8s' --at 0..2/10
      animc eval examples/scrub.anim --fraction 0.5 --animation spin --scrub linear

    """

    static let preview = """
    USAGE: animc preview FILE [-o PAGE.html] [options]
           animc preview FILE --serve [--port N] [options]

    Write one self-contained HTML page that plays the composition: the stage, controls
    (play, loop, speed, a scrubber by frame, arrow keys step a frame, space plays) and a
    timing chart of every animation's active and filling intervals. The values are the
    baked frames, so the page shows what 'animc eval' prints at each frame. Images
    named by the file are embedded from NAME.png (.jpg, .svg, .gif, .webp) beside it or
    in its assets/ folder; others are drawn grey, as render and the Lottie export draw
    them. Open the page at
    a time with #t=1.25.

    OPTIONS:
      -o, --output PATH   the page (default: NAME.preview.html beside the input; - for
                          standard output)
      --fps N             frames per second (default: the composition's)
      --window START..END the time range (default: the composition's window, or until
                          the last animation ends)
      --serve             serve the page on 127.0.0.1, rebuild it when the file or an
                          image changes and reload open pages (they keep their time);
                          while the file has errors the last good frames stay, with
                          the diagnostics over the stage. Ctrl-C stops.
      --port N            the port for --serve (default 8080; 0 picks a free one)
      --color WHEN        auto (default), always or never (for diagnostics)

    EXAMPLES:
      animc preview examples/splash.anim -o splash.html
      animc preview examples/splash.anim --serve --port 8123

    """

    static let render = """
    USAGE: animc render FILE --at TIME [-o FRAME.png] [options]
           animc render FILE --at START..END/FPS -o DIR/ [options]
           animc render FILE --apng ANIM.png | --gif ANIM.gif [--window A..B] [--fps N]
           animc render FILE --filmstrip N [-o STRIP.png] [--window A..B]

    Draw the composition with animc's own renderer (no browser): the layers in tree
    order, as Core Animation draws them, anti-aliased by exact area (docs/render.md lists
    what it does not draw yet). Image assets are found as the preview finds them; PNG
    and JPEG images are drawn; an image with no usable file is a grey rectangle over the
    layer's bounds, as in the preview and the Lottie export, with a warning.

    OPTIONS:
      --at TIME           one frame at a time (1.5, 1.5s, 1500ms), or a range
                          START..END/FPS of numbered PNGs (NAME-0000.png, ...) in DIR
      -o, --output PATH   the PNG (default: NAME.png beside the input), the folder for a
                          range, or the filmstrip (default: NAME.filmstrip.png)
      --apng PATH         every frame of the window as an animated PNG
      --gif PATH          every frame of the window as a GIF (one palette, at most 50 fps
                          unless --fps says otherwise; alpha is on or off)
      --dither            with --gif: ordered (Bayer) dithering
      --filmstrip N       N frames evenly spaced over the window, side by side, each
                          labelled with its time
      --window A..B       the time range for --apng, --gif, --filmstrip (default: the
                          composition's window, or until the last animation ends)
      --fps N             the frame rate for --apng, --gif, --filmstrip (default: the
                          composition's)
      --scale N           device pixels per point (default 1; 2 for Retina frames)
      --background COLOR  drawn under everything: #RRGGBB, #RRGGBBAA, white, black or
                          transparent (default: the composition's background)
      --layer ID          draw only this layer's own content (not its sublayers), at
                          its effective opacity, on transparent unless --background
      --events SCRIPT     send events to the file's inputs first ('tap@0.2s')
      --color WHEN        auto (default), always or never (for diagnostics)

    EXAMPLES:
      animc render examples/splash.anim --at 1s -o splash.png --scale 2
      animc render examples/splash.anim --at 0..3/30 -o frames/
      animc render examples/ripple.anim --gif ripple.gif
      animc render examples/ripple.anim --filmstrip 8 -o strip.png

    """

    static let test = """
    USAGE: animc test [PATH...] [options]

    Run the `test` blocks of .anim files (directories are searched for *.anim; default:
    the current directory). A test reads the composition at one time: each expectation
    `layer.keyPath: value` must hold within the test's tolerance, and a snapshot compares
    the frame animc render draws with __snapshots__/FILE-NAME.png beside the file. A failed
    snapshot writes the frame drawn (.actual.png) and its differing pixels (.diff.png)
    there. Files without tests are skipped; a file with errors fails.

        test logoShows {
          at: 0.9s
          logo.opacity: 1
          logo.square.backgroundColor: white
          snapshot: true               // or a name; pixelTolerance: 2, maxDifferingPixels: 0.1%
        }

    OPTIONS:
      --update            record the snapshots (write the goldens) instead of comparing
      --format FORMAT     human (default, to stderr), junit (JUnit XML on stdout, what CI
                          systems read) or github (workflow annotations on stdout)
      --color WHEN        auto (default), always or never (for diagnostics)

    EXIT STATUS: 0 when every test passes, 1 when one fails or a file has errors, 2 for
    usage and I/O errors.

    EXAMPLES:
      animc test examples/
      animc test examples/splash.anim --update
      animc test --format junit > report.xml

    """
}

