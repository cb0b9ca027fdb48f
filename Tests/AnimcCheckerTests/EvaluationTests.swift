import AnimcBase
import Foundation
import AnimcChecker
import AnimcCompiler
import AnimcDriver
import AnimcIR
import AnimcTestSupport
import Testing

/// Compile-time evaluation: units, dimensions, built-ins, loops, components.
@Suite struct EvaluationTests {
    /// The model value `property` gets on layer `box` when set to `expression`.
    func value(_ expression: String, property: String = "zPosition", prelude: String = "") -> (Value?, [String]) {
        let text = "composition { size: 10 x 10 }\n\(prelude)\nlayer box {\n  \(property): \(expression)\n}\n"
        let result = Pipeline.compile(SourceFile(name: "t.anim", text: text))
        let codes = result.diagnostics.map(\.code.rawValue)
        guard let c = result.composition, let id = PropertyID(rawValue: property) else { return (nil, codes) }
        return (c.layers[0].modelValue(id), codes)
    }

    func number(_ expression: String, prelude: String = "") -> Double? {
        if case .number(let x)? = value(expression, prelude: prelude).0 { return x }
        return nil
    }

    /// `rgb`, `rgba` and `cubic` with plain literals take a shortcut past argument
    /// binding (`literalColorOrCurve`). Each is compared with the same call written so
    /// that it goes the general way (an argument `+ 0`): the same value, bit for bit,
    /// and the same diagnostics where a value is out of range.
    @Test func literalColorsAndCurvesAreTheGeneralPathsValues() throws {
        let calls = ["rgb(12, 78, 101)", "rgb(0, 0, 0)", "rgb(255, 255, 255)", "rgb(0.5, 254.75, 3)", "rgba(12, 78, 101, 0.5)",
                     "rgba(1, 2, 3, 1)", "rgba(1, 2, 3, 0)", "rgb(256, 0, 0)", "rgb(1, 2)", "rgba(1, 2, 3, 1.5)", "rgb(1pt, 2, 3)",
                     "rgb(1, 2, 3s)"]
        for call in calls {
            let general = call.replacingOccurrences(of: ")", with: " + 0)")
            let (a, codesA) = value(call, property: "backgroundColor")
            let (b, codesB) = value(general, property: "backgroundColor")
            #expect(codesA == codesB, "\(call): \(codesA) against \(codesB)")
            if case .color(let x)? = a, case .color(let y)? = b {
                #expect([x.red, x.green, x.blue, x.alpha].map(\.bitPattern) == [y.red, y.green, y.blue, y.alpha].map(\.bitPattern), "\(call)")
            } else {
                #expect(a == nil && b == nil, "\(call): \(String(describing: a)) against \(String(describing: b))")
            }
        }
        let curves = ["cubic(0.25, 0.1, 0.25, 1)", "cubic(0, 0, 1, 1)", "cubic(1, -2, 0, 3)", "cubic(1.5, 0, 0, 1)", "cubic(0, 0, 1)"]
        for curve in curves {
            let text = { (c: String) in
                "composition { size: 10 x 10 }\nlayer box {\n  keyframes opacity {\n    duration: 1s\n    0 = 0 ~ \(c)\n    1 = 1\n  }\n}\n"
            }
            let a = Pipeline.compile(SourceFile(name: "t.anim", text: text(curve)))
            let b = Pipeline.compile(SourceFile(name: "t.anim", text: text(curve.replacingOccurrences(of: ")", with: " + 0)"))))
            #expect(a.diagnostics.map(\.code) == b.diagnostics.map(\.code), "\(curve)")
            // The animations' ranges differ by the inserted text; their contents must not.
            #expect(a.composition?.layers.first?.animations.map(\.kind) == b.composition?.layers.first?.animations.map(\.kind), "\(curve)")
        }
    }

    /// A layer's id is its parent's and its name, dotted: through instances, nested
    /// sublayers, and masks, whose id is the masked layer's and whose sublayers keep the
    /// id their declaration gives them. Written out by hand.
    @Test func layerIDsFollowTheirParents() throws {
        let text = """
            composition { size: 100 x 100 }
            component Pin(at: Point) {
              layer {
                position: at
                layer head { bounds: 2 x 2 }
              }
            }
            layer outer {
              layer middle {
                layer inner { bounds: 1 x 1 }
                pin[0] = Pin(at: (1, 1))
                pin[1] = Pin(at: (2, 1))
              }
              mask layer shape {
                bounds: 10 x 10
                mask: cut
                layer part { bounds: 5 x 5 }
                mask layer cut { bounds: 3 x 3 }
              }
              layer masked {
                mask: shape
                bounds: 4 x 4
                layer under { bounds: 1 x 1 }
              }
            }
            layer top[2] { bounds: 1 x 1 }

            """
        let result = Pipeline.compile(SourceFile(name: "ids.anim", text: text))
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics.map(\.message))")
        let ids = result.composition?.layers.map(\.id) ?? []
        #expect(ids == ["outer", "outer.middle", "outer.middle.inner", "outer.middle.pin[0]", "outer.middle.pin[0].head",
                        "outer.middle.pin[1]", "outer.middle.pin[1].head", "outer.masked", "outer.masked.shape",
                        "outer.masked.shape.cut", "outer.shape.part", "outer.masked.under", "top[2]"], "\(ids)")
    }

    /// A parameter that shadows a name is reported once, at the parameter, however many
    /// instances there are; later instances do not look the name up again, but one
    /// whose arguments failed never counted as having done so.
    @Test func aShadowingParameterIsReportedOnce() throws {
        let text = """
            composition { size: 100 x 100 }
            let at = (0, 0)
            component Dot(at: Point, size: Number) {
              layer { position: at
                bounds: size x size }
            }
            layer row {
              for i in 0 ..< 4 {
                dot[i] = Dot(at: i == 0 ? 1 : (i, 0), size: 2)
              }
            }

            """
        let result = Pipeline.compile(SourceFile(name: "shadow.anim", text: text))
        let shadowing = result.diagnostics.filter { $0.code.rawValue == "W0309" }
        let parameter = try #require(text.range(of: "at: Point"))
        let start = UInt32(text.utf8.distance(from: text.startIndex, to: parameter.lowerBound))
        #expect(shadowing.map(\.range.start) == [start], "\(result.diagnostics.map { "\($0.code.rawValue) \($0.message)" })")
        // The first instance's argument is a number where a point goes.
        #expect(result.diagnostics.filter { $0.severity == .error }.count == 1)
        #expect(result.composition == nil || result.composition?.layers.count == 4)
    }

    /// Indexed names are written as `formatNumber` writes whole numbers: negative
    /// indices with their sign, -0 as 0, fifteen digits, and any base name, short or long.
    @Test func indexedLayerNames() throws {
        let text = """
        composition { size: 10 x 10 }
        for i in -2 ... 2 {
          layer d[i, i * 123456789012345, -0.0 * i, 1e14] { opacity: 0.5 }
        }
        layer aVeryLongLayerNameThatIsNotSmall[3] { opacity: 1 }
        """
        let result = Pipeline.compile(SourceFile(name: "t.anim", text: text))
        let c = try #require(result.composition)
        var expected: [String] = []
        for i in -2...2 {
            let parts = [Double(i), Double(i) * 123456789012345, 0, 1e14].map(formatNumber)
            expected.append("d[" + parts.joined(separator: ",") + "]")
        }
        expected.append("aVeryLongLayerNameThatIsNotSmall[3]")
        #expect(c.layers.map(\.id) == expected)
        #expect(expected[0] == "d[-2,-246913578024690,0,100000000000000]")
    }

    @Test func arithmeticAndPrecedence() {
        #expect(number("1 + 2 * 3 - 4 / 2") == 5)
        #expect(number("(1 + 2) * 3") == 9)
        #expect(number("-2 * -3") == 6)
        #expect(number("50% * 4") == 2)
        #expect(number("2 > 1 && 3 <= 3 ? 7 : 8") == 7)
        #expect(number("max(1, 5, 3) + min(4, 2) + abs(-1)") == 8)
        #expect(number("floor(2.7) + ceil(2.1) + round(2.5)") == 8)
        #expect(number("mod(7, 3) + mod(-1, 3)") == 3)
        // C's fmod: the dividend's sign (fmod(-2.5, 1) is -0.5; fmod(7.5, -2) is 1.5).
        #expect(number("rem(-2.5, 1)") == -0.5)
        #expect(number("rem(7.5, -2)") == 1.5)
        #expect(number("rem(-1, 3)") == -1)
        #expect(number("clamp(12, 0, 10) + lerp(0, 10, 0.25)") == 12.5)
        #expect(number("length((3, 4)) + distance((0, 0), (6, 8))") == 15)
        #expect(number("[10, 20, 30][2] + [1, 2].count") == 32)
        #expect(number("(3, 4).y") == 4)
    }

    /// concat(a, b) is CATransform3DConcat(a, b): a applies first. The origin moves by
    /// 10, then doubles: m41 = 20. Side by side, `a b` applies b first, as in CSS.
    @Test func concatAppliesItsFirstArgumentFirst() {
        func m41(_ expression: String) -> Double? {
            guard case .transform(let t)? = value(expression, property: "transform").0 else { return nil }
            // The row-vector matrix of the list: apply each function to the origin, right to left.
            var point = (0.0, 0.0)
            for f in t.functions.reversed() {
                switch f {
                case .translate(let x, let y, _): point = (point.0 + x, point.1 + y)
                case .scale(let x, let y, _): point = (point.0 * x, point.1 * y)
                default: return nil
                }
            }
            return point.0
        }
        #expect(m41("concat(translate(10, 0), scale(2))") == 20)
        #expect(m41("concat(scale(2), translate(10, 0))") == 10)
        #expect(m41("concat(translate(1, 0), scale(3), translate(5, 0))") == 8)
        #expect(m41("translate(10, 0) scale(2)") == 10)
    }

    /// Static arithmetic is exact for decimal inputs: what the author computes compares
    /// equal to what the author writes (`1s + 0.3s` is `1.3s`), rounded once.
    @Test func arithmeticIsExactForDecimals() {
        #expect(number("0.1 + 0.2") == 0.3)
        #expect(number("1 + 0.3") == 1.3)
        #expect(number("1.3 - 1") == 0.3)
        #expect(number("3 * 0.1") == 0.3)
        #expect(number("0.3 / 0.1") == 3)
        #expect(number("0.7 * 3") == 2.1)
        #expect(number("(1s + 0.3s) / 1s") == 1.3)
        #expect(number("300ms / 1s") == 0.3)
        #expect(number("15%") == 0.15)
        // Not a terminating decimal: the floating-point quotient.
        #expect(number("1 / 3") == 1.0 / 3.0)
        #expect(number("1e300 * 1e-300") == 1)
        #expect(number("123456789.123456789 + 1") == 123456789.123456789 + 1)
    }

    @Test func unitsConvertToSecondsAndRadians() {
        #expect(number("3s / 1.5s") == 2)
        #expect(number("(500ms + 0.5s) / 1s") == 1)
        #expect(abs(number("(180deg + 0.5turn) / 1rad")! - 2 * .pi) < 1e-12)
        #expect(abs(number("sin(90deg)")! - 1) < 1e-15)
        #expect(abs(number("atan2(1, 1) / 1deg")! - 45) < 1e-12)
    }

    @Test func dimensionsAreChecked() {
        #expect(value("2s + 45deg").1 == ["E0304"])
        #expect(value("1 / 0").1 == ["E0305"])
        #expect(value("sqrt(-1)").1 == ["E0306"])
        #expect(value("1e300 * 1e300").1 == ["E0306"])
        #expect(value("3", property: "opacity").1.isEmpty == false)  // 3 is outside [0, 1]
        #expect(value("(1, 2)").1 == ["E0303"])
        #expect(value("nope").1 == ["E0301"])
    }

    @Test func aTimeWhereAnAngleIsExpectedIsAnError() {
        let (_, codes) = value("rotate(2s)", property: "transform")
        #expect(codes == ["E0304"])
        let (_, bare) = value("rotate(45)", property: "transform")
        #expect(bare == ["E0304"])
    }

    @Test func sizesRectsAndPoints() {
        #expect(value("50 x 20", property: "bounds").0 == .rect(Rect(0, 0, 50, 20)))
        #expect(value("(1, 2, 3, 4)", property: "bounds").0 == .rect(Rect(1, 2, 3, 4)))
        #expect(value("(1, 2) + (10, 20) * 2", property: "position").0 == .point(Point(21, 42)))
    }

    @Test func coloursAndStrings() {
        #expect(value("rgb(255, 0, 0)", property: "backgroundColor").0 == .color(Color(red: 1, green: 0, blue: 0)))
        #expect(value("#00FF0080", property: "backgroundColor").0 == .color(Color(red: 0, green: 1, blue: 0, alpha: 128.0 / 255)))
        #expect(value("image(\"card-\" + (1 + 1))", property: "contents").0 == .image("card-2"))
        #expect(value("rgb(300, 0, 0)", property: "backgroundColor").1 == ["E0313"])
    }

    /// UIColor(hue:saturation:brightness:alpha:) by the HSV model, worked by hand: hue
    /// 0.25 is sector 1 at f = 0.5, so (v(1 − s·f), v, v(1 − s)) = (0.6, 0.8, 0.4).
    @Test func hsbColoursAndAlphaReplaced() {
        func colour(_ text: String) -> [Double]? {
            guard case .color(let c)? = value(text, property: "backgroundColor").0 else { return nil }
            return [c.red, c.green, c.blue, c.alpha]
        }
        func close(_ a: [Double]?, _ b: [Double]) -> Bool { a.map { zip($0, b).allSatisfy { abs($0 - $1) < 1e-12 } } ?? false }
        #expect(close(colour("hsba(0.25, 0.5, 0.8, 1)"), [0.6, 0.8, 0.4, 1]))
        #expect(close(colour("hsb(0.5, 1, 1)"), [0, 1, 1, 1]))      // cyan
        #expect(close(colour("hsb(1, 1, 1)"), [1, 0, 0, 1]))        // a whole turn: red again
        #expect(close(colour("hsb(0.3, 0, 0.7)"), [0.7, 0.7, 0.7, 1]))  // no saturation: grey
        #expect(close(colour("withAlpha(rgba(51, 102, 153, 1), 0.5)"), [0.2, 0.4, 0.6, 0.5]))
        #expect(close(colour("withAlpha(black, 0.3)"), [0, 0, 0, 0.3]))
        #expect(value("hsb(1.5, 1, 1)", property: "backgroundColor").1 == ["E0313"])
    }

    @Test func transformsKeepTheirFunctionList() {
        let (v, codes) = value("rotate(-45deg) scale(0.25)", property: "transform")
        #expect(codes.isEmpty)
        guard case .transform(let t)? = v else { Issue.record("not a transform"); return }
        #expect(t.functions.count == 2)
        #expect(t.functions[1] == .scale(x: 0.25, y: 0.25, z: 1))
    }

    @Test func letsAreOrderIndependentAndCyclesAreReported() {
        #expect(number("a", prelude: "let a = b * 2\nlet b = 3") == 6)
        #expect(value("a", prelude: "let a = b\nlet b = a").1.contains("E0312"))
    }

    @Test func loopsExpandWithTheFirstBindingSlowest() {
        let text = """
        composition { size: 10 x 10 }
        component Dot(at: Point) { layer { position: at } }
        layer grid {
          for r in 0 ..< 2, c in [5, 6] {
            dot[r, c] = Dot(at: (c, r))
          }
        }
        """
        let result = Pipeline.compile(SourceFile(name: "t.anim", text: text))
        #expect(result.diagnostics.isEmpty)
        #expect(result.composition?.layers.map(\.id) == ["grid", "grid.dot[0,5]", "grid.dot[0,6]", "grid.dot[1,5]", "grid.dot[1,6]"])
    }

    @Test func componentsAreLexicallyScoped() {
        let text = """
        composition { size: 10 x 10 }
        let s = 5
        component Box() { layer { cornerRadius: s } }
        layer grid {
          let s = 9
          b = Box()
        }
        """
        let result = Pipeline.compile(SourceFile(name: "t.anim", text: text))
        #expect(result.composition?.layers[1].modelValue(.cornerRadius) == .number(5))
    }

    @Test func aComponentThatContainsItselfIsReported() {
        let text = "composition { size: 10 x 10 }\ncomponent A() { layer { inner = A() } }\nlayer root { a = A() }\n"
        let codes = Pipeline.compile(SourceFile(name: "t.anim", text: text)).diagnostics.map(\.code.rawValue)
        #expect(codes.contains("E0312"))
    }

    @Test func anExpansionBeyondTheLimitStopsQuickly() {
        let text = "composition { size: 10 x 10 }\ncomponent D() { layer {} }\nlayer f {\n  for i in 0 ..< 3000, j in 0 ..< 3000 { d[i, j] = D() }\n}\n"
        let codes = withinTime(60) { Pipeline.compile(SourceFile(name: "t.anim", text: text)).diagnostics.map(\.code.rawValue) }
        #expect(codes == ["E0311"])
    }
}
