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

/** A log entry as the server sends it: `template` (when the entry names a seat) holds seat tokens, `{p2}`/`{p2's}`. */
export interface WordedEntry extends LogEntry {
  template?: string;
}

const TOKEN = /\{p(\d+)('s)?\}/g;
const SENTENCE_END = /[.!?:;]\s+$/;

/**
 * The entry's words for `reader` (null: a spectator), the same rules as the engine's `tabletop.core.logwords.render`:
 * "you"/"your" for the reader's seat, the player's name (`names[seat]`, else "Player N", seats from 1) otherwise,
 * capitalised at the start of a sentence. An entry of a seat that names nobody is read after that seat's name.
 */
export function renderEntry(entry: WordedEntry, names: readonly string[] | null, reader: number | null): string {
  let template = entry.template;
  if (typeof template !== "string") {
    if (entry.seat === null || entry.seat < 0) return entry.text;
    template = `{p${entry.seat}} ${entry.text}`;
  }
  const t = template;
  return t.replace(TOKEN, (_match: string, digits: string, own: string | undefined, at: number) => {
    const seat = Number(digits);
    let word: string;
    if (seat === reader) word = own ? "your" : "you";
    else {
      const who = names && seat < names.length && names[seat] ? names[seat] : `Player ${seat + 1}`;
      word = own ? `${who}'s` : who;
    }
    const before = t.slice(0, at);
    if (!before.trim() || SENTENCE_END.test(before)) word = word.charAt(0).toUpperCase() + word.slice(1);
    return word;
  });
}
