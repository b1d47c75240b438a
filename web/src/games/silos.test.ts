import { describe, expect, it } from "vitest";
import { silosKeyLabel, silosLabel, silosPaths, type SilosView } from "./silos";

function view(over: Partial<SilosView> = {}): Record<string, unknown> {
  const locations = Array.from({ length: 7 }, (_, id) => ({
    id, name: `L${id}`, alternate: false, crop_circles_tile: false, figures: {}, influence: {},
    focus: id === 3 ? { politician: 1, professional: 2 } : { politician: 1 }, cow: id ? true : null, human: null,
    leads: null, streets: [], crop_circle: null, skill_tile: null,
  }));
  const seat = { color: "blue", humans: { politician: 1, government: 0, influencer: 0, professional: 0 }, cows: 1,
    emblems: 0, faction_cards: { sighting: true, confluence: true, powers: true }, held_common: {},
    crop_tokens_left: 3, figures_to_place: 0 };
  return { seat: 0, players: 2, locations, seats: [seat, { ...seat, color: "yellow" }], ...over } as unknown as Record<string, unknown>;
}

describe("SILOS: every action on a component is reachable by clicking it", () => {
  it("figures, locations, streets' ends and the placing reserve", () => {
    const p = silosPaths(["place leader 3", "place figure 0"], view());
    expect(p.get("place leader 3")).toEqual(["reserve:leader", "loc:3"]);
    expect(p.get("place figure 0")).toEqual(["reserve:figure", "loc:0"]);
    // once the leader is out, one click on the location places a figure
    expect(silosPaths(["place figure 4"], view()).get("place figure 4")).toEqual(["loc:4"]);
    const m = silosPaths(["move leader 3-4", "reposition distinguished 1-6", "power 1 move yellow figure 5-1",
      "skill 1 move yellow leader 2-1", "skill 2 move figure 0-2", "exert 5"], view());
    expect(Object.fromEntries(m)).toEqual({
      "move leader 3-4": ["fig:blue:leader:3", "loc:4"],
      "reposition distinguished 1-6": ["fig:blue:distinguished:1", "loc:6"],
      "power 1 move yellow figure 5-1": ["fig:yellow:figure:5", "loc:1"],
      "skill 1 move yellow leader 2-1": ["fig:yellow:leader:2", "loc:1"],
      "skill 2 move figure 0-2": ["fig:blue:figure:0", "loc:2"],
      "exert 5": ["loc:5"],
    });
  });

  it("humans: drawn, in focus groups, held by players; mind control takes from the full group", () => {
    const p = silosPaths(["place government 6", "take professional professional", "power 4 exchange cow politician politician",
      "power 5 take politician from yellow", "power 5 take influencer from focus 4", "skill 5 move politician 3-5",
      "skill 4 return politician cow", "power 4 return politician"], view());
    expect(p.get("place government 6")).toEqual(["hand:government", "focus:6"]);
    expect(p.get("take professional professional")).toEqual(["focus:3:professional", "focus:3:professional"]);
    expect(p.get("power 4 exchange cow politician politician")).toEqual(["held:blue:cow", "held:blue:politician", "held:blue:politician"]);
    expect(p.get("power 5 take politician from yellow")).toEqual(["held:yellow:politician"]);
    expect(p.get("power 5 take influencer from focus 4")).toEqual(["focus:4:influencer"]);
    expect(p.get("skill 5 move politician 3-5")).toEqual(["focus:3:politician", "focus:5"]);
    expect(p.get("skill 4 return politician cow")).toEqual(["held:blue:politician", "held:blue:cow"]);
    expect(p.get("power 4 return politician")).toEqual(["held:blue:politician"]);
  });

  it("cards, the deck, the bag, crop circles and the location powers", () => {
    const p = silosPaths(["card common", "card sighting ufo", "card sighting reposition", "card confluence", "card powers",
      "card held one-power", "crop place 3", "crop move 2-5", "power 2 graduate", "power 6 downgrade"], view());
    expect(Object.fromEntries(p)).toEqual({
      "card common": ["deck"],
      "card sighting ufo": ["fcard:sighting", "sighting:ufo"],
      "card sighting reposition": ["fcard:sighting", "sighting:reposition"],
      "card confluence": ["fcard:confluence"],
      "card powers": ["fcard:powers"],
      "card held one-power": ["heldcard:one-power"],
      "crop place 3": ["crop:3"],
      "crop move 2-5": ["crop:2", "crop:5"],
      "power 2 graduate": ["loc:2"],
      "power 6 downgrade": ["loc:6"],
    });
    // the bag draws one human; when both draws are offered, the larger one stays a button
    const d = silosPaths(["power 4 draw", "power 4 draw three", "skip"], view());
    expect(d.get("power 4 draw")).toEqual(["bag"]);
    expect(d.has("power 4 draw three")).toBe(false);
    expect(silosPaths(["power 3 draw four", "skip"], view()).get("power 3 draw four")).toEqual(["bag"]);
  });

  it("actions about no component stay buttons, in words; a spectator clicks nothing", () => {
    expect([...silosPaths(["stop", "skip", "done", "skill 0 keep", "skill 0 reject"], view()).keys()]).toEqual([]);
    expect(silosLabel("skill 0 reject")).toMatch(/Reject/);
    expect(silosPaths(["move leader 3-4"], view({ seat: null })).size).toBe(0);
  });

  it("a selected component is named in words", () => {
    expect(silosKeyLabel("fig:blue:leader:3", view())).toBe("blue leader at 3 L3");
    expect(silosKeyLabel("held:yellow:cow", view())).toBe("yellow's cow");
    expect(silosKeyLabel("fcard:sighting", view())).toBe("UFO Sighting");
  });
});
