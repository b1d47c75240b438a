import { describe, expect, it } from "vitest";
import { LogBook } from "./logbook";

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
