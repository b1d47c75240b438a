// The seats this browser holds: tokens kept in localStorage, the only credential a player has.

export interface HeldSeat {
  id: string;
  game: string;
  title: string;
  seat: number;
  token: string;
  creatorToken?: string;
  name?: string;
  added: number;
}

const KEY = "tabletop.seats.v1";

export interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export class SeatStore {
  constructor(private kv: KeyValue) {}

  all(): HeldSeat[] {
    try {
      const raw = JSON.parse(this.kv.getItem(KEY) ?? "[]") as unknown;
      if (!Array.isArray(raw)) return [];
      return raw.filter(
        (s): s is HeldSeat =>
          !!s && typeof s === "object" && typeof s.id === "string" && typeof s.token === "string" &&
          typeof s.seat === "number",
      );
    } catch {
      return [];
    }
  }

  /** Keep a seat; a newer token for the same game and seat replaces the old one. Newest first. */
  add(seat: HeldSeat): void {
    const rest = this.all().filter((s) => !(s.id === seat.id && s.seat === seat.seat));
    this.kv.setItem(KEY, JSON.stringify([seat, ...rest].slice(0, 200)));
  }

  remove(id: string, seat: number): void {
    this.kv.setItem(KEY, JSON.stringify(this.all().filter((s) => !(s.id === id && s.seat === seat))));
  }

  /** The seats held in one game (several when one browser plays more than one seat). */
  ofGame(id: string): HeldSeat[] {
    return this.all().filter((s) => s.id === id);
  }

  /** The seat to play in game `id`: the one asked for, else the only or first held; none: a spectator. */
  pick(id: string, wanted: number | null): HeldSeat | null {
    const held = this.ofGame(id);
    if (wanted !== null) return held.find((s) => s.seat === wanted) ?? null;
    return held.sort((a, b) => a.seat - b.seat)[0] ?? null;
  }
}

/** A memory-only store, for tests and for browsers that refuse localStorage. */
export class MemoryKV implements KeyValue {
  private m = new Map<string, string>();
  getItem(key: string): string | null {
    return this.m.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.m.set(key, value);
  }
}

export function browserStore(): SeatStore {
  try {
    localStorage.setItem("tabletop.probe", "1");
    return new SeatStore(localStorage);
  } catch {
    return new SeatStore(new MemoryKV());
  }
}
