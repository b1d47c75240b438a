// A game's table: the connection (connection.ts: socket, reconnect, actions over socket or REST), the seat's session
// (session.ts: its picture, log book, action in flight) and the drawing (tableview.ts: header, table, panels), wired
// here. The game's own components come from its table module (web/src/games/<game>.ts), drawn from the seat's view.
import { accountSeat } from "./account";
import { api, socketUrl, type GameInfo } from "./api";
import { Connection } from "./connection";
import { h, mount } from "./dom";
import { detectFeatures } from "./features";
import { tableFor } from "./games";
import { ChatPanel } from "./panels";
import { Session } from "./session";
import type { SeatStore } from "./store";
import { TableView } from "./tableview";
import { attachTutorial } from "./tutorial";
import { currentPace, PaceJudge, PaceQueue } from "./pacing";
import { setFavicon } from "./attention";
import type { StateMessage } from "./api";

export { backoff } from "./connection";
export { samePicture } from "./session";
export { nextActions } from "./tableview";

/** Go to a table of this browser's (the router in main.ts listens to popstate). */
function goTable(id: string, seat: number): void {
  history.pushState(null, "", `/g/${id}?seat=${seat}`);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

/** Display names per seat: the seat's name (AI seats and bots say so), numbered when two seats share a name. */
export function seatNames(info: Pick<GameInfo, "seats">): string[] {
  const base = info.seats.map((s) => (s.kind === "ai" && !/\bAI\b/.test(s.name) ? `${s.name} (AI ${s.ai ?? ""})`
    : s.bot && !/\bbot\b/i.test(s.name) ? `${s.name} (bot)` : s.name));
  return base.map((n, i) => (base.filter((m) => m === n).length > 1 ? `${n} #${i + 1}` : n));
}

export async function showTable(root: HTMLElement, id: string, store: SeatStore, wanted: number | null): Promise<() => void> {
  let info: GameInfo;
  try {
    info = await api.info(id);
  } catch (e) {
    mount(root, h("div.page", h("h1", "Game not found"), h("p", (e as Error).message), h("a", { href: "/" }, "Back to the lobby")));
    return () => {};
  }
  // a seat of this browser's, else the signed-in account's seat there (played through the session: account.ts)
  const held = store.pick(id, wanted) ?? await accountSeat(info);
  const token = held?.token ?? null;
  const names = seatNames(info);
  const seatHeld = held?.seat ?? null;
  // other seats' moves are shown a pause apart (pacing.ts); the player's own at once
  const judge = new PaceJudge(seatHeld);
  const pacer = new PaceQueue<StateMessage>((m) => session.receive(m), currentPace);
  const chat = new ChatPanel(id, token, info.chat, names); // a game without chat: the table shows notices only
  const conn: Connection = new Connection(id, token, {
    url: () => socketUrl(location, id, token, session.log.length, chat.pos),
    message: (m) => {
      if (m.type === "chat") {
        chat.merge(m.start, m.messages, m.chat_pos);
        if (session.state) view.renderActions();
      } else if (m.type === "state") {
        const { fresh, paced } = judge.judge(m);
        if (typeof m.log_pos === "number" && m.log_pos < judge.seen) judge.cut(m.log_pos); // an undo
        // the player's own move (or a first picture) shows at once; nothing new (a reconnect's repeat, a clock)
        // waits its turn behind what is queued
        pacer.push(m, session.state !== null && (paced || (!fresh.length && pacer.length > 0)));
      }
    },
    status: () => view.renderHeader(),
    revoked: () => session.fail("The game's creator gave this seat a new invite: this browser no longer holds it. Ask them for the link."),
  });
  // seats that join after this page loaded: their names are asked again (at most every 3 s) while a seat is open
  let namesAsked = 0;
  const refreshNames = (): void => {
    if (!info.seats.some((x) => !x.taken) || Date.now() - namesAsked < 3000) return;
    namesAsked = Date.now();
    void api.info(id).then((fresh) => {
      const again = seatNames(fresh);
      if (again.join("\n") === names.join("\n") && fresh.seats.every((x, i) => x.taken === info.seats[i]?.taken)) return;
      info.seats = fresh.seats;
      names.splice(0, names.length, ...again); // the view and the chat hold this same list
      view.renamed();
    }).catch(() => { namesAsked = 0; });
  };
  const session: Session = new Session(conn, token !== null, {
    state: (s, first) => { view.took(s, first); refreshNames(); },
    changed: () => view.render(),
    history: () => view.renderHistory(),
  });
  const view = new TableView(root, { id, info, token, names, module: tableFor(info.game), session, chat, connected: () => conn.connected, revoked: () => conn.revoked,
    flush: () => pacer.flush(), waiting: () => pacer.length,
    rematchOf: () => chat.rematch(),
    rematch: async () => {
      // this browser may already hold its seat there (it made the rematch, or took the seat before)
      const made = chat.rematch();
      const mine = seatHeld ?? 0;
      const held = made ? store.ofGame(made.id).find((x) => x.seat === mine) : undefined;
      if (made && held) return goTable(made.id, held.seat);
      const r = await api.rematch(id, token!);
      const old = store.pick(id, wanted);
      store.add({ id: r.id, game: info.game, title: info.title, seat: r.seat, token: r.token, creatorToken: r.creator_token,
        name: old?.name, added: Date.now() });
      goTable(r.id, r.seat);
    } });

  document.addEventListener("keydown", view.onKey);
  conn.open();
  void api.help(info.game).then((got) => view.showHelp(got)).catch(() => view.showHelp(null));
  void detectFeatures(id).then((f) => view.showFeatures(f));
  const leaveTutorial = attachTutorial(root, id, token); // a tutorial game this browser started: its lesson box

  return () => {
    leaveTutorial();
    pacer.stop();
    setFavicon(false); // the lobby has no turn
    conn.close();
    view.clock.stop();
    document.removeEventListener("keydown", view.onKey);
  };
}
