import type { SeatState } from "./api";

/** The server's answer to an action sent over the game's socket (the same outcome REST would have given). */
export type SocketAnswer =
  | { type: "ack"; client_action_id: string; seq: number; action: string; kind: string; duplicate: boolean }
  | { type: "refused"; client_action_id: string | null; status: number; detail: string; state?: SeatState; legal?: string[] };

/**
 * Actions sent over the socket, waiting for their answers by client action id. An answer that does not come in
 * time, or a socket that closes first, resolves to null: the caller then sends the action over REST with the
 * same client action id, so an action the server did apply is recognised and never applied twice.
 */
export class Answers {
  private waiting = new Map<string, { done: (a: SocketAnswer | null) => void; timer: ReturnType<typeof setTimeout> }>();

  wait(clientActionId: string, ms: number): Promise<SocketAnswer | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.finish(clientActionId, null), ms);
      this.waiting.set(clientActionId, { done: resolve, timer });
    });
  }

  /** Hand an answer to its waiting action: false if none waits for it (late, or not ours). */
  take(answer: SocketAnswer): boolean {
    return answer.client_action_id !== null && this.finish(answer.client_action_id, answer);
  }

  /** The socket closed: every waiting action falls back to REST. */
  dropAll(): void {
    for (const id of [...this.waiting.keys()]) this.finish(id, null);
  }

  get pending(): number {
    return this.waiting.size;
  }

  private finish(id: string, answer: SocketAnswer | null): boolean {
    const w = this.waiting.get(id);
    if (!w) return false;
    this.waiting.delete(id);
    clearTimeout(w.timer);
    w.done(answer);
    return true;
  }
}

export function isAnswer(m: { type?: unknown }): m is SocketAnswer {
  return m.type === "ack" || m.type === "refused";
}
