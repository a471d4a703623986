// <courtside-score game="ID"> (or court="ID"): a live score for another site's page (README, "Embed").
// A classic script with no import and no dependency, so a CMS can paste one <script> tag; it talks only to the
// Courtside server it was loaded from (the script's own URL), over the public spectator socket, and keeps the
// protocol's rules (docs/protocol.md, "Documents, snapshots and patches"): a snapshot replaces the document, a
// patch applies at seq + 1, a gap or a failed patch reconnects for a fresh snapshot, a drop resumes with since=.
// Kept under 10 KB gzipped (scripts/check-embed-size), so it repeats the pages' stream rules in small.
(() => {
  const SERVER = new URL(document.currentScript?.src ?? location.href);
  const WS = `${SERVER.protocol === "https:" ? "wss:" : "ws:"}//${SERVER.host}`;
  /** Longest accepted delay, as the pages (js/court.js). */
  const MAX_DELAY_S = 120;
  /** Messages held for a delay at most: past it the oldest are shown early rather than the page growing. */
  const MAX_HELD = 5000;

  // Catalogs: what the element says, in the languages of the pages (Public/i18n). The check
  // (scripts/check-i18n) fails when one lacks a key of English.
  const WORDS = {
    en: { live: "Live", final: "Final", connecting: "Connecting…", reconnecting: "Reconnecting…", period: "P{n}", overtime: "OT", none: "No game chosen", soon: "Next game soon", missing: "No such game", score: "{home} {hs}, {away} {as}", delay: "Delay {s} s", fouls: "Fouls" },
    es: { live: "En directo", final: "Final", connecting: "Conectando…", reconnecting: "Reconectando…", period: "C{n}", overtime: "Prórroga", none: "Ningún partido elegido", soon: "Próximo partido pronto", missing: "No existe ese partido", score: "{home} {hs}, {away} {as}", delay: "Retardo {s} s", fouls: "Faltas" },
    fr: { live: "En direct", final: "Terminé", connecting: "Connexion…", reconnecting: "Reconnexion…", period: "QT{n}", overtime: "Prol.", none: "Aucun match choisi", soon: "Prochain match bientôt", missing: "Ce match n’existe pas", score: "{home} {hs}, {away} {as}", delay: "Différé {s} s", fouls: "Fautes" },
    de: { live: "Live", final: "Endstand", connecting: "Verbinde…", reconnecting: "Verbinde erneut…", period: "V{n}", overtime: "Verl.", none: "Kein Spiel gewählt", soon: "Nächstes Spiel bald", missing: "Dieses Spiel gibt es nicht", score: "{home} {hs}, {away} {as}", delay: "Verzögerung {s} s", fouls: "Fouls" },
    ar: { live: "مباشر", final: "النهاية", connecting: "جارٍ الاتصال…", reconnecting: "إعادة الاتصال…", period: "ر{n}", overtime: "وقت إضافي", none: "لم تُختر مباراة", soon: "المباراة التالية قريبًا", missing: "لا توجد هذه المباراة", score: "{home} {hs}، {away} {as}", delay: "تأخير {s} ث", fouls: "أخطاء" },
  };
  const ACCENTS = { a: "á", e: "é", i: "í", o: "ö", u: "ü", c: "ç", n: "ñ", A: "Å", E: "É", I: "Î", O: "Ø", U: "Ü" };
  /** The pseudo-locale x-long: every string accented and 40% longer, placeholders untouched, for the tests. */
  const pseudo = (text) => {
    const body = text.replace(/\{\w+\}|./gu, (c) => (c.length > 1 ? c : ACCENTS[c] ?? c));
    return `[${body}${"~".repeat(Math.ceil(text.length * 0.4))}]`;
  };

  /** The first language of `wanted` with a catalog (`es-MX` → `es`), else English. */
  function language(wanted) {
    for (const tag of wanted) {
      const lower = String(tag).toLowerCase();
      if (lower === "x-long") return lower;
      const base = lower.split("-")[0];
      if (WORDS[base]) return base;
    }
    return "en";
  }

  /** The locale Intl formats with: the pseudo-locale's numbers are English ones; Arabic keeps Latin digits, as the
   * pages do (js/i18n.js, docs/i18n.md "Digits"). */
  const locale = (lang) => (lang === "x-long" ? "en" : lang === "ar" ? "ar-u-nu-latn" : lang);

  /** "mm:ss.d" in the locale's digits and decimal separator (Intl), for the clock. */
  function clockFormat(lang) {
    const two = new Intl.NumberFormat(locale(lang), { minimumIntegerDigits: 2, useGrouping: false });
    const one = new Intl.NumberFormat(locale(lang), { useGrouping: false });
    const point = new Intl.NumberFormat(locale(lang), { minimumFractionDigits: 1 }).formatToParts(0.5).find((p) => p.type === "decimal")?.value ?? ".";
    return (tenths) => `${two.format(Math.floor(tenths / 600))}:${two.format(Math.floor((tenths % 600) / 10))}${point}${one.format(tenths % 10)}`;
  }

  function words(lang, key, values = {}) {
    const text = (WORDS[lang] ?? {})[key] ?? WORDS.en[key];
    const filled = (lang === "x-long" ? pseudo(text) : text).replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");
    return filled;
  }

  /** RFC 6902 on a copy (the server sends add, remove, replace; the rest for completeness); throws on failure. */
  function applyPatch(doc, ops) {
    let root = structuredClone(doc);
    const tokens = (p) => (p === "" ? [] : p.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~")));
    const walk = (p) => {
      const path = tokens(p);
      const last = path.pop();
      let parent = root;
      for (const t of path) {
        if (parent === null || typeof parent !== "object" || !(t in parent)) throw new Error(`no ${p}`);
        parent = parent[t];
      }
      if (parent === null || typeof parent !== "object") throw new Error(`no ${p}`);
      return [parent, last];
    };
    const get = (p) => {
      if (p === "") return root;
      const [parent, key] = walk(p);
      if (!(key in parent)) throw new Error(`no ${p}`);
      return parent[key];
    };
    const put = (p, value, replace) => {
      if (p === "") return void (root = value);
      const [parent, key] = walk(p);
      if (Array.isArray(parent)) {
        const index = key === "-" ? parent.length : Number(key);
        if (!/^(0|[1-9]\d*|-)$/.test(key) || index > parent.length - (replace ? 1 : 0)) throw new Error(`bad index ${p}`);
        parent.splice(index, replace ? 1 : 0, value);
      } else {
        if (replace && !(key in parent)) throw new Error(`no ${p}`);
        parent[key] = value;
      }
    };
    const remove = (p) => {
      const [parent, key] = walk(p);
      if (!(key in parent)) throw new Error(`no ${p}`);
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
    };
    for (const op of ops) {
      if (op.op === "add") put(op.path, structuredClone(op.value), false);
      else if (op.op === "replace") put(op.path, structuredClone(op.value), true);
      else if (op.op === "remove") remove(op.path);
      else if (op.op === "copy") put(op.path, structuredClone(get(op.from)), false);
      else if (op.op === "move") {
        const value = get(op.from);
        remove(op.from);
        put(op.path, value, false);
      } else if (op.op === "test") {
        if (JSON.stringify(get(op.path)) !== JSON.stringify(op.value)) throw new Error(`test failed at ${op.path}`);
      } else throw new Error(`unknown op ${op.op}`);
    }
    return root;
  }

  /** Black or white text on a team colour, whichever contrasts more (WCAG 2.2 relative luminance). */
  function ink(hex) {
    const c = (i) => {
      const v = parseInt(hex.slice(i, i + 2), 16) / 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    const l = 0.2126 * c(1) + 0.7152 * c(3) + 0.0722 * c(5);
    return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? "#fff" : "#000";
  }

  const STYLE = `
:host{display:block;font:16px/1.3 system-ui,sans-serif;--bg:#fff;--fg:#111;--muted:#555;--line:#ddd;color:var(--fg)}
:host([theme=dark]){--bg:#15171c;--fg:#f2f2f2;--muted:#aab;--line:#333}
:host([theme=transparent]){--bg:transparent;--line:transparent}
.b{background:var(--bg);border:1px solid var(--line);border-radius:8px;padding:.5em .75em;display:grid;gap:.25em .75em;
grid-template-columns:1fr auto;align-items:center;font-variant-numeric:tabular-nums}
.t{display:contents}.n{display:flex;align-items:center;gap:.5em;min-width:0}
.n b{overflow-wrap:anywhere}.sw{width:.8em;height:.8em;border-radius:2px;flex:none}
.s{font-weight:700;font-size:1.5em;text-align:end;direction:ltr;unicode-bidi:isolate}
.m{grid-column:1/-1;display:flex;gap:.75em;color:var(--muted);font-size:.85em;flex-wrap:wrap}
.c{direction:ltr;unicode-bidi:isolate}.x{display:none}
:host([size=ticker]) .b{display:flex;flex-wrap:wrap;gap:.4em;padding:.25em .5em;align-items:baseline}
:host([size=ticker]) .s{font-size:1em}:host([size=ticker]) .m{font-size:1em;display:inline-flex}
:host([size=ticker]) .long,:host([size=ticker]) .sw{display:none}:host([size=ticker]) .short{display:inline}
.short{display:none}:host([size=full]) .b{padding:.75em 1em}:host([size=full]) .s{font-size:2.25em}
:host([size=full]) .x{display:inline}.st{font-weight:600}
.a{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}`;

  class CourtsideScore extends HTMLElement {
    static observedAttributes = ["game", "court", "delay", "lang"];

    constructor() {
      super();
      this.root = this.attachShadow({ mode: "open" });
      // A constructed sheet, not a <style>: a page whose CSP forbids inline styles (ours do) still styles it.
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(STYLE);
      this.root.adoptedStyleSheets = [sheet];
      this.root.innerHTML = `<div class="b" part="board" role="group"><div class="t home"><span class="n"><span class="sw"></span><b class="long"></b><b class="short"></b></span><span class="s" aria-hidden="true">0</span></div><div class="t away"><span class="n"><span class="sw"></span><b class="long"></b><b class="short"></b></span><span class="s" aria-hidden="true">0</span></div><div class="m"><span class="st" role="status"></span><span class="c"></span><span class="p"></span><span class="x f"></span><span class="d"></span></div><span class="a" aria-live="polite"></span></div>`;
      this.$ = (selector) => this.root.querySelector(selector);
      this.state = null;
      this.seq = null;
      this.samples = [];
      this.held = [];
    }

    connectedCallback() {
      this.start();
      this.frame = requestAnimationFrame(() => this.tick());
    }

    disconnectedCallback() {
      this.stop();
      cancelAnimationFrame(this.frame);
    }

    attributeChangedCallback() {
      if (this.isConnected && this.started) {
        this.stop();
        this.start();
      }
    }

    get lang() {
      const asked = this.getAttribute("lang") || new URLSearchParams(location.search).get("lang");
      return language([...(asked ? [asked] : []), ...(navigator.languages ?? [])]);
    }

    /** `delay` in milliseconds: 0 to 120 seconds, as the pages' `?delay=`; anything else is live. */
    get delayMs() {
      const seconds = Number(this.getAttribute("delay") ?? 0);
      return Number.isFinite(seconds) && seconds >= 0 && seconds <= MAX_DELAY_S ? Math.round(seconds * 1000) : 0;
    }

    start() {
      this.started = true;
      this.stopped = false;
      this.attempt = 0;
      this.state = null;
      this.seq = null;
      this.gameID = undefined; // none yet: a court's first document, even without a game, is news
      const lang = this.lang;
      this.setAttribute("dir", lang === "ar" ? "rtl" : "ltr");
      this.$(".b").setAttribute("lang", lang);
      this.$(".d").textContent = this.delayMs > 0 ? words(lang, "delay", { s: new Intl.NumberFormat(locale(lang)).format(this.delayMs / 1000) }) : "";
      const court = this.getAttribute("court");
      const game = this.getAttribute("game");
      if (court) this.followCourt(court);
      else if (game) this.follow(game);
      else this.say("none");
    }

    stop() {
      this.stopped = true;
      for (const s of [this.socket, this.courtSocket]) if (s) (s.onclose = null), s.close(1000, "bye");
      this.socket = this.courtSocket = null;
      clearTimeout(this.retry);
      clearTimeout(this.courtRetry);
      clearTimeout(this.heldTimer);
      this.held = [];
    }

    say(key, status = key) {
      this.$(".st").textContent = words(this.lang, key);
      this.dataset.status = status;
    }

    followCourt(id) {
      const open = () => {
        const s = (this.courtSocket = new WebSocket(`${WS}/ws/courts/${encodeURIComponent(id)}`));
        let court = null;
        let seq = null;
        s.onmessage = (event) => {
          const message = JSON.parse(event.data);
          if (message.type === "courtSnapshot") (court = message.state), (seq = message.seq);
          else if (message.type === "courtPatch" && court !== null && message.seq === seq + 1) {
            try {
              court = applyPatch(court, message.ops);
              seq = message.seq;
            } catch {
              return s.close(1000, "resync"); // reopened at once below, for a fresh snapshot
            }
          } else if (message.type === "courtPatch" && court !== null && message.seq > seq) return s.close(1000, "resync");
          else return;
          const game = court?.game ?? null;
          if (game === this.gameID) return;
          if (this.socket) (this.socket.onclose = null), this.socket.close(1000, "another game");
          this.socket = null;
          clearTimeout(this.retry);
          this.state = this.seq = null;
          if (game) this.follow(game);
          else (this.gameID = null), this.say("soon");
        };
        s.onclose = (event) => {
          if (!this.stopped) this.courtRetry = setTimeout(open, event.code === 1000 ? 0 : this.backoff());
        };
      };
      open();
    }

    /** Exponential from 300 ms to 5 s with jitter, as js/connection.js: a restarted server is not stampeded. */
    backoff() {
      const ceiling = Math.min(5000, 300 * 2 ** Math.min(this.attempt++, 16));
      return Math.round(ceiling * (0.5 + 0.5 * Math.random()));
    }

    follow(id, fromScratch = false) {
      this.gameID = id;
      if (this.state === null) this.say("connecting");
      const since = this.seq !== null && !fromScratch ? `?since=${this.seq}` : "";
      const s = (this.socket = new WebSocket(`${WS}/ws/games/${encodeURIComponent(id)}${since}`));
      this.connections = (this.connections ?? 0) + 1;
      s.onopen = () => {
        if (this.state !== null) this.say(this.state.isFinished ? "final" : "live");
      };
      s.onmessage = (event) => {
        if (this.socket !== s) return;
        let message;
        try {
          message = JSON.parse(event.data);
        } catch {
          return;
        }
        const arrival = performance.timeOrigin + performance.now();
        if (Number.isFinite(message.at)) {
          this.samples.push(message.at - arrival);
          if (this.samples.length > 12) this.samples.shift();
        }
        if (this.delayMs > 0 && (message.type === "snapshot" || message.type === "patch")) return this.hold(message, arrival);
        this.deliver(message);
      };
      s.onclose = (event) => {
        if (this.socket !== s || this.stopped) return;
        this.socket = null;
        if (this.dataset.status !== "missing") this.say("reconnecting");
        if (this.state === null && this.attempt === 2) this.checkExists(id);
        // 1008 (policy) and 4404-style closes of a game that is gone are not retried in a tight loop: the backoff
        // still applies, so a fixed link comes back.
        this.retry = setTimeout(() => this.follow(id), event.code === 1000 ? 0 : this.backoff());
      };
    }

    /** A socket that never opens may mean a mistyped id: ask once (a CORS GET), and say so plainly. */
    async checkExists(id) {
      try {
        const response = await fetch(`${SERVER.origin}/api/games/${encodeURIComponent(id)}`, { cache: "no-store" });
        if (response.status === 404 && this.gameID === id && this.state === null) this.say("missing");
      } catch {
        // unreachable: keep trying
      }
    }

    /** The server's clock minus ours: the largest recent sample (each is late by the network delay). */
    get offset() {
      return this.samples.length ? Math.max(...this.samples) : 0;
    }

    /** Holds a message until `delay` after it was made (a patch's `at`; a snapshot's arrival), never before an
     * earlier one: the board shows the game as a delayed stream does. */
    hold(message, arrival) {
      const made = Number.isFinite(message.at) ? message.at - this.offset : arrival;
      const last = this.held.length ? this.held[this.held.length - 1].due : -Infinity;
      this.held.push({ message, due: Math.max(made + this.delayMs, last) });
      while (this.held.length > MAX_HELD) this.deliver(this.held.shift().message);
      this.armHeld();
    }

    armHeld() {
      clearTimeout(this.heldTimer);
      if (!this.held.length) return;
      const now = performance.timeOrigin + performance.now();
      this.heldTimer = setTimeout(() => {
        const at = performance.timeOrigin + performance.now();
        while (this.held.length && this.held[0].due <= at) this.deliver(this.held.shift().message);
        this.armHeld();
      }, Math.max(0, this.held[0].due - now));
    }

    deliver(message) {
      if (this.stopped) return;
      if (message.type === "snapshot") {
        this.state = message.state;
        this.seq = message.seq;
      } else if (message.type === "patch") {
        if (this.state === null || message.seq <= this.seq) return;
        try {
          if (message.seq !== this.seq + 1) throw new Error("gap");
          this.state = applyPatch(this.state, message.ops);
          this.seq = message.seq;
        } catch {
          // A gap or a patch that does not apply: the document is in doubt, so a fresh snapshot.
          const s = this.socket;
          this.socket = null;
          if (s) (s.onclose = null), s.close(1000, "resync");
          return this.follow(this.gameID, true);
        }
      } else if (message.type === "error" && message.code === "unknown_game") {
        return this.say("missing");
      } else return;
      this.attempt = 0;
      this.render();
    }

    render() {
      const state = this.state;
      const lang = this.lang;
      const number = new Intl.NumberFormat(locale(lang));
      for (const side of ["home", "away"]) {
        const team = this.$(`.${side}`);
        team.querySelector(".long").textContent = state[`${side}Team`];
        team.querySelector(".short").textContent = state[`${side}Short`] ?? state[`${side}Team`];
        team.querySelector(".s").textContent = number.format(state[`${side}Score`]);
        const color = state[`${side}Color`];
        if (/^#[0-9A-Fa-f]{6}$/.test(color ?? "")) {
          team.querySelector(".sw").style.background = color;
          this.style.setProperty(`--${side}-team`, color);
          this.style.setProperty(`--${side}-ink`, ink(color));
        }
      }
      const period = state.isOvertime ? words(lang, "overtime") : state.period ? words(lang, "period", { n: number.format(state.period) }) : "";
      this.$(".p").textContent = period;
      const fouls = state.homeTeamFouls ?? null;
      this.$(".f").textContent = fouls === null ? "" : `${words(lang, "fouls")} ${number.format(state.homeTeamFouls)}–${number.format(state.awayTeamFouls)}`;
      this.say(state.isFinished ? "final" : "live");
      this.dataset.seq = String(this.seq);
      const score = words(lang, "score", { home: state.homeTeam, hs: number.format(state.homeScore), away: state.awayTeam, as: number.format(state.awayScore) });
      this.$(".b").setAttribute("aria-label", score);
      if (this.lastScore !== undefined && this.lastScore !== score) this.$(".a").textContent = state.isFinished ? `${score}. ${words(lang, "final")}` : score;
      this.lastScore = score;
      this.dispatchEvent(new CustomEvent("courtside:update", { detail: { seq: this.seq, state } }));
    }

    /** The clock in tenths, as the pages: the period's elapsed time at the server's now (less the delay). */
    tick() {
      const clock = this.state?.clock;
      if (clock) {
        let ms = clock.elapsedMs;
        const now = performance.timeOrigin + performance.now() + this.offset - this.delayMs;
        if (clock.running) ms += Math.max(0, now - clock.asOf);
        if (Number.isFinite(clock.periodLengthMs)) ms = Math.min(ms, clock.periodLengthMs);
        const tenths = Math.floor(Math.max(0, ms) / 100);
        if (this.clockLang !== this.lang) (this.clockLang = this.lang), (this.clockText = clockFormat(this.lang));
        const text = this.clockText(tenths);
        const node = this.$(".c");
        if (node.textContent !== text) node.textContent = text;
      }
      this.frame = requestAnimationFrame(() => this.tick());
    }
  }

  if (!customElements.get("courtside-score")) customElements.define("courtside-score", CourtsideScore);
})();
