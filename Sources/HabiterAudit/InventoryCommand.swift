import AuditCore
import AuditDetection
import AuditReport

/// `habiter-audit inventory`: prints the classification inventory the scans apply.
enum InventoryCommand {
    static let specs: [OptionSpec] = [
        OptionSpec(name: "format", short: "f", takesValue: true),
        OptionSpec(name: "help", short: "h", takesValue: false),
    ]

    static func run(_ arguments: [String], _ environment: CLIEnvironment) throws(UsageError) -> Int32 {
        let parsed = try parseArguments(arguments, specs: specs, command: "inventory")
        if parsed.flags.contains("help") {
            environment.writeOut(HelpText.inventory + "\n")
            return ExitStatus.pass
        }
        guard parsed.positionals.isEmpty else { throw UsageError(message: "unexpected argument '\(parsed.positionals[0])'", command: "inventory") }
        let format: InventoryListing.Format = try choice(parsed.value("format"), option: "format", command: "inventory", default: .text)
        let inventory: Inventory
        do {
            inventory = try InventoryLoader.builtin()
        } catch {
            environment.writeErr("Error: invalid inventory: \(error)\n")
            return ExitStatus.inputError
        }
        environment.writeOut(InventoryListing.render(inventory, as: format))
        return ExitStatus.pass
    }
}
