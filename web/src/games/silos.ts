// The SILOS table, drawn from the seat's view only (fields: src/tabletop/games/silos/rules.py `_view`).
// The town map is a 3×3 grid: the ring 1…6 clockwise around the Town Hall, the streets drawn underneath in SVG.
import { h, type Child } from "../dom";
import type { Paths } from "../pick";
import type { TableModule, TableUi } from "./types";
import { comp } from "./util";

export const FACTIONS = ["blue", "yellow", "purple", "green"] as const;
export type Faction = (typeof FACTIONS)[number];
export const HUMANS = ["politician", "government", "influencer", "professional"] as const;
type Human = (typeof HUMANS)[number];
const SHORT: Record<string, string> = { politician: "Pol", government: "Gov", influencer: "Inf", professional: "Pro", cow: "Cow" };

/** Each faction also has a shape, so that no one needs to tell the colours apart. */
const SHAPE: Record<Faction, string> = {
  blue: "M8 1.5 A6.5 6.5 0 1 1 7.99 1.5 Z", // circle
  yellow: "M8 1 L10 6 L15.5 6.2 L11.2 9.6 L12.8 15 L8 11.8 L3.2 15 L4.8 9.6 L0.5 6.2 L6 6 Z", // star
  purple: "M2 2 H14 V14 H2 Z", // square
  green: "M8 1.5 L15 14.5 L1 14.5 Z", // triangle
};
export const SHAPE_NAME: Record<Faction, string> = { blue: "circle", yellow: "star", purple: "square", green: "triangle" };

/** Where each location sits in the 3×3 map grid (row, column): 1…6 clockwise from the top left, 0 in the middle. */
export const CELL: Record<number, [number, number]> = { 0: [1, 1], 1: [0, 0], 2: [0, 2], 3: [1, 2], 4: [2, 2], 5: [2, 0], 6: [1, 0] };

const POWER: Record<string, string> = {
  "0": "re-rank by influence here",
  "0*": "re-rank, then the top faction's figures here go to the Mall",
  "1": "pull figures of one colour from one place here",
  "1*": "pull up to three figures of anyone here",
  "2": "all your figures here → Town Hall, distinguish one",
  "2*": "distinguish one of your figures in the News Station",
  "3": "draw and place humans until you stop",
  "3*": "draw four humans and place them",
  "4": "three humans/cows → emblem, or draw one",
  "4*": "draw three and return three, or draw one",
  "5": "take a human from a player or a focus group",
  "5*": "keep a common card for later",
  "6": "reposition any of your figures",
  "6*": "remove a cap here, draw three humans",
  crop: "Crop Circles: place or move a crop circle token",
};

type Figs = { figures: number; leader: boolean; distinguished: number };
type Loc = {
  id: number;
  name: string;
  alternate: boolean;
  crop_circles_tile: boolean;
  figures: Record<string, Figs>;
  influence: Record<string, number>;
  focus: Record<string, number>;
  cow: boolean | null;
  human: string | null;
  leads: string | null;
  streets: number[];
  crop_circle: string | null;
  skill_tile: string | null;
};
type SeatV = {
  color: Faction;
  humans: Record<Human, number>;
  cows: number;
  emblems: number;
  faction_cards: Record<string, boolean>;
  held_common: Record<string, number>;
  crop_tokens_left: number;
  figures_to_place: number;
};
export type SilosView = {
  seat: number | null;
  players: number;
  non_player_faction: Faction | null;
  to_move: number | null;
  active: number;
  phase: string;
  decision: string;
  ranks: Faction[];
  ufo: number;
  locations: Loc[];
  streets: [number, number][];
  bag: Record<Human, number>;
  hand: Partial<Record<Human, number>>;
  supply: { cows: number; caps: number; emblems: number };
  common_deck: Record<string, number>;
  common_discards: Record<string, number>;
  card_in_play: Record<string, number>;
  last_revealed: string | null;
  seats: SeatV[];
  emblem_target: number;
  winners: number[];
};

const CARD_NAME: Record<string, string> = {
  "all-powers": "All Powers", "one-power": "One Power", "marked-specimen": "Marked Specimen", "ufo-advance": "UFO Advance",
  sighting: "UFO Sighting", confluence: "Human Confluence", powers: "Your Powers",
};
export const cardName = (c: string) => CARD_NAME[c] ?? c;

const SVGNS = "http://www.w3.org/2000/svg";

export function factionSymbol(f: Faction): SVGSVGElement {
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "sym");
  svg.setAttribute("aria-label", SHAPE_NAME[f]);
  const p = document.createElementNS(SVGNS, "path");
  p.setAttribute("d", SHAPE[f]);
  svg.appendChild(p);
  return svg;
}

function myColour(v: SilosView): Faction | null {
  return v.seat !== null ? v.seats[v.seat]?.color ?? null : null;
}

/** The focus group that is full (a mind control event asks who takes what), if any. */
function fullFocus(v: SilosView): number | null {
  for (const l of v.locations) {
    if (Object.values(l.focus).reduce((a, b) => a + b, 0) >= 3) return l.id;
  }
  return null;
}

const fig = (c: string, kind: string, at: string | number) => `fig:${c}:${kind}:${at}`;

/** The component path of each legal action (notation: silos/__init__.py); actions concerning no component are absent. */
export function silosPaths(legal: string[], view: Record<string, unknown>): Paths {
  const v = view as unknown as SilosView;
  const me = myColour(v);
  const out: Paths = new Map();
  if (!me) return out;
  const bothKinds = legal.some((a) => a.startsWith("place leader ")) && legal.some((a) => a.startsWith("place figure "));
  const mc = fullFocus(v);
  let bagTaken = legal.some((a) => /^(power [34]|skill 3) draw$/.test(a));
  for (const a of legal) {
    const w = a.split(" ");
    let path: string[] | null = null;
    const hum = (x: string) => `held:${me}:${x}`;
    if (w[0] === "place" && (w[1] === "leader" || w[1] === "figure")) {
      path = bothKinds ? [`reserve:${w[1]}`, `loc:${w[2]}`] : [`loc:${w[2]}`];
    } else if (w[0] === "place") {
      path = [`hand:${w[1]}`, `focus:${w[2]}`];
    } else if (w[0] === "move" || w[0] === "reposition") {
      const [x, y] = w[2].split("-");
      path = [fig(me, w[1], x), `loc:${y}`];
    } else if ((w[0] === "power" && w[1] === "1" && w[2] === "move") || (w[0] === "skill" && w[1] === "1")) {
      const [x, y] = w[5].split("-");
      path = [fig(w[3], w[4], x), `loc:${y}`];
    } else if (w[0] === "skill" && w[1] === "2") {
      const [x, y] = w[4].split("-");
      path = [fig(me, w[3], x), `loc:${y}`];
    } else if (w[0] === "exert") {
      path = [`loc:${w[1]}`];
    } else if (a === "power 2 graduate") {
      path = ["loc:2"];
    } else if (a === "power 2 distinguish") {
      path = ["loc:4"];
    } else if (a === "power 6 downgrade") {
      path = ["loc:6"];
    } else if (w[0] === "crop" && w[1] === "place") {
      path = [`crop:${w[2]}`];
    } else if (w[0] === "crop" && w[1] === "move") {
      const [x, y] = w[2].split("-");
      path = [`crop:${x}`, `crop:${y}`];
    } else if (w[0] === "take" && mc !== null) {
      path = [`focus:${mc}:${w[1]}`, `focus:${mc}:${w[2]}`];
    } else if (w[0] === "power" && w[2] === "exchange") {
      path = w.slice(3).map(hum);
    } else if (w[0] === "power" && w[2] === "return") {
      path = [hum(w[3])];
    } else if (w[0] === "skill" && w[1] === "4") {
      path = [hum(w[3]), hum(w[4])];
    } else if (w[0] === "power" && w[2] === "take" && w[4] === "from" && w[5] === "focus") {
      path = [`focus:${w[6]}:${w[3]}`];
    } else if (w[0] === "power" && w[2] === "take" && w[4] === "from") {
      path = [`held:${w[5]}:${w[3]}`];
    } else if (w[0] === "skill" && w[1] === "5") {
      const [x, y] = w[4].split("-");
      path = [`focus:${x}:${w[3]}`, `focus:${y}`];
    } else if (a === "card common" || a === "power 5 draw card") {
      path = ["deck"];
    } else if (w[0] === "card" && w[1] === "held") {
      path = [`heldcard:${w[2]}`];
    } else if (w[0] === "card" && w[1] === "sighting") {
      path = ["fcard:sighting", `sighting:${w[2]}`];
    } else if (w[0] === "card" && (w[1] === "confluence" || w[1] === "powers")) {
      path = [`fcard:${w[1]}`];
    } else if (/^(power [34]|skill 3) draw/.test(a)) {
      if (/ draw$/.test(a) || !bagTaken) {
        path = ["bag"];
        bagTaken = true;
      }
    }
    if (path) out.set(a, path);
  }
  return out;
}

export function silosLabel(action: string): string {
  const fixed: Record<string, string> = {
    stop: "Stop here", skip: "Skip (do not use it)", done: "Done repositioning",
    "skill 0 keep": "Keep the revealed card", "skill 0 reject": "Reject it and reveal the next card",
    "power 4 draw three": "Draw three humans (then return three)", "power 3 draw four": "Draw four humans",
    "power 4 draw": "Draw one human", "power 3 draw": "Draw a human", "skill 3 draw": "Draw a human (skill)",
  };
  return fixed[action] ?? action;
}

// ---- drawing ---------------------------------------------------------------------------------------------

function chip(f: Faction, ...rest: Child[]): HTMLElement {
  return h(`span.fchip.c-${f}`, factionSymbol(f), ...rest);
}

/** A component that is clickable only while it is a target or selected; otherwise plain (clicks reach its parent). */
function maybe(tag: string, key: string, ui: TableUi, attrs: Record<string, unknown>, ...children: Child[]): HTMLElement {
  if (ui.clickable.has(key) || ui.selected.includes(key)) return comp(tag, key, ui, attrs, ...children);
  return h(tag, { ...attrs, dataset: { ...((attrs.dataset as object) ?? {}), key } }, ...children);
}

function humanTok(t: string, extra = ""): HTMLElement {
  return h(`span.human.h-${t}${extra}`, { title: t, dataset: { human: t } }, SHORT[t] ?? t);
}

function figures(l: Loc, ui: TableUi): HTMLElement {
  const rows = Object.entries(l.figures).map(([c, fs]) => {
    const f = c as Faction;
    const parts: Child[] = [];
    if (fs.leader) parts.push(maybe(`span.fig.leader.c-${f}`, fig(f, "leader", l.id), ui, { title: `${f} leader (1.5 influence)` }, factionSymbol(f), "L"));
    if (fs.figures) parts.push(maybe(`span.fig.c-${f}`, fig(f, "figure", l.id), ui, { title: `${fs.figures} ${f} figure(s), 1 influence each` }, factionSymbol(f), `×${fs.figures}`));
    if (fs.distinguished) parts.push(maybe(`span.fig.dist.c-${f}`, fig(f, "distinguished", l.id), ui, { title: `${fs.distinguished} distinguished ${f} figure(s), 2 influence each` }, factionSymbol(f), `D×${fs.distinguished}`));
    return h("span.figrow", parts);
  });
  return h("div.figs", rows.length ? rows : h("span.empty", "no figures"));
}

function locBox(v: SilosView, l: Loc, ui: TableUi, term: (k: string) => string): HTMLElement {
  const code = `${l.id}${l.alternate ? "*" : ""}`;
  const power = l.crop_circles_tile ? POWER.crop : POWER[code];
  const tip = [`${l.id} ${l.name}${l.alternate ? " (alternate tile)" : ""}`,
    term(l.crop_circles_tile ? "Crop Circles" : `${l.name}${l.alternate ? "*" : ""}`) || power].join(": ");
  const inf = Object.entries(l.influence).sort((a, b) => b[1] - a[1]);
  const focusN = Object.values(l.focus).reduce((a, b) => a + b, 0);
  const squares: Child[] = [];
  for (const [t, n] of Object.entries(l.focus)) {
    for (let i = 0; i < n; i++) squares.push(maybe(`span.sq.full`, `focus:${l.id}:${t}`, ui, {}, humanTok(t)));
  }
  for (let i = focusN; i < 3; i++) squares.push(h("span.sq"));
  const [r, c] = CELL[l.id] ?? [0, 0];
  return comp(`div.loc${l.leads ? `.lead-${l.leads}` : ""}${v.ufo === l.id ? ".ufo-here" : ""}`, `loc:${l.id}`, ui,
    { style: { gridRow: String(r + 1), gridColumn: String(c + 1) }, title: tip, dataset: { loc: String(l.id) } },
    h("div.lhead",
      h("span.lnum", code),
      h("span.lname", l.name),
      l.crop_circles_tile ? h("span.tag", { title: term("Crop Circles") }, "◎ crop") : null,
      l.skill_tile !== null
        ? h("span.skill", { title: `skill tile ${l.id}: ${term(`skill ${l.id}`) || "permanent skill tile"}${l.skill_tile === "board" ? " (still on the board)" : ` (held by ${l.skill_tile})`}` },
            "skill", l.skill_tile === "board" ? "" : chip(l.skill_tile as Faction))
        : null,
      maybe(`span.crop${l.crop_circle ? `.c-${l.crop_circle}` : ""}`, `crop:${l.id}`, ui,
        { title: l.crop_circle ? `${l.crop_circle} crop circle token: +1 influence` : "crop circle space (empty)" },
        l.crop_circle ? factionSymbol(l.crop_circle as Faction) : "○"),
    ),
    h("div.lpower", { title: tip }, power),
    figures(l, ui),
    h("div.inf",
      inf.length ? inf.map(([f, n]) => chip(f as Faction, String(n))) : null,
      l.leads ? h(`span.leads.c-${l.leads}`, { title: `${l.leads} leads here` }, "leads ", factionSymbol(l.leads as Faction)) : null),
    h("div.hrow", maybe("div.focus", `focus:${l.id}`, ui, { title: `focus group: takes ${l.id === 0 ? "politicians" : "politicians and its own type"}; full at 3 → mind control` },
      h("span.lbl", "focus"), squares),
    l.id !== 0
      ? h("div.abd", { title: "abduction spaces: when the UFO arrives, most influence takes the cow, second most the human" },
          v.ufo === l.id ? h("span.ufo", { title: "the UFO is here" }, "UFO") : h("span.lbl", "abduct"),
          l.cow ? h("span.human.h-cow", "Cow") : null, l.human ? humanTok(l.human) : null)
      : null),
  );
}

function streetsSvg(v: SilosView, ui: TableUi): SVGSVGElement {
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("class", "streets");
  svg.setAttribute("viewBox", "0 0 300 300");
  svg.setAttribute("preserveAspectRatio", "none");
  const sel = ui.selected[0]?.startsWith("fig:") ? Number(ui.selected[0].split(":")[3]) : null;
  for (const [a, b] of v.streets) {
    const [ra, ca] = CELL[a];
    const [rb, cb] = CELL[b];
    const line = document.createElementNS(SVGNS, "line");
    line.setAttribute("x1", String(50 + 100 * ca));
    line.setAttribute("y1", String(50 + 100 * ra));
    line.setAttribute("x2", String(50 + 100 * cb));
    line.setAttribute("y2", String(50 + 100 * rb));
    const hot = sel !== null && ((sel === a && ui.clickable.has(`loc:${b}`)) || (sel === b && ui.clickable.has(`loc:${a}`)));
    line.setAttribute("class", hot ? "street hot" : "street");
    line.dataset.street = `${a}-${b}`;
    svg.appendChild(line);
  }
  return svg;
}

function nameOf(v: SilosView, f: Faction, ui: TableUi): string {
  const p = v.seats.findIndex((s) => s.color === f);
  return p >= 0 ? ui.names[p] ?? `p${p}` : "neutral";
}

function ranksBar(v: SilosView, ui: TableUi): HTMLElement {
  const ufoTrack = [1, 2, 3, 4, 5, 6].map((i) => h(`span.ufostep${v.ufo === i ? ".on" : ""}`, v.ufo === i ? `UFO ${i}` : String(i)));
  return h("div.ranks",
    h("span.lbl", { title: "Town Hall ranking: a higher rank wins ties for influence" }, "Ranks"),
    v.ranks.map((f, i) => chip(f, ` ${i + 1}. ${nameOf(v, f, ui)}`)),
    h("span.ufotrack", { title: "the UFO moves clockwise 1→6; arriving abducts" }, h("span.lbl", "UFO"), ufoTrack),
  );
}

function seatBox(v: SilosView, p: number, ui: TableUi, term: (k: string) => string): HTMLElement {
  const s = v.seats[p];
  const me = p === v.seat;
  const f = s.color;
  const rank = v.ranks.indexOf(f) + 1;
  const hum = HUMANS.map((t) => (s.humans[t]
    ? maybe(`span.human.h-${t}`, `held:${f}:${t}`, ui, { title: `${s.humans[t]} ${t}(s)`, dataset: { human: t } }, `${SHORT[t]} ${s.humans[t]}`)
    : null));
  const cows = s.cows ? maybe("span.human.h-cow", `held:${f}:cow`, ui, { title: "cows are wild" }, `Cow ${s.cows}`) : null;
  const fcards = Object.entries(s.faction_cards).map(([c, up]) => {
    const body: Child[] = [cardName(c)];
    if (c === "sighting") {
      for (const o of ["ufo", "reposition"]) {
        const k = `sighting:${o}`;
        if (ui.clickable.has(k)) body.push(comp("button.opt", k, ui, { title: o === "ufo" ? "advance the UFO" : "reposition your figures" }, o === "ufo" ? "UFO" : "reposition"));
      }
    }
    return up
      ? maybe(`span.scard.faction`, `fcard:${c}`, ui, { title: term(CARD_NAME[c]) || cardName(c), dataset: { card: c } }, ...body)
      : h("span.scard.used", { title: "used (face down)" }, cardName(c));
  });
  const held = Object.entries(s.held_common).map(([c, n]) =>
    maybe("span.scard.common", `heldcard:${c}`, ui, { title: term(CARD_NAME[c]) || cardName(c) }, `${cardName(c)}${n > 1 ? ` ×${n}` : ""}`));
  const reserve: Child[] = [];
  if (me && s.figures_to_place > 0) {
    for (const k of ["leader", "figure"]) {
      const key = `reserve:${k}`;
      if (ui.clickable.has(key) || ui.selected.includes(key)) reserve.push(comp(`span.fig.c-${f}${k === "leader" ? ".leader" : ""}`, key, ui, { title: `place your ${k}` }, factionSymbol(f), k === "leader" ? " leader" : " figure"));
    }
  }
  return h(`div.seat.c-${f}${p === v.to_move ? ".to-move" : ""}${me ? ".me" : ""}`, { dataset: { seat: String(p) } },
    h("div.pname", chip(f), ` ${ui.names[p] ?? `p${p}`}`, me ? h("span.you", " (you)") : null,
      h("span.rank", ` rank ${rank}`), p === v.to_move ? h("span.turnmark", " ◀") : null),
    h("div.pline", h("span.emblems", { title: `Societal Power Emblems (game ends at ${v.emblem_target})` }, `★ ${s.emblems}/${v.emblem_target}`),
      " ", hum, cows, !s.cows && HUMANS.every((t) => !s.humans[t]) ? h("span.empty", "no humans") : null),
    h("div.pline", fcards, held),
    h("div.pline.small", s.figures_to_place ? h("span", `${s.figures_to_place} figures to place `, reserve, " · ") : null,
      s.crop_tokens_left < 3 || v.locations.some((l) => l.crop_circles_tile) ? h("span", { title: "crop circle tokens in hand" }, `crop tokens ${s.crop_tokens_left}`) : null),
  );
}

function countList(rec: Record<string, number>, names = false): string {
  return Object.entries(rec).filter(([, n]) => n).map(([k, n]) => `${names ? cardName(k) : SHORT[k] ?? k} ${n}`).join(" · ") || "—";
}

function commonBox(v: SilosView, ui: TableUi, term: (k: string) => string): HTMLElement {
  const deckN = Object.values(v.common_deck).reduce((a, b) => a + b, 0);
  const hand = Object.entries(v.hand).flatMap(([t, n]) =>
    Array.from({ length: n ?? 0 }, () => maybe(`span.human.h-${t}`, `hand:${t}`, ui, { title: `a drawn ${t}: place it in a focus group that takes it`, dataset: { human: t } }, SHORT[t])));
  return h("div.common",
    comp("div.deck", "deck", ui, { title: "the common deck: its remaining cards are public (card counting)" },
      h("div.back", `Common deck ${deckN}`),
      h("div.small", Object.entries(v.common_deck).map(([c, n]) => h("div", { title: term(CARD_NAME[c]) }, `${cardName(c)}: ${n}`)))),
    h("div.small",
      h("div", h("span.lbl", "played"), countList(v.common_discards, true)),
      Object.keys(v.card_in_play).length ? h("div", h("span.lbl", "in play"), countList(v.card_in_play, true)) : null,
      v.last_revealed ? h("div", h("span.lbl", "last revealed"), cardName(v.last_revealed)) : null,
      comp("div.bag", "bag", ui, { title: "the bag of humans" }, h("span.lbl", "bag"), countList(v.bag)),
      h("div", h("span.lbl", "supply"), `cows ${v.supply.cows} · caps ${v.supply.caps} · emblems ${v.supply.emblems}`)),
    hand.length ? h("div.drawn", h("span.lbl", "to place"), hand) : null,
  );
}

export function silosTable(raw: Record<string, unknown>, ui: TableUi): HTMLElement {
  const v = raw as unknown as SilosView;
  const term = (k: string) => ui.term?.(k) ?? "";
  const order = Array.from({ length: v.players }, (_, i) => (i + (v.seat ?? 0)) % v.players);
  return h("div.silos",
    ranksBar(v, ui),
    h("div.map", streetsSvg(v, ui), v.locations.map((l) => locBox(v, l, ui, term))),
    h("div.under",
      commonBox(v, ui, term),
      h("div.seats", order.map((p) => seatBox(v, p, ui, term))),
      v.non_player_faction ? h("div.small.npf", chip(v.non_player_faction, " neutral"), ": one figure in each location, always rank 1; it blocks powers and its rewards go back") : null,
    ),
  );
}

/** A selected component in words: `fig:blue:leader:3` is "blue leader at 3 Shopping Mall". */
export function silosKeyLabel(key: string, view: Record<string, unknown>): string {
  const v = view as unknown as SilosView;
  const w = key.split(":");
  const at = (i: string) => `${i} ${v.locations?.[Number(i)]?.name ?? ""}`.trim();
  switch (w[0]) {
    case "fig": return `${w[1]} ${w[2]} at ${at(w[3])}`;
    case "loc": return at(w[1]);
    case "reserve": return `your ${w[1]} to place`;
    case "hand": return `the drawn ${w[1]}`;
    case "held": return `${w[1]}'s ${w[2]}`;
    case "focus": return w.length > 2 ? `${w[2]} in the focus group of ${at(w[1])}` : `the focus group of ${at(w[1])}`;
    case "crop": return `the crop circle space of ${at(w[1])}`;
    case "fcard": return cardName(w[1]);
    case "heldcard": return cardName(w[1]);
    default: return key;
  }
}

export const silos: TableModule = {
  paths: (legal, view) => silosPaths(legal, view),
  keyLabel: silosKeyLabel,
  label: (a) => silosLabel(a),
  render: silosTable,
  hintLine: "Click a highlighted location, street, figure, focus group, human or card.",
  hand(raw, ui) {
    const v = raw as unknown as SilosView;
    return v.seat === null || v.seat === undefined ? null : seatBox(v, v.seat, ui, (k) => ui.term?.(k) ?? "");
  },
  result(raw, ui) {
    const v = raw as unknown as SilosView;
    if (!v.winners?.length && !v.seats) return null;
    const order = v.seats.map((s, p) => ({ p, s, total: HUMANS.reduce((a, t) => a + s.humans[t], 0) + s.cows }))
      .sort((a, b) => b.s.emblems - a.s.emblems || b.total - a.total);
    return h("div.result",
      h("h2", v.winners.length > 1 ? `Shared victory: ${v.winners.map((p) => ui.names[p]).join(", ")}` : `${ui.names[v.winners[0]] ?? "?"} wins`),
      h("table.score", h("tr", h("th", ""), h("th", "★ emblems"), h("th", "humans + cows (tie-break)")),
        order.map(({ p, s, total }) => h(`tr${v.winners.includes(p) ? ".won" : ""}`,
          h("td", chip(s.color, ` ${ui.names[p]}`)), h("td", String(s.emblems)), h("td", String(total))))),
    );
  },
};
