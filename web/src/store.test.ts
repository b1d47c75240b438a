import { describe, expect, it } from "vitest";
import { MemoryKV, SeatStore } from "./store";

const seat = (id: string, s: number, token = "t") => ({ id, game: "silencio", title: "Silencio", seat: s, token, added: 0 });

describe("SeatStore: seat tokens kept in the browser", () => {
  it("keeps seats newest first and replaces a re-issued token", () => {
    const st = new SeatStore(new MemoryKV());
    st.add(seat("a", 0, "t1"));
    st.add(seat("b", 1));
    st.add(seat("a", 0, "t2"));
    expect(st.all().map((s) => [s.id, s.token])).toEqual([["a", "t2"], ["b", "t"]]);
  });

  it("picks the asked seat, else the lowest held, else none (a spectator)", () => {
    const st = new SeatStore(new MemoryKV());
    st.add(seat("a", 2));
    st.add(seat("a", 1));
    expect(st.pick("a", null)?.seat).toBe(1);
    expect(st.pick("a", 2)?.seat).toBe(2);
    expect(st.pick("a", 0)).toBeNull();
    expect(st.pick("zz", null)).toBeNull();
  });

  it("survives garbage in storage", () => {
    const kv = new MemoryKV();
    kv.setItem("tabletop.seats.v1", "{not json");
    expect(new SeatStore(kv).all()).toEqual([]);
    kv.setItem("tabletop.seats.v1", JSON.stringify([{ id: 1 }, seat("a", 0)]));
    expect(new SeatStore(kv).all().length).toBe(1);
  });
});
