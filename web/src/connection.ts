// A table's line to the server: the game's WebSocket (reconnecting with backoff, stopping when the seat token is
// revoked), and the seat's actions, sent over the socket and answered there, or over REST when it is not open or no
// answer comes in time. It knows no game and draws nothing: what arrives goes to its hooks.
import { Answers, isAnswer, type SocketAnswer } from "./answers";
import { api, ApiError, type ChatBatch, type SeatState, type StateMessage } from "./api";

/** The close code of a socket whose seat token was revoked (docs/server.md). */
export const TOKEN_REVOKED = 4401;

/** How long an action sent over the socket waits for its answer before it is sent again over REST. */
export const SOCKET_ANSWER_MS = 8000;

export function backoff(attempt: number): number {
  return Math.min(5000, 250 * 2 ** Math.min(attempt, 5));
}

/** A message of the game's socket that is not an answer to an action. */
export type Incoming = StateMessage | (ChatBatch & { type: "chat" });

/**
 * What became of an action (or an undo): done (with the new picture when REST gave it; over the socket the answer
 * gives the event count `seq` it reached, and the picture of that event follows as a `state` message), refused by
 * the server (with its current picture on a 409), or the server not reached.
 */
export type Outcome =
  | { kind: "done"; state?: SeatState; seq?: number }
  | { kind: "refused"; status: number; detail: string; state?: SeatState }
  | { kind: "unreachable"; state?: undefined };

export interface ConnectionHooks {
  /** The socket's address, asked at each (re)connect (it carries how much of the log and chat is held). */
  url(): string;
  message(m: Incoming): void;
  /** The socket opened or closed: `connected` changed. */
  status(): void;
  /** The socket was closed because the seat token was revoked: no reconnect follows. */
  revoked(): void;
}

export class Connection {
  connected = false;
  /** The seat token was revoked: the socket is closed for good. */
  revoked = false;
  private socket: WebSocket | null = null;
  private answers = new Answers();
  private attempts = 0;
  private closed = false;
  private onOnline = () => {
    if (!this.connected) {
      this.socket?.close();
      this.attempts = 0;
      this.connect();
    }
  };

  constructor(private id: string, private token: string | null, private hooks: ConnectionHooks) {}

  /** Connect, and reconnect at once when the browser comes back online. */
  open(): void {
    window.addEventListener("online", this.onOnline);
    this.connect();
  }

  close(): void {
    this.closed = true;
    this.socket?.close();
    window.removeEventListener("online", this.onOnline);
  }

  private connect(): void {
    if (this.closed) return;
    const ws = new WebSocket(this.hooks.url());
    this.socket = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.connected = true;
      this.hooks.status();
    };
    ws.onmessage = (ev) => {
      try {
        const m = JSON.parse(String(ev.data)) as Incoming | SocketAnswer;
        if (isAnswer(m)) this.answers.take(m);
        else this.hooks.message(m);
      } catch (e) {
        console.error(e);
      }
    };
    ws.onclose = (ev) => {
      if (this.socket !== ws) return;
      this.answers.dropAll();
      this.connected = false;
      if (ev.code === TOKEN_REVOKED) {
        // the creator re-seated this seat: the token is spent, reconnecting with it would only be refused
        this.closed = true;
        this.revoked = true;
        this.hooks.revoked();
        return;
      }
      this.hooks.status();
      if (!this.closed) setTimeout(() => this.connect(), backoff(this.attempts++));
    };
  }

  /**
   * Send an action. Over the socket when it is open (the new picture follows on it); REST when it is not, or when no
   * answer comes in time: the same client action id makes a repeat harmless. `seq` is read at each sending.
   */
  async act(action: string, seq: () => number, cid: string): Promise<Outcome> {
    const token = this.token!;
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      const answer = this.answers.wait(cid, SOCKET_ANSWER_MS);
      this.socket.send(JSON.stringify({ type: "act", action, seq: seq(), client_action_id: cid }));
      const a = await answer;
      if (a) {
        if (a.type === "refused") return { kind: "refused", status: a.status, detail: a.detail, state: a.status === 409 ? a.state : undefined };
        return { kind: "done", seq: a.seq };
      }
    }
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await api.act(this.id, token, action, seq(), cid);
        return { kind: "done", state: r.state };
      } catch (e) {
        if (e instanceof ApiError) return refused(e);
        if (attempt >= 3) return { kind: "unreachable" };
        await new Promise((r) => setTimeout(r, backoff(attempt))); // retried with the same client action id
      }
    }
  }

  /** Take back the seat's last action (REST only). */
  async undo(seq: number, cid: string): Promise<Outcome> {
    try {
      const r = await api.undo(this.id, this.token!, 1, seq, cid);
      return { kind: "done", state: r.state };
    } catch (e) {
      return e instanceof ApiError ? refused(e) : { kind: "unreachable" };
    }
  }

  /** The seat's log from `start` (REST). */
  log(start: number): ReturnType<typeof api.log> {
    return api.log(this.id, this.token, start);
  }
}

function refused(e: ApiError): Outcome {
  const state = e.status === 409 && e.body.state ? (e.body.state as SeatState) : undefined;
  return { kind: "refused", status: e.status, detail: e.detail, state };
}
