// The project benchmark's inputs: a design system's two libraries and the animations
// that import them, written to a temporary folder as an app's repository holds them.
import Foundation

/// A project of `files` animations importing one tokens file and one components file,
/// written under a fresh temporary folder; its path.
func writeProject(files: Int) -> String {
    let root = NSTemporaryDirectory() + "animc-bench-project-\(getpid())"
    try? FileManager.default.removeItem(atPath: root)
    try? FileManager.default.createDirectory(atPath: root + "/motion", withIntermediateDirectories: true)
    var tokens = "// Motion tokens.\n"
    for (i, ms) in [100, 150, 200, 250, 300, 400, 500, 700].enumerated() { tokens += "let duration\(i) = \(ms)ms\n" }
    tokens += "timing standard = cubic(0.2, 0, 0, 1)\ntiming decelerate = cubic(0.05, 0.7, 0.1, 1)\n"
    tokens += "timing accelerate = cubic(0.3, 0, 0.8, 0.15)\n"
    for i in 0..<12 { tokens += "let color\(i) = rgb(\(i * 20), \(255 - i * 15), 120)\n" }
    var components = "import \"tokens.anim\"\n\n"
    components += """
    component Spinner(at: Point, size: Number = 48, color: Color = tokens.color0) {
      shape {
        position: at
        bounds: size x size
        path: ellipse((0, 0, size, size))
        fillColor: clear
        strokeColor: color
        lineWidth: size / 12
        basic transform.rotation.z { from: 0deg, to: 360deg, duration: 1s, repeatCount: inf }
        keyframes strokeEnd {
          duration: 1s
          repeatCount: inf
          0 = 0.1 ~ tokens.standard
          0.5 = 0.9 ~ tokens.standard
          1 = 0.1
        }
      }
    }

    component Pop(at: Point, delay: Time = 0s, color: Color = tokens.color1) {
      layer {
        position: at
        bounds: 16 x 16
        cornerRadius: 8
        backgroundColor: color
        basic transform.scale { from: 0, to: 1, duration: tokens.duration3, beginTime: delay, fillMode: backwards, timingFunction: tokens.decelerate }
      }
    }

    """
    write(root + "/motion/tokens.anim", tokens)
    write(root + "/motion/components.anim", components)
    for k in 0..<files {
        var s = "import \"motion/tokens.anim\"\nimport \"motion/components.anim\" as ui\n\n"
        s += "composition Screen\(k) {\n  size: 375 x 667\n  window: 0s ..< 2s\n  backgroundColor: tokens.color\(k % 12)\n}\n\n"
        s += "spinner = ui.Spinner(at: (187.5, 300), size: \(32 + k % 32))\n"
        s += "layer list {\n  position: (187.5, 400)\n  bounds: 300 x 200\n"
        s += "  for i in 0 ..< 4 {\n    dot[i] = ui.Pop(at: (40 + 60 * i, 100), delay: tokens.duration0 * i)\n  }\n"
        s += "  basic opacity {\n    from: 0\n    to: 1\n    duration: tokens.duration\(k % 8)\n    timingFunction: tokens.standard\n  }\n}\n"
        s += "layer title {\n  position: (187.5, 120)\n  bounds: 200 x 24\n  backgroundColor: tokens.color\((k + 3) % 12)\n"
        s += "  basic position.y {\n    from: 140\n    to: 120\n    duration: tokens.duration5\n    timingFunction: tokens.decelerate\n  }\n}\n"
        write(root + "/screen\(k).anim", s)
    }
    return root
}

private func write(_ path: String, _ text: String) {
    FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
}
