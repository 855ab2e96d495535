import Foundation
import HabiterAudit

let status = CLI.run(Array(CommandLine.arguments.dropFirst()),
                     environment: .process(variables: ProcessInfo.processInfo.environment))
exit(status)
