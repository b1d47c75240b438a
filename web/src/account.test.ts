import { describe, expect, it } from "vitest";
import { ratingText, timeLeft, turnLine } from "./account";
import { request, SESSION_SEAT, setCsrf, socketUrl } from "./api";

describe("Account pages: what they say", () => {
  it("the clock left reads in days, hours and minutes", () => {
    expect(timeLeft(86400 + 3 * 3600 + 5)).toBe("1 day 3 h");
    expect(timeLeft(2 * 86400)).toBe("2 days");
    expect(timeLeft(5 * 3600 + 600)).toBe("5 h 10 min");
    expect(timeLeft(240)).toBe("4 min");
    expect(timeLeft(12)).toBe("less than a minute");
    expect(timeLeft(-5)).toBe("less than a minute");
    expect(timeLeft(null)).toBe("");
  });

  it("a rating shows its uncertainty (three sigma) and what it is ranked by", () => {
    expect(ratingText({ mu: 27.1234, sigma: 7.5, ordinal: 4.6234 })).toBe("27.1 ± 22.5 (ranked by 4.6)");
  });

  it("my games say whose turn it is", () => {
    expect(turnLine({ status: "playing", your_turn: true, to_move: [{ seat: 0, name: "ann" }] })).toBe("your turn");
    expect(turnLine({ status: "playing", your_turn: false, to_move: [{ seat: 1, name: "bob" }] })).toBe("bob to play");
    expect(turnLine({ status: "over", your_turn: false, to_move: [] })).toBe("over");
    expect(turnLine({ status: "waiting", your_turn: false, to_move: [] })).toBe("waiting for players");
  });
});

describe("Requests of a signed-in page", () => {
  function capture(): { calls: { method: string; headers: Record<string, string> }[] } {
    const seen = { calls: [] as { method: string; headers: Record<string, string> }[] };
    globalThis.fetch = (async (_path: string, init: { method: string; headers: Record<string, string> }) => {
      seen.calls.push({ method: init.method, headers: init.headers });
      return new Response("{}", { status: 200 });
    }) as unknown as typeof fetch;
    return seen;
  }

  it("state-changing requests carry the CSRF token, reads do not, and a session seat sends no bearer", async () => {
    const seen = capture();
    setCsrf("tok-123");
    await request("POST", "/api/x", SESSION_SEAT, {});
    await request("GET", "/api/x", "seat-token");
    setCsrf(null);
    await request("POST", "/api/x", "seat-token", {});
    expect(seen.calls[0].headers["X-CSRF-Token"]).toBe("tok-123");
    expect(seen.calls[0].headers.Authorization).toBeUndefined();
    expect(seen.calls[1].headers["X-CSRF-Token"]).toBeUndefined();
    expect(seen.calls[1].headers.Authorization).toBe("Bearer seat-token");
    expect(seen.calls[2].headers["X-CSRF-Token"]).toBeUndefined();
  });

  it("a session seat's socket carries no token (the cookie says who plays)", () => {
    expect(socketUrl({ protocol: "http:", host: "h" }, "ab", SESSION_SEAT, 0)).toBe("ws://h/api/games/ab/ws?since=0");
    expect(socketUrl({ protocol: "http:", host: "h" }, "ab", "t", 0)).toContain("token=t");
  });
});
