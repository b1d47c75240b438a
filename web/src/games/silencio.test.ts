import { describe, expect, it } from "vitest";
import { silencioLabel, silencioPaths, tavernPhrase } from "./silencio";

describe("Silencio: every action on a component is reachable by clicking it", () => {
  it("maps each notation to its components", () => {
    const p = silencioPaths([
      "give r5", "play b7", "place g4", "return y3", "give r5 to p1", "shrine red", "shrine large green",
      "take y7", "choose p2", "swap b7 for r5", "oracle b7 to p1", "renew oracle", "tavern count 2",
    ]);
    expect(Object.fromEntries(p)).toEqual({
      "give r5": ["card:r5"],
      "play b7": ["card:b7"],
      "place g4": ["card:g4"],
      "return y3": ["card:y3"],
      "give r5 to p1": ["card:r5", "player:1"],
      "shrine red": ["shrine:red"],
      "shrine large green": ["shrine:large", "row:green"],
      "take y7": ["rowcard:y7"],
      "choose p2": ["player:2"],
      "swap b7 for r5": ["oracle:b7", "card:r5"],
      "oracle b7 to p1": ["oracle:b7", "player:1"],
      "renew oracle": ["oracle:renew"],
      "tavern count 2": ["tavern:count 2"],
    });
  });

  it("actions about no component stay buttons", () => {
    expect([...silencioPaths(["pass", "end", "skip", "use red light"]).keys()]).toEqual([]);
    expect(silencioLabel("end")).toMatch(/End my turn/);
  });

  it("the tavern's phrases are said in words", () => {
    expect(tavernPhrase("tavern count 2")).toContain("I have 2 card(s) that I cannot play.");
    expect(tavernPhrase("tavern high blue")).toContain("high value of blue");
    expect(tavernPhrase("tavern avoid red")).toContain("do not play red cards");
  });
});
