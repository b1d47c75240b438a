// Shared helpers for the game tables: clickable components, names in texts.
import { h, listensByKey, type Attrs, type Child } from "../dom";
import type { TableUi } from "./types";

/**
 * A component the player may click: keyed by `key` (`data-key`), highlighted when it is a legal target,
 * marked when selected, reachable by keyboard (Tab, Enter or Space) while it is a target.
 */
export function comp(tag: string, key: string, ui: TableUi, attrs: Attrs, ...children: Child[]): HTMLElement {
  const target = ui.clickable.has(key);
  const selected = ui.selected.includes(key);
  const el = h(tag, { ...attrs, dataset: { ...((attrs.dataset as object) ?? {}), key } }, ...children);
  if (target) {
    el.classList.add("target");
    el.tabIndex = 0;
    el.setAttribute("role", "button");
  }
  if (selected) el.classList.add("selected");
  listensByKey(el); // its handlers read the key and the table's ui only: a redraw in place may keep it
  el.addEventListener("click", (e) => {
    e.stopPropagation();
    ui.click(key);
  });
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      ui.click(key);
    }
  });
  return el;
}

/** `p1` in an engine text becomes the seat's name. */
/** `named`, with the reader's own seat as "you" ("You" at the start): the decision line of the seat to move. */
export function namedFor(text: string, names: string[], reader: number | null): string {
  return text.replace(/\bp(\d)\b|\bPlayer (\d)\b/g, (m, d: string | undefined, n: string | undefined, at: number) => {
    const seat = d !== undefined ? Number(d) : Number(n) - 1;
    if (seat === reader) return at === 0 ? "You" : "you";
    return names[seat] ?? m;
  });
}

export function named(text: string, names: string[]): string {
  // `p2` (the notation) and `Player 3` (the engine's words for seat 2, seats from 1: tabletop.core.logwords)
  return text.replace(/\bp(\d)\b|\bPlayer (\d)\b/g, (m, d: string | undefined, n: string | undefined) =>
    (d !== undefined ? names[Number(d)] : names[Number(n) - 1]) ?? m);
}
