import { describe, expect, it } from "vitest";
import { Picker } from "../pick";
import { D, svLabel, svPaths, svPrompt, withoutBid } from "./siliconvania";

describe("SiliconVania: every action on a component is reachable by clicking it", () => {
  it("maps each notation to its components", () => {
    const p = svPaths([
      "bid 5 s33", "bid 6=0 s33", "bid 0 s12", "recover 4", "pool 3", "castle mall top2", "train 3 leftb",
      "upgrade top2", "relocate swap a1 b2", "relocate move top1 leftc", "swap s12 s40", "exchange b2 t44",
      "antiquity goblet b2", "take s45", "objective s45",
    ]);
    expect(Object.fromEntries(p)).toEqual({
      "bid 5 s33": ["bid:5", "spec:33"],
      "bid 6=0 s33": ["bid:6=0", "spec:33"],
      "bid 0 s12": ["bid:0", "spec:12"],
      "recover 4": ["biddisc:4"],
      "pool 3": ["pool:3"],
      "castle mall top2": ["castle:mall", "pos:top2"],
      "train 3 leftb": ["train:3", "pos:leftb"],
      "upgrade top2": ["pos:top2"],
      "relocate swap a1 b2": ["pos:a1", "pos:b2"],
      "relocate move top1 leftc": ["pos:top1", "pos:leftc"],
      "swap s12 s40": ["obj:12", "spec:40"],
      "exchange b2 t44": ["pos:b2", "xtile:44"],
      "antiquity goblet b2": ["anti:goblet", "pos:b2"],
      "take s45": ["row:45"],
      "objective s45": ["spec:45"],
    });
  });

  it("a single tile to place goes by one click on the cell; several by the tile, then the cell", () => {
    expect(Object.fromEntries(svPaths(["place t17 b2", "place t17 c3"]))).toEqual({
      "place t17 b2": ["pos:b2"], "place t17 c3": ["pos:c3"],
    });
    expect(svPaths(["place t17 b2", "place t4 b2"]).get("place t4 b2")).toEqual(["tile:4", "pos:b2"]);
  });

  it("the bid (value × specialist, 50+ actions) takes two clicks: a bid card, then a specialist", () => {
    const hand = [6, 11, 25, 40, 46, 66];
    const legal = [1, 2, 3, 4, 5, 6, 7].flatMap((c) => hand.map((r) => `bid ${c} s${r}`));
    legal.push(...hand.map((r) => `bid 6=0 s${r}`));
    expect(legal.length).toBeGreaterThanOrEqual(48);
    const pk = new Picker();
    pk.setPaths(svPaths(legal));
    expect([...pk.clickable()].sort()).toEqual(["bid:1", "bid:2", "bid:3", "bid:4", "bid:5", "bid:6", "bid:6=0", "bid:7"]);
    expect(pk.click("bid:6=0")).toEqual({ kind: "select" });
    expect([...pk.clickable()].sort()).toEqual(hand.map((r) => `spec:${r}`).sort());
    expect(pk.click("spec:40")).toEqual({ kind: "submit", action: "bid 6=0 s40" });
  });

  it("declining is the only thing left to the buttons", () => {
    const legal = ["relocate skip", "relocate done", "swap skip", "exchange skip"];
    expect([...svPaths(legal).keys()]).toEqual([]);
    for (const a of legal) expect(svLabel(a)).not.toEqual(a);
  });

  it("each decision tells what to click", () => {
    for (const d of ["bid", "recover a bid card", "choose a selection pool", "place a tile", "take and place a castle",
      "take and place a train", "relocate tiles", "swap a city objective", "upgrade a castle", "exchange a tile",
      "take and place an antiquity", "take a specialist", "add a city objective"]) {
      expect(svPrompt(d, []), d).toMatch(/[Cc]lick/);
    }
  });

  it("the component data covers the whole game", () => {
    expect(D.tiles.length).toBe(88);
    expect(Object.keys(D.specialists).length).toBe(70);
    expect(D.castles.length).toBe(7);
    expect(D.bid_cards.length).toBe(7);
  });
});

describe("your face-down bid is shown once", () => {
  it("leaves the bid card and the bid specialist out of the hand lists, one copy only", () => {
    expect(withoutBid([1, 4, 6], 4)).toEqual([1, 6]);
    expect(withoutBid([3, 3, 5], 3)).toEqual([3, 5]);
    expect(withoutBid([2, 5], undefined)).toEqual([2, 5]);
    expect(withoutBid([2, 5], 9)).toEqual([2, 5]);
  });
});
