import { describe, expect, it, vi } from "vitest";
import { Answers, isAnswer } from "./answers";

describe("Answers: actions over the socket matched to their answers", () => {
  it("resolves the waiting action with its own answer only", async () => {
    const a = new Answers();
    const p = a.wait("c1", 1000);
    expect(a.take({ type: "ack", client_action_id: "other", seq: 3, action: "x", kind: "action", duplicate: false })).toBe(false);
    expect(a.take({ type: "ack", client_action_id: "c1", seq: 3, action: "x", kind: "action", duplicate: false })).toBe(true);
    expect((await p)?.type).toBe("ack");
    expect(a.pending).toBe(0);
  });

  it("gives null on timeout or when the socket closes, so the action goes over REST", async () => {
    vi.useFakeTimers();
    const a = new Answers();
    const late = a.wait("c1", 50);
    const cut = a.wait("c2", 5000);
    vi.advanceTimersByTime(60);
    expect(await late).toBeNull();
    a.dropAll();
    expect(await cut).toBeNull();
    expect(a.take({ type: "refused", client_action_id: "c1", status: 409, detail: "stale" })).toBe(false);
    vi.useRealTimers();
  });

  it("tells answers from pictures", () => {
    expect(isAnswer({ type: "ack" })).toBe(true);
    expect(isAnswer({ type: "refused" })).toBe(true);
    expect(isAnswer({ type: "state" })).toBe(false);
  });
});
