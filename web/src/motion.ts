// The table's motion and its last-move mark, for every game alike (FLIP: First, Last, Invert, Play). Before a new
// picture is drawn the shell takes a `snapshot` of where each component stood; after, `settle` finds each component
// again by its identity (a card, a tile, a bid, a figure…), moves the ones that changed place from their old place to
// the new (Web Animations API), fades in the new ones, and says which changed: the last move, marked on the table
// until the next one. `prefers-reduced-motion: reduce` turns the movement off; the mark stays.

/** What identifies a component across two pictures: its data attribute, else a figure's classes. */
const IDENTITY = ["card", "tile", "bid", "spec", "human"];
/** The ancestors that say where a component lies (a row, a seat's area, a location, a city cell, a pool). */
const PLACE = "[data-row],[data-seat],[data-loc],[data-pos],[data-pool],[data-half]";
const PLACE_KEYS = ["row", "seat", "loc", "pos", "pool", "half"];
const TRANSIENT = new Set(["target", "selected", "suggested", "lastmove", "fresh"]);

export interface Spot {
  rect: DOMRect;
  place: string;
  text: string;
}

function identity(el: HTMLElement): string | null {
  for (const k of IDENTITY) {
    const v = el.dataset[k];
    if (v !== undefined) return `${k}:${v}`;
  }
  if (el.classList.contains("fig")) return `fig:${[...el.classList].filter((c) => !TRANSIENT.has(c)).sort().join(".")}`;
  return null;
}

function placeOf(el: HTMLElement): string {
  const p = el.parentElement?.closest<HTMLElement>(PLACE);
  if (!p) return "";
  return PLACE_KEYS.filter((k) => p.dataset[k] !== undefined).map((k) => `${k}=${p.dataset[k]}`).join(",");
}

/** Each component of `root` by its identity (numbered in document order where several share one). */
export function components(root: ParentNode): Map<string, HTMLElement> {
  const out = new Map<string, HTMLElement>();
  const count = new Map<string, number>();
  const els = root.querySelectorAll<HTMLElement>(`${IDENTITY.map((k) => `[data-${k}]`).join(",")},.fig`);
  for (const el of els) {
    const id = identity(el);
    if (id === null) continue;
    const n = count.get(id) ?? 0;
    count.set(id, n + 1);
    out.set(`${id}#${n}`, el);
  }
  return out;
}

export function snapshot(root: ParentNode | null): Map<string, Spot> {
  const out = new Map<string, Spot>();
  if (!root) return out;
  for (const [k, el] of components(root)) out.set(k, { rect: el.getBoundingClientRect(), place: placeOf(el), text: el.textContent ?? "" });
  return out;
}

export function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * After a new picture: the identities of the components that came, changed place or changed (the last move), each
 * animated from where it stood unless `still`. Components that only shifted with the layout glide without a mark.
 */
export function settle(before: Map<string, Spot>, root: ParentNode, still: boolean): Set<string> {
  const changed = new Set<string>();
  const came: HTMLElement[] = [];
  const glides: [HTMLElement, number, number, boolean][] = [];
  // every place is read before any animation starts: an animation started between two reads makes the next read
  // lay the page out again, once per component (on a SiliconVania table, most of the browser's time for a move)
  for (const [k, el] of components(root)) {
    const old = before.get(k);
    if (!old) {
      changed.add(k);
      if (!still) came.push(el);
      continue;
    }
    const moved = old.place !== placeOf(el);
    if (moved || old.text !== (el.textContent ?? "")) changed.add(k);
    if (still) continue;
    const now = el.getBoundingClientRect();
    const dx = old.rect.left - now.left;
    const dy = old.rect.top - now.top;
    if (Math.abs(dx) + Math.abs(dy) >= 1) glides.push([el, dx, dy, moved]);
  }
  for (const el of came) el.animate?.([{ opacity: 0, transform: "scale(0.6)" }, { opacity: 1, transform: "none" }], { duration: 350, easing: "ease-out" });
  for (const [el, dx, dy, moved] of glides) {
    el.animate?.([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
      { duration: moved ? 550 : 250, easing: "ease-in-out" });
  }
  return changed;
}

/** Mark the components named in `keys` as the last move (again after a redraw of the same picture). */
export function markLast(root: ParentNode, keys: Set<string>): number {
  let n = 0;
  if (!keys.size) return n;
  for (const [k, el] of components(root)) {
    if (keys.has(k)) {
      el.classList.add("lastmove");
      n++;
    }
  }
  return n;
}
