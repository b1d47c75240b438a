import { describe, expect, it } from "vitest";
import { LogBook, renderEntry } from "./logbook";

const e = (i: number) => ({ seat: 0, text: `event ${i}` });

describe("LogBook: the seat's history, caught up after reconnects", () => {
  it("appends entries that start where it ends", () => {
    const b = new LogBook();
    expect(b.merge(0, [e(0), e(1)])).toBe("ok");
    expect(b.merge(2, [e(2)])).toBe("ok");
    expect(b.entries.map((x) => x.text)).toEqual(["event 0", "event 1", "event 2"]);
  });

  it("entries sent again after a reconnect are not doubled", () => {
    const b = new LogBook();
    b.merge(0, [e(0), e(1), e(2)]);
    expect(b.merge(1, [e(1), e(2), e(3)])).toBe("ok");
    expect(b.length).toBe(4);
    expect(b.entries[3].text).toBe("event 3");
  });

  it("a gap is reported, not papered over", () => {
    const b = new LogBook();
    b.merge(0, [e(0)]);
    expect(b.merge(3, [e(3)])).toBe("gap");
    expect(b.length).toBe(1);
  });

  it("knows when the server's log is longer than what it holds", () => {
    const b = new LogBook();
    b.merge(0, [e(0)]);
    expect(b.behind(1)).toBe(false);
    expect(b.behind(2)).toBe(true);
    expect(b.behind(null)).toBe(false);
  });
});

describe("renderEntry: a log entry's words for its reader (the engine's logwords.render)", () => {
  const names = ["Ann", "Bo", "Cyd"];
  const gift = { seat: 2, text: "Player 3 gave r8 to Player 1. Player 1 took it into Player 1's hand",
    template: "{p2} gave r8 to {p0}. {p0} took it into {p0's} hand" };

  it("says you for the reader and names the others, capitalised at a sentence start", () => {
    expect(renderEntry(gift, names, 0)).toBe("Cyd gave r8 to you. You took it into your hand");
    expect(renderEntry(gift, names, 2)).toBe("You gave r8 to Ann. Ann took it into Ann's hand");
    expect(renderEntry(gift, names, null)).toBe("Cyd gave r8 to Ann. Ann took it into Ann's hand");
  });

  it("falls back to Player N, keeps the table's entries and names the seat of an entry without tokens", () => {
    expect(renderEntry(gift, null, 1)).toBe("Player 3 gave r8 to Player 1. Player 1 took it into Player 1's hand");
    expect(renderEntry({ seat: null, text: "Round 2 begins" }, names, 1)).toBe("Round 2 begins");
    expect(renderEntry({ seat: 1, text: "bid (face down)" }, names, 1)).toBe("You bid (face down)");
    expect(renderEntry({ seat: 1, text: "bid (face down)" }, names, 0)).toBe("Bo bid (face down)");
  });

  it("never leaves a raw token", () => {
    for (let reader = -1; reader < 3; reader++) {
      expect(renderEntry(gift, names, reader < 0 ? null : reader)).not.toMatch(/\{p\d/);
    }
  });
});
