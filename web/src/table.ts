// A game's table: the connection (connection.ts: socket, reconnect, actions over socket or REST), the seat's session
// (session.ts: its picture, log book, action in flight) and the drawing (tableview.ts: header, table, panels), wired
// here. The game's own components come from its table module (web/src/games/<game>.ts), drawn from the seat's view.
import { api, socketUrl, type GameInfo } from "./api";
import { Connection } from "./connection";
import { h, mount } from "./dom";
import { detectFeatures } from "./features";
import { tableFor } from "./games";
import { ChatPanel } from "./panels";
import { Session } from "./session";
import type { SeatStore } from "./store";
import { TableView } from "./tableview";

export { backoff } from "./connection";
export { samePicture } from "./session";
export { nextActions } from "./tableview";

/** Display names per seat: the seat's name (AI seats say so), numbered when two seats share a name. */
export function seatNames(info: Pick<GameInfo, "seats">): string[] {
  const base = info.seats.map((s) => (s.kind === "ai" && !/\bAI\b/.test(s.name) ? `${s.name} (AI ${s.ai ?? ""})` : s.name));
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
  const token = store.pick(id, wanted)?.token ?? null;
  const names = seatNames(info);
  const chat = new ChatPanel(id, token, info.chat, names); // a game without chat: the table shows notices only
  const conn: Connection = new Connection(id, token, {
    url: () => socketUrl(location, id, token, session.log.length, chat.pos),
    message: (m) => {
      if (m.type === "chat") {
        chat.merge(m.start, m.messages, m.chat_pos);
        if (session.state) view.renderActions();
      } else if (m.type === "state") session.receive(m);
    },
    status: () => view.renderHeader(),
    revoked: () => session.fail("The game's creator gave this seat a new invite: this browser no longer holds it. Ask them for the link."),
  });
  const session: Session = new Session(conn, token !== null, {
    state: (s, first) => view.took(s, first),
    changed: () => view.render(),
    history: () => view.renderHistory(),
  });
  const view = new TableView(root, { id, info, token, names, module: tableFor(info.game), session, chat, connected: () => conn.connected, revoked: () => conn.revoked });

  document.addEventListener("keydown", view.onKey);
  conn.open();
  void api.help(info.game).then((got) => view.showHelp(got)).catch(() => view.showHelp(null));
  void detectFeatures(id).then((f) => view.showFeatures(f));

  return () => {
    conn.close();
    view.clock.stop();
    document.removeEventListener("keydown", view.onKey);
  };
}
