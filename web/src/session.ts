// A seat's session at a table: its latest picture (reconciled from REST answers and socket `state` messages), its
// log book (caught up over REST when a message leaves a gap), and the action or undo in flight. It draws nothing
// and knows no socket: what it sends goes through `SessionLine`, and what changes is told to `SessionEvents`.
import type { LogEntry, SeatState, StateMessage } from "./api";
import type { Outcome } from "./connection";
import { LogBook } from "./logbook";

/** How the session reaches the server (a `Connection`, or a fake in tests). */
export interface SessionLine {
  act(action: string, seq: () => number, cid: string): Promise<Outcome>;
  undo(seq: number, cid: string): Promise<Outcome>;
  log(start: number): Promise<{ start: number; entries: LogEntry[] }>;
}

export interface SessionEvents {
  /** A new picture was taken (`first`: the session's first one); `session.state` is it. */
  state(s: SeatState, first: boolean): void;
  /** The action in flight or the error changed. */
  changed(): void;
  /** A catch-up of the log book ended. */
  history(): void;
}

/** How long an action acknowledged over the socket waits for its picture (the `state` message that follows the
 * answer) before the table is offered again all the same (the socket closed meanwhile: its reconnect brings it). */
export const PICTURE_WAIT_MS = 8000;

export function newId(): string {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** Whether two states of one seq show the same thing (a socket echo of a REST answer). */
export function samePicture(a: SeatState, b: SeatState): boolean {
  const key = (s: SeatState) => JSON.stringify([s.status, s.to_move, s.legal, s.deciding, s.decided, s.owes_decision, s.undoable, s.view]);
  return key(a) === key(b);
}

export class Session {
  state: SeatState | null = null;
  readonly log = new LogBook();
  /** An action or undo is in flight: nothing else is sent until it is answered. */
  busy = false;
  error = "";
  /** The log index where the last update's entries begin (the history marks them as the last move). */
  lastFrom = 0;
  private catching = false;
  /** An action acknowledged without its picture: the event count whose picture ends it. */
  private awaited: { seq: number; done: () => void } | null = null;

  /** `seated`: this browser holds the seat's token (a spectator sends nothing). */
  constructor(private line: SessionLine, private seated: boolean, private events: SessionEvents) {}

  /** A seat may act whenever it owes a decision: on its turn, and at once in a simultaneous step (a bid). */
  myTurn(): boolean {
    const s = this.state;
    return !!s && s.status === "playing" && (s.owes_decision ?? true) && s.legal.length > 0;
  }

  /** Whether an action or undo may be sent now. */
  get canSend(): boolean {
    return !!this.state && this.seated && !this.busy;
  }

  /** Take a picture: an older one is ignored (updates may be coalesced, never reordered backwards), and so is the
   * same picture again (the socket's echo of a move the REST answer already showed), so the table under the
   * player's pointer is not replaced while they aim at it. False when ignored. */
  accept(s: SeatState): boolean {
    if (this.state && s.seq < this.state.seq) return false;
    if (this.state && s.seq === this.state.seq && samePicture(this.state, s)) return false;
    const first = this.state === null;
    this.state = s;
    if (this.awaited && s.seq >= this.awaited.seq) { // the acknowledged action's picture: it is drawn ready to act
      this.busy = false;
      this.awaited.done();
    }
    if (typeof s.log_pos === "number" && s.log_pos < this.log.length) {
      // an undo took entries back: the history drops them at once
      this.log.entries.length = s.log_pos;
      this.lastFrom = Math.min(this.lastFrom, s.log_pos);
      this.events.history();
    }
    this.events.state(s, first);
    if (this.log.behind(s.log_pos)) void this.catchUp();
    return true;
  }

  /** A socket `state` message: its log entries, then its picture. */
  receive(m: StateMessage): void {
    const held = this.log.length;
    if (this.log.merge(m.log_start, m.log) === "gap") void this.catchUp();
    else if (this.log.length > held) this.lastFrom = held || Math.max(0, this.log.length - 1); // first: the newest
    this.accept(m);
  }

  /** Fetch the log entries the server holds past the log book's end. */
  async catchUp(): Promise<void> {
    if (this.catching) return;
    this.catching = true;
    const held = this.log.length;
    try {
      while (this.state && this.log.behind(this.state.log_pos)) {
        const r = await this.line.log(this.log.length);
        if (!r.entries.length) break;
        this.log.merge(r.start, r.entries);
      }
      if (this.log.length > held) this.lastFrom = held || Math.max(0, this.log.length - 1);
      this.events.history();
    } catch {
      /* the socket's next message or reconnect catches up */
    } finally {
      this.catching = false;
    }
  }

  /** Something went wrong outside an action (the seat was taken away): say it. */
  fail(error: string): void {
    this.error = error;
    this.events.changed();
  }

  async act(action: string): Promise<void> {
    if (!this.canSend) return;
    this.begin();
    try {
      const o = await this.line.act(action, () => this.state!.seq, newId());
      if (o.state) this.accept(o.state);
      else if (o.kind === "done" && o.seq !== undefined) await this.pictureOf(o.seq);
      if (o.kind === "refused") this.error = o.status === 409 ? `Not applied: ${o.detail}` : o.detail;
      else if (o.kind === "unreachable") this.error = "The server cannot be reached; your move was not confirmed.";
    } finally {
      this.end();
    }
  }

  async undo(): Promise<void> {
    if (!this.canSend) return;
    this.begin();
    try {
      const o = await this.line.undo(this.state!.seq, newId());
      if (o.state) this.accept(o.state);
      if (o.kind === "refused") this.error = `Not undone: ${o.detail}`;
      else if (o.kind === "unreachable") this.error = "The server cannot be reached; nothing was undone.";
    } finally {
      this.end();
    }
  }

  /** Wait for the picture of event `seq` (an action acknowledged over the socket; its picture follows the answer):
   * until then the picture held is the one the action was chosen from, and it must not be offered again (a click
   * on it would send a second action, refused as stale). At most `PICTURE_WAIT_MS`. */
  private pictureOf(seq: number): Promise<void> {
    if (this.state && this.state.seq >= seq) return Promise.resolve();
    return new Promise((resolve) => {
      const w = {
        seq,
        done: () => {
          clearTimeout(timer);
          if (this.awaited === w) this.awaited = null;
          resolve();
        },
      };
      const timer = setTimeout(w.done, PICTURE_WAIT_MS);
      this.awaited = w;
    });
  }

  private begin(): void {
    this.busy = true;
    this.error = "";
    this.events.changed();
  }

  private end(): void {
    this.busy = false;
    this.events.changed();
  }
}
