import { describe, expect, it } from "vitest";
import { named } from "./util";

describe("named: seats in an engine text become the players' names", () => {
  it("maps the notation's p0 and the engine's words Player 1 to the same seat", () => {
    const names = ["Ann", "Bo", "Cyd"];
    expect(named("Player 3 gave r8 to Player 1", names)).toBe("Cyd gave r8 to Ann");
    expect(named("Player 2 plays a card", names)).toBe("Bo plays a card");
    expect(named("choose p0", names)).toBe("choose Ann");
    expect(named("Player 9 left", names)).toBe("Player 9 left");
  });
});
