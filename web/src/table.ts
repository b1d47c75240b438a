// The generic table shell: header, history, legal actions, turn notice, end panel, live updates and reconnect.
// The game's own components come from its table module (web/src/games/<game>.ts), drawn from the seat's view.
import { Answers, isAnswer, type SocketAnswer } from "./answers";
import { api, ApiError, explainAction, socketUrl, type ChatBatch, type GameHelp, type GameInfo, type SeatState, type StateMessage } from "./api";
import { h, mount } from "./dom";
import { deciders, detectFeatures, type Feature } from "./features";
import { tableFor } from "./games";
import type { TableUi } from "./games/types";
import { named } from "./games/util";
import { LogBook } from "./logbook";
import { ChatPanel, hintsBox, MoveClock, ReplayViewer, type HintState } from "./panels";
import { Picker } from "./pick";
import type { SeatStore } from "./store";

/** The close code of a socket whose seat token was revoked (docs/server.md). */
const TOKEN_REVOKED = 4401;

export function backoff(attempt: number): number {
  return Math.min(5000, 250 * 2 ** Math.min(attempt, 5));
}

/** Display names per seat: the seat's name (AI seats say so), numbered when two seats share a name. */
export function seatNames(info: Pick<GameInfo, "seats">): string[] {
  const base = info.seats.map((s) => (s.kind === "ai" && !/\bAI\b/.test(s.name) ? `${s.name} (AI ${s.ai ?? ""})` : s.name));
  return base.map((n, i) => (base.filter((m) => m === n).length > 1 ? `${n} #${i + 1}` : n));
}

function newId(): string {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

let soundOn = false;

function beep(): void {
  if (!soundOn) return;
  try {
    const ctx = new AudioContext();
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.frequency.value = 660;
    g.gain.value = 0.08;
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.15);
  } catch {
    /* no sound allowed: the title still says it */
  }
}

export async function showTable(root: HTMLElement, id: string, store: SeatStore, wanted: number | null): Promise<() => void> {
  let info: GameInfo;
  try {
    info = await api.info(id);
  } catch (e) {
    mount(root, h("div.page", h("h1", "Game not found"), h("p", (e as Error).message), h("a", { href: "/" }, "Back to the lobby")));
    return () => {};
  }
  soundOn = localStorage.getItem("tabletop.sound") === "1";
  const held = store.pick(id, wanted);
  const token = held?.token ?? null;
  const module = tableFor(info.game);
  const names = seatNames(info);
  const log = new LogBook();
  const picker = new Picker();
  let state: SeatState | null = null;
  let features: Feature[] = [];
  let error = "";
  let busy = false;
  let socket: WebSocket | null = null;
  const answers = new Answers();
  let attempts = 0;
  let closed = false;
  let connected = false;
  let wasMyTurn = false;
  let renderedLog = 0;
  let help: GameHelp | null = null;
  const hasChat = info.game !== "silencio"; // Silencio is played in silence: its table has notices only
  const chat = new ChatPanel(id, token, hasChat, names);
  const clock = new MoveClock();
  let clockSeq = -1;
  let hint: HintState | null = null;
  let replay: ReplayViewer | null = null;
  const baseTitle = `${info.title} · tabletop`;
  document.title = baseTitle;

  const els = {
    header: h("header.tablehead"),
    table: h("main.table"),
    side: h("aside.side"),
    actions: h("section.actions"),
    history: h("ol.history"),
    extras: h("div.extras"),
    help: h("details.rules", { dataset: { testid: "rules" } }, h("summary", "Rules help")),
  };
  mount(els.side, els.actions, els.help, els.extras,
    h("section.historybox", h("h3", "History"), els.history));
  mount(root, h("div.tablepage", els.header, h("div.tablebody", els.table, els.side)));

  // A seat may act whenever it owes a decision: on its turn, and at once in a simultaneous step (a bid).
  const myTurn = () => !!state && state.status === "playing" && (state.owes_decision ?? true) && state.legal.length > 0;

  function ui(): TableUi {
    return {
      seat: state?.seat ?? null,
      names,
      legal: state?.legal ?? [],
      clickable: busy ? new Set() : picker.clickable(),
      selected: picker.selected,
      click: (key) => {
        if (busy || !myTurn()) return;
        const r = picker.click(key);
        if (r.kind === "submit") void act(r.action);
        else if (r.kind === "select") render();
      },
      act: (a) => void act(a),
      term: (name) => help?.terms[name] ?? "",
      explain: (a) => explainAction(help, a),
    };
  }

  function renderHeader(): void {
    if (!state) return;
    const s = state;
    const who = s.deciding?.length ? s.deciding : deciders(s.to_move);
    const decided = s.decided ?? [];
    const aiThinking = s.status === "playing" && who.some((p) => info.seats[p]?.kind === "ai");
    const decision = typeof s.view.decision === "string" ? named(s.view.decision, names) : "";
    let line: string;
    if (s.status === "waiting") line = "Waiting for players to take their seats";
    else if (s.status === "over") line = "The game is over";
    else if (s.status === "expired") line = "This game expired: its seats were not all taken in time";
    else if (myTurn()) line = `Your turn: ${decision || "your decision"}`;
    else line = decision ? `${decision}` : `${who.map((p) => names[p]).join(", ")} to decide`;
    if (s.status === "playing" && !myTurn() && who.length > 1) line = `${who.map((p) => names[p]).join(", ")} deciding`;
    const waitingFor = who.filter((p) => !decided.includes(p));
    if (s.status === "playing" && s.seat !== null && decided.includes(s.seat) && !myTurn()) {
      line = `You have decided; waiting for ${waitingFor.map((p) => names[p]).join(", ") || "the others"}`;
    }
    const decidedEl = s.status === "playing" && (decided.length || who.length > 1)
      ? h("span.decided", { dataset: { testid: "decided" }, title: "who has decided (what they chose stays secret until it is revealed)" },
        [...new Set([...who, ...decided])].sort((a, b) => a - b).map((p) =>
          h(`span.dec${decided.includes(p) ? ".done" : ""}`, decided.includes(p) ? "✓ " : "… ", names[p])))
      : null;
    const you = s.seat === null ? "spectating" : `you are ${names[s.seat]}`;
    const soundBox = h("label.sound", h("input", {
      type: "checkbox", checked: soundOn,
      onchange: (e: Event) => {
        soundOn = (e.target as HTMLInputElement).checked;
        localStorage.setItem("tabletop.sound", soundOn ? "1" : "0");
      },
    }), " sound");
    mount(els.header,
      h("a.home", { href: "/", title: "lobby" }, "⌂"),
      h("span.gtitle", info.title),
      h("span.you", you),
      h(`span.turn${myTurn() ? ".mine" : ""}`, { dataset: { testid: "turn" } }, line),
      decidedEl,
      clock.el,
      aiThinking ? h("span.thinking", { dataset: { testid: "ai-thinking" } }, h("span.dots"), "AI is thinking") : null,
      h(`span.conn.${connected ? "on" : "off"}`, connected ? "live" : "reconnecting…"),
      soundBox,
    );
  }

  function renderActions(): void {
    if (!state) return;
    const paths = module.paths(state.legal, state.view);
    const unbound = Picker.unbound(state.legal, paths);
    const label = (a: string) => module.label?.(a, state!.view) ?? a;
    const why = (a: string) => explainAction(help, a);
    const parts = [];
    if (error) parts.push(h("div.error", { role: "alert" }, error));
    if (state.status === "over" && !replay) {
      const res = module.result?.(state.view, ui()) ?? genericResult(state);
      res.dataset.testid = "score";
      parts.push(res);
      parts.push(h("button.replaybtn", { dataset: { testid: "replay-open" }, onclick: () => openReplay() },
        "▶ Replay the game, all hands open"));
    }
    if (state.status === "playing" && (state.undoable ?? 0) > 0 && token) {
      parts.push(h("button.undo", { disabled: busy, dataset: { testid: "undo" }, onclick: () => void undo(),
        title: "take back your last action (allowed while no one else has acted and nothing hidden was revealed)" },
        `↶ Undo${(state.undoable ?? 0) > 1 ? ` (${state.undoable} possible)` : ""}`));
    }
    if (myTurn()) {
      parts.push(h("h3", "Your move"));
      if (picker.selected.length) {
        parts.push(h("div.selection", `Selected: ${picker.selected.map((k) => module.keyLabel?.(k, state!.view) ?? k).join(" → ")} `,
          h("button.cancel", { onclick: () => { picker.reset(); render(); } }, "cancel")));
      }
      if (paths.size) parts.push(h("p.hint", module.hintLine ?? "Click a highlighted component on the table."));
      if (token) {
        const current = hint && hint.seq === state.seq ? hint : null;
        parts.push(hintsBox(current, () => void askHint(), busy, label));
      }
      const ahead = nextActions(paths, picker.selected);
      const lines = [...new Set(ahead.map(why).filter(Boolean))].slice(0, 4);
      if (lines.length) parts.push(h("ul.why", { dataset: { testid: "explain" } }, lines.map((t) => h("li", t))));
      parts.push(h("div.buttons", unbound.map((a) =>
        h("button.act", { disabled: busy, dataset: { action: a }, title: why(a), onclick: () => void act(a) }, label(a)))));
      const unboundWhy = [...new Set(unbound.map((a) => (why(a) ? `${label(a)}: ${why(a)}` : "")).filter(Boolean))];
      if (unboundWhy.length) parts.push(h("ul.why.buttons-why", unboundWhy.map((t) => h("li", t))));
      parts.push(h("details.all", h("summary", `All legal actions (${state.legal.length})`),
        h("div.buttons", state.legal.map((a) =>
          h("button.act.small", { disabled: busy, dataset: { action: a }, title: why(a), onclick: () => void act(a) }, a)))));
    }
    mount(els.actions, parts);
    mount(els.extras, features.map((f) => f.panel({ gameId: id, token, state: state! })),
      chat.visible() ? chat.el : null);
  }

  function renderHistory(): void {
    if (renderedLog > log.length) {
      els.history.replaceChildren();
      renderedLog = 0;
    }
    for (let i = renderedLog; i < log.length; i++) {
      const e = log.entries[i];
      els.history.appendChild(h("li", { dataset: { index: String(i) } }, named(e.text, names)));
    }
    if (log.length > renderedLog) els.history.scrollTop = els.history.scrollHeight; // the list only, not the page
    renderedLog = log.length;
  }

  function render(): void {
    if (!state) return;
    picker.setPaths(module.paths(state.legal, state.view));
    renderHeader();
    const t = module.render(state.view, ui());
    t.dataset.seq = String(state.seq);
    mount(els.table, t);
    annotateTargets(t, module.paths(state.legal, state.view), picker.selected, (a) => explainAction(help, a));
    markSuggested(t);
    if (replay) mount(els.table, replay.el);
    els.table.classList.toggle("myturn", myTurn());
    renderActions();
    renderHistory();
  }

  /** The hint's best action: its next component on the table is outlined as the suggestion. */
  function markSuggested(t: HTMLElement): void {
    if (!state || !hint || hint.seq !== state.seq || !hint.hints.length) return;
    const path = module.paths(state.legal, state.view).get(hint.hints[0].action);
    const key = path?.[picker.selected.length];
    if (!key || !picker.selected.every((k, i) => path[i] === k)) return;
    for (const el of t.querySelectorAll<HTMLElement>("[data-key]")) if (el.dataset.key === key) el.classList.add("suggested");
  }

  async function askHint(): Promise<void> {
    if (!state || !token) return;
    const seq = state.seq;
    hint = { seq, loading: true, hints: [], error: "" };
    renderActions();
    try {
      const r = await api.hints(id, token);
      hint = { seq: r.seq, loading: false, hints: r.hints, error: "" };
    } catch (e) {
      hint = { seq, loading: false, hints: [], error: e instanceof ApiError ? e.detail : "no hint now" };
    }
    render();
  }

  async function undo(): Promise<void> {
    if (!state || !token || busy) return;
    busy = true;
    error = "";
    picker.reset();
    render();
    try {
      const r = await api.undo(id, token, 1, state.seq, newId());
      if (r.state) accept(r.state);
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && e.body.state) accept(e.body.state as SeatState);
      error = e instanceof ApiError ? `Not undone: ${e.detail}` : "The server cannot be reached; nothing was undone.";
    } finally {
      busy = false;
      render();
    }
  }

  function openReplay(): void {
    replay = new ReplayViewer(id, module, names, () => {
      replay = null;
      render();
    }, state?.seat ?? null);
    render();
    void replay.go(0);
  }

  function accept(s: SeatState): void {
    if (state && s.seq < state.seq) return; // updates may be coalesced, never reordered backwards
    // The same picture again (the socket's echo of a move the REST answer already showed): nothing to redraw, so
    // the table under the player's pointer is not replaced while they aim at it.
    if (state && s.seq === state.seq && samePicture(state, s)) return;
    const first = state === null;
    state = s;
    if (s.seq !== clockSeq) {
      clockSeq = s.seq;
      if (s.status === "playing") void clock.refresh(id, s.seq);
      else { clock.info = null; clock.tick(); }
    }
    const mine = myTurn();
    if (mine && !wasMyTurn && !first) beep();
    document.title = mine ? `● Your turn · ${baseTitle}` : s.status === "over" ? `Game over · ${baseTitle}` : baseTitle;
    wasMyTurn = mine;
    render();
    if (log.behind(s.log_pos)) void catchUp();
  }

  let catching = false;
  async function catchUp(): Promise<void> {
    if (catching) return;
    catching = true;
    try {
      while (state && log.behind(state.log_pos)) {
        const r = await api.log(id, token, log.length);
        if (!r.entries.length) break;
        log.merge(r.start, r.entries);
      }
      renderHistory();
    } catch {
      /* the socket's next message or reconnect catches up */
    } finally {
      catching = false;
    }
  }

  function onMessage(m: StateMessage | (ChatBatch & { type: "chat" }) | SocketAnswer): void {
    if (isAnswer(m)) {
      answers.take(m);
      return;
    }
    if (m.type === "chat") {
      chat.merge(m.start, m.messages, m.chat_pos);
      if (state) renderActions();
      return;
    }
    if (m.type !== "state") return;
    if (log.merge(m.log_start, m.log) === "gap") void catchUp();
    accept(m);
  }

  function connect(): void {
    if (closed) return;
    const ws = new WebSocket(socketUrl(location, id, token, log.length, chat.pos));
    socket = ws;
    ws.onopen = () => {
      attempts = 0;
      connected = true;
      renderHeader();
    };
    ws.onmessage = (ev) => {
      try {
        onMessage(JSON.parse(String(ev.data)) as StateMessage | (ChatBatch & { type: "chat" }) | SocketAnswer);
      } catch (e) {
        console.error(e);
      }
    };
    ws.onclose = (ev) => {
      if (socket !== ws) return;
      answers.dropAll();
      connected = false;
      if (ev.code === TOKEN_REVOKED) {
        // the creator re-seated this seat: the token is spent, reconnecting with it would only be refused
        closed = true;
        error = "The game's creator gave this seat a new invite: this browser no longer holds it. Ask them for the link.";
        render();
        return;
      }
      renderHeader();
      if (!closed) setTimeout(connect, backoff(attempts++));
    };
  }

  async function act(action: string): Promise<void> {
    if (!state || !token || busy) return;
    busy = true;
    error = "";
    picker.reset();
    render();
    const cid = newId();
    try {
      // Over the socket when it is open (the new picture follows on it); REST when it is not, or when no answer
      // comes in time: the same client action id makes a repeat harmless.
      if (socket && socket.readyState === WebSocket.OPEN) {
        const answer = answers.wait(cid, SOCKET_ANSWER_MS);
        socket.send(JSON.stringify({ type: "act", action, seq: state.seq, client_action_id: cid }));
        const a = await answer;
        if (a) {
          if (a.type === "refused") {
            if (a.status === 409 && a.state) accept(a.state);
            error = a.status === 409 ? `Not applied: ${a.detail}` : a.detail;
          }
          return;
        }
      }
      for (let attempt = 0; ; attempt++) {
        try {
          const r = await api.act(id, token, action, state.seq, cid);
          accept(r.state);
          break;
        } catch (e) {
          if (e instanceof ApiError) {
            if (e.status === 409 && e.body.state) accept(e.body.state as SeatState);
            error = e.status === 409 ? `Not applied: ${e.detail}` : e.detail;
            break;
          }
          if (attempt >= 3) {
            error = "The server cannot be reached; your move was not confirmed.";
            break;
          }
          await new Promise((r) => setTimeout(r, backoff(attempt))); // retried with the same client action id
        }
      }
    } finally {
      busy = false;
      render();
    }
  }

  function onKey(e: KeyboardEvent): void {
    if (replay && !(e.target instanceof HTMLInputElement) && replay.key(e)) {
      e.preventDefault();
      return;
    }
    if (e.key === "Escape" && picker.selected.length) {
      picker.reset();
      render();
    }
  }
  document.addEventListener("keydown", onKey);
  const onOnline = () => {
    if (!connected) {
      socket?.close();
      attempts = 0;
      connect();
    }
  };
  window.addEventListener("online", onOnline);

  connect();
  void api.help(info.game).then((got) => {
    help = got;
    mount(els.help, h("summary", `Rules help: ${got.title}`),
      got.rules.map((r) => h("section.rule", h("h4", r.title), h("p", r.text))));
    render();
  }).catch(() => {
    els.help.remove(); // a game without help data: no panel
  });
  void detectFeatures(id).then((f) => {
    features = f;
    if (state) renderActions();
  });

  return () => {
    closed = true;
    clock.stop();
    socket?.close();
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("online", onOnline);
  };
}

/** How long an action sent over the socket waits for its answer before it is sent again over REST. */
const SOCKET_ANSWER_MS = 8000;

/** Whether two states of one seq show the same thing (a socket echo of a REST answer). */
export function samePicture(a: SeatState, b: SeatState): boolean {
  const key = (s: SeatState) => JSON.stringify([s.status, s.to_move, s.legal, s.deciding, s.decided, s.owes_decision, s.undoable, s.view]);
  return key(a) === key(b);
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
