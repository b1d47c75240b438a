// Server features that arrive after the core API (chat, hints, undo). Each is probed once per game with an
// OPTIONS request (404: absent) and its panel is shown only when the server has it; panels register here.
import { hasEndpoint, type SeatState } from "./api";

export interface FeatureContext {
  gameId: string;
  token: string | null;
  state: SeatState;
}

export interface Feature {
  name: string;
  /** The endpoint probed, under /api/games/{id}/. */
  endpoint: string;
  /** The panel for the table's side bar, or null when there is nothing to show now. */
  panel(ctx: FeatureContext): HTMLElement | null;
}

const registry: Feature[] = [];

export function registerFeature(f: Feature): void {
  registry.push(f);
}

/** The registered features this server has for game `id`. */
export async function detectFeatures(id: string): Promise<Feature[]> {
  const found = await Promise.all(registry.map((f) => hasEndpoint(`/api/games/${id}/${f.endpoint}`)));
  return registry.filter((_, i) => found[i]);
}

/** Who decides now: one seat, several (simultaneous decisions), or none. */
export function deciders(toMove: unknown): number[] {
  if (typeof toMove === "number") return [toMove];
  if (Array.isArray(toMove)) return toMove.filter((x): x is number => typeof x === "number");
  return [];
}
