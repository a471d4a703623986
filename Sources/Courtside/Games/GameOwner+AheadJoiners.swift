import CourtsideNet

/// Resumes on a node that is behind the shared log (`AheadJoiners` decides; this performs): a spectator resuming
/// here from a `seq` it saw on another node waits for this node to catch up from the game's stream, then gets the
/// patches after its `seq` (docs/redis.md, "Resuming on another node").
extension GameOwner {
    typealias Joiners = AheadJoiners<LoopBound<any JoiningSubscriber>>

    func changeAheadJoiners(_ event: (inout Joiners) -> [Joiners.Action]) {
        for action in event(&aheadJoiners) {
            switch action {
            case .serve(let subscriber, let since):
                bringIn(subscriber, since: since)
            case .serveBehind(let subscriber, let since):
                let sampled = behindResumeLog.sample(now: scheduler.now)
                if sampled.log {
                    services.logger.warning(
                        "a resume is answered with an older snapshot: this node did not reach its seq in time",
                        ["game": id.rawValue, "since": "\(since)", "seq": "\(seq)", "held": "\(sampled.held)"])
                }
                bringIn(subscriber, since: nil)
            case .catchUp:
                // Behind the log: read the game's stream now if nothing is in flight, else right after it.
                catchUpNow()
            case .armTimer:
                aheadTimer = scheduler.schedule(after: services.limits.aheadJoinPeriod) { [unowned self] in
                    aheadTimer = nil
                    changeAheadJoiners { $0.timerFired(current: seq) }
                }
            }
        }
    }
}
