// The Silencio table, drawn from the seat's view only (fields: src/tabletop/games/silencio/rules.py `_view`).
import { h, type Child } from "../dom";
import type { Paths } from "../pick";
import type { TableModule, TableUi } from "./types";
import { comp, named } from "./util";

export const COLOURS = ["red", "blue", "yellow", "green"] as const;
export type Colour = (typeof COLOURS)[number];
const LETTER: Record<string, Colour> = { r: "red", b: "blue", y: "yellow", g: "green" };

/** Each colour also has a shape, so that no one needs to tell the colours apart. */
const SHAPE: Record<Colour, string> = {
  red: "M8 1 L15 8 L8 15 L1 8 Z", // diamond
  blue: "M8 1.5 A6.5 6.5 0 1 1 7.99 1.5 Z", // circle
  yellow: "M8 1 L10 6 L15.5 6.2 L11.2 9.6 L12.8 15 L8 11.8 L3.2 15 L4.8 9.6 L0.5 6.2 L6 6 Z", // star
  green: "M8 1.5 L15 14.5 L1 14.5 Z", // triangle
};
const SHAPE_NAME: Record<Colour, string> = { red: "diamond", blue: "circle", yellow: "star", green: "triangle" };

const LIGHT: Record<Colour, string> = {
  red: "the next card's dark effect is skipped",
  blue: "take the last card of another row into your hand",
  yellow: "put a hand card face up in front of you (anyone may play it)",
  green: "a chosen player swaps a card (with a player or the oracle) or renews the oracle",
};
const DARK: Record<Colour, string> = {
  red: "the next card's light effect is skipped",
  blue: "give an oracle card to another player",
  yellow: "the next player plays a random card",
  green: "the next card must be green",
};

export function cardColour(card: string): Colour | undefined {
  return LETTER[card[0]];
}

export function symbol(colour: Colour): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "sym");
  svg.setAttribute("aria-label", SHAPE_NAME[colour]);
  const p = document.createElementNS(ns, "path");
  p.setAttribute("d", SHAPE[colour]);
  svg.appendChild(p);
  return svg;
}

/** The component path of each legal action (docstring notation); actions concerning no component are absent. */
export function silencioPaths(legal: string[]): Paths {
  const out: Paths = new Map();
  for (const a of legal) {
    const w = a.split(" ");
    let path: string[] | null = null;
    switch (w[0]) {
      case "play":
      case "place":
      case "return":
        path = [`card:${w[1]}`];
        break;
      case "give":
        path = w.length === 4 ? [`card:${w[1]}`, `player:${w[3].slice(1)}`] : [`card:${w[1]}`];
        break;
      case "shrine":
        path = w[1] === "large" ? ["shrine:large", `row:${w[2]}`] : [`shrine:${w[1]}`];
        break;
      case "take":
        path = [`rowcard:${w[1]}`];
        break;
      case "choose":
        path = [`player:${w[1].slice(1)}`];
        break;
      case "swap":
        path = [`oracle:${w[1]}`, `card:${w[3]}`];
        break;
      case "oracle":
        path = [`oracle:${w[1]}`, `player:${w[3].slice(1)}`];
        break;
      case "renew":
        path = ["oracle:renew"];
        break;
      case "tavern":
        path = [`tavern:${w.slice(1).join(" ")}`];
        break;
    }
    if (path) out.set(a, path);
  }
  return out;
}

export function tavernPhrase(action: string): string {
  const w = action.split(" ");
  if (w[1] === "count") return `“I have ${w[2]} card(s) that I cannot play.”`;
  if (w[1] === "high") return `“I have only cards with a high value of ${w[2]}.”`;
  if (w[1] === "avoid") return `“Please do not play ${w[2]} cards.”`;
  return action;
}

export function silencioLabel(action: string): string {
  if (action === "pass") return "Pass (play no card)";
  if (action === "end") return "End my turn (no shrine)";
  if (action === "skip") return "Skip this effect";
  if (action === "use red light") return "Use red light: skip the next card's dark effect";
  if (action === "renew oracle") return "Renew the oracle";
  if (action.startsWith("tavern ")) return `Say ${tavernPhrase(action)}`;
  return action;
}

type View = {
  players: number;
  seat: number | null;
  to_move: number | null;
  first_player: number;
  phase: string;
  decision: string;
  max_value: number;
  rows: Record<Colour, number[]>;
  halves?: Record<Colour, ("light" | "dark")[]>;
  shrines: Record<Colour | "large", "light" | "dark">;
  oracle: string[];
  deck: number;
  box: string[];
  hand_sizes: number[];
  hand: string[] | null;
  known: Record<string, string[]>;
  fronts: string[][];
  effects: { skip_next_dark: boolean; skip_next_light: boolean; green_only: boolean; random_play: number | null };
  tavern: { open: boolean; dark_effects: number; opens_at: number } | null;
  said: [number, string][];
  cards_left: number;
  result: { tier: string; cards_left: number; text: string; hands: string[][] } | null;
};

export function card(c: string, extra = ""): HTMLElement {
  const colour = cardColour(c) ?? "red";
  return h(`span.card.c-${colour}${extra}`, { dataset: { card: c }, title: `${colour} ${c.slice(1)}` },
    symbol(colour), h("span.v", c.slice(1)));
}

function keyedCard(c: string, key: string, ui: TableUi): HTMLElement {
  const colour = cardColour(c) ?? "red";
  return comp(`span.card.c-${colour}`, key, ui, { dataset: { card: c }, title: `${colour} ${c.slice(1)}` },
    symbol(colour), h("span.v", c.slice(1)));
}

function rowHint(v: View, colour: Colour): string {
  const row = v.rows[colour];
  const top = row.length ? row[row.length - 1] : 1;
  if (v.result) return "";
  if (top >= v.max_value) return "complete";
  if (colour === "green" && top + 1 === v.max_value) return `next above ${top}`;
  return `next above ${top} · ${top + 1} is dark`;
}

function rowView(v: View, colour: Colour, ui: TableUi): HTMLElement {
  const values = v.rows[colour];
  const halves = v.halves?.[colour] ?? [];
  const lit = v.shrines[colour] === "light";
  const letter = colour[0];
  const cards = values.map((val, i) => {
    const half = halves[i] ?? "light";
    const cls = `span.rcard.c-${colour}.half-${half}`;
    const id = `${letter}${val}`;
    // the card's identity (data-card), as in a hand: the table's motion follows it there and marks it the last move
    const attrs = { title: `${colour} ${val}, ${half} half up`, dataset: { half, card: id } };
    const inner: Child[] = [symbol(colour), h("span.v", val)];
    return i === values.length - 1 ? comp(cls, `rowcard:${id}`, ui, attrs, ...inner) : h(cls, attrs, ...inner);
  });
  return h(`div.row.c-${colour}`, { dataset: { row: colour } },
    comp("div.rowhead", `row:${colour}`, ui, { title: `light: ${LIGHT[colour]}\ndark: ${DARK[colour]}` },
      symbol(colour), h("span.rowname", colour)),
    comp(`div.shrine.small.${lit ? "lit" : "unlit"}`, `shrine:${colour}`, ui,
      { title: lit ? `light ${colour} shrine: take it for the ${colour} light effect (${LIGHT[colour]})` : `${colour} shrine: dark (used)` },
      h("span.shrine-label", lit ? "shrine ☼" : "shrine ●")),
    h("div.rowcards", cards.length ? cards : h("span.empty", "·")),
    h("div.rowhint", rowHint(v, colour)),
  );
}

/** The rulebook's three verdicts by the cards left, named as the terminal names them (src/tabletop/games/silencio/tui.py). */
const TIER: Record<string, string> = { perfect: "perfect: the team wins", almost: "almost", keep_trying: "keep trying" };

function pendingNotes(v: View, names: string[]): string[] {
  const out: string[] = [];
  if (v.result) return out; // a finished table has no next card
  const fx = v.effects;
  if (fx.skip_next_dark) out.push("Red light: the next card's dark effect is skipped.");
  if (fx.skip_next_light) out.push("Red dark: the next card's light effect is skipped.");
  if (fx.green_only) out.push("Green dark: the next card must be green.");
  if (fx.random_play !== null) out.push(`Yellow dark: ${names[fx.random_play] ?? "p" + fx.random_play} plays a random card next.`);
  return out;
}

function playerBox(v: View, p: number, ui: TableUi): HTMLElement {
  const me = p === v.seat;
  const known = me ? [] : v.known[String(p)] ?? [];
  const fronts = v.fronts[p] ?? [];
  return comp(`div.player${p === v.to_move ? ".to-move" : ""}${me ? ".me" : ""}`, `player:${p}`, ui,
    { dataset: { seat: String(p) } },
    h("div.pname", ui.names[p] ?? `p${p}`, me ? h("span.you", " (you)") : null,
      p === v.first_player ? h("span.first", { title: "first player" }, " ★1st") : null,
      p === v.to_move ? h("span.turnmark", " ◀ to move") : null),
    h("div.pline", h("span.count", `${v.hand_sizes[p]} in hand`)),
    fronts.length ? h("div.pline", h("span.lbl", "face up: "), fronts.map((c) => keyedCard(c, `card:${c}`, ui))) : null,
    known.length ? h("div.pline.known", h("span.lbl", "you know they hold: "), known.map((c) => card(c, ".known"))) : null,
  );
}

function legend(): HTMLElement {
  return h("details.legend", h("summary", "Effects: a card one above its row's last card is dark, any higher card light"),
    h("table", h("tr", h("th", ""), h("th", "light (optional; also a shrine)"), h("th", "dark (mandatory)")),
      COLOURS.map((c) => h("tr", h("td", h(`span.c-${c}.lg`, symbol(c), ` ${c}`)), h("td", LIGHT[c]), h("td", DARK[c])))));
}

export const silencio: TableModule = {
  paths: (legal) => silencioPaths(legal),
  label: (a) => silencioLabel(a),

  render(raw, ui) {
    const v = raw as unknown as View;
    const lit = v.shrines.large === "light";
    const notes = pendingNotes(v, ui.names);
    const tavernActs = ui.legal.filter((a) => a.startsWith("tavern "));
    const order = Array.from({ length: v.players }, (_, i) => (i + (v.seat ?? 0)) % v.players);
    return h("div.silencio",
      h("section.board",
        h("div.boardtop",
          comp(`div.shrine.large.${lit ? "lit" : "unlit"}`, "shrine:large", ui,
            { title: lit ? "large shrine: take it for any colour's light effect, then pick the row" : "large shrine: dark (used)" },
            h("span.shrine-label", lit ? "large shrine ☼" : "large shrine ●")),
          h("div.oracle",
            h("span.lbl", "Oracle"),
            v.oracle.map((c) => keyedCard(c, `oracle:${c}`, ui)),
            ui.legal.includes("renew oracle") ? comp("button.renew", "oracle:renew", ui, {}, "renew") : null,
            h("span.deck", { title: "cards in the face-down deck" }, `deck ${v.deck}`),
            v.box.length ? h("span.box", { title: "returned to the box" }, "box: ", v.box.map((c) => card(c, ".small"))) : null,
          ),
        ),
        h("div.rows", COLOURS.map((c) => rowView(v, c, ui))),
        notes.length ? h("ul.pending", notes.map((n) => h("li", n))) : null,
        v.tavern
          ? h("div.tavern",
              h("span.lbl", v.tavern.open ? "Tavern open" : `Tavern closed (${v.tavern.dark_effects}/${v.tavern.opens_at} dark effects)`),
              tavernActs.map((a) => comp("button.phrase", `tavern:${a.slice(7)}`, ui, {}, tavernPhrase(a))),
              v.said.slice(-3).map(([p, t]) => h("div.said", `${ui.names[p] ?? "p" + p}: “${t}”`)))
          : null,
      ),
      h("section.players", order.filter((p) => p !== v.seat).map((p) => playerBox(v, p, ui))),
      v.seat !== null
        ? h("section.myhand",
            playerBox(v, v.seat, ui),
            h("div.hand", h("span.lbl", "Your hand"),
              h("div.handcards", (v.hand ?? []).map((c) => keyedCard(c, `card:${c}`, ui)))))
        : null,
      legend(),
    );
  },

  hintLine: "Click a highlighted card, shrine or player on the table.",
  hand(raw) {
    const v = raw as unknown as View;
    return h("div.handcards", (v.hand ?? []).length ? (v.hand ?? []).map((c) => card(c)) : "no cards");
  },

  result(raw, ui) {
    const v = raw as unknown as View;
    if (!v.result) return null;
    const r = v.result;
    return h("div.result",
      h("h2", r.cards_left === 0 ? "A perfect game!" : `Game over: ${r.cards_left} card(s) left`),
      h("p.verdict", { dataset: { testid: "verdict" } }, h("b", `Team result: ${r.cards_left} card(s) left, ${TIER[r.tier] ?? r.tier}`)),
      h("p.tier", h("i", r.text)),
      h("ul", r.hands.map((hand, p) => h("li", h("b", `${ui.names[p] ?? "p" + p}: `),
        `${hand.length + (v.fronts[p]?.length ?? 0)} left · `, hand.length ? hand.map((c) => card(c)) : "no cards",
        v.fronts[p]?.length ? [" · face up: ", v.fronts[p].map((c) => card(c))] : null))),
    );
  },
};

export function silencioDecision(v: Record<string, unknown>, names: string[]): string {
  return named(String(v.decision ?? ""), names);
}
