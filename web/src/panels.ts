// The side panels around the board: hints, table chat, the move clock, and the replay viewer of a finished game.
import { api, ApiError, type ChatMessage, type ClockInfo, type Hint, type ReplayStep } from "./api";
import { h, mount } from "./dom";
import type { TableModule, TableUi } from "./games/types";
import { named } from "./games/util";

/** Seconds left until an ISO deadline (a time without zone is UTC, as the server stores it); never negative. */
export function secondsLeft(deadline: string | number, now: number): number {
  const t = typeof deadline === "number" ? deadline * 1000 : Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(deadline) ? deadline : `${deadline}Z`);
  return Number.isFinite(t) ? Math.max(0, Math.ceil((t - now) / 1000)) : 0;
}

/** "1:05", "12:00", "2 d 03:00:00" for a countdown. */
export function clockText(s: number): string {
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  const two = (n: number) => String(n).padStart(2, "0");
  if (d) return `${d} d ${two(hh)}:${two(mm)}:${two(ss)}`;
  if (hh) return `${hh}:${two(mm)}:${two(ss)}`;
  return `${mm}:${two(ss)}`;
}

/** The move clock of the decision owed now, ticking once a second in the header. */
export class MoveClock {
  info: ClockInfo | null = null;
  el = h("span.clock", { dataset: { testid: "clock" }, hidden: true });
  private timer: number | undefined;
  private wanted = -1;

  /** Ask for the clock of the decision owed at event `seq`; the clock owner sets a new deadline within a tick or
   * two, so a clock without one (or for an older event) is asked again shortly. */
  async refresh(id: string, seq: number, tries = 10): Promise<void> {
    this.wanted = seq;
    try {
      this.info = (await api.clock(id)).clock;
    } catch {
      this.info = null;
    }
    const c = this.info;
    if (c && (c.deadline === null || c.deadline === undefined || c.seq < seq) && tries > 0) {
      window.setTimeout(() => {
        if (this.wanted === seq) void this.refresh(id, seq, tries - 1);
      }, 700);
    }
    this.tick();
    if (this.info && this.timer === undefined) this.timer = window.setInterval(() => this.tick(), 1000);
  }

  tick(): void {
    const c = this.info;
    if (!c || c.deadline === null || c.deadline === undefined) {
      this.el.hidden = true;
      return;
    }
    const left = secondsLeft(c.deadline, Date.now());
    this.el.hidden = false;
    this.el.className = `clock${left <= 10 ? " low" : ""}`;
    this.el.textContent = `${clockText(left)} left`;
    this.el.title = `each decision has ${clockText(c.move_seconds)}; when it runs out the game's heuristic moves for the late seat`;
  }

  stop(): void {
    if (this.timer !== undefined) window.clearInterval(this.timer);
  }
}

export interface HintState {
  seq: number;
  loading: boolean;
  hints: Hint[];
  error: string;
  /** Still thinking well past the usual time: the box says so. */
  slow?: boolean;
}

/** What a hint's value is, in words: Silencio's search gives the expected cards left (in its reason), the others a
 * chance of winning. */
export function hintValue(x: Hint): string {
  const cards = x.reason?.match(/(\d+(?:\.\d+)?) cards? left on average/);
  if (cards) return `expected cards left ${Number(cards[1]).toFixed(1)}`;
  return `win chance ${Math.round(x.value * 100)}%`;
}

/** The hints box: the top actions with the search's estimated value and how many samples tried each. */
export function hintsBox(hs: HintState | null, ask: () => void, busy: boolean, label: (a: string) => string): HTMLElement {
  return h("section.hints", { dataset: { testid: "hints" } },
    h("button.hintbtn", { disabled: busy || hs?.loading, onclick: ask, title: "a search from your seat's view (about 2 s)" },
      hs?.loading ? "Thinking…" : "Hint"),
    hs?.loading && hs.slow ? h("span.slow", { role: "status" }, "still thinking: the server is busy, the hint comes when a worker is free") : null,
    hs?.error ? h("span.error", { role: "alert", dataset: { testid: "hint-error" } }, hs.error) : null,
    hs && hs.hints.length ? h("ol.hintlist", hs.hints.map((x, i) => h(`li${i === 0 ? ".best" : ""}`, { dataset: { action: x.action } },
      h("span.ha", label(x.action)),
      h("span.hv", { title: "the search's estimate from your seat's view" }, hintValue(x)),
      h("span.hn", { title: "search samples that tried it" }, `${x.visits} samples`),
      x.reason ? h("span.hr", { title: "why: what it changes at once, from your view" }, x.reason) : null))) : null,
  );
}

/** Table chat: messages (and the server's notices) and, for a seated player where talking is allowed, a line. */
export class ChatPanel {
  messages: ChatMessage[] = [];
  pos = 0;
  error = "";
  el = h("section.chat", { dataset: { testid: "chat" } });
  private list = h("ol.chatlist");
  private input = h("input", { type: "text", maxlength: 500, placeholder: "Say something to the table", "aria-label": "chat line" }) as HTMLInputElement;

  constructor(private id: string, private token: string | null, private talk: boolean, private names: string[]) {
    const form = h("form.chatform", {
      onsubmit: (e: Event) => {
        e.preventDefault();
        void this.send();
      },
    }, this.input, h("button", { type: "submit" }, "Send"));
    mount(this.el, h("h3", talk ? "Table chat" : "Table notices"), this.list, talk && token ? form : null);
  }

  /** Messages from index `start` on (a socket push or a fetch); duplicates and gaps are handled by index. */
  merge(start: number, msgs: ChatMessage[], chatPos: number): void {
    if (start > this.pos) {
      void this.catchUp();
      return;
    }
    for (const m of msgs) if (m.index >= this.pos) {
      this.messages.push(m);
      this.pos = m.index + 1;
    }
    void chatPos;
    this.draw();
  }

  async catchUp(): Promise<void> {
    try {
      const r = await api.chat(this.id, this.pos);
      this.merge(r.start, r.messages, r.chat_pos);
    } catch {
      /* the socket's next push retries */
    }
  }

  /** The rematch announced at this table (its game id, and who started it), if any. */
  rematch(): { id: string; seat: number | null } | null {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i];
      if (m.kind === "rematch" && /^[0-9a-f]{1,32}$/.test(m.text)) return { id: m.text, seat: m.seat };
    }
    return null;
  }

  visible(): boolean {
    return this.talk || this.messages.length > 0;
  }

  draw(): void {
    const errs = this.el.querySelector(".error");
    errs?.remove();
    mount(this.list, this.messages.map((m) => h(`li.${m.kind}`, { dataset: { index: String(m.index) } },
      m.kind === "notice" ? h("i", named(m.text, this.names))
        : m.kind === "rematch" ? h("i", `${m.seat !== null ? this.names[m.seat] ?? m.name : m.name} started a rematch`)
        : [h("b", `${m.seat !== null ? this.names[m.seat] ?? m.name : m.name}: `), m.text])));
    if (this.error) this.el.appendChild(h("div.error", { role: "alert" }, this.error));
    this.list.scrollTop = this.list.scrollHeight;
  }

  async send(): Promise<void> {
    const text = this.input.value.trim();
    if (!text || !this.token) return;
    this.error = "";
    try {
      await api.say(this.id, this.token, text);
      this.input.value = "";
      await this.catchUp();
    } catch (e) {
      this.error = e instanceof ApiError ? e.detail : "the line was not sent";
      this.draw();
    }
  }
}

/**
 * The replay viewer of a finished game: the table as one seat saw it at each step, every seat's hand laid open,
 * and first / previous / next / last (also ← → Home End). Steps come from the server (the client has no engine).
 */
export class ReplayViewer {
  step = 0;
  steps = 0;
  seen = 0;
  data: ReplayStep | null = null;
  error = "";
  el = h("section.replay", { dataset: { testid: "replay" } });
  /** Shown above the replay (the post-game review: web/src/review.ts). */
  above: HTMLElement | null = null;
  private loading = 0;
  private target = 0;

  constructor(private id: string, private module: TableModule, private names: string[], private close: () => void, seat: number | null) {
    this.seen = seat ?? 0;
  }

  async go(step: number): Promise<void> {
    this.target = step; // keys pressed before the step arrives count from the step asked for
    const ticket = ++this.loading;
    try {
      const got = await api.replay(this.id, Math.max(0, step));
      if (ticket !== this.loading) return;
      this.data = got;
      this.step = got.step;
      this.steps = got.steps;
      this.error = "";
    } catch (e) {
      this.error = e instanceof ApiError ? e.detail : "the replay step could not be loaded";
    }
    this.draw();
  }

  key(e: KeyboardEvent): boolean {
    const to = { ArrowLeft: this.target - 1, ArrowRight: this.target + 1, Home: 0, End: this.steps }[e.key];
    if (to === undefined || !this.data) return false;
    void this.go(Math.min(this.steps, Math.max(0, to)));
    return true;
  }

  draw(): void {
    const d = this.data;
    const ui: TableUi = {
      seat: this.seen, names: this.names, legal: [], clickable: new Set(), selected: [],
      click: () => {}, act: () => {},
    };
    const btn = (label: string, title: string, to: number, testid: string, off: boolean) =>
      h("button.step", { title, disabled: off || !d, dataset: { testid }, onclick: () => void this.go(to) }, label);
    const controls = h("div.replaybar",
      btn("|◀", "first (Home)", 0, "replay-first", this.step <= 0),
      btn("◀", "previous (←)", this.step - 1, "replay-prev", this.step <= 0),
      h("span.stepno", { dataset: { testid: "replay-step" } }, `step ${this.step} / ${this.steps}`),
      btn("▶", "next (→)", this.step + 1, "replay-next", this.step >= this.steps),
      btn("▶|", "last (End)", this.steps, "replay-last", this.step >= this.steps),
      h("label.seen", "seen by ", h("select", {
        onchange: (e: Event) => {
          this.seen = Number((e.target as HTMLSelectElement).value);
          this.draw();
        },
      }, this.names.map((n, p) => h("option", { value: String(p), selected: p === this.seen }, n)))),
      h("button.closereplay", { onclick: this.close }, "Back to the result"),
    );
    const action = d ? (d.action ? `${this.step}. ${this.module.label?.(d.action, d.views[this.seen]) ?? d.action}` : "the deal, before any move") : "loading…";
    const board = d ? this.module.render(d.views[this.seen], ui) : null;
    if (board) board.dataset.step = String(this.step);
    const hands = d ? h("section.hands", { dataset: { testid: "replay-hands" } }, h("h3", "All hands, laid open"),
      d.views.map((v, p) => h("div.openhand", { dataset: { seat: String(p) } }, h("div.who", this.names[p] ?? `p${p}`),
        this.module.hand?.(v, { ...ui, seat: p }) ?? h("pre", JSON.stringify(v.hand ?? null))))) : null;
    mount(this.el, this.above, h("h2", "Replay"), controls, h("p.replayaction", { dataset: { testid: "replay-action" } }, action),
      this.error ? h("div.error", { role: "alert" }, this.error) : null, hands, h("div.replayboard", board));
  }
}
