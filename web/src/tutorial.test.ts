import { describe, expect, it } from "vitest";
import { tutorialAllows, wrongMove, type LessonStep } from "./tutorial";

const step: LessonStep = { action: "give y8", text: "Pass y8.", wrong: "", rule: "" };

describe("the lesson's answer to a move", () => {
  it("lets the step's move through", () => {
    expect(wrongMove(step, "give y8")).toBeNull();
  });
  it("explains another move, naming the one asked for and why", () => {
    const why = wrongMove(step, "give r2")!;
    expect(why).toContain("give r2");
    expect(why).toContain("give y8");
    expect(why).toContain("Pass y8.");
  });
  it("uses the step's own words for a wrong move when it has them", () => {
    expect(wrongMove({ ...step, wrong: "Keep r2 for later." }, "give r2")).toContain("Keep r2 for later.");
  });
  it("asks to wait while the other seats move", () => {
    expect(wrongMove(null, "give y8")).toMatch(/other player is moving/);
  });
  it("leaves every move alone on a table that is not a tutorial's", () => {
    expect(tutorialAllows("anything")).toBe(true);
  });
});
