// A table for games that have no table module yet: the seat's view laid out as text; moves from the action list.
import { h, type Child } from "../dom";
import type { TableModule } from "./types";

function show(value: unknown, depth = 0): Child {
  if (value === null || typeof value !== "object") return h("span.val", String(value));
  if (Array.isArray(value)) {
    if (value.every((x) => x === null || typeof x !== "object")) return h("span.val", value.join(", ") || "—");
    return h("ol", value.map((x) => h("li", show(x, depth + 1))));
  }
  return h("dl", Object.entries(value as Record<string, unknown>)
    .filter(([k]) => k !== "log" && k !== "log_pos")
    .map(([k, x]) => [h("dt", k), h("dd", show(x, depth + 1))]));
}

export const generic: TableModule = {
  paths: () => new Map(),
  hintLine: "Choose a move from the buttons below.",
  render: (view) => h("div.generic", h("p.note", "This game's table is not drawn yet: its view is shown as text, and moves are made from the action list."), show(view)),
};
