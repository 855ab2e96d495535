/// Help texts, one per command. `--help` prints them on stdout and exits 0.
enum HelpText {
    static let overview = """
    OVERVIEW: Privacy and secret-leak audit for Habiter's Personal Sync data, preferences,
    backups and request captures.

    USAGE: habiter-audit <command> [options]

    COMMANDS:
      scan          Scan captures, payloads, preferences and backups and report leaks
                    (the release gate).
      rules list    Print the rule catalogue.
      rules test    Run every rule against its examples and check rule hygiene.
      inventory     Print the data contract's classification inventory and setting
                    registry.

    OPTIONS:
      -h, --help    Show help (also: habiter-audit <command> --help).
      --version     Show the version.

    EXIT STATUS:
      0   pass                       1   findings at or above --fail-on
      2   an input could not be read, parsed or fully scanned, or a rule file is invalid
      64  usage error

    See 'habiter-audit scan --help' for the scan options.
    """

    static let scan = """
    OVERVIEW: Scan inputs for secrets and contract violations.

    USAGE: habiter-audit scan [options] <path>...

    ARGUMENTS:
      <path>                  A file, a directory (walked recursively in name order; .git is
                              skipped, links to directories are not followed) or - for stdin.

    OPTIONS:
      -f, --format <format>   Report format: text, json or sarif. (default: text)
      -o, --output <file>     Write the report to <file> instead of stdout.
      --fail-on <level>       Lowest finding level that fails the gate: error, warning,
                              note or never. (default: error)
      --context <context>     Force the context of every value: auto, sync, prefs, backup or
                              payload. (default: auto, decided per document and value)
      --input-format <fmt>    Force the input format: auto, json, ndjson, har, prefs-xml
                              or http. (default: auto, detected from content; gzip is
                              undone first either way)
      --rules <dir>           Add the *.json rule files of <dir>; a rule with the id of a
                              loaded rule replaces it. Repeatable.
      --no-builtin-rules      Use only the rules given with --rules.
      --max-depth <n>         Maximum nesting of JSON arrays and objects. (default: 512)
      --jobs <n>              Scan up to <n> inputs in parallel; the report is the same
                              for every <n>. (default: 1)
      --color <when>          Colour the text report: auto, always or never. (default: auto:
                              when stdout is a terminal and NO_COLOR is not set)
      -q, --quiet             Print nothing on stderr except errors.
      -h, --help              Show this help.

    Inputs: JSON and NDJSON (sync bodies, entity documents, operation logs, backups), HAR 1.2
    captures, Android SharedPreferences XML (FlutterSharedPreferences.xml, secure-storage
    dumps), raw HTTP messages (.http files, proxy saves, curl -v dumps), and any of these
    gzip-compressed. Strings holding JSON, base64, JWTs, URL queries, form bodies, URL
    userinfo, Basic credentials or gzip are opened and scanned as inner layers.

    Findings are secret (a credential where it must not be), policy (a contract violation)
    or transport (a credential the protocol carries, e.g. an Authorization header in a
    capture: a warning, so captures fail the gate only with --fail-on warning).

    Reports never contain matched values: at most a public prefix such as ghp_ and a length.

    EXAMPLES:
      habiter-audit scan captures/ --format sarif -o audit.sarif
      habiter-audit scan --context sync push-body.json
      cat oplog.ndjson | habiter-audit scan --input-format ndjson -
      habiter-audit scan --fail-on warning session.har      # captures must be redacted
    """

    static let rules = """
    OVERVIEW: Inspect and test the rule pack.

    USAGE: habiter-audit rules list [--rules <dir>]... [--no-builtin-rules] [--format text|json]
           habiter-audit rules test [--rules <dir>]... [--no-builtin-rules]

    'rules list' prints every loaded rule. 'rules test' runs every rule's examples (each must
    match) and counter-examples (none may), and checks rule hygiene; it exits 0 when every rule
    passes, 1 when one fails, 2 when a rule file cannot be loaded.

    EXAMPLES:
      habiter-audit rules list
      habiter-audit rules test --rules ./my-rules
    """

    static let inventory = """
    OVERVIEW: Print the classification inventory of the Personal Sync data contract: every
    store and field with its class, the contract's reason and the names it appears under on
    disk and on the wire; the approved setting registry; and the verdict for each class in
    each scan context.

    USAGE: habiter-audit inventory [--format text|json|markdown]

    OPTIONS:
      -f, --format <format>   text, json or markdown. (default: text)
      -h, --help              Show this help.
    """
}
