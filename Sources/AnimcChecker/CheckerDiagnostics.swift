import AnimcBase
import AnimcDiagnostics
import AnimcIR

/// The checker's catalogue: names, types and evaluation (E03xx), animation and timing
/// rules (E04xx), and Core Animation pitfalls (W05xx). Messages are built only here.
///
/// Please keep descriptors in code order.
public enum CheckerDiagnostics {
    // MARK: E03xx names, types, units, evaluation

    public static let unknownName = DiagnosticDescriptor(
        "E0301", "unknown-name", .error, "A name that is not defined",
        explanation: """
        The name is not a constant, timing function, path, component, parameter or loop \
        variable in scope, nor a built-in. Names are looked up in the enclosing blocks, \
        then at the top level of the file (where order does not matter). A close match \
        is suggested when there is one. (To keep checking fast, a file stops getting \
        suggestions after about two million names compared, which takes thousands of \
        misspellings among thousands of names; the messages are still reported.)

        ```
        let duration = 3s
        basic opacity { duration: duraton }   // error: did you mean 'duration'?
        ```
        """)

    public static let unknownProperty = DiagnosticDescriptor(
        "E0302", "unknown-property", .error, "A property or key path the layer does not have",
        explanation: """
        Layer properties and animation key paths are Core Animation's: `position`, \
        `bounds`, `opacity`, `transform.rotation.z`, `strokeEnd`, ... Some exist only on \
        some kinds of layer: `path`, `strokeEnd` and `lineWidth` belong to `shape` \
        layers, `colors` and `locations` to `gradient` layers. `animc explain --list` \
        does not list properties; see docs/properties.md for the full table.
        """)

    public static let typeMismatch = DiagnosticDescriptor(
        "E0303", "type-mismatch", .error, "A value of the wrong type",
        explanation: """
        Each property and attribute has a type: `opacity` takes a number, `position` a \
        point `(x, y)`, `bounds` a rect `(x, y, w, h)` or a size `w x h`, \
        `backgroundColor` a colour, `transform` a list of transform functions, \
        `timingFunction` a timing function. The message names what was expected and \
        what the expression produced.
        """)

    public static let unitMismatch = DiagnosticDescriptor(
        "E0304", "unit-mismatch", .error, "A quantity with the wrong dimension or no unit",
        explanation: """
        Times, angles and plain numbers are different dimensions. Times need `s` or \
        `ms`; angles need `deg`, `rad` or `turn`; lengths are plain numbers (points). \
        Adding a time to an angle, or giving a plain number where a time is expected, is \
        an error, because Core Animation's bare doubles hide exactly these mistakes \
        (radians where degrees were meant, milliseconds where seconds were meant).

        Arithmetic keeps dimensions: a time times a number is a time, a time divided by \
        a time is a number.
        """)

    public static let divisionByZero = DiagnosticDescriptor(
        "E0305", "division-by-zero", .error, "Division by zero in a constant expression",
        explanation: """
        Every expression is evaluated when compiling, and this one divides by zero. \
        Check the divisor; if it can legitimately be zero, guard it with a conditional.
        """)

    public static let nonFinite = DiagnosticDescriptor(
        "E0306", "non-finite-value", .error, "An expression that is NaN or infinite",
        explanation: """
        The expression evaluates to NaN (for example `sqrt(-1)`) or overflows to \
        infinity, or a property's value is written as `inf`. Only timing may be \
        infinite (`repeatCount: inf`, `repeatDuration: inf`); every other value must be a \
        finite number, which every output format can carry.
        """)

    public static let badArguments = DiagnosticDescriptor(
        "E0307", "bad-arguments", .error, "A call with the wrong arguments",
        explanation: """
        Built-in functions and components take specific arguments. `cubic` takes four \
        numbers, `rgb` three (0 to 255), `rotate` one angle, `arc` takes `center:`, \
        `radius:`, `from:`, `to:` and optionally `clockwise:`. Component arguments are \
        always labelled with the parameter names. The message says which argument is \
        missing, unexpected or of the wrong type.
        """)

    public static let duplicateDefinition = DiagnosticDescriptor(
        "E0308", "duplicate-definition", .error, "Something defined twice in the same place",
        explanation: """
        Two declarations with one name in one block, two sibling layers with one name, \
        a property or attribute set twice, or two animations with the same key on one \
        layer. Rename one; for animations on the same key path, name them with `as`:

        ```
        decay position as toss { ... }
        spring position as settle { ... }
        ```
        """)

    public static let shadowing = DiagnosticDescriptor(
        "W0309", "shadowed-name", .warning, "A declaration hides another with the same name",
        explanation: """
        A `let`, parameter or loop variable has the same name as a declaration in an \
        enclosing block or at the top level, so inside this block the outer one cannot \
        be reached. That is legal but often unintended. Rename one of them.
        """)

    public static let unusedDefinition = DiagnosticDescriptor(
        "W0310", "unused-definition", .warning, "A declaration that is never used",
        explanation: """
        A constant, timing function, path, component or component parameter is declared \
        but nothing refers to it. Remove it, or use it. Names that start with `_` are \
        exempt, for documentation-only constants.
        """)

    public static let expansionTooLarge = DiagnosticDescriptor(
        "E0311", "expansion-too-large", .error, "Loops or components expand beyond the limit",
        explanation: """
        `for` loops and component instances are expanded when compiling. The expansion \
        is capped (250,000 layers, 1,000,000 loop iterations, 5,000,000 expression \
        evaluations, where each item of a loop's body and each declaration counts as \
        one too and each layer or animation a loop or an instance makes as 16, \
        1,000,000 keyframes in one animation) so a mistake such as \
        `for i in 0 ..< 1e9` fails within a second instead of exhausting memory.
        """)

    public static let recursiveDefinition = DiagnosticDescriptor(
        "E0312", "recursive-definition", .error, "A definition that depends on itself",
        explanation: """
        A constant whose value refers back to itself (directly or through other \
        constants), or a component that instantiates itself, has no finite value.
        """)

    public static let definitionsTooDeep = DiagnosticDescriptor(
        "E0322", "definitions-too-deep", .error, "Definitions that depend on each other too many levels deep",
        explanation: """
        Constants, paths and components are evaluated on first use, following what \
        each one refers to. A chain of more than 128 of them (`a0` uses `a1`, which \
        uses `a2`, ...; or components that instantiate components 128 levels deep) is \
        almost certainly generated; it is reported once instead of exhausting the \
        stack. Break the chain, or compute the value directly.
        """)

    public static let swiftSpelling = DiagnosticDescriptor(
        "E0323", "swift-spelling", .error, "A Swift or Objective-C spelling pasted from Core Animation code",
        explanation: """
        Code ported from Core Animation brings its spellings along: `.pi`, `M_PI`, \
        `Double.infinity`, `HUGE`, `.forwards`, `kCAFillModeForwards`, \
        `CAMediaTimingFunction(name: .easeInEaseOut)`, \
        `CAMediaTimingFunction(controlPoints: ...)`, `CATransform3DMakeRotation(...)`, \
        `CGPoint(x:y:)`, `CGSize(width:height:)`, `UIColor(red:green:blue:alpha:)`, \
        `.cgColor`, `CACurrentMediaTime() + delay`, and the properties `fromValue`, \
        `toValue`, `byValue` and `isRemovedOnCompletion`. Each is reported with its \
        `.anim` form as a fix-it (`45deg` for `.pi / 4` where an angle is expected, \
        `inf`, `forwards`, `easeInEaseOut`, `cubic(...)`, `rotate(...)`, `(x, y)`, \
        `w x h`, `rgba(...)`, `from`, the delay alone: a `.anim` beginTime counts from \
        the composition's start, not the host's clock), so applying every fix-it once \
        gives a file that checks; a mistake elsewhere in the same animation hides none \
        of them. Units are \
        part of `.anim` values: an angle is `45deg` or `0.785rad`, not a bare number.
        """)

    public static let badImport = DiagnosticDescriptor(
        "E0324", "bad-import", .error, "An import of a file that cannot be imported",
        explanation: """
        `import "motion/tokens.anim"` reads the file at that path, relative to the \
        importing file's directory. The path must name an existing `.anim` file, not a \
        directory, no larger than the 8 MiB input limit; a source read from standard \
        input has no directory, so it imports nothing. Its declarations are used \
        qualified by the file's stem (`tokens.fast`), or by the name after `as`; a stem \
        that is not a name (`my-tokens.anim`) needs `as`.

        ```
        import "motion/tokens.anim"
        import "shared/my-spinners.anim" as spinners
        ```
        """)

    public static let importCycle = DiagnosticDescriptor(
        "E0325", "import-cycle", .error, "Files that import each other",
        explanation: """
        An imported file's declarations are checked before the files that import it, so \
        two files cannot import each other, directly or through others. The message \
        lists the cycle, each file with the line of its import. Move what both need \
        into a third file that both import.
        """)

    public static let importedErrors = DiagnosticDescriptor(
        "E0326", "imported-file-has-errors", .error, "An import of a file that has errors",
        explanation: """
        The imported file has errors of its own, reported at its own path; the importing \
        file cannot be built until they are fixed. The message says how many.
        """)

    public static let unknownExport = DiagnosticDescriptor(
        "E0327", "unknown-export", .error, "A qualified name the imported file does not declare",
        explanation: """
        `tokens.fast` reads the top-level declaration `fast` of the file imported as \
        `tokens`: a constant, timing function, path or component. Layers, animations \
        and the composition of an imported file are not visible. A close match among \
        the file's declarations is suggested when there is one.
        """)

    public static let valueOutOfRange = DiagnosticDescriptor(
        "E0313", "value-out-of-range", .error, "A value outside the property's valid range",
        explanation: """
        Some properties have a valid range: `opacity`, `strokeStart`, `strokeEnd` and \
        `shadowOpacity` lie in [0, 1]; `lineWidth`, `cornerRadius`, `borderWidth`, and \
        the width and height of `bounds` are not negative; `fps` is positive. A value \
        written on a layer must lie in it: Core Animation would only clamp it when \
        drawing. An animated value need not (an opacity animated from -1 stays \
        invisible for a while, a spring overshoots): it is kept as Core Animation keeps \
        it and drawn clamped (docs/semantics.md, "Values outside a property's range").
        """)

    public static let badInstance = DiagnosticDescriptor(
        "E0314", "bad-instance", .error, "An instance that does not instantiate a component",
        explanation: """
        `name = Component(args)` (or `name[i, j] = ...`) creates a layer from a \
        component. The right-hand side must call a component declared with \
        `component`, with every parameter that has no default given by label.
        """)

    public static let missingAttribute = DiagnosticDescriptor(
        "E0315", "missing-attribute", .error, "A required attribute is missing",
        explanation: """
        Some constructs need certain attributes: a composition needs `size`; a `basic` \
        animation needs at least one of `from`, `to` and `by`; a `keyframes` animation \
        needs values (rows or `values:`); a `motion` animation needs a path (`along` or \
        `path:`); a `decay` needs `velocity`.
        """)

    public static let unknownAttribute = DiagnosticDescriptor(
        "E0316", "unknown-attribute", .error, "An attribute the animation or composition does not have",
        explanation: """
        Animations take Core Animation's attributes: `beginTime`, `duration`, `speed`, \
        `timeOffset`, `repeatCount`, `repeatDuration`, `autoreverses`, `fillMode`, \
        `removedOnCompletion`, `timingFunction`, `additive`, `cumulative`, and per kind \
        `from`/`to`/`by` (basic, spring), `values`/`keyTimes`/`timingFunctions`/\
        `calculationMode` (keyframes), `rotationMode` (motion), `mass`/`stiffness`/\
        `damping`/`initialVelocity` (spring), `velocity`/`deceleration` (decay). \
        Compositions take `size`, `fps`, `window` and `backgroundColor`.
        """)

    public static let unknownLayer = DiagnosticDescriptor(
        "E0317", "unknown-layer", .error, "A layer reference that matches no layer",
        explanation: """
        `mask: name` refers to a layer declared with `mask` (for example \
        `mask layer logoMask { ... }`), looked up among the layer's own children first \
        and then outwards. A mask layer masks one layer, not one of its own ancestors, \
        and a mask may have a mask of its own as long as the chain of masks ends: two \
        masks masking each other would each hide the other, and both be dropped.
        """)

    public static let badComponent = DiagnosticDescriptor(
        "E0318", "bad-component", .error, "A component without exactly one root layer",
        explanation: """
        A component body holds declarations and exactly one layer, usually written \
        without a name (`layer { ... }`): the instance gives it its name.
        """)

    public static let misplacedDeclaration = DiagnosticDescriptor(
        "E0319", "misplaced-declaration", .error, "A declaration in the wrong place or repeated",
        explanation: """
        A file has one composition. Layers outside components need a name; only a \
        component's root layer may omit it. `presentation` is only meaningful as the \
        `from` of an animation.
        """)

    public static let indexOutOfRange = DiagnosticDescriptor(
        "E0320", "index-out-of-range", .error, "A list index outside the list",
        explanation: """
        `list[i]` needs `i` to be a whole number from 0 to the list's count minus one; \
        `list.count` gives the count. Indices do not wrap around and are not clamped.
        """)

    public static let missingComposition = DiagnosticDescriptor(
        "E0321", "missing-composition", .error, "The file has no composition",
        explanation: """
        Every file declares its canvas:

        ```
        composition Splash {
          size: 375 x 667
          fps: 60
        }
        ```
        """)

    // MARK: E04xx animation and timing

    public static let keyTimesCount = DiagnosticDescriptor(
        "E0401", "key-times-count", .error, "keyTimes and values have different counts",
        explanation: """
        In `linear` and `cubic` modes there is one key time per value; in `discrete` \
        mode there is one more key time than values (each value holds from its key time \
        to the next). Core Animation ignores mismatched arrays without a word; animc \
        reports them. The keyframe-row form (`0.5 = value`) cannot get this wrong.
        """)

    public static let keyTimesOrder = DiagnosticDescriptor(
        "E0402", "key-times-order", .error, "keyTimes that decrease",
        explanation: """
        Key times must not decrease: each is the fraction of the duration at which its \
        value is reached. Equal neighbours make an instant jump.
        """)

    public static let keyTimesRange = DiagnosticDescriptor(
        "E0403", "key-times-range", .error, "A key time outside [0, 1]",
        explanation: """
        Key times are fractions of the animation's duration, from 0 (`0%`) to 1 \
        (`100%`). To start a keyframe animation later, use `beginTime`.
        """)

    public static let keyTimesEnds = DiagnosticDescriptor(
        "E0404", "key-times-ends", .error, "keyTimes that do not start at 0 and end at 1",
        explanation: """
        In keyframe rows, the first key time must be 0 and, except in `discrete` mode, \
        the last must be 1: write the hold before or after as a row of its own. (Pasted \
        `keyTimes` arrays that do not span 0 to 1 are accepted with warning W0422: the \
        end values hold, as Core Animation plays them.)
        """)

    public static let keyTimesShort = DiagnosticDescriptor(
        "W0422", "key-times-short", .warning, "keyTimes that do not start at 0 or end at 1",
        explanation: """
        Apple's documentation asks for key times from 0 to 1, but Core Animation plays \
        others, and real code has them (`keyTimes = [0, 0.7]` to reach the end at 70% \
        of the duration): the first value holds until the first key time and the last \
        value holds after the last. animc accepts them in the array form with this \
        warning and plays them that way. In the row form, write the hold as a row.
        """)

    public static let timingFunctionsCount = DiagnosticDescriptor(
        "E0405", "timing-functions-count", .error, "timingFunctions does not have one entry per segment",
        explanation: """
        In the row form the curve of a segment follows `~` on the row that starts the \
        segment, so the last row, which starts no segment, can have none. (The array \
        form accepts other counts with warning W0421.)
        """)

    public static let timingFunctionsCountMismatch = DiagnosticDescriptor(
        "W0421", "timing-functions-count-mismatch", .warning, "timingFunctions with more or fewer entries than segments",
        explanation: """
        `timingFunctions` should hold one curve per segment, one fewer than the values \
        (Apple: "this property should contain n-1 objects"). Core Animation accepts \
        other counts, and ported code often has one, so animc does too: entries past \
        the last segment are ignored, and segments without an entry are linear, the \
        pacing of a segment when there are no timing functions at all. The fix-it \
        writes that out.
        """)

    public static let pacedIgnores = DiagnosticDescriptor(
        "W0406", "paced-ignores-timing", .warning, "keyTimes or timingFunctions in a paced animation",
        explanation: """
        In `paced` and `cubicPaced` modes Core Animation computes the key times from the \
        distances between values and ignores `keyTimes` and `timingFunctions`. animc \
        ignores them too and warns, because the author evidently expected them to \
        matter. Remove them or choose `linear` or `cubic` mode.
        """)

    public static let cubicControlRange = DiagnosticDescriptor(
        "E0407", "cubic-control-range", .error, "A cubic timing function with x outside [0, 1]",
        explanation: """
        The x coordinates of a cubic timing function's control points are times and \
        must lie in [0, 1], or the curve would go back in time (CSS rejects them too). \
        y values may overshoot: `cubic(0.68, -0.55, 0.265, 1.55)` is fine.
        """)

    public static let negativeDuration = DiagnosticDescriptor(
        "E0408", "bad-duration", .error, "A negative duration",
        explanation: """
        Durations cannot be negative. (A duration of 0 is Core Animation's default, \
        0.25 s or the group's duration, with warning W0510.)
        """)

    public static let negativeRepeat = DiagnosticDescriptor(
        "E0409", "negative-repeat", .error, "A negative repeatCount or repeatDuration",
        explanation: """
        `repeatCount` counts cycles (fractions allowed, `inf` forever) and \
        `repeatDuration` is a time; neither can be negative.
        """)

    public static let repeatConflict = DiagnosticDescriptor(
        "E0410", "repeat-conflict", .error, "Both repeatCount and repeatDuration",
        explanation: """
        Core Animation documents the combination as undefined. Use one: `repeatCount` \
        for a number of cycles, `repeatDuration` for a total time.
        """)

    public static let keyframeForms = DiagnosticDescriptor(
        "E0411", "keyframe-forms", .error, "Keyframe rows mixed with values arrays, or too few keyframes",
        explanation: """
        Keyframes are written either as rows (`0.5 = value ~ timing`) or as arrays \
        (`values:`, `keyTimes:`, `timingFunctions:`), not both. A keyframe animation \
        needs at least one value.
        """)

    public static let pathStructure = DiagnosticDescriptor(
        "E0412", "path-structure", .error, "Morphing between values with different structure",
        explanation: """
        A path interpolates point by point, so every path in one animation must have \
        the same elements in the same order (move, line, curve, arc, close). The same \
        holds for lists such as `lineDashPattern` and gradient `colors`: equal counts.
        """)

    public static let notInterpolatable = DiagnosticDescriptor(
        "E0413", "not-interpolatable", .error, "Interpolating a property whose values only switch",
        explanation: """
        Booleans (`hidden`, `doubleSided`), enumerations (`lineCap`) and images \
        (`contents`) have no values in between. Animate them with keyframes in \
        `calculationMode: discrete`, where each value holds until the next key time.
        """)

    public static let notAdditive = DiagnosticDescriptor(
        "E0414", "not-additive", .error, "additive or cumulative on a type without addition",
        explanation: """
        `additive` adds the animated value to the value below it and `cumulative` adds \
        each cycle's end value; both need a "+" for the type. Numbers, points, sizes, \
        rects, colours and transforms have one; paths, images, booleans and \
        enumerations do not.
        """)

    public static let motionTarget = DiagnosticDescriptor(
        "E0415", "motion-target", .error, "A motion along a path on a non-point key path",
        explanation: """
        Motion along a path animates a point: `position` (or `anchorPoint`). \
        `rotationMode` only exists on motion animations.
        """)

    public static let springParameters = DiagnosticDescriptor(
        "E0416", "spring-parameters", .error, "Spring parameters out of range",
        explanation: """
        A spring needs `mass > 0`, `stiffness > 0` and `damping >= 0`; with \
        `perceptualDuration:` the duration must be positive and `bounce` lie in \
        (-1, 1).
        """)

    public static let decayParameters = DiagnosticDescriptor(
        "E0417", "decay-parameters", .error, "A decay rate outside (0, 1)",
        explanation: """
        `deceleration` is the fraction of velocity kept per millisecond, as \
        UIScrollView's deceleration rate: 0.998 is normal, 0.99 fast. It must be \
        strictly between 0 and 1.
        """)

    public static let stepsCount = DiagnosticDescriptor(
        "E0418", "steps-count", .error, "steps() with too few steps",
        explanation: """
        `steps(n)` needs at least one step, and `steps(n, jumpNone)` at least two, \
        because jumpNone holds both the first and the last value for a step each.
        """)

    public static let springTiming = DiagnosticDescriptor(
        "E0419", "spring-timing-function", .error, "A timing function on a spring or decay",
        explanation: """
        A spring's or decay's progress comes from its physics. Whether Core Animation \
        applies a `timingFunction` on top is undocumented, so animc does not allow one.
        """)

    public static let presentationMisuse = DiagnosticDescriptor(
        "E0420", "presentation-misuse", .error, "presentation used where it has no meaning",
        explanation: """
        `presentation` stands for the value a property shows just before an animation \
        begins (what `layer.presentation()` returns in Core Animation). It can only be \
        the `from` of a basic, spring or decay animation.
        """)

    // MARK: W05xx pitfalls

    public static let delayedChildFlash = DiagnosticDescriptor(
        "W0501", "delayed-child-flash", .warning, "A delayed child in a group shows the model value first",
        explanation: """
        A child animation with a `beginTime` inside its group contributes nothing until \
        it begins, so the layer shows its model value until then and jumps when the \
        child starts: a flash. Give the child `fillMode: backwards` (or `both`) so its \
        first value shows during the delay, or make the model value equal to it.
        """)

    public static let fillWithoutKeep = DiagnosticDescriptor(
        "W0502", "fill-forwards-removed", .warning, "fillMode forwards with removedOnCompletion left true",
        explanation: """
        `fillMode: forwards` is meant to hold the end value after the animation, but \
        Core Animation removes a finished animation unless `removedOnCompletion` is \
        false, so nothing is held and the model value snaps back. Set \
        `removedOnCompletion: false`, or set the model value to the end value.
        """)

    public static let childPastGroup = DiagnosticDescriptor(
        "W0503", "child-past-group", .warning, "A child runs past the end of its group",
        explanation: """
        Children are clipped to their group's duration, not scaled: a 4 s child in a \
        3 s group shows only its first 3 s. Lengthen the group or shorten the child.
        """)

    public static let firstKeyframePop = DiagnosticDescriptor(
        "W0504", "first-value-pop", .warning, "A delayed animation starts from a value other than the model value",
        explanation: """
        The animation starts after a delay without filling backwards, so before it \
        starts the layer shows its model value, and at the start it jumps to the \
        animation's first value: a pop. Set the model value to the first value, or add \
        `fillMode: backwards`. An animation with a `timeOffset` starts part way through, \
        not from its first value; it is not checked.
        """)

    public static let matrixTurn = DiagnosticDescriptor(
        "W0505", "matrix-turn", .warning, "A transform interpolated as matrices turns 180 degrees or more",
        explanation: """
        An animation of a whole `transform` interpolates matrices, as Core Animation \
        does with `CATransform3D` values, whatever functions wrote them; matrix \
        interpolation takes the shortest rotation, so a step written to turn 180 \
        degrees or more goes the other way or not at all (`rotate(0deg)` to \
        `rotate(360deg)` does nothing). Animate `transform.rotation.z` (or `.x`, `.y`), \
        which interpolates the angle itself; split the turn into keyframes less than \
        180 degrees apart; or add `interpolation: functions` to interpolate matching \
        function lists argument by argument, as CSS does.
        """)

    public static let infiniteWithoutWindow = DiagnosticDescriptor(
        "W0506", "infinite-without-window", .warning, "An animation repeats forever and the composition has no window",
        explanation: """
        A bake samples the composition's `window`. With an animation that never ends and \
        no window, there is no last frame, so `animc build --target baked` refuses. Add \
        `window: 0s ..< 3s` (for example one cycle) to the composition.
        """)

    public static let neverActive = DiagnosticDescriptor(
        "W0507", "never-active", .warning, "An animation that never plays",
        explanation: """
        The animation's active interval lies entirely outside its parent's: a child that \
        begins at or after its group's end, or an animation that begins after the \
        composition's window. Nothing of it is ever seen.
        """)

    public static let fightingAnimations = DiagnosticDescriptor(
        "W0508", "fighting-animations", .warning, "Two non-additive animations of one property overlap",
        explanation: """
        Animations apply in the order they are added and a non-additive one replaces the \
        value below it, so while both run only the later one is seen. If that is \
        intended (a handoff), end the first when the second begins; if the second \
        should add to the first, make it `additive: true`.
        """)

    public static let noVisibleEffect = DiagnosticDescriptor(
        "W0509", "no-visible-effect", .warning, "An animation whose values never change",
        explanation: """
        Every value of the animation is equal (from equals to, or all keyframes are the \
        same), so it changes nothing while it runs.
        """)

    public static let defaultDuration = DiagnosticDescriptor(
        "W0510", "default-duration", .warning, "An animation without a duration gets Core Animation's 0.25 s",
        explanation: """
        Core Animation replaces a zero duration with 0.25 s when an animation is added to \
        a layer (inside a group, with the group's duration). animc does the same for an \
        animation without a duration or with `duration: 0`, and warns, because an \
        animation that lasts a quarter of a second by accident is a common surprise. \
        Write `duration:`.
        """)

    public static let unusedMask = DiagnosticDescriptor(
        "W0511", "unused-mask", .warning, "A mask layer no layer uses",
        explanation: """
        A layer declared with `mask` is not drawn by itself; it only matters when some \
        layer names it in `mask:`. This one is never named.
        """)

    public static let surprisingTransform = DiagnosticDescriptor(
        "W0512", "surprising-transform", .warning, "A transform Core Animation accepts that rarely means what it says",
        explanation: """
        Core Animation accepts these, and so does animc, but their result surprises: \
        a rotation about the zero axis (`rotate3d((0, 0, 0), 45deg)`, which \
        `CATransform3DMakeRotation` turns into the identity), and a perspective with a \
        negative distance (a positive `m34`, as some ports set `m34 = 1.0 / 120`), \
        which makes far things larger instead of smaller. If that is what you meant \
        (the spinner looks right), silence the warning with \
        `// animc-ignore W0512: reason`.
        """)

    public static let springCutOff = DiagnosticDescriptor(
        "W0513", "spring-cut-off", .warning, "A spring stopped while it is still moving",
        explanation: """
        A spring's duration defaults to its settling time. Given a shorter duration, or \
        clipped by the end of its group, it stops early, and when it is removed the \
        value jumps the rest of the way: visible when more than a point remains (for \
        positions and sizes) or more than 1% of the travel (for other values). Let it \
        run its settling time (the spring's `end` can start what follows: \
        `beginTime: settle.end`), or make it stiffer or more damped.
        """)

    public static let groupTimingOvershoot = DiagnosticDescriptor(
        "W0514", "group-timing-overshoot", .warning, "A group timing function that leaves [0, 1]",
        explanation: """
        A group's timing function warps the time its children see: `groupTime = \
        duration · f(progress)`. A curve whose y leaves [0, 1] (`cubic(0.5, 0, 0.5, \
        1.5)`) gives times before 0 and past the duration. Core Animation does not say \
        what then happens; animc does not clamp: the children are evaluated at those \
        times, so one that has ended (and does not fill forwards) shows the model value \
        while the curve overshoots, and one still active continues past its keyframes' \
        times. Put the overshooting curve on the children's animations instead, where \
        it overshoots their values.
        """)

    public static let layerRepeatWithoutDuration = DiagnosticDescriptor(
        "W0515", "layer-repeat-without-duration", .warning, "A layer that repeats or reverses without a duration",
        explanation: """
        A layer is `CAMediaTiming` too: with a `duration`, its time runs through passes \
        as an animation's does (`repeatCount`, `repeatDuration`, `autoreverses`), and \
        every animation on it and below it replays each pass. A layer's duration is 0 \
        by default, which means no passes: then its repeats and `autoreverses` do \
        nothing, in Core Animation and here. Give the layer a duration, or remove them.
        """)

    public static let replicator = DiagnosticDescriptor(
        "E0328", "replicator", .error, "A replicator's copies that cannot be made",
        explanation: """
        A `replicator` (CAReplicatorLayer) draws its sublayers `instanceCount` times: copy \
        k is turned by `instanceTransform` k times about the replicator's centre, runs \
        `k × instanceDelay` late, is faded by `1 + k × instanceAlphaOffset`, and has its \
        red, green and blue multiplied by `instanceColor`'s plus k times the red, green \
        and blue offsets. `instanceCount` is a whole number, 0 or more (0 draws no \
        sublayer). Refused rather than drawn wrong: a tint on image contents (only \
        colours are multiplied), a tint on a colour animation whose values can leave \
        0...1 (additive, cumulative, a spring or decay, cubic or paced keyframes, a \
        timing curve that overshoots: the renderer clamps before the tint, Core \
        Animation after), and an `instanceColor` alpha other than 1 (it fades copy 0, \
        which has no layer of its own to carry the opacity).
        """)

    public static let importOutsideProject = DiagnosticDescriptor(
        "E0329", "import-outside-project", .error, "An import of a file outside the project",
        explanation: """
        Every file a source imports must lie inside its project root, by real path \
        (symbolic links resolved): `import "/etc/passwd.anim"`, `import \
        "../../elsewhere.anim"` or a link to a file outside are refused before the file \
        is read, so that checking an untrusted file, or opening it in an editor, reads \
        nothing outside its project. The root is the folder given by `--root`, else the \
        editor's workspace folder, else the nearest folder above the checked file \
        holding `.animc-root`, `.git`, `.hg`, `.jj`, `.svn` or `Package.swift`, else the \
        checked file's own folder (docs/files.md). Move the file into the project, or \
        put an empty `.animc-root` file in the folder that holds both.
        """)

    public static let badInteraction = DiagnosticDescriptor(
        "E0330", "bad-interaction", .error, "An input, state or transition that cannot be made",
        explanation: """
        `input name: type` declares what an app (or an event script) sends: `trigger` \
        (an event with no value), `bool`, `number` (optionally `in lo ... hi`, values \
        outside are clamped) or `point`, each with an optional default. `state name { \
        layer.keyPath: value ... }` lists the model values of layers in that state; the \
        first state is the initial one and the layers show its values from the start. \
        `on input (if condition)? from a, b -> c (with duration? timing)?` moves from any \
        of the listed states to `c` when the input's event arrives and the condition \
        (over the inputs' values) holds; the first enabled transition fires.

        Refused: an unknown input or state, a second declaration of a name, a default \
        of the wrong type, a key path whose values do not add (a transition runs the \
        change as an additive animation from the old value to the new, as UIKit does \
        since iOS 8: numbers, points, sizes, rects and colours), a condition that is not \
        a boolean over inputs and constants, and a timing that is not a duration or a \
        timing function.

        ```
        input tap: trigger
        state closed { card.position: (100, 150) }
        state opened { card.position: (100, 50) }
        on tap from closed -> opened with 0.3s easeOut
        on tap from opened -> closed with spring(stiffness: 200, damping: 20)
        ```
        """)

    public static let idleInteraction = DiagnosticDescriptor(
        "W0516", "idle-interaction", .warning, "A state no transition reaches, or a transition that changes nothing",
        explanation: """
        A state other than the first that no transition goes to can never be shown, and \
        a transition from a state to itself changes no value (under the additive model \
        it adds nothing). Either is usually a misspelt name or a transition left behind \
        by an edit.
        """)

    /// Every checker descriptor, in code order.
    public static let all: [DiagnosticDescriptor] = [
        unknownName, unknownProperty, typeMismatch, unitMismatch, divisionByZero, nonFinite, badArguments,
        duplicateDefinition, shadowing, unusedDefinition, expansionTooLarge, recursiveDefinition, valueOutOfRange,
        badInstance, missingAttribute, unknownAttribute, unknownLayer, badComponent, misplacedDeclaration,
        indexOutOfRange, missingComposition, definitionsTooDeep, swiftSpelling, badImport, importCycle, importedErrors, unknownExport,
        keyTimesCount, keyTimesOrder, keyTimesRange, keyTimesEnds, timingFunctionsCount, pacedIgnores,
        timingFunctionsCountMismatch, keyTimesShort,
        cubicControlRange, negativeDuration, negativeRepeat, repeatConflict, keyframeForms, pathStructure,
        notInterpolatable, notAdditive, motionTarget, springParameters, decayParameters, stepsCount, springTiming,
        presentationMisuse,
        delayedChildFlash, fillWithoutKeep, childPastGroup, firstKeyframePop, matrixTurn, infiniteWithoutWindow,
        neverActive, fightingAnimations, noVisibleEffect, defaultDuration, unusedMask, surprisingTransform, springCutOff,
        groupTimingOvershoot, layerRepeatWithoutDuration, replicator, importOutsideProject, badInteraction, idleInteraction,
    ]
}
