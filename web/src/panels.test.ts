import { describe, expect, it } from "vitest";
import { clockText, secondsLeft } from "./panels";

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
