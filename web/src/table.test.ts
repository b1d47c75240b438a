import { describe, expect, it } from "vitest";
import { deciders } from "./features";
import { named } from "./games/util";
import { backoff, seatNames } from "./table";

describe("Table shell logic", () => {
  it("reconnects back off up to five seconds", () => {
    expect(backoff(0)).toBe(250);
    expect(backoff(1)).toBe(500);
    expect(backoff(10)).toBe(5000);
  });

  it("whoever decides: one seat, several at once, or none", () => {
    expect(deciders(2)).toEqual([2]);
    expect(deciders([0, 3])).toEqual([0, 3]);
    expect(deciders(null)).toEqual([]);
  });

  it("seat numbers in engine texts become names", () => {
    expect(named("p1 plays r5; p10 stays", ["Ann", "Bo"])).toBe("Bo plays r5; p10 stays");
  });

  it("seats sharing a name are numbered; AI seats say they are AI", () => {
    const seat = (name: string, kind: "human" | "ai") => ({ seat: 0, kind, mode: "", ai: "easy", name, taken: true });
    expect(seatNames({ seats: [seat("Ann", "human"), seat("AI (easy)", "ai"), seat("AI (easy)", "ai"), seat("Bot", "ai")] }))
      .toEqual(["Ann", "AI (easy) #2", "AI (easy) #3", "Bot (AI easy)"]);
  });

  it("a seat a program plays says it is a bot", () => {
    const seat = (name: string, bot: boolean) => ({ seat: 0, kind: "human" as const, mode: "invite", ai: null, name, bot, taken: true });
    expect(seatNames({ seats: [seat("Ann", false), seat("robo", true), seat("greedy (bot)", true)] }))
      .toEqual(["Ann", "robo (bot)", "greedy (bot)"]);
  });
});
