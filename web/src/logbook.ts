// The seat's move history: entries of its own log, caught up from the last index after any reconnect.
import type { LogEntry } from "./api";

export type Merge = "ok" | "gap";

export class LogBook {
  entries: LogEntry[] = [];

  get length(): number {
    return this.entries.length;
  }

  /**
   * Merge entries that start at index `start`. Entries already held are kept (an entry never changes once
   * written); new ones are appended. Returns "gap" when `start` is past what is held: the caller fetches the
   * missing entries from `log?start=length` and merges them.
   */
  merge(start: number, entries: LogEntry[]): Merge {
    if (start > this.entries.length) return "gap";
    const skip = this.entries.length - start;
    for (let i = skip; i < entries.length; i++) this.entries.push(entries[i]);
    return "ok";
  }

  /** True when the server says its log is longer than what is held (a coalesced or missed update). */
  behind(logPos: number | null | undefined): boolean {
    return typeof logPos === "number" && logPos > this.entries.length;
  }
}
