/// The field names of the data an HTML report embeds (docs/report.md, "The
/// embedded data", lists the same names; a test keeps the two in step). Each
/// enum is one object of the data; its raw values are the JSON keys that
/// ``ReportData``, ``ReportNodeTables``, ``ReportSummary``, ``ReportWords``
/// and ``ReportPage`` write, and nothing else writes a key.
///
/// Two shapes: an *object* (``Trace``, a finding, a location...) has one
/// value per field; a *table* (``Node``, ``Attachment``, ``Span``,
/// ``ShownSpan``, ``ViewRemoval``, ``Task``, ``Mark``, ``Round``) is an object with one
/// array per column, every column as long as the table has rows (a row is
/// the values at one index). The rows of the tables that belong to a node
/// have its row in ``Node`` in their `node` column, in node order. Numbers
/// are integers; times are nanoseconds since the session started, `-1`
/// meaning "never" or "still open at the end". Every string that comes from
/// the trace is printable (``PrintableText``) and every text is ready to
/// show: the script adds no wording of its own to what it takes from here.
enum ReportSchema {
    /// `report-meta`: what the page holds.
    enum Meta: String, CaseIterable {
        /// napkin-inspect's version.
        case version
        /// The words of the tree's states (``Words``).
        case words
        /// One ``MetaTrace`` per trace, in the order of `trace-N`.
        case traces
    }

    /// One entry of `report-meta`'s `traces`: the trace picker's.
    enum MetaTrace: String, CaseIterable {
        /// The trace's title.
        case title
        /// What the picker shows: the title, and how many findings or that it is damaged.
        case label
        /// How many findings the trace has.
        case findings
        /// How many problems the trace has.
        case problems
    }

    /// `report-meta`'s `words`: what the tree says of a node at a moment.
    enum Words: String, CaseIterable {
        /// The word for each state, by the state's key (the row's CSS class).
        case states
        /// The words for where the view is, by key: `shown`, `covered`, `gone`.
        case views
        /// The noun after a count of one running task.
        case task
        /// The noun after any other count of running tasks.
        case tasks
    }

    /// `trace-N`: one trace.
    enum Trace: String, CaseIterable {
        /// What the report calls the trace.
        case title
        /// The app's name (only with a session record, as the next three).
        case app
        /// The app's process id.
        case pid
        /// The part of the session (1, or more for a trace received in parts).
        case part
        /// When the session started: milliseconds since 1970.
        case wallMs
        /// The time of the last event.
        case end
        /// `end` as a moment is written (`4.834s`).
        case endText
        /// The header's facts: the app, the trace's length, how many routers.
        case facts
        /// The header's verdict (``Verdict``).
        case verdict
        /// The notes above the player (``Note``): problems of the trace, sampling, findings not kept.
        case notes
        /// What the findings list says when it is empty.
        case noFindings
        /// What the stats table says when it is empty.
        case noStats
        /// Type names, numbered in order of first use (``Node/type``).
        case types
        /// Task labels, numbered in order of first use (``Task/label``).
        case labels
        /// Lines of code (`File.swift:31`), numbered in order of first use
        /// (``Node/createdLine``, ``Attachment/line``, ``Attachment/endLine``).
        case lines
        /// How many node lives the tables hold.
        case shownNodes
        /// How many node lives the trace created.
        case totalNodes
        /// The ``Node`` table.
        case nodes
        /// The ``Attachment`` table.
        case attachments
        /// The ``Span`` table of the interactors' active spans.
        case active
        /// The ``ShownSpan`` table of the views' shown spans.
        case shown
        /// The ``ViewRemoval`` table.
        case viewRemovals
        /// The ``Task`` table.
        case tasks
        /// The ``Mark`` table.
        case marks
        /// The findings (``Finding``), at most ``ReportData/maxFindings``.
        case findings
        /// The chart's populations (``Population``): flagged first, then those with the most alive at once.
        case populations
        /// The chart's caption, or empty when it has nothing to draw.
        case populationText
        /// The ``Round`` table: the rounds of the repeated flow.
        case rounds
        /// The rows of `napkin-inspect stats` (``Stat``).
        case stats
        /// The events by kind (``Kind``).
        case kinds
        /// Findings the allow-list allowed or the baseline knew (counted, not shown).
        case setApart
        /// Findings established beyond those listed.
        case notKept
    }

    /// The header's verdict.
    enum Verdict: String, CaseIterable {
        /// `no findings`, `2 findings`, `trace damaged`.
        case text
        /// Its colour: `good`, `warn` or `bad`.
        case tone
    }

    /// A note above the player.
    enum Note: String, CaseIterable {
        /// `problem` (the trace cannot be trusted) or `note`.
        case tone
        /// The note.
        case text
    }

    /// The table of node lives: one row per router or lone interactor, in creation order.
    enum Node: String, CaseIterable {
        /// The node's id.
        case id
        /// Its type's number in `types`.
        case type
        /// `0` for a router, `1` for a lone interactor.
        case kind
        /// When it was created.
        case created
        /// The sequence number of its creation record.
        case createdSeq
        /// When its `deinit` was written, or `-1`.
        case `deinit`
        /// A router's interactor id, or `0`.
        case interactor
        /// Where it was created (its builder's line), as its number in `lines`, or `-1`.
        case createdLine
    }

    /// The table of attachments: spans during which a router had a parent, or was a root.
    enum Attachment: String, CaseIterable {
        /// The router's row in ``Node``.
        case node
        /// The parent's id, or `0` for a launch (a root).
        case parent
        /// When the span started.
        case start
        /// When it ended, or `-1`.
        case end
        /// The seq of the event that started it.
        case startSeq
        /// The seq of the event that ended it, or `-1`.
        case endSeq
        /// Where the attach (or launch) was made, as its number in `lines`, or `-1`.
        case line
        /// Where the detach was made, as its number in `lines`, or `-1`.
        case endLine
    }

    /// A table of spans with the events that opened and closed them (the interactors' active spans).
    enum Span: String, CaseIterable {
        /// The node's row in ``Node``.
        case node
        /// When the span started.
        case start
        /// When it ended, or `-1`.
        case end
        /// The seq of the event that started it.
        case startSeq
        /// The seq of the event that ended it, or `-1`.
        case endSeq
    }

    /// The table of spans during which a router's view was shown.
    enum ShownSpan: String, CaseIterable {
        /// The router's row in ``Node``.
        case node
        /// When the view was shown.
        case start
        /// When it stopped being shown, or `-1`.
        case end
    }

    /// The table of view removals (popped, dismissed).
    enum ViewRemoval: String, CaseIterable {
        /// The router's row in ``Node``.
        case node
        /// When its view was removed.
        case time
    }

    /// The table of tasks bound to interactors.
    enum Task: String, CaseIterable {
        /// The owner's row in ``Node``.
        case node
        /// The task's id.
        case id
        /// Its label's number in `labels`, or `-1`.
        case label
        /// When it started.
        case start
        /// When it was asked to cancel, or `-1`.
        case cancel
        /// When it ended, or `-1`.
        case end
        /// `0` still running, `1` completed, `2` cancelled.
        case outcome
    }

    /// The table of marks the app wrote, at most ``ReportData/maxNodes``.
    enum Mark: String, CaseIterable {
        /// When.
        case time
        /// Its seq.
        case seq
        /// Its text.
        case text
    }

    /// One finding.
    enum Finding: String, CaseIterable {
        /// The rule's id; its help is the page's `<template id="help-RULE">`.
        case rule
        /// `error` or `warning`.
        case severity
        /// What it is about: `router`, `interactor`, `task` or `trace`.
        case subject
        /// Its subject's name (`Type#id`).
        case name
        /// Its subject's id.
        case id
        /// When it was established.
        case time
        /// `time` as a moment is written (`4.481s`).
        case at
        /// The seqs of its events.
        case seqs
        /// What happened.
        case message
        /// The lines of code involved (``Location``).
        case locations
        /// The tests running then.
        case tests
        /// What a retainer search found holding its subject: one line per
        /// path (`retained by: PATH`), then the tally; empty when none ran.
        case retainers
    }

    /// A line of code a finding names.
    enum Location: String, CaseIterable {
        /// What the code did there (`created`, `detached`...).
        case role
        /// `File.swift:70`, or a path under `--source-root`.
        case place
    }

    /// One population of the chart of live instances (``ReportPopulations``).
    enum Population: String, CaseIterable {
        /// Its name: a type, or `Owner 'label'` for bound tasks.
        case name
        /// `router`, `interactor` or `task`.
        case kind
        /// The most alive at once.
        case peak
        /// What the legend says of it.
        case label
        /// What flags it: `growing`, `over 3`, `over budget`, or empty.
        case flag
        /// The times of its counts.
        case times
        /// How many were alive at each of those times.
        case counts
    }

    /// The table of rounds (the chart's vertical lines).
    enum Round: String, CaseIterable {
        /// When the round started.
        case time
        /// The mark that started it.
        case text
    }

    /// A row of `napkin-inspect stats`.
    enum Stat: String, CaseIterable {
        /// `Routers`, `Duration`...
        case label
        /// Its value, as `stats` writes it.
        case value
    }

    /// A count of events of one kind.
    enum Kind: String, CaseIterable {
        /// The kind, as the trace names it.
        case kind
        /// How many, as `stats` writes it.
        case count
    }
}
