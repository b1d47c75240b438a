// The table's drawing: header (turn notice, who decided, clock, connection), the game's own table from its module
// (web/src/games/<game>.ts), the legal actions, the end panel and replay, hints, rules help, chat and history. It
// reads the session and sends through it; it holds only what is on screen (the selection, the hint, the replay).
import { accountApi, currentAccount } from "./account";
import { api, ApiError, explainAction, SESSION_SEAT, type GameHelp, type GameInfo, type SeatState } from "./api";
import { focusedKey, h, mount, patchTree, refocus } from "./dom";
import { deciders, type Feature } from "./features";
import type { TableModule, TableUi } from "./games/types";
import { named, namedFor } from "./games/util";
import { renderEntry } from "./logbook";
import { ChatPanel, hintsBox, MoveClock, ReplayViewer, type HintState } from "./panels";
import { Picker } from "./pick";
import { ReviewPanel } from "./review";
import { tableRedrawn, tutorialAllows } from "./tutorial";
import type { Session } from "./session";
import { askNotify, callToAct, canAskNotify, notifyAllowed, setFavicon, setSound, soundOn, tableTitle, unlockAudio } from "./attention";
import { markLast, reducedMotion, settle, snapshot } from "./motion";
import { currentPace, PACE_CHOICES, PACE_KEY } from "./pacing";

export interface ViewSetup {
  id: string;
  info: GameInfo;
  token: string | null;
  names: string[];
  module: TableModule;
  session: Session;
  chat: ChatPanel;
  /** Whether the socket is open (the header says "live" or "reconnecting…"). */
  connected: () => boolean;
  /** Whether the seat token was revoked (the header says "seat given away": nothing reconnects). */
  revoked: () => boolean;
  /** Show at once the updates the pacing holds back (the player acts, or sets the pause to none). */
  flush?: () => void;
  /** How many updates the pacing holds back. */
  waiting?: () => number;
  /** The rematch: create it or take this seat in it (table.ts). */
  rematch?: () => Promise<void>;
  /** The rematch announced at this table (the chat's `rematch` message), if any. */
  rematchOf?: () => { id: string; seat: number | null } | null;
}

export class TableView {
  readonly clock = new MoveClock();
  features: Feature[] = [];
  private help: GameHelp | null = null;
  private picker = new Picker();
  private wasMyTurn = false;
  private renderedLog = 0;
  private clockSeq = -1;
  private hint: HintState | null = null;
  private replay: ReplayViewer | null = null;
  private baseTitle: string;
  /** The seq of the picture on the table, and the components its last change moved (the last-move mark). */
  private drawnSeq = -1;
  private lastKeys = new Set<string>();
  private rematchError = "";
  /** The pause setting, made once (a redraw of the header must not close its open list). */
  private paceBox: HTMLElement | null = null;
  private rematching = false;
  /** The seat's mode as this page last learned it ("left", "conceded": see seatBox); null: the game info's. */
  private seatMode: string | null = null;
  private seatBusy = false;
  private seatNote = "";
  private attached = false;
  /** Whether the game is competitive (it can be conceded): from the game's meta, asked once. */
  private competitive = false;
  private els = {
    header: h("header.tablehead"),
    table: h("main.table"),
    side: h("aside.side"),
    actions: h("section.actions"),
    history: h("ol.history", { tabIndex: 0, "aria-label": "History of the game" }), // scrollable: reachable by keyboard
    extras: h("div.extras"),
    help: h("details.rules", { dataset: { testid: "rules" } }, h("summary", "Rules help")),
  };

  constructor(root: HTMLElement, private o: ViewSetup) {
    document.addEventListener("pointerdown", unlockAudio, { once: true });
    this.baseTitle = `${o.info.title} · tabletop`;
    document.title = this.baseTitle;
    const els = this.els;
    mount(els.side, els.actions, els.help, els.extras,
      h("section.historybox", h("h3", "History"), els.history));
    mount(root, h("div.tablepage", els.header, h("div.tablebody", els.table, els.side)));
    void api.meta().then((games) => {
      this.competitive = games.some((g) => g.name === o.info.game && !g.cooperative);
      this.renderActions();
    }).catch(() => {});
  }

  private get state(): SeatState | null {
    return this.o.session.state;
  }

  private myTurn(): boolean {
    return this.o.session.myTurn();
  }

  private act(action: string): void {
    if (!this.o.session.canSend) return;
    if (!tutorialAllows(action)) { // a tutorial's lesson explains a move that is not its step's, and keeps it
      this.picker.reset();
      this.render();
      return;
    }
    this.o.flush?.();
    this.picker.reset();
    void this.o.session.act(action);
  }

  private undo(): void {
    if (!this.o.session.canSend) return;
    this.picker.reset();
    void this.o.session.undo();
  }

  private ui(): TableUi {
    const { session } = this.o;
    return {
      seat: this.state?.seat ?? null,
      names: this.o.names,
      legal: this.state?.legal ?? [],
      clickable: session.busy ? new Set() : this.picker.clickable(),
      selected: this.picker.selected,
      click: (key) => {
        if (session.busy || !this.myTurn()) return;
        const r = this.picker.click(key);
        if (r.kind === "submit") this.act(r.action);
        else if (r.kind === "select") this.render();
      },
      act: (a) => this.act(a),
      term: (name) => this.help?.terms[name] ?? "",
      explain: (a) => explainAction(this.help, a),
    };
  }

  /** The session took a new picture: clock, turn sound and title follow it, then the table is drawn. */
  took(s: SeatState, first: boolean): void {
    if (s.seq !== this.clockSeq) {
      this.clockSeq = s.seq;
      if (s.status === "playing") void this.clock.refresh(this.o.id, s.seq);
      else { this.clock.info = null; this.clock.tick(); }
    }
    const mine = this.myTurn();
    if (mine && !this.wasMyTurn && !first) callToAct(`Your turn · ${this.o.info.title}`, this.decisionText() || "your decision");
    document.title = tableTitle(this.baseTitle, mine, s.status === "over");
    setFavicon(mine);
    this.wasMyTurn = mine;
    this.render();
  }

  private decisionText(): string {
    const d = this.state?.view.decision;
    return typeof d === "string" ? named(d, this.o.names) : "";
  }

  renderHeader(): void {
    if (!this.state) return;
    const { info, names } = this.o;
    const s = this.state;
    const myTurn = this.myTurn();
    const who = s.deciding?.length ? s.deciding : deciders(s.to_move);
    const decided = s.decided ?? [];
    const aiThinking = s.status === "playing" && who.some((p) => info.seats[p]?.kind === "ai");
    const decision = typeof s.view.decision === "string" ? namedFor(s.view.decision, names, s.seat) : "";
    let line: string;
    if (s.status === "waiting") line = "Waiting for players to take their seats";
    else if (s.status === "over") line = "The game is over";
    else if (s.status === "expired") line = "This game expired: its seats were not all taken in time";
    else if (myTurn) line = `Your turn: ${decision.replace(/^You: /, "").replace(/^You\b/, "you") || "your decision"}`;
    else line = decision ? `${decision}` : `${who.map((p) => names[p]).join(", ")} to decide`;
    if (s.status === "playing" && !myTurn && who.length > 1) line = `${who.map((p) => names[p]).join(", ")} deciding`;
    const waitingFor = who.filter((p) => !decided.includes(p));
    if (s.status === "playing" && s.seat !== null && decided.includes(s.seat) && !myTurn) {
      line = `You have decided; waiting for ${waitingFor.map((p) => names[p]).join(", ") || "the others"}`;
    }
    const decidedEl = s.status === "playing" && (decided.length || who.length > 1)
      ? h("span.decided", { dataset: { testid: "decided" }, title: "who has decided (what they chose stays secret until it is revealed)" },
        [...new Set([...who, ...decided])].sort((a, b) => a - b).map((p) =>
          h(`span.dec${decided.includes(p) ? ".done" : ""}`, decided.includes(p) ? "✓ " : "… ", names[p])))
      : null;
    const you = s.seat === null ? "spectating" : `you are ${names[s.seat]}`;
    const soundBox = h("label.sound", { title: "a short tone when your turn comes while this tab is hidden" }, h("input", {
      type: "checkbox", checked: soundOn(),
      onchange: (e: Event) => {
        setSound((e.target as HTMLInputElement).checked);
        unlockAudio();
      },
    }), " sound");
    const pace = currentPace();
    const paceBox = this.paceBox ??= h("label.pace", { title: "how long the table pauses on each move of the other players (and AI)" }, "moves ",
      h("select", {
        dataset: { testid: "pace" }, "aria-label": "pause between other players' moves",
        onchange: (e: Event) => {
          const v = (e.target as HTMLSelectElement).value;
          try { localStorage.setItem(PACE_KEY, v); } catch { /* not kept */ }
          if (v === "0") this.o.flush?.();
        },
      }, [...new Set([...PACE_CHOICES, pace])].sort((a, b) => a - b).map((ms) =>
        h("option", { value: String(ms), selected: ms === pace }, ms === 0 ? "instant" : `${ms / 1000} s each`))));
    const notifyBtn = s.seat !== null && canAskNotify()
      ? h("button.notify.small", { dataset: { testid: "notify" }, title: "a desktop notification when your turn comes while this tab is hidden",
        onclick: () => void askNotify().then(() => this.renderHeader()) }, "🔔 notify me")
      : s.seat !== null && notifyAllowed() ? h("span.notify.on", { title: "desktop notifications are on" }, "🔔") : null;
    const connected = this.o.connected();
    mount(this.els.header,
      h("a.home", { href: "/", title: "lobby" }, "⌂"),
      h("span.gtitle", info.title),
      h("span.you", you),
      h(`span.turn${myTurn ? ".mine" : ""}`, { dataset: { testid: "turn" } }, line),
      decidedEl,
      this.clock.el,
      aiThinking ? h("span.thinking", { dataset: { testid: "ai-thinking" } }, h("span.dots"), "AI is thinking") : null,
      h(`span.conn.${connected ? "on" : "off"}`, connected ? "live" : this.o.revoked() ? "seat given away" : "reconnecting…"),
      soundBox,
      paceBox,
      notifyBtn,
    );
  }

  renderActions(): void {
    const state = this.state;
    if (!state) return;
    const { module, token, session, chat } = this.o;
    const { busy, error } = session;
    const picker = this.picker;
    const paths = module.paths(state.legal, state.view);
    const unbound = Picker.unbound(state.legal, paths);
    const label = (a: string) => module.label?.(a, state.view) ?? a;
    const why = (a: string) => explainAction(this.help, a);
    const parts = [];
    if (error) parts.push(h("div.error", { role: "alert" }, error));
    if (state.status === "over" && !this.replay) {
      const res = module.result?.(state.view, this.ui()) ?? genericResult(state);
      res.dataset.testid = "score";
      parts.push(res);
      parts.push(this.rematchBox());
      parts.push(h("button.replaybtn", { dataset: { testid: "replay-open" }, onclick: () => this.openReplay() },
        "▶ Replay the game, all hands open"));
    }
    if (state.status === "playing" && (state.undoable ?? 0) > 0 && token) {
      parts.push(h("button.undo", { disabled: busy, dataset: { testid: "undo" }, onclick: () => this.undo(),
        title: "take back your last action (allowed while no one else has acted and nothing hidden was revealed)" },
        `↶ Undo${(state.undoable ?? 0) > 1 ? ` (${state.undoable} possible)` : ""}`));
    }
    if (this.myTurn()) {
      const since = this.sinceLastTurn();
      if (since) parts.push(since);
      parts.push(h("h3", "Your move"));
      if (picker.selected.length) {
        parts.push(h("div.selection", `Selected: ${picker.selected.map((k) => module.keyLabel?.(k, state.view) ?? k).join(" → ")} `,
          h("button.cancel", { onclick: () => { picker.reset(); this.render(); } }, "cancel")));
      }
      if (paths.size) parts.push(h("p.hint", module.hintLine ?? "Click a highlighted component on the table."));
      if (token) {
        const current = this.hint && this.hint.seq === state.seq ? this.hint : null;
        parts.push(hintsBox(current, () => void this.askHint(), busy, label));
      }
      const ahead = nextActions(paths, picker.selected);
      const lines = [...new Set(ahead.map(why).filter(Boolean))].slice(0, 4);
      if (lines.length) parts.push(h("ul.why", { dataset: { testid: "explain" } }, lines.map((t) => h("li", t))));
      parts.push(h("div.buttons", unbound.map((a) =>
        h("button.act", { disabled: busy, dataset: { action: a }, title: why(a), onclick: () => this.act(a) }, label(a)))));
      const unboundWhy = [...new Set(unbound.map((a) => (why(a) ? `${label(a)}: ${why(a)}` : "")).filter(Boolean))];
      if (unboundWhy.length) parts.push(h("ul.why.buttons-why", unboundWhy.map((t) => h("li", t))));
      parts.push(h("details.all", h("summary", `All legal actions (${state.legal.length})`),
        h("div.buttons", state.legal.map((a) =>
          h("button.act.small", { disabled: busy, dataset: { action: a }, title: why(a), onclick: () => this.act(a) }, a)))));
    }
    // the seat's own choices (leave, concede, keep in the account) last, below the move: never the first thing clicked
    if (state.status === "playing" && token && state.seat !== null) parts.push(this.seatBox(token, state.seat));
    mount(this.els.actions, parts);
    mount(this.els.extras, this.features.map((f) => f.panel({ gameId: this.o.id, token, state })),
      chat.visible() ? chat.el : null);
  }

  /** The seats' names changed (a seat was taken after the page loaded): the history and the table drawn again. */
  renamed(): void {
    this.els.history.replaceChildren();
    this.renderedLog = 0;
    this.renderHistory();
    this.render();
  }

  renderHistory(): void {
    const { log, lastFrom } = this.o.session;
    const history = this.els.history;
    if (this.renderedLog > log.length) {
      history.replaceChildren(); // an undo took entries back
      this.renderedLog = 0;
    }
    for (let i = this.renderedLog; i < log.length; i++) {
      const e = log.entries[i];
      history.appendChild(h("li", { dataset: { index: String(i) } }, renderEntry(e, this.o.names, this.state?.seat ?? null)));
    }
    if (log.length > this.renderedLog) history.scrollTop = history.scrollHeight; // the list only, not the page
    this.renderedLog = log.length;
    // the last move's entries stay marked until the next one
    for (const li of history.children as HTMLCollectionOf<HTMLElement>) {
      const last = Number(li.dataset.index) >= lastFrom;
      li.classList.toggle("last", last);
      if (last) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
    }
  }

  /** What the others did since this seat's last decision (its own log, as the history words it). */
  private sinceLastTurn(): HTMLElement | null {
    const { log } = this.o.session;
    const me = this.state?.seat;
    if (me === null || me === undefined) return null;
    let from = log.length;
    while (from > 0 && log.entries[from - 1].seat !== me) from--;
    const others = log.entries.slice(from).filter((e) => e.seat !== me);
    if (!others.length) return null;
    const shown = others.slice(-8);
    return h("section.since", { dataset: { testid: "since" }, "aria-label": "since your last turn" },
      h("h4", from === 0 ? "So far" : "Since your last turn"),
      others.length > shown.length ? h("p.small", `… ${others.length - shown.length} earlier (see the history)`) : null,
      h("ol", shown.map((e) => h("li", renderEntry(e, this.o.names, me)))));
  }

  /**
   * The seat's own choices while the game runs (issue 23): leave it to the AI at the table's leaver level and take
   * it back, concede a competitive game, keep a guest seat in the signed-in account. Each asks the server; its
   * answer (or refusal, in words) shows here.
   */
  private seatBox(token: string, seat: number): HTMLElement {
    const mode = this.seatMode ?? this.o.info.seats[seat]?.mode ?? "";
    const ask = (what: string, run: () => Promise<string>) => () => {
      if (what && !window.confirm(what)) return;
      this.seatBusy = true;
      this.renderActions();
      void run().then((said) => { this.seatNote = said; })
        .catch((e: unknown) => { this.seatNote = e instanceof ApiError ? e.detail : "the server did not answer; try again"; })
        .finally(() => { this.seatBusy = false; this.renderActions(); });
    };
    const id = this.o.id;
    const buttons: HTMLElement[] = [];
    if (mode === "left") {
      buttons.push(h("button.takeback", { dataset: { testid: "takeback" }, disabled: this.seatBusy,
        onclick: ask("", async () => { await api.takeBack(id, token); this.seatMode = "seated"; return "Your seat is yours again."; }) },
      "Take my seat back"));
    } else if (mode !== "conceded") {
      buttons.push(h("button.leave", { dataset: { testid: "leave" }, disabled: this.seatBusy,
        title: "an AI plays your seat from now on (unrated); you can take it back while the game runs",
        onclick: ask("Leave the game? An AI plays your seat until you take it back.", async () => {
          const r = await api.leave(id, token);
          this.seatMode = "left";
          return `You left: the AI (${r.ai}) plays your seat.`;
        }) }, "Leave the game"));
      if (this.competitive) {
        buttons.push(h("button.concede", { dataset: { testid: "concede" }, disabled: this.seatBusy,
          title: "with two players the other wins at once; with more you are placed last and an AI finishes your seat",
          onclick: ask("Concede the game? This cannot be taken back.", async () => {
            const r = await api.concede(id, token);
            this.seatMode = "conceded";
            return r.over ? "You conceded." : `You conceded: the AI (${r.ai ?? ""}) plays your seat to the end.`;
          }) }, "Concede"));
      }
    }
    if (currentAccount() && token !== SESSION_SEAT && !this.attached) {
      buttons.push(h("button.attach", { dataset: { testid: "attach" }, disabled: this.seatBusy,
        title: "bind this seat to your account: every device signed in to it can play it",
        onclick: ask("", async () => {
          await accountApi.attach(id, token);
          this.attached = true;
          return "This seat is kept in your account: sign in on any device to play it.";
        }) }, "Keep this seat in my account"));
    }
    return h("div.seatbox", { dataset: { testid: "seatbox" } }, ...buttons,
      this.seatNote ? h("p.small", { role: "status" }, this.seatNote) : null);
  }

  /** The end: the rematch (create it, or take this seat in the one a player made) and the way back to the lobby. */
  private rematchBox(): HTMLElement {
    const made = this.o.rematchOf?.() ?? null;
    const { token, names } = this.o;
    const who = made && made.seat !== null ? names[made.seat] ?? "a player" : "a player";
    let action: HTMLElement | null = null;
    if (token && this.o.rematch) {
      action = h("button.rematch", {
        dataset: { testid: "rematch" }, disabled: this.rematching,
        title: "a new game with the same options and AI seats; each player of this table is offered its seat there",
        onclick: () => {
          this.rematching = true;
          this.rematchError = "";
          this.renderActions();
          void this.o.rematch!().catch((e: unknown) => {
            this.rematchError = e instanceof ApiError ? e.detail : "the rematch could not be made; try again";
          }).finally(() => {
            this.rematching = false;
            this.renderActions();
          });
        },
      }, made ? `↻ ${who} started a rematch: take your seat` : "↻ Rematch: the same game again");
    } else if (made) {
      action = h("a.rematch", { href: `/g/${made.id}`, "data-link": "", dataset: { testid: "rematch-watch" } }, `↻ ${who} started a rematch: watch it`);
    }
    return h("div.endnav", action,
      this.rematchError ? h("div.error", { role: "alert" }, this.rematchError) : null,
      h("a.lobby", { href: "/", "data-link": "", dataset: { testid: "lobby" } }, "⌂ Back to the lobby"));
  }

  render(): void {
    const state = this.state;
    if (!state) return;
    const { module } = this.o;
    this.picker.setPaths(module.paths(state.legal, state.view));
    this.renderHeader();
    const old = this.replay ? null : this.els.table.firstElementChild;
    const fresh = state.seq !== this.drawnSeq;
    const before = fresh && this.drawnSeq >= 0 && old instanceof HTMLElement && old.dataset.seq ? snapshot(old) : null;
    const t = module.render(state.view, this.ui());
    t.dataset.seq = String(state.seq);
    const focused = focusedKey(this.els.table);
    // the same picture drawn again (the rules help or a hint arrived, a selection changed): the drawn table is
    // brought up to date in place, so a click under way and the focus are not lost to the redraw
    const again = !this.replay && !fresh && old instanceof HTMLElement && old.dataset.seq === t.dataset.seq ? old : null;
    if (!again) mount(this.els.table, t);
    if (before) this.lastKeys = settle(before, t, reducedMotion());
    else if (fresh) this.lastKeys = new Set();
    this.drawnSeq = state.seq;
    markLast(t, this.lastKeys);
    annotateTargets(t, module.paths(state.legal, state.view), this.picker.selected, (a) => explainAction(this.help, a));
    this.markSuggested(t);
    if (again && !patchTree(again, t)) mount(this.els.table, t);
    if (this.replay) mount(this.els.table, this.replay.el);
    else refocus(this.els.table, focused);
    tableRedrawn();
    this.els.table.classList.toggle("myturn", this.myTurn());
    // a move or undo on its way: assistive technology (and a test) can tell the table is about to change
    this.els.table.setAttribute("aria-busy", String(this.o.session.busy));
    this.renderActions();
    this.renderHistory();
  }

  /** The hint's best action: its next component on the table is outlined as the suggestion. */
  private markSuggested(t: HTMLElement): void {
    const { state, hint, picker } = this;
    if (!state || !hint || hint.seq !== state.seq || !hint.hints.length) return;
    const path = this.o.module.paths(state.legal, state.view).get(hint.hints[0].action);
    const key = path?.[picker.selected.length];
    if (!key || !picker.selected.every((k, i) => path[i] === k)) return;
    for (const el of t.querySelectorAll<HTMLElement>("[data-key]")) if (el.dataset.key === key) el.classList.add("suggested");
  }

  private async askHint(): Promise<void> {
    const { id, token } = this.o;
    if (!this.state || !token) return;
    const seq = this.state.seq;
    const asked = { seq, loading: true, hints: [], error: "", slow: false };
    this.hint = asked;
    this.renderActions();
    const slow = setTimeout(() => {
      if (this.hint === asked) {
        asked.slow = true;
        this.renderActions();
      }
    }, 6000); // a hint takes about 2 s: past 6 the box says the server is busy
    try {
      const r = await api.hints(id, token);
      this.hint = { seq: r.seq, loading: false, hints: r.hints, error: r.hints.length ? "" : "No hint: the search found nothing to choose" };
    } catch (e) {
      const why = e instanceof ApiError ? e.detail : "the server cannot be reached";
      const refused = e instanceof ApiError && e.status === 429 ? `Hint refused: ${why}` : e instanceof ApiError && e.status === 503 ? `No hint now: ${why}` : `No hint: ${why}`;
      this.hint = { seq, loading: false, hints: [], error: refused };
    } finally {
      clearTimeout(slow);
    }
    this.render();
  }

  private openReplay(): void {
    let review: ReviewPanel | null = null;
    const replay = new ReplayViewer(this.o.id, this.o.module, this.o.names, () => {
      review?.close();
      this.replay = null;
      this.render();
    }, this.state?.seat ?? null);
    const seat = this.state?.seat ?? null;
    if (this.o.token && seat !== null) { // a player: the review of their own moves above the replay
      review = new ReviewPanel(this.o.id, this.o.token, (step) => void replay.go(step), () => replay.steps);
      replay.above = review.el;
      void review.load();
    }
    this.replay = replay;
    this.render();
    void replay.go(0);
  }

  /** Keys: the replay's, and Escape drops the selection. */
  onKey = (e: KeyboardEvent): void => {
    if (this.replay && !(e.target instanceof HTMLInputElement) && this.replay.key(e)) {
      e.preventDefault();
      return;
    }
    if (e.key === "Escape" && this.picker.selected.length) {
      this.picker.reset();
      this.render();
    }
  };

  /** The game's rules help, once loaded; a game without help data has no panel. */
  showHelp(got: GameHelp | null): void {
    if (!got) {
      this.els.help.remove();
      return;
    }
    this.help = got;
    mount(this.els.help, h("summary", `Rules help: ${got.title}`),
      got.rules.map((r) => h("section.rule", h("h4", r.title), h("p", r.text))));
    this.render();
  }

  showFeatures(f: Feature[]): void {
    this.features = f;
    if (this.state) this.renderActions();
  }
}

function genericResult(s: SeatState): HTMLElement {
  const r = s.view.result;
  return h("div.result", h("h2", "Game over"), r ? h("pre", JSON.stringify(r, null, 1)) : null);
}

/** The legal actions whose component path continues the selection (all bound actions when nothing is selected). */
export function nextActions(paths: Map<string, string[]>, selected: string[]): string[] {
  const out: string[] = [];
  for (const [a, p] of paths) if (p.length > selected.length && selected.every((k, i) => p[i] === k)) out.push(a);
  return out;
}

/** Each highlighted component says in its tooltip what clicking it leads to. */
function annotateTargets(root: HTMLElement, paths: Map<string, string[]>, selected: string[], why: (a: string) => string): void {
  const ahead = nextActions(paths, selected);
  for (const el of root.querySelectorAll<HTMLElement>(".target[data-key]")) {
    const key = el.dataset.key;
    const texts = [...new Set(ahead.filter((a) => paths.get(a)![selected.length] === key).map(why).filter(Boolean))];
    if (!texts.length) continue;
    const base = el.getAttribute("title");
    el.setAttribute("title", `${base ? `${base}\n` : ""}→ ${texts.slice(0, 2).join(" / ")}`);
  }
}
