// Moves by clicking components: each legal action that concerns components is a path of component keys
// (`give r5 to p1` = the card r5, then the player p1). Clicking follows the paths; a complete path is the move.

export type Paths = Map<string, string[]>;

export type Click = { kind: "submit"; action: string } | { kind: "select" } | { kind: "ignored" };

export class Picker {
  selected: string[] = [];
  private paths: Paths = new Map();

  /** New legal actions: the selection survives only while it still leads somewhere. */
  setPaths(paths: Paths): void {
    this.paths = paths;
    if (this.selected.length && this.next(this.selected).size === 0) this.selected = [];
  }

  /** Keys that continue the selection now (highlighted as legal targets). */
  clickable(): Set<string> {
    return this.next(this.selected);
  }

  /** Every key that starts some path: all components that some legal action concerns. */
  starts(): Set<string> {
    return this.next([]);
  }

  private next(prefix: string[]): Set<string> {
    const out = new Set<string>();
    for (const path of this.paths.values()) {
      if (path.length > prefix.length && prefix.every((k, i) => path[i] === k)) out.add(path[prefix.length]);
    }
    return out;
  }

  /** The action whose whole path is `keys`, if exactly one is and no longer path continues it. */
  private complete(keys: string[]): string | null {
    let found: string | null = null;
    for (const [action, path] of this.paths) {
      if (path.length === keys.length && path.every((k, i) => keys[i] === k)) found = action;
    }
    if (found !== null && this.next(keys).size > 0) return null;
    return found;
  }

  click(key: string): Click {
    let prefix = [...this.selected, key];
    if (!this.next(this.selected).has(key)) {
      // not a continuation: start over from this component if it starts anything
      if (!this.next([]).has(key)) {
        const wasSelected = this.selected.length > 0;
        this.selected = [];
        return wasSelected ? { kind: "select" } : { kind: "ignored" };
      }
      prefix = [key];
    }
    const action = this.complete(prefix);
    if (action !== null) {
      this.selected = [];
      return { kind: "submit", action };
    }
    this.selected = prefix;
    return { kind: "select" };
  }

  reset(): void {
    this.selected = [];
  }

  /** Legal actions that no component click makes: the ones the fallback buttons must offer. */
  static unbound(legal: string[], paths: Paths): string[] {
    return legal.filter((a) => !paths.has(a));
  }
}
