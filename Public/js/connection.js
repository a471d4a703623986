// One live document over a WebSocket: snapshot, then patches in sequence (docs/protocol.md, "Documents,
// snapshots and patches"), reconnecting forever with capped exponential backoff and jitter.
//
// Rules kept here so no page has to know them:
//   - a snapshot (`snapshot`, `lobbySnapshot`) replaces the document and its seq, whatever they were;
//   - a patch with seq ≤ ours is old news and ignored; seq = ours + 1 is applied; anything else is a gap;
//   - a gap, or a patch that does not apply, is resynced by reconnecting: with `?since=<our seq>` when the server
//     can resume this kind of stream (it then sends just the missing patches, or a snapshot), without it when the
//     document itself is in doubt;
//   - after a drop, the same resume: spectators come back where they left off, not with a fresh page.

import { applyPatch, PatchError } from "./patch.js";
import { localNow } from "./clock.js";

/** First retry delay: short, because most drops are a server restart or a Wi-Fi blip. */
const BASE_DELAY_MS = 300;
/** Longest wait between attempts: a venue screen must come back soon after the server does. */
const DEFAULT_MAX_DELAY_MS = 5000;
/** An open socket that says nothing for this long when traffic is expected is presumed dead. */
const DEFAULT_IDLE_TIMEOUT_MS = 6000;
/** Messages a delayed stream holds at most (two minutes of a busy game is a few hundred): past it the oldest are
 * applied early rather than the page growing without bound. */
const MAX_DELAYED_MESSAGES = 5000;

const SNAPSHOT_TYPES = new Set(["snapshot", "lobbySnapshot", "courtSnapshot"]);
const PATCH_TYPES = new Set(["patch", "lobbyPatch", "courtPatch"]);

/** ws: or wss: URL for `path` on the page's own origin. */
export function socketURL(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

/** The delay before reconnection attempt `attempt` (0-based): exponential, capped, with jitter so that every page
 * of a restarted server does not come back in the same millisecond. */
export function backoffDelay(attempt, maxDelayMs = DEFAULT_MAX_DELAY_MS, random = Math.random) {
  const ceiling = Math.min(maxDelayMs, BASE_DELAY_MS * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling * (0.5 + 0.5 * random()));
}

export class DocumentStream {
  /**
   * @param {object} options
   * @param {string} options.path             the socket path, e.g. `/ws/games/abc`
   * @param {boolean} [options.resume]        reconnect with `?since=N` (spectator and lobby streams)
   * @param {(state, info) => void} options.onState       the document changed: info {seq, ops|null, arrival}
   * @param {(status) => void} [options.onStatus]        connection state for the page to show
   * @param {(message) => void} [options.onMessage]      messages that are not snapshots or patches (ack, error)
   * @param {(stream) => void} [options.onOpen]          the socket opened (the scorer authenticates here)
   * @param {(event) => boolean} [options.onClose]       return false to stop reconnecting
   * @param {() => boolean} [options.expectTraffic]      true when silence means a dead socket (a running clock ticks)
   * @param {number} [options.maxDelayMs]
   * @param {number} [options.delayMs]     stream-delay sync: apply each patch this long after its `at` (and the
   *                                       first snapshot this long after it arrived), in order
   * @param {{offset: number}} [options.serverClock]   the estimate that turns a patch's `at` into page time
   */
  constructor(options) {
    this.options = options;
    this.state = null;
    this.seq = null;
    this.socket = null;
    this.attempt = 0;
    this.retryTimer = null;
    this.idleTimer = null;
    this.stopped = true;
    this.resyncFromScratch = false;
    this.resyncCount = 0;
    this.listening = false;
    this.connections = 0; // sockets opened so far: for diagnostics and tests
    this.status = { state: "connecting", attempt: 0 };
    this.delayed = []; // [{message, arrival, due}] in arrival order, while options.delayMs > 0
    this.delayTimer = null;
    this.onWake = () => {
      if (!this.stopped && this.retryTimer !== null) this.reconnectNow();
    };
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    if (!this.listening) {
      this.listening = true;
      addEventListener("online", this.onWake);
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "visible") this.onWake();
      });
    }
    this.connect();
  }

  stop(reason = "stopped") {
    this.stopped = true;
    clearTimeout(this.delayTimer);
    this.delayed = [];
    clearTimeout(this.retryTimer);
    clearTimeout(this.idleTimer);
    this.retryTimer = null;
    if (this.socket) {
      const socket = this.socket;
      this.socket = null;
      socket.close(1000, "bye");
    }
    this.setStatus({ state: "stopped", reason });
  }

  /** Sends a JSON value; false when there is no open socket (the caller keeps it for later). */
  send(value) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(value));
    return true;
  }

  get isOpen() {
    return !!this.socket && this.socket.readyState === WebSocket.OPEN;
  }

  reconnectNow() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.socket) this.dropSocket("resync");
    else this.connect();
  }

  setStatus(status) {
    this.status = status;
    this.options.onStatus?.(status);
  }

  url() {
    let path = this.options.path;
    if (this.options.resume && this.seq !== null && !this.resyncFromScratch) {
      path += (path.includes("?") ? "&" : "?") + `since=${encodeURIComponent(this.seq)}`;
    }
    return socketURL(path);
  }

  connect() {
    if (this.stopped) return;
    this.retryTimer = null;
    this.setStatus({ state: this.attempt === 0 && this.seq === null ? "connecting" : "reconnecting", attempt: this.attempt });
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch (error) {
      this.scheduleRetry(`cannot open the connection: ${error.message}`);
      return;
    }
    this.socket = socket;
    this.connections += 1;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      // Resuming a document we hold: the server sends only what we missed, which may be nothing at all, so the
      // open socket is what says we are live again. (The backoff resets only when a message arrives.)
      if (this.options.resume && this.state !== null && !this.resyncFromScratch) this.setStatus({ state: "live", attempt: this.attempt });
      this.options.onOpen?.(this);
      this.armIdleTimer();
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      this.armIdleTimer();
      this.receive(event.data, localNow());
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      clearTimeout(this.idleTimer);
      if (this.options.onClose?.(event) === false) {
        this.stopped = true;
        return;
      }
      const why = event.reason ? `${event.reason} (${event.code})` : event.code === 1006 ? "connection lost" : `closed (${event.code})`;
      this.scheduleRetry(why);
    };
    // onerror is always followed by onclose, which does the work.
    socket.onerror = () => {};
  }

  scheduleRetry(reason) {
    if (this.stopped) return;
    const delay = backoffDelay(this.attempt, this.options.maxDelayMs);
    this.attempt += 1;
    this.setStatus({ state: "reconnecting", attempt: this.attempt, retryAt: Date.now() + delay, reason });
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Closes the current socket and reconnects at once (a resync, not a failure). */
  dropSocket(reason) {
    const socket = this.socket;
    this.socket = null;
    clearTimeout(this.idleTimer);
    if (socket) {
      socket.onclose = null;
      socket.close(1000, reason);
    }
    this.connect();
  }

  armIdleTimer() {
    clearTimeout(this.idleTimer);
    const timeout = this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.idleTimer = setTimeout(() => {
      if (this.options.expectTraffic?.()) {
        // Silence while the clock runs: the socket is dead even if the browser has not noticed.
        this.setStatus({ state: "reconnecting", attempt: this.attempt, reason: "no data from the server" });
        this.dropSocket("idle");
      } else {
        this.armIdleTimer();
      }
    }, timeout);
  }

  receive(text, arrival) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return; // not for us; the server never sends this
    }
    if (!message || typeof message !== "object") return;
    const delayMs = this.options.delayMs ?? 0;
    if (delayMs > 0 && (SNAPSHOT_TYPES.has(message.type) || PATCH_TYPES.has(message.type))) {
      this.hold(message, arrival, delayMs);
      return;
    }
    this.deliver(message, arrival);
  }

  /** Stream-delay sync: keeps the message until `delayMs` after it was made (a patch's `at`, on the page's clock
   * through the server-clock estimate; a snapshot's arrival), never before an earlier message. */
  hold(message, arrival, delayMs) {
    // Every patch dates itself: a sample for the server-clock estimate before the offset is used.
    if (Number.isFinite(message.at)) this.options.serverClock?.sample?.(message.at, arrival);
    const offset = this.options.serverClock?.offset ?? 0;
    const made = Number.isFinite(message.at) ? message.at - offset : arrival;
    const last = this.delayed.length > 0 ? this.delayed[this.delayed.length - 1].due : -Infinity;
    this.delayed.push({ message, arrival, due: Math.max(made + delayMs, last) });
    while (this.delayed.length > MAX_DELAYED_MESSAGES) {
      const early = this.delayed.shift();
      this.deliver(early.message, early.arrival);
    }
    this.armDelayTimer();
  }

  armDelayTimer() {
    clearTimeout(this.delayTimer);
    if (this.delayed.length === 0) return;
    this.delayTimer = setTimeout(() => {
      const now = localNow();
      while (this.delayed.length > 0 && this.delayed[0].due <= now) {
        const next = this.delayed.shift();
        this.deliver(next.message, next.arrival);
      }
      this.armDelayTimer();
    }, Math.max(0, this.delayed[0].due - localNow()));
  }

  deliver(message, arrival) {
    if (this.stopped) return;
    const type = message.type;
    if (SNAPSHOT_TYPES.has(type)) {
      this.state = message.state;
      this.seq = message.seq;
      this.resyncFromScratch = false;
      this.becameLive();
      this.options.onState(this.state, { seq: this.seq, ops: null, arrival, snapshot: true });
    } else if (PATCH_TYPES.has(type)) {
      this.receivePatch(message, arrival);
    } else {
      this.options.onMessage?.(message, arrival);
    }
  }

  receivePatch(message, arrival) {
    if (this.state === null || this.seq === null) {
      this.resync("a patch before any snapshot", true);
      return;
    }
    if (message.seq <= this.seq) return; // already applied
    if (message.seq !== this.seq + 1) {
      this.resync(`missed updates ${this.seq + 1}–${message.seq - 1}`, false);
      return;
    }
    try {
      this.state = applyPatch(this.state, message.ops);
    } catch (error) {
      if (!(error instanceof PatchError)) throw error;
      this.resync(`an update did not apply: ${error.message}`, true);
      return;
    }
    this.seq = message.seq;
    this.resyncCount = 0;
    this.becameLive();
    this.options.onState(this.state, { seq: this.seq, ops: message.ops, arrival, at: message.at, snapshot: false });
  }

  becameLive() {
    this.attempt = 0;
    this.resyncFromScratch = false;
    if (this.status.state !== "live") this.setStatus({ state: "live", attempt: 0 });
  }

  resync(reason, fromScratch) {
    // A second resync before any patch applied means resuming does not help: start from a snapshot; after a few,
    // back off like any failure rather than spin.
    this.resyncCount += 1;
    this.resyncFromScratch = fromScratch || this.resyncCount > 1;
    if (this.resyncCount > 3) {
      const socket = this.socket;
      this.socket = null;
      if (socket) {
        socket.onclose = null;
        socket.close(1000, "resync");
      }
      this.scheduleRetry(reason);
      return;
    }
    this.setStatus({ state: "resyncing", attempt: this.attempt, reason });
    this.dropSocket("resync");
  }
}
