// The table module of each game (web/src/games/<game>.ts); a game without one gets the generic table.
import { generic } from "./generic";
import { silencio } from "./silencio";
import { siliconvania } from "./siliconvania";
import { silos } from "./silos";
import type { TableModule } from "./types";

const TABLES: Record<string, TableModule> = { silencio, silos, siliconvania };

export function tableFor(game: string): TableModule {
  return TABLES[game] ?? generic;
}
