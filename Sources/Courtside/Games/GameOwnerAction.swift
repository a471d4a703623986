import CourtsideBytes
import CourtsideJournal
import CourtsideModel
import CourtsideViewModels

/// What `GameOwnerStateMachine` asks its shell (`GameOwner`) to do. Actions that compute or read report back with
/// the machine event named in their comment; the shell performs a list in order, the actions a report returns
/// first (depth first, as nested calls would, but without growing the stack).
enum GameOwnerAction {
    /// Apply the work to the view model now, publishing before it is durable (a local journal); report `shown`.
    case show(GameOwnerWork)
    /// Compute the work's events on a copy of the game (a shared log: stored before shown); report `proposed`.
    case propose(GameOwnerWork)
    /// Apply one stored batch (one presentation sequence) of another node once; report `storedShown`, or
    /// `storedRefused`.
    case showStored([JournaledEvent])
    /// Show this node's own stored batch from the game its proposal made (no second application of the events);
    /// report `storedShown`, or `storedRefused`.
    case showProposed([JournaledEvent], Game)
    /// Send the patch to the feed and keep it in the resume window.
    case publish(EncodedMessage)
    /// Submit the write; report `journalCompleted` (completions come in submission order).
    case journal(JournalWrite)
    /// Submit a failed write again (a local journal after a failure); report `retryCompleted`.
    case journalAgain(JournalWrite)
    /// Read the shared log after the events the game holds when this is performed; report `caughtUp`.
    case catchUp
    /// Answer the request (exactly once per request).
    case answer(CommandRequest, CommandReply)
    /// Arm the tick timer for the wall-clock instant `at`; report `timerFired(.tick)`.
    case armTick(at: Timestamp)
    /// Arm a timer after `after`; report `timerFired`.
    case arm(GameOwnerTimer, after: Duration)
    /// Cancel a timer if armed.
    case cancel(GameOwnerTimer)
    /// Joiners waiting for a `seq` this node had not reached may be served now (a shared log).
    case serveAheadJoiners
    /// The first failed write of a local journal: log it, report it (`/healthz`), refuse commands.
    case reportFailure(String)
    /// Every failed write is stored again: log it, report it.
    case reportRecovery
    /// Log a warning (a constant message) with the error.
    case warn(String, JournalError)
}

/// The owner's timers (one of each at most).
enum GameOwnerTimer: Hashable {
    /// The game's next deadline, or a tick the shared log refused, tried again.
    case tick
    /// A failed local write stored again, or an archive the shared log refused, tried again.
    case retry
    /// A catch-up read of the shared log that failed, tried again.
    case catchUp
}
