// The scorer's outbox: every command gets a client id (CID) when the button is pressed, stays in localStorage
// until the server answers it, and is re-sent with the same CID after a drop or a reload. The server answers a CID
// it has seen with the original answer and applies nothing twice (docs/protocol.md, "Commands"), so resending is
// always safe and nothing is lost.

import { moveEntry, moveWords } from "./stats.js";
import { t, formatNumber } from "./i18n.js";

/** Makes a CID: 1–64 characters from A-Z a-z 0-9 - _ . : (docs/protocol.md). crypto.getRandomValues works on plain
 * http pages too, where crypto.randomUUID does not. */
export function makeCommandID() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  const random = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `w${Date.now().toString(36)}-${random}`;
}

/** The moves a player can make, in the tutorial's order: wire name, button label, PLAYER count member, words. */
export const MOVES = [
  { move: "onePoint", label: "1PT", count: "onePointMoveCount", words: "one point" },
  { move: "twoPoints", label: "2PT", count: "twoPointMoveCount", words: "two points" },
  { move: "assist", label: "AST", count: "assistMoveCount", words: "assist" },
  { move: "rebound", label: "REB", count: "reboundMoveCount", words: "rebound" },
  { move: "foul", label: "FOUL", count: "foulMoveCount", words: "foul" },
];
// The header of each column in the reader's language: the same label and words as the move's button (stats.js).
for (const entry of MOVES) {
  Object.defineProperties(entry, {
    label: { get: () => moveEntry(entry.move).label, enumerable: true },
    words: { get: () => moveEntry(entry.move).words, enumerable: true },
  });
}

// The error codes' words live in error-words.js; re-exported here, where the client module has always offered them.
export { errorInWords } from "./error-words.js";

/** Describes a command for the pending list. */
export function describeCommand(command, state) {
  if (command.type === "clock") return command.action === "start" ? t("outbox.startClock") : t("outbox.pauseClock");
  if (command.type === "undo") return t("outbox.undo");
  if (command.type === "move") {
    const players = [...(state?.homePlayers ?? []), ...(state?.awayPlayers ?? [])];
    const name = players.find((p) => p.id === command.player)?.playerName ?? command.player;
    return t("outbox.move", { player: name, move: moveWords(command.move) });
  }
  const team = (side) => state?.[`${side}Team`] ?? side;
  switch (command.type) {
    case "timeout": return t("outbox.timeout", { team: team(command.team) });
    case "possession": return t("outbox.possession", { team: team(command.team) });
    // The action is the protocol's word (start, pause, reset, enable, disable), shown as sent.
    case "shotClock": return t("outbox.shotClock", { action: `${command.action}${command.ms !== undefined ? ` ${formatNumber(command.ms / 1000)} s` : ""}` });
    case "setClock": return t("outbox.setClock");
    case "substitute": return t("outbox.substitute", { team: team(command.team) });
    case "editPlay": return t("outbox.editPlay", { play: formatNumber(command.play) });
    case "deletePlay": return t("outbox.deletePlay", { play: formatNumber(command.play) });
    case "final": return t("scorer.confirmFinal");
    case "teamMove": return t("outbox.move", { player: team(command.team), move: moveWords(command.move, true) });
    case "endPeriod": return t("outbox.endPeriod");
    default: return command.type;
  }
}

export class CommandQueue {
  /** @param {string} gameID  @param {Storage} storage  localStorage, so a reload keeps unanswered commands */
  constructor(gameID, storage = localStorage) {
    this.key = `courtside.outbox.${gameID}`;
    this.storage = storage;
    this.items = this.load();
  }

  load() {
    try {
      const items = JSON.parse(this.storage.getItem(this.key) ?? "[]");
      return Array.isArray(items) ? items.filter((i) => i && typeof i.command?.id === "string") : [];
    } catch {
      return [];
    }
  }

  save() {
    try {
      if (this.items.length === 0) this.storage.removeItem(this.key);
      else this.storage.setItem(this.key, JSON.stringify(this.items));
    } catch {
      // Storage full or disabled: the queue still works for this page's life.
    }
  }

  /** Adds a command (without an id) and returns it with its new CID. Saved before it is sent. */
  add(command) {
    const withID = { ...command, id: makeCommandID() };
    this.items.push({ command: withID, queuedAt: Date.now() });
    this.save();
    return withID;
  }

  /** Removes the command with this CID (answered); returns it, or null when it was not ours. */
  settle(id) {
    const index = this.items.findIndex((i) => i.command.id === id);
    if (index < 0) return null;
    const [item] = this.items.splice(index, 1);
    this.save();
    return item.command;
  }

  /** Picks up commands another tab of the same game added or settled. */
  reload() {
    this.items = this.load();
  }

  get pending() {
    return this.items.map((i) => i.command);
  }
}
