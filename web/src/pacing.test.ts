import { describe, expect, it } from "vitest";
import { DEFAULT_PACE_MS, PaceJudge, PaceQueue, paceSetting, type Timer } from "./pacing";

/** A fake clock: timers fire only when `advance` passes them. */
function fakeTimer() {
  let t = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let next = 1;
  const timer: Timer = {
    now: () => t,
    set: (fn, ms) => {
      const id = next++;
      timers.push({ at: t + ms, fn, id });
      return id;
    },
    clear: (id) => {
      timers = timers.filter((x) => x.id !== id);
    },
  };
  const advance = (ms: number) => {
    const end = t + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const first = timers[0];
      if (!first || first.at > end) break;
      timers.shift();
      t = first.at;
      first.fn();
    }
    t = end;
  };
  return { timer, advance, pending: () => timers.length };
}

describe("The pace queue shows other seats' moves a pause apart", () => {
  it("shows the first paced item at once, then one per pause, in order", () => {
    const { timer, advance } = fakeTimer();
    const shown: number[] = [];
    const q = new PaceQueue<number>((x) => shown.push(x), () => 1000, timer);
    q.push(1, true);
    q.push(2, true);
    q.push(3, true);
    expect(shown).toEqual([1]);
    expect(q.length).toBe(2);
    advance(999);
    expect(shown).toEqual([1]);
    advance(1);
    expect(shown).toEqual([1, 2]);
    advance(1000);
    expect(shown).toEqual([1, 2, 3]);
    expect(q.length).toBe(0);
  });

  it("waits the pause after the player's own move before the next paced one", () => {
    const { timer, advance } = fakeTimer();
    const shown: string[] = [];
    const q = new PaceQueue<string>((x) => shown.push(x), () => 500, timer);
    q.push("mine", false);
    q.push("ai", true);
    expect(shown).toEqual(["mine"]);
    advance(499);
    expect(shown).toEqual(["mine"]);
    advance(1);
    expect(shown).toEqual(["mine", "ai"]);
  });

  it("an unpaced item shows at once, everything waiting before it first, and no timer is left", () => {
    const { timer, pending } = fakeTimer();
    const shown: string[] = [];
    const q = new PaceQueue<string>((x) => shown.push(x), () => 1000, timer);
    q.push("a", true);
    q.push("b", true);
    q.push("c", true);
    q.push("own", false);
    expect(shown).toEqual(["a", "b", "c", "own"]);
    expect(pending()).toBe(0);
  });

  it("a flush (the player acts) starts the pause again: the next paced item waits it", () => {
    const { timer, advance } = fakeTimer();
    const shown: string[] = [];
    const q = new PaceQueue<string>((x) => shown.push(x), () => 1000, timer);
    advance(5000);
    q.flush();
    advance(100);
    q.push("ai", true);
    expect(shown).toEqual([]);
    advance(900);
    expect(shown).toEqual(["ai"]);
  });

  it("is instant with a pause of 0", () => {
    const { timer, pending } = fakeTimer();
    const shown: number[] = [];
    const q = new PaceQueue<number>((x) => shown.push(x), () => 0, timer);
    for (let i = 0; i < 5; i++) q.push(i, true);
    expect(shown).toEqual([0, 1, 2, 3, 4]);
    expect(pending()).toBe(0);
  });

  it("reads the pause at each step (a changed setting applies to what waits)", () => {
    const { timer, advance } = fakeTimer();
    const shown: number[] = [];
    let pace = 2000;
    const q = new PaceQueue<number>((x) => shown.push(x), () => pace, timer);
    q.push(1, true);
    q.push(2, true);
    q.push(3, true);
    advance(2000);
    expect(shown).toEqual([1, 2]);
    pace = 100;
    advance(2000); // the timer set under the old pause fires first, then the new pause counts
    expect(shown).toEqual([1, 2, 3]);
  });

  it("stop drops what waits and fires nothing later", () => {
    const { timer, advance, pending } = fakeTimer();
    const shown: number[] = [];
    const q = new PaceQueue<number>((x) => shown.push(x), () => 1000, timer);
    q.push(1, true);
    q.push(2, true);
    q.stop();
    advance(5000);
    expect(shown).toEqual([1]);
    expect(pending()).toBe(0);
  });
});

describe("The pace setting and the judge", () => {
  it("reads the address first, then the stored key, then automation, then the default", () => {
    expect(paceSetting("?pace=0", "2000", false)).toBe(0);
    expect(paceSetting("", "2000", true)).toBe(2000);
    expect(paceSetting("", null, true)).toBe(0);
    expect(paceSetting("", null, false)).toBe(DEFAULT_PACE_MS);
    expect(paceSetting("?pace=x", "nope", false)).toBe(DEFAULT_PACE_MS);
  });

  it("paces entries of other seats and of the table, not the seat's own nor repeats", () => {
    const j = new PaceJudge(1);
    expect(j.judge({ log_start: 0, log: [{ seat: 1, text: "mine" }] }).paced).toBe(false);
    expect(j.judge({ log_start: 1, log: [{ seat: 2, text: "theirs" }] }).paced).toBe(true);
    expect(j.judge({ log_start: 0, log: [{ seat: 1, text: "mine" }, { seat: 2, text: "theirs" }] })).toEqual({ fresh: [], paced: false });
    expect(j.judge({ log_start: 2, log: [{ seat: null, text: "round 2" }] }).paced).toBe(true);
    j.cut(1);
    expect(j.judge({ log_start: 1, log: [{ seat: 1, text: "again" }] }).fresh).toHaveLength(1);
  });

  it("a spectator's every new entry is paced", () => {
    const j = new PaceJudge(null);
    expect(j.judge({ log_start: 0, log: [{ seat: 0, text: "x" }] }).paced).toBe(true);
  });
});
