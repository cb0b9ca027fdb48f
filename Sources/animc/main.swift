import AnimcDriver
import Foundation

let status = CommandLineTool().run(Array(CommandLine.arguments.dropFirst()))
exit(status)
