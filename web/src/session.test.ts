import { describe, expect, it } from "vitest";
import type { LogEntry, SeatState, StateMessage } from "./api";
import type { Outcome } from "./connection";
import { Session, type SessionLine } from "./session";

const pic = (seq: number, more: Partial<SeatState> = {}): SeatState => ({
  seq, seat: 0, status: "playing", to_move: 0, view: {}, legal: ["pass"], log_pos: null, ...more,
});
const entry = (i: number): LogEntry => ({ seat: 0, text: `move ${i}` });

/** A session over a fake line: the server's log, and what its actions answer. */
function setup(serverLog: LogEntry[] = [], answer: Outcome = { kind: "done" }) {
  const seen: { states: number[]; changed: number; history: number; sent: string[]; logAsks: number[] } =
    { states: [], changed: 0, history: 0, sent: [], logAsks: [] };
  const line: SessionLine = {
    act: async (action, seq) => { seen.sent.push(`${action}@${seq()}`); return answer; },
    undo: async (seq) => { seen.sent.push(`undo@${seq}`); return answer; },
    log: async (start) => { seen.logAsks.push(start); return { start, entries: serverLog.slice(start, start + 2) }; },
  };
  const session = new Session(line, true, {
    state: (s) => seen.states.push(s.seq),
    changed: () => seen.changed++,
    history: () => seen.history++,
  });
  return { session, seen };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("A seat's session reconciles its pictures", () => {
  it("ignores an older picture and the same picture again, takes a changed one of the same seq", () => {
    const { session, seen } = setup();
    expect(session.accept(pic(3))).toBe(true);
    expect(session.accept(pic(2))).toBe(false);
    expect(session.accept(pic(3))).toBe(false); // the socket's echo of a REST answer
    expect(session.accept(pic(3, { undoable: 1 }))).toBe(true);
    expect(session.accept(pic(4))).toBe(true);
    expect(seen.states).toEqual([3, 3, 4]);
    expect(session.state?.seq).toBe(4);
  });

  it("a state message past the log book's end catches up over REST, in pages, until the server's log_pos", async () => {
    const server = [0, 1, 2, 3, 4].map(entry);
    const { session, seen } = setup(server);
    const m: StateMessage = { ...pic(5, { log_pos: 5 }), type: "state", log_start: 4, log: [server[4]] };
    session.receive(m);
    await settle();
    expect(seen.logAsks).toEqual([0, 2, 4]);
    expect(session.log.entries.map((e) => e.text)).toEqual(server.map((e) => e.text));
    expect(seen.history).toBeGreaterThan(0);
    expect(session.state?.seq).toBe(5);
  });

  it("a state message that continues the log book needs no catch-up", async () => {
    const { session, seen } = setup();
    session.receive({ ...pic(1, { log_pos: 1 }), type: "state", log_start: 0, log: [entry(0)] });
    session.receive({ ...pic(2, { log_pos: 2 }), type: "state", log_start: 0, log: [entry(0), entry(1)] });
    await settle();
    expect(seen.logAsks).toEqual([]);
    expect(session.log.length).toBe(2);
  });

  it("an undo's picture with a shorter log drops the undone entries from the history at once", () => {
    const { session, seen } = setup();
    session.receive({ ...pic(1, { log_pos: 3 }), type: "state", log_start: 0, log: [entry(0), entry(1), entry(2)] });
    const before = seen.history;
    session.accept(pic(2, { log_pos: 1 }));
    expect(session.log.entries.map((e) => e.text)).toEqual(["move 0"]);
    expect(seen.history).toBe(before + 1);
    session.receive({ ...pic(3, { log_pos: 2 }), type: "state", log_start: 1, log: [{ seat: 0, text: "other move" }] });
    expect(session.log.entries.map((e) => e.text)).toEqual(["move 0", "other move"]);
    expect(session.lastFrom).toBe(1);
  });

  it("my turn: playing, legal actions, and a decision owed", () => {
    const { session } = setup();
    expect(session.myTurn()).toBe(false);
    session.accept(pic(1));
    expect(session.myTurn()).toBe(true);
    session.accept(pic(2, { owes_decision: false }));
    expect(session.myTurn()).toBe(false);
  });
});

describe("A seat's session sends one action at a time", () => {
  it("a refused action (409) takes the server's picture and says why", async () => {
    const { session, seen } = setup([], { kind: "refused", status: 409, detail: "stale", state: pic(7) });
    session.accept(pic(6));
    const sending = session.act("pass");
    expect(session.busy).toBe(true);
    void session.act("again"); // refused while the first is in flight
    await sending;
    expect(seen.sent).toEqual(["pass@6"]);
    expect(session.busy).toBe(false);
    expect(session.state?.seq).toBe(7);
    expect(session.error).toBe("Not applied: stale");
  });

  it("an action acknowledged over the socket stays in flight until its picture arrives: the one it was chosen from is not offered again", async () => {
    const sent: string[] = [];
    const drawn: [number, boolean][] = []; // each picture the table is told of, and whether an action was in flight
    const line: SessionLine = {
      act: async (a, seq) => { sent.push(`${a}@${seq()}`); return { kind: "done", seq: 8 }; }, // its picture follows
      undo: async () => ({ kind: "done" }),
      log: async (start) => ({ start, entries: [] }),
    };
    const session: Session = new Session(line, true, {
      state: (s) => drawn.push([s.seq, session.busy]), changed: () => {}, history: () => {},
    });
    session.accept(pic(6));
    const sending = session.act("pass");
    await settle();
    expect(session.busy).toBe(true); // answered, but the picture held is seq 6's, the one the action was chosen from
    void session.act("again"); // not sent
    session.accept(pic(7)); // another seat's move, ahead of this action's picture
    await settle();
    expect(session.busy).toBe(true);
    session.accept(pic(8));
    await sending;
    expect(drawn).toEqual([[6, false], [7, true], [8, false]]); // seq 8 drawn ready to act
    expect(session.busy).toBe(false);
    expect(sent).toEqual(["pass@6"]);
    // the picture came first: the answer ends the action at once
    const early = setup([], { kind: "done", seq: 3 });
    early.session.accept(pic(3));
    await early.session.act("pass");
    expect(early.session.busy).toBe(false);
  });

  it("an unreachable server is said; an undo refused is 'Not undone'", async () => {
    const a = setup([], { kind: "unreachable" });
    a.session.accept(pic(1));
    await a.session.act("pass");
    expect(a.session.error).toBe("The server cannot be reached; your move was not confirmed.");
    const b = setup([], { kind: "refused", status: 400, detail: "nothing to undo" });
    b.session.accept(pic(1));
    await b.session.undo();
    expect(b.seen.sent).toEqual(["undo@1"]);
    expect(b.session.error).toBe("Not undone: nothing to undo");
  });

  it("a spectator sends nothing", async () => {
    const seen: string[] = [];
    const line: SessionLine = {
      act: async (a) => { seen.push(a); return { kind: "done" }; },
      undo: async () => ({ kind: "done" }),
      log: async (start) => ({ start, entries: [] }),
    };
    const session = new Session(line, false, { state: () => {}, changed: () => {}, history: () => {} });
    session.accept(pic(1));
    await session.act("pass");
    expect(seen).toEqual([]);
  });
});
