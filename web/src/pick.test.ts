import { describe, expect, it } from "vitest";
import { Picker, type Paths } from "./pick";

const paths: Paths = new Map([
  ["play r5", ["card:r5"]],
  ["give b3 to p1", ["card:b3", "player:1"]],
  ["give b3 to p2", ["card:b3", "player:2"]],
  ["shrine large red", ["shrine:large", "row:red"]],
]);

describe("Picker: moves by clicking components", () => {
  it("a one-click action is submitted by its component", () => {
    const p = new Picker();
    p.setPaths(paths);
    expect(p.clickable()).toEqual(new Set(["card:r5", "card:b3", "shrine:large"]));
    expect(p.click("card:r5")).toEqual({ kind: "submit", action: "play r5" });
    expect(p.selected).toEqual([]);
  });

  it("a two-click action highlights the second step's legal targets only", () => {
    const p = new Picker();
    p.setPaths(paths);
    expect(p.click("card:b3")).toEqual({ kind: "select" });
    expect(p.clickable()).toEqual(new Set(["player:1", "player:2"]));
    expect(p.click("player:2")).toEqual({ kind: "submit", action: "give b3 to p2" });
  });

  it("clicking another starting component starts over from it", () => {
    const p = new Picker();
    p.setPaths(paths);
    p.click("shrine:large");
    expect(p.click("card:r5")).toEqual({ kind: "submit", action: "play r5" });
  });

  it("clicking a component no action concerns cancels the selection and submits nothing", () => {
    const p = new Picker();
    p.setPaths(paths);
    expect(p.click("player:1")).toEqual({ kind: "ignored" });
    p.click("card:b3");
    expect(p.click("row:blue")).toEqual({ kind: "select" });
    expect(p.selected).toEqual([]);
  });

  it("new legal actions drop a selection that leads nowhere", () => {
    const p = new Picker();
    p.setPaths(paths);
    p.click("card:b3");
    p.setPaths(new Map([["play r5", ["card:r5"]]]));
    expect(p.selected).toEqual([]);
  });

  it("actions with no component are the fallback buttons", () => {
    expect(Picker.unbound(["play r5", "pass", "end"], paths)).toEqual(["pass", "end"]);
  });
});
