import AuditInputs

/// Help texts, one per command. `--help` prints them on stdout and exits 0; `help --man` renders
/// every page of `pages` as the manual page (`ManPage`, committed as docs/habiter-audit.1).
///
/// A page is plain text in the layout of swift-argument-parser's help: sections that start with
/// an upper-case heading and a colon (`OVERVIEW:`, `USAGE:`, `OPTIONS:`, `EXAMPLES:`), entries
/// indented by two spaces with the description after two or more spaces, continuation lines
/// indented deeper, and free paragraphs at the left margin.
enum HelpText {
    /// Every help page, in manual-page order: the overview first, then one page per command
    /// (its name as typed after `habiter-audit`). A new command appends its page here, and
    /// scripts/make-man rewrites docs/habiter-audit.1; the tests fail until both are done.
    static let pages: [(command: String, text: String)] = [
        ("", overview),
        ("scan", scan),
        ("baseline", baseline),
        ("merge", merge),
        ("redact", redact),
        ("rules", rules),
        ("inventory", inventory),
    ]

    static let overview = """
    OVERVIEW: Privacy and secret-leak audit for Habiter's Personal Sync data, preferences,
    backups and request captures.

    USAGE: habiter-audit <command> [options]

    COMMANDS:
      scan          Scan captures, payloads, preferences and backups and report leaks
                    (the release gate).
      baseline      Accept the findings of a scan, so that later scans fail only on
                    new ones (scan --baseline).
      merge         Merge SARIF logs (the shards of a scan) into one run per category.
      redact        Write a copy of a capture, payload, prefs export or backup with every
                    secret replaced by a placeholder, safe to attach to a bug.
      rules list    Print the rule catalogue.
      rules test    Run every rule against its examples and check rule hygiene.
      inventory     Print the data contract's classification inventory and setting
                    registry.
      help          Show the help of a command (help <command>), or print this manual
                    as a roff man page (help --man).

    OPTIONS:
      -h, --help    Show help (also: habiter-audit <command> --help).
      --version     Show the version.

    EXIT STATUS:
      0   pass
      1   findings at or above --fail-on
      2   an input could not be read, parsed or fully scanned, a rule file is invalid,
          or the report or a message could not be written
      64  usage error

    Each command has its own help with examples: habiter-audit <command> --help.

    EXAMPLES:
      habiter-audit scan fixtures/ captures/ --format sarif -o audit.sarif
      habiter-audit scan --format github fixtures/     # annotations in GitHub Actions
      habiter-audit help scan
      habiter-audit help --man | man -l -
    """

    static let scan = """
    OVERVIEW: Scan inputs for secrets and contract violations.

    USAGE: habiter-audit scan [options] <path>...

    ARGUMENTS:
      <path>                  A file (always scanned), a directory (walked recursively in
                              name order; .git and what .gitignore, .ignore and
                              .git/info/exclude name are skipped; links are followed, each
                              directory walked once, a loop is an error; FIFOs and devices
                              only when named) or - for stdin.

    OPTIONS:
      -f, --format <format>   Report format: text, json, sarif, html or github
                              (GitHub Actions workflow commands). (default: text)
      -o, --output <file>     Write the report to <file> instead of stdout. An input, or
                              a path inside a scanned directory, is refused.
      --fail-on <level>       Lowest finding level that fails the gate: error, warning,
                              note or never; or <family>=<level> for one family (secret,
                              policy, transport). Repeatable, e.g. --fail-on error
                              --fail-on transport=warning. (default: error)
      --baseline <file>       Accept the findings of a baseline (habiter-audit baseline):
                              only new findings fail the gate; reports mark each finding
                              new or unchanged and list those gone.
      --config <file>         Read this configuration instead of the nearest
                              .habiter-audit.json above the first path (sync API paths,
                              extra and disabled rules, an allowlist with reasons and
                              expiry dates).
      --no-config             Read no configuration file.
      --exclude <glob>        Leave out the paths under a walked directory that match
                              (gitignore syntax, relative to the directory: build/,
                              **/*.lock). Repeatable.
      --include <glob>        Scan only the files under a walked directory that match.
                              Repeatable.
      --no-ignore             Do not read .gitignore, .ignore and .git/info/exclude.
      --shard <k/n>           Scan only the k-th of n shares of the inputs (split by path,
                              stable as inputs come and go); merge the shards' SARIF with
                              habiter-audit merge.
      --sarif-omit-suppressed Leave accepted and gone findings out of SARIF (GitHub shows
                              suppressed results as open alerts).
      --sarif-category <id>   The run's automationDetails.id (code scanning category).
      --root <dir>            SARIF: artifact URIs relative to this directory (base id
                              SRCROOT in originalUriBaseIds), such as the repository's
                              root. (default: paths as given, absolute ones as file:// URIs)
      --context <context>     Force the context of every value: auto, sync, prefs, backup or
                              payload. (default: auto, decided per document and value)
      --input-format <fmt>    Force the input format: auto, json, ndjson, har, prefs-xml,
                              http, datastore, mitmproxy, jsonc, xml or text. (default:
                              auto, detected
                              from content and what the name claims: *.json, *.ndjson,
                              *.jsonl, *.har and *.http must parse, tsconfig.json and
                              *.jsonc are JSONC, *.preferences_pb is DataStore; anything
                              else that is none of the formats is scanned as text, and
                              binary files are skipped; gzip, zlib, zstd, xz and bzip2
                              compression and UTF-16 text are undone first either way;
                              with auto, ZIP and tar archives and Android backups are
                              opened and each member scanned as an input named
                              archive!member)
      --rules <dir>           Add the *.json rule files of <dir>; a rule with the id of a
                              loaded rule replaces it. Repeatable.
      --no-builtin-rules      Use only the rules given with --rules.
      --max-depth <n>         Maximum nesting of JSON arrays and objects. (default: 512)
      --max-document-hits <n> Maximum hits waiting for the end of one JSON document, HAR
                              entry or captured call (a hit's context depends on what
                              follows it); beyond,
                              the scan of that input stops with an error. (default: 250000)
      -j, --jobs <n>          Scan up to <n> inputs in parallel, share an NDJSON or HAR
                              file of 16 MiB or more among the jobs left over (one file:
                              all <n>), and write a JSON or SARIF report's findings on <n>
                              threads; the report is the same for every <n>. (default: 1)
      --color <when>          Colour the text report: auto, always or never. (default: auto:
                              when stdout is a terminal and NO_COLOR is not set)
      -q, --quiet             Print nothing on stderr except errors (no progress line;
                              progress is drawn only when stderr is a terminal).
      -h, --help              Show this help.

    Inputs: JSON and NDJSON (sync bodies, entity documents, operation logs, backups), HAR 1.2
    captures, Android SharedPreferences XML (FlutterSharedPreferences.xml, secure-storage
    dumps), Jetpack DataStore preferences (FlutterSharedPreferences.preferences_pb, where
    SharedPreferencesAsync keeps the app's stores), raw HTTP messages (.http files, proxy
    saves, curl -v dumps), mitmproxy's flow files (mitmdump -w), Burp Suite's XML exports
    of items, and any of these
    compressed with gzip, zlib (mitmproxy's .zhar), zstd, xz or bzip2, or written in UTF-16
    (PowerShell 5's > and Out-File). Strings holding JSON,
    base64, JWTs, URL queries, form bodies, multipart/form-data bodies, URL userinfo, Basic
    credentials, data: URLs, values percent-encoded whole, gzip, zlib or zstd data, XML and
    HTTP messages are opened and scanned as inner layers; HTTP bodies coded gzip, deflate,
    br or zstd are decompressed.

    Findings are secret (a credential where it must not be), policy (a contract violation)
    or transport (a credential the protocol carries, e.g. an Authorization header in a
    capture: a warning, so captures fail the gate only with --fail-on warning or
    --fail-on transport=warning).

    Reports never contain matched values: at most a public prefix such as ghp_ and a length.

    EXAMPLES:
      habiter-audit scan captures/ --format sarif -o audit.sarif
      habiter-audit scan --context sync push-body.json
      cat oplog.ndjson | habiter-audit scan --input-format ndjson -
      habiter-audit scan --fail-on warning session.har      # captures must be redacted
      habiter-audit scan --fail-on error --fail-on transport=warning .   # a repository
      habiter-audit scan --exclude 'test/fixtures/' --include '**/*.har' .
      habiter-audit scan --format github fixtures/          # in a GitHub Actions step
      habiter-audit scan --baseline audit-baseline.json captures/
      habiter-audit scan --shard 2/4 --format sarif -o shard-2.sarif captures/
    """

    static let baseline = """
    OVERVIEW: Accept the findings of a scan, so that later scans fail only on new ones.

    USAGE: habiter-audit baseline [options] <path>... -o <file>

    ARGUMENTS:
      <path>                  What to scan, as for scan.

    OPTIONS:
      -o, --output <file>     Where to write the baseline (JSON). An input, or a path
                              inside a scanned directory, is refused.
      --context, --input-format, --rules, --no-builtin-rules, --config, --no-config,
      --exclude, --include, --no-ignore, --max-depth, --max-document-hits, --jobs, --shard
                              As for scan; use the same ones for the scans that read
                              the baseline.
      -q, --quiet             Print nothing on stderr except errors.
      -h, --help              Show this help.

    A baseline entry names the rule, the input and the layered path, and holds a digest of
    the secret keyed with a random salt kept in the file: it survives re-indenting and
    shifted lines, follows a secret that moved within its input, and stops matching when
    the value changes. It never lets a reader look a value up. Findings the allowlist
    accepts are left out, so that they fail the gate again when their entry expires. Run
    scan from the same directory as baseline: inputs are matched by the path given.
    Nothing is written when an input cannot be scanned (exit 2).

    EXAMPLES:
      habiter-audit baseline fixtures/ captures/ -o audit-baseline.json
      habiter-audit scan --baseline audit-baseline.json fixtures/ captures/
    """

    static let merge = """
    OVERVIEW: Merge SARIF logs into one, one run per tool and category.

    USAGE: habiter-audit merge <file>... [-o <file>]

    ARGUMENTS:
      <file>                  SARIF 2.1.0 logs, e.g. the shards of one scan.

    OPTIONS:
      -o, --output <file>     Write the merged log to <file> (default: stdout).
      -h, --help              Show this help.

    Runs of the same tool and automationDetails.id become one run: rules united (result
    ruleIndex renumbered), artifacts concatenated, one invocation that succeeded only if
    every one did (exit code the highest), inventory sections joined.

    EXAMPLES:
      habiter-audit scan --shard 1/2 --format sarif -o a.sarif captures/
      habiter-audit scan --shard 2/2 --format sarif -o b.sarif captures/
      habiter-audit merge a.sarif b.sarif -o audit.sarif
    """

    static let rules = """
    OVERVIEW: Inspect and test the rule pack.

    USAGE: habiter-audit rules list [--rules <dir>]... [--no-builtin-rules] [--format text|json]
           habiter-audit rules test [--rules <dir>]... [--no-builtin-rules]

    'rules list' prints every loaded rule. 'rules test' runs every rule's examples (each must
    match) and counter-examples (none may), and checks rule hygiene; it exits 0 when every rule
    passes, 1 when one fails, 2 when a rule file cannot be loaded.

    OPTIONS:
      --rules <dir>           Add the *.json rule files of <dir>; a rule with the id of a
                              loaded rule replaces it. Repeatable.
      --no-builtin-rules      Use only the rules given with --rules.
      -f, --format <format>   Output of 'rules list': text or json. (default: text)
      -h, --help              Show this help.

    EXAMPLES:
      habiter-audit rules list
      habiter-audit rules list --format json | jq -r '.[].id'
      habiter-audit rules test --rules ./my-rules
      habiter-audit rules test --no-builtin-rules --rules ./my-rules
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

    EXAMPLES:
      habiter-audit inventory
      habiter-audit inventory --format markdown > inventory.md
      habiter-audit inventory --format json | jq '.settings[].key'
    """

    static let redact = """
    OVERVIEW: Write a copy of one input with every secret and transport value replaced by a
    typed placeholder such as [REDACTED:github-token], in the input's own format.

    USAGE: habiter-audit redact [options] <input> -o <output>

    ARGUMENTS:
      <input>                 A HAR capture, JSON or NDJSON, SharedPreferences XML or
                              other XML (Burp Suite's exports too), a DataStore preferences
                              file, raw HTTP messages or a backup (any of them
                              compressed with gzip, zlib, zstd, xz or bzip2, or in
                              UTF-16), or - for stdin.
                              It is never modified.

    OPTIONS:
      -o, --output <file>     Where to write the redacted copy; - for stdout. An existing
                              file (or the input itself) is refused without --force.
      --force                 Overwrite an existing output file.
      --input-format <fmt>    Force the input format: auto, json, ndjson, har, prefs-xml,
                              xml, http or datastore. (default: auto, detected from content,
                              and a *.preferences_pb name for DataStore)
      --rules <dir>           Add the *.json rule files of <dir>; a rule with the id of a
                              loaded rule replaces it. Repeatable.
      --no-builtin-rules      Use only the rules given with --rules.
      --max-depth <n>         Maximum nesting of JSON arrays and objects. (default: 512)
      -q, --quiet             Print nothing on stderr except errors.
      -h, --help              Show this help.

    What scan reports as secret or transport is replaced: the secret span a pattern rule
    matched (Bearer [REDACTED:jwt] keeps its scheme), the whole value a name rule judged
    credible. Inner layers are opened and encoded again: base64 (and gzip, zlib or zstd in it),
    data: URLs, values percent-encoded whole, JSON and XML in a string, query and form parameters,
    multipart form parts, URL userinfo, Basic credentials and cookies; a JSON Web Token is
    replaced whole. Policy findings are left as they are. The copy keeps its format: a HAR
    still opens in a HAR viewer, XML and JSON still parse, NDJSON keeps one document per line,
    raw HTTP keeps its framing (Content-Length is corrected, a chunked body stays chunked, a
    gzip, deflate, br or zstd body is compressed again), a DataStore file stays protobuf (its
    lengths recomputed), compressed input gives output compressed the same way.

    The copy is scanned again before it is written: if it would not read in its format, or a
    secret would remain, nothing is written and the exit status is 2.

    EXIT STATUS:
      0   the redacted copy was written
      2   the input could not be read or parsed, or could not be fully redacted
      64  usage error (also: the output exists and --force was not given)

    EXAMPLES:
      habiter-audit redact session.har -o session.redacted.har
      habiter-audit redact captures/support.har.gz -o support.redacted.har.gz
      adb shell run-as app.habiter cat shared_prefs/FlutterSharedPreferences.xml |
          habiter-audit redact - -o prefs.redacted.xml
      habiter-audit redact --force backup.json -o backup.json   # replace in place
    """
}
