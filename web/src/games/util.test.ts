import { describe, expect, it } from "vitest";
import { named, namedFor } from "./util";

describe("named: seats in an engine text become the players' names", () => {
  it("maps the notation's p0 and the engine's words Player 1 to the same seat", () => {
    const names = ["Ann", "Bo", "Cyd"];
    expect(named("Player 3 gave r8 to Player 1", names)).toBe("Cyd gave r8 to Ann");
    expect(named("Player 2 plays a card", names)).toBe("Bo plays a card");
    expect(named("choose p0", names)).toBe("choose Ann");
    expect(named("Player 9 left", names)).toBe("Player 9 left");
  });
});

describe("the decision line names the reader 'you'", () => {
  it("says you for the reader's seat and the names for the others", () => {
    const names = ["Ann", "Bo", "Cyd"];
    expect(namedFor("Player 1 may take a light shrine, or end the turn", names, 0))
      .toBe("You may take a light shrine, or end the turn");
    expect(namedFor("Player 1 may take a light shrine", names, 1)).toBe("Ann may take a light shrine");
    expect(namedFor("give a card to p2", names, 2)).toBe("give a card to you");
    expect(namedFor("Player 2 plays a card", names, null)).toBe("Bo plays a card");
  });
});
