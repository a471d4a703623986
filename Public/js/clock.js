// The game clock, animated locally from the server's clock data (docs/protocol.md, "Animating the clock").
//
// A reading is `elapsedMs` at server instant `asOf`; while `running`, the game time now is
// elapsedMs + (serverNow - asOf), capped at the time limit. serverNow needs an estimate of the offset between this
// page's clock and the server's. Every message that fixes a server instant gives one sample:
//   - a patch that sets /clock/asOf (a start or a pause) was sent at (about) asOf;
//   - a tick (a patch that sets /time alone while the clock runs) was sent when the game time reached that
//     second, that is at asOf + (second - elapsedMs).
// A message can only arrive after it was sent, so each sample (instant - arrival) is a lower bound of the true
// offset, late by the network delay; the largest recent sample is the best estimate, and each new one corrects
// the reading to within the delay. Until the first sample (a page opened while the clock runs) the page's own
// clock is taken as the server's (both are normally NTP-synchronised), raised only if the snapshot's `time`
// label proves it behind.

import { formatClockParts } from "./i18n.js";

/** Samples kept: enough to ride over a delayed message, few enough to follow a local clock that is adjusted. */
const OFFSET_SAMPLES = 12;

/** Milliseconds since the epoch on this page's clock, monotonic within the page. */
export function localNow() {
  return performance.timeOrigin + performance.now();
}

export class ServerClock {
  constructor() {
    this.samples = [];
    this.guess = 0; // used until a real sample arrives: assume the clocks agree
  }

  /** Records that a message sent at server instant `serverInstant` arrived at local time `arrival`. */
  sample(serverInstant, arrival = localNow()) {
    if (!Number.isFinite(serverInstant)) return;
    this.samples.push(serverInstant - arrival);
    if (this.samples.length > OFFSET_SAMPLES) this.samples.shift();
  }

  /**
   * Without samples, a snapshot of a running clock still bounds the offset from below: its `time` label is the
   * reading at some earlier whole second, so the reading now cannot be less. (No upper bound: the label may be old,
   * as it is only refreshed when the server sends something.) Otherwise the page's clock is taken as the server's.
   */
  guessFrom(clock, timeLabel, arrival = localNow()) {
    if (this.samples.length > 0 || !clock || !clock.running) return;
    const labelMs = parseTimeLabel(timeLabel);
    if (labelMs === null) return;
    const reading = clock.elapsedMs + (arrival + this.guess - clock.asOf);
    if (reading < labelMs) this.guess += labelMs - reading;
  }

  get offset() {
    return this.samples.length > 0 ? Math.max(...this.samples) : this.guess;
  }

  get hasSamples() {
    return this.samples.length > 0;
  }

  now(local = localNow()) {
    return local + this.offset;
  }
}

/** "mm:ss.d" → milliseconds, or null. */
export function parseTimeLabel(label) {
  const m = /^(\d+):(\d{2})(?:\.(\d))?$/.exec(label ?? "");
  if (!m) return null;
  return (Number(m[1]) * 60 + Number(m[2])) * 1000 + Number(m[3] ?? 0) * 100;
}

/** The clock's reading in milliseconds at server instant `serverNow`. */
export function clockReading(clock, timeLimitMs, serverNow) {
  if (!clock) return 0;
  let ms = clock.elapsedMs;
  if (clock.running) ms += Math.max(0, serverNow - clock.asOf);
  if (Number.isFinite(timeLimitMs) && timeLimitMs !== null) ms = Math.min(ms, timeLimitMs);
  return Math.max(0, ms);
}

/** Milliseconds → "mm:ss.d" (tenths truncated, as the server's labels), in the reader's digits and decimal
 * separator (Intl, js/i18n.js). */
export function formatClock(ms) {
  const tenths = Math.floor(ms / 100);
  return formatClockParts(Math.floor(tenths / 600), Math.floor((tenths % 600) / 10), tenths % 10);
}

/**
 * Learns offset samples from one patch message applied to `stateAfter` (see the header comment).
 * Call it for patches only: a snapshot's asOf may be long past.
 */
export function learnFromPatch(serverClock, ops, stateAfter, arrival = localNow()) {
  const clock = stateAfter?.clock;
  if (!clock || !Array.isArray(ops)) return;
  for (const op of ops) {
    if (op.path === "/clock/asOf" || op.path === "/clock") {
      serverClock.sample(clock.asOf, arrival);
      return;
    }
  }
  for (const op of ops) {
    if (op.path === "/time" && clock.running) {
      const labelMs = parseTimeLabel(op.value);
      // Only a tick (a whole second while running) marks an instant; a move's refreshed label is just the last tick.
      const tickOnly = ops.length === 1;
      if (labelMs !== null && tickOnly && labelMs >= clock.elapsedMs) serverClock.sample(clock.asOf + (labelMs - clock.elapsedMs), arrival);
      return;
    }
  }
}
