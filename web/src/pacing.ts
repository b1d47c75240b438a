// Pacing: the server sends every update at once (an AI seat's three moves land within milliseconds); the table shows
// other seats' moves one at a time, a pause apart, so a player sees each. The player's own move shows at once (and
// with it whatever waited before it). The pause is a setting of the table (localStorage `tabletop.pace`, in ms);
// `?pace=0` in the address (or `tabletop.pace` = 0) makes it instant, and so does a browser driven by automation
// (`navigator.webdriver`: tests) unless the key or the parameter says otherwise.
import type { LogEntry, StateMessage } from "./api";

/** The pause between two shown moves of other seats unless set otherwise (ms). */
export const DEFAULT_PACE_MS = 1000;
export const PACE_KEY = "tabletop.pace";
/** The choices the table's settings offer (ms). */
export const PACE_CHOICES = [0, 500, 1000, 2000];

/** What a queue needs of time (the browser's timers, or a fake in tests). */
export interface Timer {
  now(): number;
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const browserTimer: Timer = {
  now: () => performance.now(),
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The pause in ms: `?pace=N` in the address, else the stored setting, else 0 under automation, else the default. */
export function paceSetting(search: string, stored: string | null, automated: boolean): number {
  const fromUrl = new URLSearchParams(search).get("pace");
  for (const v of [fromUrl, stored]) {
    if (v !== null && /^\d{1,5}$/.test(v)) return Number(v);
  }
  return automated ? 0 : DEFAULT_PACE_MS;
}

export function currentPace(): number {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(PACE_KEY);
  } catch {
    /* storage refused: the default */
  }
  return paceSetting(location.search, stored, navigator.webdriver === true);
}

/**
 * A queue of updates shown one at a time. `push(item, paced)`: an unpaced item (the player's own move, a first
 * picture, nothing new) shows at once when nothing waits, and otherwise shows every waiting item at once before it
 * (they are older); a paced item (another seat's move) shows when the pause since the last shown item has passed.
 */
export class PaceQueue<T> {
  private waiting: T[] = [];
  private handle: unknown = null;
  private lastShown = -Infinity;

  constructor(private show: (item: T) => void, private pace: () => number, private timer: Timer = browserTimer) {}

  /** How many items wait to be shown. */
  get length(): number {
    return this.waiting.length;
  }

  push(item: T, paced: boolean): void {
    if (!paced) {
      this.flush();
      this.emit(item);
      return;
    }
    this.waiting.push(item);
    this.pump();
  }

  /** Show everything waiting now (the player acts, the pause is set to 0); the pause starts again from now. */
  flush(): void {
    this.lastShown = this.timer.now();
    if (this.handle !== null) {
      this.timer.clear(this.handle);
      this.handle = null;
    }
    const all = this.waiting;
    this.waiting = [];
    for (const x of all) this.emit(x);
  }

  /** Drop everything waiting and stop the timer (the table is left). */
  stop(): void {
    if (this.handle !== null) this.timer.clear(this.handle);
    this.handle = null;
    this.waiting = [];
  }

  private emit(item: T): void {
    this.lastShown = this.timer.now();
    this.show(item);
  }

  private pump(): void {
    if (this.handle !== null || !this.waiting.length) return;
    const pace = Math.max(0, this.pace());
    const due = this.lastShown + pace - this.timer.now();
    if (pace === 0 || due <= 0) {
      this.emit(this.waiting.shift()!);
      this.pump();
      return;
    }
    this.handle = this.timer.set(() => {
      this.handle = null;
      if (this.waiting.length) this.emit(this.waiting.shift()!);
      this.pump();
    }, due);
  }
}

/**
 * Which socket updates are paced: those that bring log entries of other seats (or of the table: a reveal, a new
 * round) past `seen`, the log index already queued. The player's own moves, and updates with nothing new (a seat
 * taken, a clock), are not.
 */
export class PaceJudge {
  seen = 0;

  constructor(private seat: number | null) {}

  /** The new entries of `m` and whether it is paced. */
  judge(m: Pick<StateMessage, "log_start" | "log">): { fresh: LogEntry[]; paced: boolean } {
    const fresh = m.log.slice(Math.max(0, this.seen - m.log_start));
    this.seen = Math.max(this.seen, m.log_start + m.log.length);
    return { fresh, paced: fresh.some((e) => e.seat !== this.seat || this.seat === null) };
  }

  /** The log was cut back (an undo): entries past `length` may come again. */
  cut(length: number): void {
    this.seen = Math.min(this.seen, length);
  }
}
