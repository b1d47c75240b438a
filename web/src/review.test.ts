import { describe, expect, it } from "vitest";
import { curve, type ReviewDecision } from "./review";

const d = (step: number, options: number, estimate: number, best_score: number | null, mistake = false): ReviewDecision => ({
  step, played: "a", played_value: estimate, best: "b", best_value: estimate, loss: 0, samples: 10, options, estimate,
  reason: "", mistake, played_score: best_score, best_score,
});

describe("curve", () => {
  it("is the win chance at each decision with a choice, each point going to the move itself", () => {
    const c = curve({ game: "silos", seat: 0, measure: "win chance", score_label: "points",
      decisions: [d(0, 3, 0.5, null), d(2, 1, 0, null), d(4, 2, 0.25, null, true)] });
    expect(c.cards).toBe(false);
    expect(c.points).toEqual([{ step: 1, y: 0.5, mistake: false }, { step: 5, y: 0.25, mistake: true }]);
    expect(c.label).toContain("chance of winning");
  });

  it("is the team's expected cards left in a cooperative game, and says so", () => {
    const c = curve({ game: "silencio", seat: 1, measure: "team result", score_label: "cards left",
      decisions: [d(1, 2, 0.6, -4.5), d(3, 3, 0.7, -3)] });
    expect(c.cards).toBe(true);
    expect(c.points.map((p) => p.y)).toEqual([4.5, 3]);
    expect(c.label).toContain("expected cards left");
  });
});
