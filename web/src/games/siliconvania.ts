// The SiliconVania table, drawn from the seat's view only (fields: src/tabletop/games/siliconvania/rules.py
// `_view`) and the static component data (siliconvania.data.ts, generated from components.toml by scripts/web-data).
import { h, type Child } from "../dom";
import type { Paths } from "../pick";
import { DATA } from "./siliconvania.data";
import "./siliconvania.css";
import type { TableModule, TableUi } from "./types";
import { comp } from "./util";

type TileRow = [string, number, number, number, number, number, number, number[]];
interface SvData {
  types: string[];
  animals: string[];
  tiles: TileRow[];
  castles: TileRow[];
  trains: [number, number][];
  antiquities: string[];
  objectives: string[];
  specialists: Record<string, [string, string[]]>;
  track: string[];
  bid_cards: [string, number][];
  rounds: number;
}
export const D = DATA as unknown as SvData;

export const CELLS = Array.from({ length: 16 }, (_, i) => `${"abcd"[Math.floor(i / 4)]}${(i % 4) + 1}`);
export const SLOTS = ["top1", "top2", "top3", "top4", "lefta", "leftb", "leftc", "leftd"];
const UPG = 7;
const TRAIN0 = 20;

/** Each seat has a colour and a shape, so that no one needs to tell the colours apart. */
export const SEAT_SYMBOL = ["●", "▲", "■", "◆", "★"];
/** Each type has a colour and a short name printed on the tile. */
const TYPE_ABBR: Record<string, string> = {
  Park: "Park", Neighborhood: "Nbhd", Metro: "Metro", Mall: "Mall", Mausoleum: "Maus", "Blood Bank": "Bank", Laboratory: "Lab",
};
const TRACK_LABEL: Record<string, [string, string]> = {
  "": ["", ""],
  contract: ["✉", "council contract"],
  recover: ["↺", "recover a silent bid card"],
  train: ["T", "take a train"],
  relocate: ["⇄", "relocate tiles"],
  castle: ["♜", "take a castle"],
  swap_objective: ["⟳", "swap a city objective"],
  upgrade_castle: ["⬆", "upgrade a castle (Scorpion side)"],
};
const EFFECT_LABEL: Record<string, string> = {
  vampire: "+1 vampire", innovation: "+1 innovation", survival: "+1 survival", cat: "+cat", hound: "+hound",
  exchange: "exchange a tile", antiquity: "take an antiquity",
};
export const OBJECTIVE_RULE: Record<string, string> = {
  Groundskeeper: "2 VP per Park next to a tile with a housed vampire",
  Doctor: "2 VP per Survival tile next to another Survival tile",
  Techie: "2 VP per Innovation tile with no Innovation tile next to it",
  Resident: "3 VP per Neighborhood next to 3+ tiles of different types",
  Engineer: "3 VP per column with 4+ types, one of them Metro",
  "Sales Rep": "3 VP per row with 3+ housed vampires and a Mall",
  Noble: "3 VP per Mausoleum next to a Blood Bank",
};
const ANTIQUITY_RULE: Record<string, string> = {
  Goblet: "+2 blood on the building",
  Scepter: "+1 innovation and +1 survival now; the building shows both icons",
  Collar: "covers 2 coffins; counts as an animal you lack",
  Bangle: "+3 coffins on the building",
  Tiara: "the building turns face down: blank, 4 VP",
};

type SeatView = {
  grid: number[];
  antiquities: number[];
  perimeter: number[];
  vampires: number;
  cats: number;
  hounds: number;
  contracts: number;
  innovation: number;
  survival: number;
  bid_cards_count: number;
  bid_history: number[];
  objectives: number[];
  hand_size: number;
  discard_size: number;
  known_hand: number[];
  revealed_discards: number[];
  pending_tiles: number[];
  has_bid: boolean;
  bid: [number, number] | null;
  bid_value: number | null;
  hand?: number[];
  discard?: number[];
  bid_cards?: number[];
  bid_discards?: number[];
  bid_as_0?: boolean;
};
type Final = {
  diversity: number; housed: number; animals: number; animals_count: number; blood: number; contracts: number;
  objectives: number; objective_values: number[]; objective_copies: number[]; tiaras: number; total: number;
  housing: string[][];
};
export type View = {
  players: number;
  seat: number | null;
  round: number;
  to_move: number | null;
  decision: string;
  pools: number[][];
  exchange_pool: number[];
  row: number[];
  tile_deck: number;
  tile_discards: number[];
  specialist_deck: number;
  order: number[];
  supply: { vampires: number; cats: number; hounds: number; contracts: number; castles: number[]; trains: number[]; antiquities: number[] };
  seats: SeatView[];
  final?: Final[];
  winners?: number[];
};

const typeToken = (t: number) => D.types[t].toLowerCase().replace(/ /g, "");
const antiToken = (k: number) => D.antiquities[k].toLowerCase();

/** The component path of each legal action (the package docstring's notation); actions about no component are absent. */
export function svPaths(legal: string[]): Paths {
  const out: Paths = new Map();
  const placeTiles = new Set(legal.filter((a) => a.startsWith("place ")).map((a) => a.split(" ")[1]));
  for (const a of legal) {
    const w = a.split(" ");
    let path: string[] | null = null;
    switch (w[0]) {
      case "bid":
        path = [`bid:${w[1]}`, `spec:${w[2].slice(1)}`];
        break;
      case "recover":
        path = [`biddisc:${w[1]}`];
        break;
      case "pool":
        path = [`pool:${w[1]}`];
        break;
      case "place": // one tile to place: a click on the cell; several: the tile, then the cell
        path = placeTiles.size === 1 ? [`pos:${w[2]}`] : [`tile:${w[1].slice(1)}`, `pos:${w[2]}`];
        break;
      case "castle":
        path = [`castle:${w[1]}`, `pos:${w[2]}`];
        break;
      case "train":
        path = [`train:${w[1]}`, `pos:${w[2]}`];
        break;
      case "upgrade":
        path = [`pos:${w[1]}`];
        break;
      case "relocate":
        if (w.length === 4) path = [`pos:${w[2]}`, `pos:${w[3]}`];
        break;
      case "swap":
        if (w.length === 3) path = [`obj:${w[1].slice(1)}`, `spec:${w[2].slice(1)}`];
        break;
      case "exchange":
        if (w.length === 3) path = [`pos:${w[1]}`, `xtile:${w[2].slice(1)}`];
        break;
      case "antiquity":
        path = [`anti:${w[1]}`, `pos:${w[2]}`];
        break;
      case "take":
        path = [`row:${w[1].slice(1)}`];
        break;
      case "objective":
        path = [`spec:${w[1].slice(1)}`];
        break;
    }
    if (path) out.set(a, path);
  }
  return out;
}

export function svLabel(action: string): string {
  switch (action) {
    case "relocate skip": return "Relocate nothing";
    case "relocate done": return "Done relocating (no second move)";
    case "swap skip": return "Keep my objectives (no swap)";
    case "exchange skip": return "Exchange nothing";
  }
  return action;
}

/** What the seat is asked to click for the current decision. */
export function svPrompt(decision: string, legal: string[]): string {
  const several = new Set(legal.filter((a) => a.startsWith("place ")).map((a) => a.split(" ")[1])).size > 1;
  const prompts: Record<string, string> = {
    bid: "Bid: click one of your silent bid cards, then a specialist from your hand. Both stay face down until everyone has bid.",
    "recover a bid card": "Click a card in your used bid cards to take it back into your hand.",
    "choose a selection pool": "Click a selection pool to take its tiles.",
    "place a tile": several ? "Click a tile you won, then an empty cell of your city." : "Click an empty cell of your city for the tile you won.",
    "take and place a castle": "Click a castle in the supply, then a free place above or left of your city.",
    "take and place a train": "Click a train in the supply, then a free place above or left of your city.",
    "relocate tiles": "Click a tile of your city, then another tile to swap with or a free place to move it to.",
    "swap a city objective": "Click one of your city objectives, then a specialist from your hand or discard to put in its place.",
    "upgrade a castle": "Click a castle at the edge of your city to turn it to its Scorpion side.",
    "exchange a tile": "Click a building of your city, then a tile of the exchange pool to take instead.",
    "take and place an antiquity": "Click an antiquity in the supply, then a building of your city.",
    "take a specialist": "Click a specialist in the row to take it into your hand.",
    "add a city objective": "Click a specialist in your hand to make it a city objective.",
  };
  return prompts[decision] ?? "";
}

function seatTag(p: number, ui: TableUi): HTMLElement {
  return h(`span.svseat.s${p}`, { title: `seat ${p + 1}` }, h("span.svsym", SEAT_SYMBOL[p]), " ", ui.names[p] ?? `p${p}`);
}

function tileBody(row: TileRow, anti = -1, kind = "tile"): Child[] {
  const [name, type, blood, coffins, animal, inn, surv, bonus] = row;
  const tiara = anti >= 0 && D.antiquities[anti] === "Tiara";
  if (tiara) return [h("span.ttype", "Tiara"), h("span.ticons", "face down"), h("span.ticons", "4 VP")];
  const icons: Child[] = [];
  if (blood) icons.push(h("span.blood", { title: `${blood} blood` }, "●".repeat(blood)));
  if (coffins) icons.push(h("span.coffin", { title: `${coffins} coffin${coffins > 1 ? "s" : ""}` }, `⚰${coffins}`));
  if (inn) icons.push(h("span.inn", { title: "innovation icon" }, "I"));
  if (surv) icons.push(h("span.surv", { title: "survival icon" }, "S"));
  return [
    h("span.ttype", kind === "castle" ? `♜ ${TYPE_ABBR[D.types[type]]}` : kind === "upgraded" ? `♛ ${TYPE_ABBR[D.types[type]]}` : TYPE_ABBR[D.types[type]]),
    h("span.ticons", icons),
    animal >= 0 ? h("span.animal", D.animals[animal]) : null,
    bonus.length ? h("span.bonus", { title: "gained when taken" }, bonus.map((b) => "+" + "VIS"[b]).join("")) : null,
    anti >= 0 ? h("span.antiq", { title: ANTIQUITY_RULE[D.antiquities[anti]] }, D.antiquities[anti]) : null,
    kind === "tile" ? h("span.tname", name) : null,
  ];
}

function tileTitle(row: TileRow): string {
  const [name, type, blood, coffins, animal, inn, surv, bonus] = row;
  const parts = [`${name} (${D.types[type]})`];
  if (blood) parts.push(`${blood} blood`);
  if (coffins) parts.push(`${coffins} coffins`);
  if (animal >= 0) parts.push(D.animals[animal]);
  if (inn) parts.push("innovation icon");
  if (surv) parts.push("survival icon");
  if (bonus.length) parts.push(`bonus when taken: ${bonus.map((b) => ["vampire", "innovation step", "survival step"][b]).join(", ")}`);
  return parts.join(" · ");
}

function tile(t: number, key: string | null, ui: TableUi, extra = ""): HTMLElement {
  const row = D.tiles[t];
  const cls = `div.svtile.ty${row[1]}${extra}`;
  const attrs = { title: tileTitle(row), dataset: { tile: String(t) } };
  return key ? comp(cls, key, ui, attrs, ...tileBody(row)) : h(cls, attrs, ...tileBody(row));
}

function specCard(r: number, key: string | null, ui: TableUi, extra = ""): HTMLElement {
  const [name, effect] = D.specialists[String(r)] ?? ["?", []];
  const attrs = { title: `${name} (rank ${r})\nbid effect: ${effect.map((e) => EFFECT_LABEL[e]).join(", ") || "none"}\nas objective: ${OBJECTIVE_RULE[name] ?? ""}`, dataset: { spec: String(r) } };
  const kids: Child[] = [h("span.rank", String(r)), h("span.sname", name),
    h("span.seffect", effect.map((e) => EFFECT_LABEL[e]).join(", "))];
  return key ? comp(`div.spec${extra}`, key, ui, attrs, ...kids) : h(`div.spec${extra}`, attrs, ...kids);
}

function faceDown(label: string): HTMLElement {
  return h("div.spec.back", { title: "face down" }, h("span.sname", label));
}

function bidCard(c: string, key: string | null, ui: TableUi, extra = ""): HTMLElement {
  const n = Number(c.split("=")[0]);
  const [ability, cost] = D.bid_cards[n - 1] ?? ["", 0];
  const note = c.includes("=0") ? "as 0" : ability === "vampire" ? "+1 vampire" : ability === "recover" ? "recover a card" : cost ? `pay ${cost} vampire${cost > 1 ? "s" : ""}` : "";
  const attrs = { title: n === 0 ? "no bid card left: a bid of 0" : `silent bid card ${n}${note ? ": " + note : ""}`, dataset: { bid: c } };
  const kids: Child[] = [h("span.bnum", n === 0 ? "0" : String(n)), h("span.bnote", n === 0 ? "none left" : note)];
  return key ? comp(`div.bidcard${extra}`, key, ui, attrs, ...kids) : h(`div.bidcard${extra}`, attrs, ...kids);
}

function perimeterPiece(v: number, key: string | null, ui: TableUi, slot: string): HTMLElement {
  const side = slot.startsWith("top") ? ".top" : ".left";
  if (v < 0) {
    return key ? comp(`div.svslot.free${side}`, key, ui, { title: `free place ${slot}`, dataset: { pos: slot } }, "")
      : h(`div.svslot.free${side}`, { dataset: { pos: slot } });
  }
  let body: Child[];
  let title: string;
  let cls: string;
  if (v >= TRAIN0) {
    const [blood, coffins] = D.trains[v - TRAIN0];
    title = `train ${v - TRAIN0 + 1}: ${blood} blood, ${coffins} coffins (no type)`;
    cls = "train";
    body = [h("span.ttype", `T${v - TRAIN0 + 1}`), h("span.ticons",
      blood ? h("span.blood", "●".repeat(blood)) : null, coffins ? h("span.coffin", `⚰${coffins}`) : null)];
  } else {
    const up = v >= UPG;
    const t = up ? v - UPG : v;
    const row = D.castles[t];
    title = `${D.types[t]} castle${up ? ", upgraded: a Scorpion" : ""} · ${tileTitle(row)}`;
    cls = `castle.ty${t}`;
    body = tileBody(row, -1, up ? "upgraded" : "castle");
  }
  const attrs = { title, dataset: { pos: slot } };
  return key ? comp(`div.svslot.${cls}${side}`, key, ui, attrs, ...body) : h(`div.svslot.${cls}${side}`, attrs, ...body);
}

function city(v: View, p: number, ui: TableUi, final: Final | null): HTMLElement {
  const s = v.seats[p];
  const mine = p === v.seat;
  const key = (pos: string) => (mine ? `pos:${pos}` : null);
  const cells: HTMLElement[] = [h("div.svcorner", h("span.svsym", SEAT_SYMBOL[p]))];
  const housed = (i: number) => final?.housing[i]?.length ? h("span.housed", { title: "housed at the end" }, final.housing[i].join("")) : null;
  for (let c = 0; c < 4; c++) {
    const el = perimeterPiece(s.perimeter[c], key(SLOTS[c]), ui, SLOTS[c]);
    const hs = housed(16 + c);
    if (hs) el.appendChild(hs);
    cells.push(el);
  }
  for (let r = 0; r < 4; r++) {
    const el = perimeterPiece(s.perimeter[4 + r], key(SLOTS[4 + r]), ui, SLOTS[4 + r]);
    const hs = housed(20 + r);
    if (hs) el.appendChild(hs);
    cells.push(el);
    for (let c = 0; c < 4; c++) {
      const i = r * 4 + c;
      const t = s.grid[i];
      const k = key(CELLS[i]);
      const label = h("span.cellname", CELLS[i]);
      let el: HTMLElement;
      if (t < 0) {
        el = k ? comp("div.svcell.empty", k, ui, { dataset: { pos: CELLS[i] } }, label) : h("div.svcell.empty", { dataset: { pos: CELLS[i] } }, label);
      } else {
        const row = D.tiles[t];
        const anti = s.antiquities[i];
        const attrs = { title: tileTitle(row) + (anti >= 0 ? ` · ${D.antiquities[anti]}: ${ANTIQUITY_RULE[D.antiquities[anti]]}` : ""), dataset: { pos: CELLS[i], tile: String(t) } };
        const cls = `div.svcell.svtile.ty${anti >= 0 && D.antiquities[anti] === "Tiara" ? "x" : row[1]}`;
        el = k ? comp(cls, k, ui, attrs, ...tileBody(row, anti)) : h(cls, attrs, ...tileBody(row, anti));
      }
      const hs = housed(i);
      if (hs) el.appendChild(hs);
      cells.push(el);
    }
  }
  return h(`div.svgrid${mine ? ".mine" : ""}`, cells);
}

function bidStatus(v: View, p: number, ui: TableUi): HTMLElement {
  const s = v.seats[p];
  if (s.bid) { // another seat's bid is in its view only once revealed; this seat's own as soon as it is made
    const revealed = s.bid_value !== null;
    return h("div.svbid", h("span.lbl", revealed ? "bid:" : "your bid (face down to others):"),
      bidCard(String(s.bid[0]), null, ui, ".small"), specCard(s.bid[1], null, ui, ".small"),
      revealed && s.bid_value !== null && s.bid_value !== s.bid[0] ? h("span.note", ` counts ${s.bid_value}`) : null,
      !revealed && s.bid_as_0 ? h("span.note", " as 0") : null);
  }
  if (s.has_bid) return h("div.svbid", h("span.lbl", "bid:"), h("div.bidcard.back.small", { title: "face down until the reveal" }, "?"), faceDown("?"));
  if (v.decision === "bid" && v.to_move !== null) return h("div.svbid", h("span.lbl", "bidding…"));
  return h("div.svbid");
}

function seatPanel(v: View, p: number, ui: TableUi): HTMLElement {
  const s = v.seats[p];
  const mine = p === v.seat;
  const fin = v.final?.[p] ?? null;
  return h(`section.svcity.s${p}${p === v.to_move ? ".to-move" : ""}${mine ? ".me" : ""}`, { dataset: { seat: String(p) } },
    h("div.svcityhead", seatTag(p, ui), mine ? h("span.you", " (you)") : null,
      p === v.to_move ? h("span.turnmark", " ◀ to move") : null,
      fin ? h("span.total", ` ${fin.total} VP`) : null),
    h("div.svcounts",
      h("span", { title: "vampires" }, `V ${s.vampires}`),
      s.cats ? h("span", `cat ${s.cats}`) : null, s.hounds ? h("span", `hound ${s.hounds}`) : null,
      h("span", { title: "council contracts (2 VP each, +5 for 3)" }, `✉ ${s.contracts}`),
      h("span.inn", { title: "innovation track position" }, `I ${s.innovation}`),
      h("span.surv", { title: "survival track position" }, `S ${s.survival}`),
      h("span", { title: "specialists in hand / in discard" }, `hand ${s.hand_size} · disc ${s.discard_size}`),
      h("span", { title: "silent bid cards left in hand" }, `bid cards ${s.bid_cards_count}`)),
    city(v, p, ui, fin),
    bidStatus(v, p, ui),
    s.objectives.length ? h("div.svobjs", h("span.lbl", "objectives:"),
      s.objectives.map((r) => specCard(r, mine ? `obj:${r}` : null, ui, ".small"))) : null,
    !mine && s.known_hand.length ? h("div.svknown", h("span.lbl", "known in hand:"), s.known_hand.map((r) => specCard(r, null, ui, ".small"))) : null,
    !mine && s.revealed_discards.length ? h("div.svknown", h("span.lbl", "discarded:"), s.revealed_discards.map((r) => specCard(r, null, ui, ".tiny"))) : null,
    s.pending_tiles.length ? h("div.svpending", h("span.lbl", mine ? "tiles to place:" : "won tiles:"),
      s.pending_tiles.map((t) => tile(t, mine ? `tile:${t}` : null, ui))) : null,
  );
}

function track(v: View, ui: TableUi): HTMLElement {
  const n = D.track.length;
  return h("div.svtrack", { title: "Innovation markers (▲ I) move right, Survival markers (▼ S) move left; a space's bonus is gained on landing or passing" },
    h("span.lbl", "Track"),
    h("div.svspaces", Array.from({ length: n }, (_, i) => {
      const [sym, what] = TRACK_LABEL[D.track[i]];
      const inn = v.seats.map((s, p) => (s.innovation === i ? p : -1)).filter((p) => p >= 0);
      const sur = v.seats.map((s, p) => (s.survival === i ? p : -1)).filter((p) => p >= 0);
      return h("div.svspace", { title: `space ${i}: ${what || "no bonus"}` },
        h("span.bonussym", sym || "·"),
        h("div.markers",
          inn.map((p) => h(`span.mk.inn.s${p}`, { title: `${ui.names[p]}: innovation` }, `${SEAT_SYMBOL[p]}I`)),
          sur.map((p) => h(`span.mk.surv.s${p}`, { title: `${ui.names[p]}: survival` }, `${SEAT_SYMBOL[p]}S`))));
    })));
}

function council(v: View, ui: TableUi): HTMLElement {
  const sup = v.supply;
  const antiKinds = [...new Set(sup.antiquities)];
  return h("section.svcouncil",
    h("div.svline",
      h("span.round", `Round ${v.round}/${D.rounds}`),
      h("span.lbl", `tiles ${v.tile_deck} · specialists ${v.specialist_deck} · supply: V ${sup.vampires}, cats ${sup.cats}, hounds ${sup.hounds}, contracts ${sup.contracts}`),
      v.order.length ? h("span.order", h("span.lbl", "tile order:"), v.order.map((p, i) => [i ? " → " : "", seatTag(p, ui)])) : null),
    h("div.svrow", h("span.lbl", "Specialist row"), v.row.length ? v.row.map((r) => specCard(r, `row:${r}`, ui)) : h("span.empty", "empty")),
    h("div.svpools", h("span.lbl", "Selection pools"),
      v.pools.map((pool, i) => comp("div.svpool", `pool:${i + 1}`, ui, { dataset: { pool: String(i + 1) } },
        h("span.poolno", String(i + 1)), pool.length ? pool.map((t) => tile(t, null, ui)) : h("span.empty", "taken")))),
    h("div.svxpool", h("span.lbl", "Exchange pool"), v.exchange_pool.map((t) => tile(t, `xtile:${t}`, ui))),
    h("div.svsupply",
      h("span.lbl", "Castles"), sup.castles.map((c) => comp(`div.svslot.castle.ty${c}.sup`, `castle:${typeToken(c)}`, ui,
        { title: `${D.types[c]} castle · ${tileTitle(D.castles[c])}` }, ...tileBody(D.castles[c], -1, "castle"))),
      h("span.lbl", "Trains"), sup.trains.map((t) => comp("div.svslot.train.sup", `train:${t + 1}`, ui,
        { title: `train ${t + 1}: ${D.trains[t][0]} blood, ${D.trains[t][1]} coffins` },
        h("span.ttype", `Train ${t + 1}`), h("span.ticons", D.trains[t][0] ? h("span.blood", "●".repeat(D.trains[t][0])) : null,
          D.trains[t][1] ? h("span.coffin", `⚰${D.trains[t][1]}`) : null))),
      h("span.lbl", "Antiquities"), antiKinds.map((k) => comp("div.svanti", `anti:${antiToken(k)}`, ui,
        { title: `${D.antiquities[k]}: ${ANTIQUITY_RULE[D.antiquities[k]]}` }, D.antiquities[k],
        h("span.cnt", ` ×${sup.antiquities.filter((x) => x === k).length}`)))),
    track(v, ui),
  );
}

/** A list without one copy of `x` (the card or specialist lying as this seat's bid: it is shown once, as the bid). */
export function withoutBid(list: readonly number[], x: number | undefined): number[] {
  const out = [...list];
  const i = x === undefined ? -1 : out.indexOf(x);
  if (i >= 0) out.splice(i, 1);
  return out;
}

function myHand(v: View, ui: TableUi): HTMLElement | null {
  if (v.seat === null) return null;
  const me = v.seats[v.seat];
  const asZero = new Set(ui.legal.filter((a) => /^bid \d=0 /.test(a)).map((a) => a.split(" ")[1]));
  return h("section.svhand",
    h("div.svbids", h("span.lbl", "Your silent bid cards"),
      withoutBid(me.bid_cards ?? [], me.bid?.[0]).map((c) => [bidCard(String(c), `bid:${c}`, ui),
        asZero.has(`${c}=0`) ? bidCard(`${c}=0`, `bid:${c}=0`, ui, ".as0") : null])),
    me.bid_discards?.length ? h("div.svbids.used", h("span.lbl", "used"), me.bid_discards.map((c) => bidCard(String(c), `biddisc:${c}`, ui, ".used"))) : null,
    h("div.svspecs", h("span.lbl", "Your specialists"), withoutBid(me.hand ?? [], me.bid?.[1]).map((r) => specCard(r, `spec:${r}`, ui))),
    me.discard?.length ? h("div.svspecs.used", h("span.lbl", "your discard (only you see it)"), me.discard.map((r) => specCard(r, `spec:${r}`, ui, ".small"))) : null,
  );
}

function legend(): HTMLElement {
  return h("details.legend.svlegend", h("summary", "Legend: icons and objectives"),
    h("p", "● blood · ⚰ coffins (housing) · I innovation icon · S survival icon · +V/+I/+S bonus when taken · ♜ castle · ♛ upgraded castle (a Scorpion) · T train · track spaces: ✉ contract, ↺ recover a bid card, T train, ⇄ relocate, ♜ castle, ⟳ swap an objective, ⬆ upgrade a castle; markers ▲I innovation (moves right), ▼S survival (moves left) · seats: ",
      SEAT_SYMBOL.map((s, p) => h(`span.svseat.s${p}`, ` ${s} `))),
    h("table", Object.entries(OBJECTIVE_RULE).map(([k, t]) => h("tr", h("td", k), h("td", t)))));
}

/** Decisions that start on the council board: on a phone it moves above your city. */
const COUNCIL_DECISIONS = new Set(["choose a selection pool", "take a specialist", "take and place a castle",
  "take and place a train", "take and place an antiquity"]);

export const siliconvania: TableModule = {
  paths: (legal) => svPaths(legal),
  label: (a) => svLabel(a),

  render(raw, ui) {
    const v = raw as unknown as View;
    const mine = ui.seat !== null && v.to_move === ui.seat && ui.legal.length > 0;
    const prompt = mine ? svPrompt(v.decision, ui.legal) : "";
    const order = Array.from({ length: v.players }, (_, i) => (i + (v.seat ?? 0)) % v.players);
    const atCouncil = mine && COUNCIL_DECISIONS.has(v.decision);
    return h(`div.sv${atCouncil ? ".focus-council" : ""}`,
      prompt ? h("div.svprompt", { role: "status" }, prompt) : null,
      v.seat !== null ? h("div.svmine", seatPanel(v, v.seat, ui), myHand(v, ui)) : null,
      council(v, ui),
      h("div.svothers", order.filter((p) => p !== v.seat).map((p) => seatPanel(v, p, ui))),
      legend(),
    );
  },

  hintLine: "Click a highlighted pool, specialist, card, tile or city cell.",
  hand: (raw, ui) => myHand(raw as unknown as View, ui),

  result(raw, ui) {
    const v = raw as unknown as View;
    if (!v.final) return null;
    const fin = v.final;
    const ps = fin.map((_, p) => p);
    const rows: [string, (f: Final) => Child][] = [
      ["All 7 types", (f) => f.diversity],
      ["Housed vamp.", (f) => f.housed],
      ["Animals", (f) => h("span", String(f.animals), h("small", ` ${f.animals_count}k`))],
      ["Blood", (f) => f.blood],
      ["Contracts", (f) => f.contracts],
      ["Tiara", (f) => f.tiaras],
      ...D.objectives.map((name, k): [string, (f: Final) => Child] => [name, (f) =>
        f.objective_copies[k] ? h("span", { title: `${f.objective_copies[k]} card(s) worth ${f.objective_values[k]} each` },
          String(f.objective_copies[k] * f.objective_values[k]), h("small", ` ${f.objective_copies[k]}×${f.objective_values[k]}`)) : "–"]),
      ["Objectives", (f) => f.objectives],
      ["Total", (f) => h("b", String(f.total))],
    ];
    const winners = v.winners ?? [];
    return h("div.result.svresult",
      h("h2", winners.length > 1 ? `Shared victory: ${winners.map((p) => ui.names[p]).join(", ")}` : `${ui.names[winners[0]] ?? "?"} wins`),
      h("div.scroll", h("table.score", h("tr", h("th", ""), ps.map((p) => h("th", { title: ui.names[p] }, h(`span.svseat.s${p}`, SEAT_SYMBOL[p], " ", (ui.names[p] ?? "").slice(0, 6))))),
        rows.map(([label, f]) => h("tr", h("td", label), ps.map((p) => h("td", f(fin[p]))))))),
      h("p.note", "Animals: VP and kinds (k). Objectives: VP and cards × VP per card; at most 3 cards of a name score."));
  },
};
