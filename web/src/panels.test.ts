import { describe, expect, it } from "vitest";
import { clockText, hintValue, secondsLeft } from "./panels";

describe("the move clock", () => {
  it("counts down from a deadline with or without a zone (the server's times are UTC) and never below zero", () => {
    const now = Date.parse("2026-01-01T12:00:00Z");
    expect(secondsLeft("2026-01-01T12:01:05+00:00", now)).toBe(65);
    expect(secondsLeft("2026-01-01T12:01:05", now)).toBe(65);
    expect(secondsLeft("2026-01-01T11:59:00Z", now)).toBe(0);
  });
  it("reads as minutes, hours or days", () => {
    expect(clockText(65)).toBe("1:05");
    expect(clockText(3600 + 61)).toBe("1:01:01");
    expect(clockText(3 * 86400)).toBe("3 d 00:00:00");
  });
});

describe("a hint's value in words", () => {
  it("is a win chance, or in Silencio the expected cards left its reason gives", () => {
    expect(hintValue({ action: "pass", value: 0.4213, visits: 9 })).toBe("win chance 42%");
    expect(hintValue({ action: "play r5", value: 0.8, visits: 9, reason: "1.25 cards left on average, perfect in 31%" }))
      .toBe("expected cards left 1.3");
    expect(hintValue({ action: "play r5", value: 0.8, visits: 9, reason: "1 card left on average, perfect in 0%" }))
      .toBe("expected cards left 1.0");
  });
});
