import { describe, expect, it } from "vitest";
import { gamesLine, optionValue, seatChoices, seatRequests } from "./lobby";

describe("Lobby: what a new game asks the server", () => {
  it("seats become the server's seat requests (AI by label only)", () => {
    expect(seatRequests(["me", "invite", "open", "ai:hard"])).toEqual([
      { kind: "creator" }, { kind: "invite" }, { kind: "open" }, { kind: "ai", ai: "hard" },
    ]);
  });

  it("trained policies are offered by label for their player count only", () => {
    const policies = [{ label: "silos-2p", game: "silos", players: 2 }];
    expect(seatChoices(2, policies).map(([c]) => c)).toEqual(["me", "invite", "open", "ai:easy", "ai:medium", "ai:hard", "ai:silos-2p"]);
    expect(seatChoices(3, policies).map(([c]) => c)).not.toContain("ai:silos-2p");
    expect(seatRequests(["me", "ai:silos-2p"])).toEqual([{ kind: "creator" }, { kind: "ai", ai: "silos-2p" }]);
  });

  it("trained policies sit among the strengths at their measured place, unmeasured ones last", () => {
    const policies = [{ label: "b", game: "silos", players: 3, position: 1.4 }, { label: "a", game: "silos", players: 3, position: 0.5 },
      { label: "c", game: "silos", players: 3 }];
    expect(seatChoices(3, policies).map(([c]) => c)).toEqual(
      ["me", "invite", "open", "ai:easy", "ai:a", "ai:medium", "ai:b", "ai:hard", "ai:c"]);
  });

  it("the lobby names the server's games from its meta, whichever they are", () => {
    const t = (...titles: string[]) => titles.map((title) => ({ title }));
    expect(gamesLine(t("Silencio", "SILOS", "SiliconVania"))).toBe("Silencio, SILOS and SiliconVania");
    expect(gamesLine(t("Silencio", "SILOS", "SiliconVania", "Nines"))).toBe("Silencio, SILOS, SiliconVania and Nines");
    expect(gamesLine(t("Nines"))).toBe("Nines");
    expect(gamesLine(t("A", "B"))).toBe("A and B");
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
