import { describe, expect, it } from "vitest";
import { optionValue, seatRequests } from "./lobby";

describe("Lobby: what a new game asks the server", () => {
  it("seats become the server's seat requests (AI by label only)", () => {
    expect(seatRequests(["me", "invite", "open", "ai:hard"])).toEqual([
      { kind: "creator" }, { kind: "invite" }, { kind: "open" }, { kind: "ai", ai: "hard" },
    ]);
  });

  it("two seats cannot both be mine", () => {
    expect(() => seatRequests(["me", "me"])).toThrow(/only one/);
  });

  it("option values keep the type of the server's choices", () => {
    expect(optionValue("1", ["random", 0, 1, 2])).toBe(1);
    expect(optionValue("random", ["random", 0, 1])).toBe("random");
    expect(optionValue("tavern", ["none", "tavern"])).toBe("tavern");
  });
});
