// What a game's table module gives the generic table shell. One module per game: web/src/games/<game>.ts.
import type { Paths } from "../pick";

export interface TableUi {
  /** The seat this browser plays (null: a spectator). */
  seat: number | null;
  /** Display names per seat ("Ann", "Bo (AI easy)"). */
  names: string[];
  legal: string[];
  /** Component keys that continue the current selection (legal targets). */
  clickable: Set<string>;
  /** Component keys selected so far (a move of several clicks). */
  selected: string[];
  click(key: string): void;
  act(action: string): void;
  /** What a table term means (a location, a power, a card…), from the game's help data; "" when unknown. */
  term?(name: string): string;
  /** What an action does (longest matching prefix in the game's help data); "" when unknown. */
  explain?(action: string): string;
}

export interface TableModule {
  /** The component path of each legal action that concerns components; others go to the fallback buttons. */
  paths(legal: string[], view: Record<string, unknown>): Paths;
  /** The table drawn from the seat's view only. */
  render(view: Record<string, unknown>, ui: TableUi): HTMLElement;
  /** A readable name for a selected component key (default: the key). */
  keyLabel?(key: string, view: Record<string, unknown>): string;
  /** A readable label for an action's button (default: its text). */
  label?(action: string, view: Record<string, unknown>): string;
  /** The line that tells a player what to click on this game's table (the shell shows it when targets are lit). */
  hintLine?: string;
  /** One seat's own hand (or secret holdings) drawn from that seat's view: the replay viewer lays all of them open. */
  hand?(view: Record<string, unknown>, ui: TableUi): HTMLElement | null;
  /** The end-of-game panel from the final view, or null for the generic one. */
  result?(view: Record<string, unknown>, ui: TableUi): HTMLElement | null;
}
