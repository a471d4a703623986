import CourtsideTLS
import Foundation
import Glibc
import Synchronization

/// A fan-out run: subscribers on `options.threads` loops, the publisher and the measurements on the calling
/// thread. Every phase is bounded in time.
enum FanoutRun {
    /// What the coordinator measured around the loops' tallies.
    struct Measurements: Sendable {
        var fileLimit = 0
        var publisherFailure: String?
        var published = 0
        /// Why publishing stopped: "duration", "messages", "stalled" (window never freed), "publisher failed".
        var stoppedBy = ""
        var publishStart: UInt64 = 0
        var publishEnd: UInt64 = 0
        var drained = false
        var serverRSSBeforeKiB: Int?
        var serverRSSIdleKiB: Int?
        var serverCPUSeconds: Double?
        /// The server's allocation counts over publishing and draining (`--alloc-counter`).
        var serverAllocations: AllocationCounts?
        var loadCPUSeconds = 0.0
        /// Seconds the server's and this process's threads waited runnable for a CPU, same window.
        var serverRunQueueWaitSeconds: Double?
        var loadRunQueueWaitSeconds: Double?
    }

    /// `tls`: the client context of the `wss://` connections (``FanoutOptions/tlsContext()``), nil when plain.
    static func run(_ options: FanoutOptions, tls: TLSContext?) -> FanoutReport {
        signal(SIGPIPE, SIG_IGN)
        var measured = Measurements()
        // Raised to the hard limit, not just to what this run needs: the limit is reported, so a script can
        // tell which sizes this machine allows.
        measured.fileLimit = LoadSocket.raiseFileLimit(to: Int(Int32.max))
        let probe = options.serverPID.map { ServerProbe(pid: $0) }

        // The publisher first, so the server's idle RSS difference is the subscribers' alone.
        let publisher: FanoutPublisher?
        switch FanoutPublisher.connect(
            to: options.publishTarget, tls: options.publishTLS ? tls : nil)
        {
        case .success(let connected): publisher = connected
        case .failure(let failure):
            publisher = nil
            measured.publisherFailure = failure.description
        }
        measured.serverRSSBeforeKiB = probe?.residentKiB()

        let threads = options.threads
        let control = FanoutControl(loopCount: threads)
        let tallies = Mutex<[FanoutTally]>([])
        let done = DispatchSemaphore(value: 0)
        var first = 0
        for thread in 0..<threads {
            let count = options.subscribers / threads + (thread < options.subscribers % threads ? 1 : 0)
            let start = first
            first += count
            let worker = Thread {
                let loop = FanoutLoop(
                    options: options, tls: options.subscribeTLS ? tls : nil, subscriberCount: count,
                    firstSubscriber: start, control: control, loop: thread)
                let tally = loop.run()
                tallies.withLock { $0.append(tally) }
                done.signal()
            }
            worker.name = "courtside-load-fanout"
            worker.start()
        }

        // Connected (or given up) within the connect timeout, then idle for `settle`.
        let connectDeadline = LoadSocket.now() + UInt64((options.connectTimeout + 5) * 1e9)
        while !control.allConnected && LoadSocket.now() < connectDeadline { usleep(10_000) }
        if options.settle > 0 { usleep(UInt32(options.settle * 1e6)) }
        measured.serverRSSIdleKiB = probe?.residentKiB()

        if let publisher, control.live > 0 {
            let cpuBefore = probe?.cpuSeconds()
            let allocationsBefore = options.allocationCounterFile.flatMap(AllocationCounts.read)
            let loadCPUBefore = ServerProbe.ownCPUSeconds()
            let serverWaitBefore = probe?.runQueueWaitSeconds()
            let loadWaitBefore = ServerProbe.ownRunQueueWaitSeconds()
            publish(with: publisher, options: options, control: control, measured: &measured)
            control.finalCount.store(measured.published, ordering: .releasing)
            let drainDeadline = LoadSocket.now() + UInt64(options.drainTimeout * 1e9)
            while !control.allCaughtUp && LoadSocket.now() < drainDeadline { usleep(5_000) }
            usleep(50_000)  // the loops' last catch-up scans
            measured.drained = control.allCaughtUp
            if let before = cpuBefore, let after = probe?.cpuSeconds() { measured.serverCPUSeconds = after - before }
            if let before = allocationsBefore, let after = options.allocationCounterFile.flatMap(AllocationCounts.read)
            {
                measured.serverAllocations = after - before
            }
            measured.loadCPUSeconds = ServerProbe.ownCPUSeconds() - loadCPUBefore
            if let before = serverWaitBefore, let after = probe?.runQueueWaitSeconds() {
                measured.serverRunQueueWaitSeconds = after - before
            }
            if let before = loadWaitBefore, let after = ServerProbe.ownRunQueueWaitSeconds() {
                measured.loadRunQueueWaitSeconds = after - before
            }
            publisher.sendClose()
        } else {
            control.finalCount.store(0, ordering: .releasing)
        }
        control.stop.store(true, ordering: .releasing)
        for _ in 0..<threads { done.wait() }
        var total = FanoutTally()
        for tally in tallies.withLock({ $0 }) { total.merge(tally) }
        return FanoutReport(options: options, tally: total, measured: measured)
    }

    /// Sends patches at the target rate (or as the window allows) until the duration or the count ends it.
    private static func publish(
        with publisher: FanoutPublisher, options: FanoutOptions, control: FanoutControl,
        measured: inout Measurements
    ) {
        var game = FanoutGame()
        let start = LoadSocket.now()
        let end = start + UInt64(options.duration * 1e9)
        let stall = UInt64(options.drainTimeout * 1e9)
        measured.publishStart = start
        var sequence = 0
        while true {
            guard sequence < options.messages else {
                measured.stoppedBy = "messages"
                break
            }
            var now = LoadSocket.now()
            guard now < end else {
                measured.stoppedBy = "duration"
                break
            }
            if let rate = options.rate {
                let due = start + UInt64(Double(sequence) * 1e9 / rate)
                if due > now {
                    if due >= end {
                        measured.stoppedBy = "duration"
                        break
                    }
                    sleep(until: due)
                }
            } else {
                // At most `window` messages beyond what every subscriber has passed.
                var waitingSince = now
                var lastMark = control.passedThrough
                while sequence - 1 - lastMark >= options.window && now < end && now - waitingSince < stall {
                    usleep(20)
                    now = LoadSocket.now()
                    let mark = control.passedThrough
                    if mark != lastMark {
                        lastMark = mark
                        waitingSince = now
                    }
                }
                if sequence - 1 - lastMark >= options.window {
                    measured.stoppedBy = now >= end ? "duration" : "stalled"
                    break
                }
            }
            let sentAt = LoadSocket.now()
            if let failure = publisher.send(text: game.next(sequence: sequence, sentAt: sentAt)) {
                measured.publisherFailure = failure.description
                measured.stoppedBy = "publisher failed"
                break
            }
            sequence += 1
            if sequence % 64 == 0, let failure = publisher.drainIncoming() {
                measured.publisherFailure = failure.description
                measured.stoppedBy = "publisher failed"
                break
            }
        }
        measured.published = sequence
        measured.publishEnd = LoadSocket.now()
    }

    private static func sleep(until deadline: UInt64) {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    }
}
