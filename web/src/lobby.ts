// The lobby: create a game, invite links, my games (seat tokens kept in this browser), open games, spectate.
import { api, type Created, type GameInfo, type GameMeta, type PolicyMeta, type SeatRequest } from "./api";
import { accountBar, currentAccount } from "./account";
import { h, mount } from "./dom";
import { deciders } from "./features";
import type { HeldSeat, SeatStore } from "./store";
import { seatNames } from "./table";
import { learnSection } from "./tutorial";

export type FixedSeatChoice = "me" | "invite" | "open" | "ai:easy" | "ai:medium" | "ai:hard";
/** A fixed choice, or `ai:<label>` of a trained policy the server offers. */
export type SeatChoice = FixedSeatChoice | `ai:${string}`;

export const SEAT_LABELS: Record<FixedSeatChoice, string> = {
  me: "me",
  invite: "invited friend",
  open: "open seat (anyone from the lobby)",
  "ai:easy": "AI easy",
  "ai:medium": "AI medium",
  "ai:hard": "AI hard",
};

/** The seat choices for a table of `players`: the people's, then the AI strengths weakest first, the server's
 * trained policies for that count each at its measured place among easy, medium and hard (unmeasured ones last). */
export function seatChoices(players: number, policies: PolicyMeta[] = []): [SeatChoice, string][] {
  const fixed = (Object.keys(SEAT_LABELS) as FixedSeatChoice[]).map((c): [SeatChoice, string] => [c, SEAT_LABELS[c]]);
  const levels: Record<string, number> = { "ai:easy": 0, "ai:medium": 1, "ai:hard": 2 };
  const ranked: [number, number, [SeatChoice, string]][] = fixed.filter(([c]) => c in levels)
    .map((choice) => [levels[choice[0]], 0, choice]);
  for (const p of policies.filter((q) => q.players === players)) {
    ranked.push([p.position ?? 2.5, 1, [`ai:${p.label}`, `AI trained policy (${p.label})`]]);
  }
  ranked.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return [...fixed.filter(([c]) => !(c in levels)), ...ranked.map(([, , choice]) => choice)];
}

/** The server's seat requests for the chosen seats; the first "me" is the creator, a second one is refused. */
export function seatRequests(choices: SeatChoice[]): SeatRequest[] {
  if (choices.filter((c) => c === "me").length > 1) throw new Error("only one seat can be yours");
  return choices.map((c) => {
    if (c === "me") return { kind: "creator" };
    if (c === "invite") return { kind: "invite" };
    if (c === "open") return { kind: "open" };
    return { kind: "ai", ai: c.slice(3) };
  });
}

/** The option's value as the server wants it: choices may be numbers ("0") or strings. */
/** The server's games by title, as words: "A", "A and B", "A, B and C". */
export function gamesLine(metas: Pick<GameMeta, "title">[]): string {
  const titles = metas.map((m) => m.title);
  return titles.length > 1 ? `${titles.slice(0, -1).join(", ")} and ${titles[titles.length - 1]}` : titles.join("");
}

export function optionValue(raw: string, choices: unknown[]): unknown {
  const hit = choices.find((c) => String(c) === raw);
  return hit === undefined ? raw : hit;
}

export function copyButton(text: string): HTMLElement {
  const b = h("button.copy", { type: "button" }, "copy") as HTMLButtonElement;
  b.onclick = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const ta = h("textarea", { value: text }) as HTMLTextAreaElement;
      document.body.appendChild(ta);
      ta.select();
      document.execCommand("copy");
      ta.remove();
    }
    b.textContent = "copied ✓";
    setTimeout(() => (b.textContent = "copy"), 1500);
  };
  return b;
}

function createdPanel(c: Created): HTMLElement {
  return h("section.created", { dataset: { testid: "created" } },
    h("h2", "Game created"),
    c.invites.length
      ? [h("p", "Send each friend their own link (it works once):"),
         h("ul.invites", c.invites.map((i) => h("li", `seat ${i.seat + 1}: `,
           h("input.invite", { value: i.url, readOnly: true, size: 40, onfocus: (e: Event) => (e.target as HTMLInputElement).select() }),
           copyButton(i.url))))]
      : null,
    h("p", c.seat !== null
      ? h("a.button.primary", { href: `/g/${c.id}`, "data-link": "" }, "Open the table")
      : h("a.button", { href: `/g/${c.id}`, "data-link": "" }, "Watch the game")),
  );
}

function createForm(metas: GameMeta[], store: SeatStore, onCreated: (c: Created) => void): HTMLElement {
  const form = h("form.create") as HTMLFormElement;
  const gameSel = h("select", { name: "game" }, metas.map((m) => h("option", { value: m.name }, m.title))) as HTMLSelectElement;
  const playersSel = h("select", { name: "players" }) as HTMLSelectElement;
  const optBox = h("div.options");
  const seatBox = h("div.seats");
  const nameIn = h("input", { name: "name", value: localStorage.getItem("tabletop.name") ?? "", placeholder: "your name", maxLength: 40 }) as HTMLInputElement;
  const vis = h("select", { name: "visibility" },
    h("option", { value: "private" }, "private (invite links only)"),
    h("option", { value: "public" }, "public (listed in the lobby)")) as HTMLSelectElement;
  const clockSel = h("select", { name: "move_seconds" },
    h("option", { value: "" }, "none"),
    h("option", { value: "30" }, "30 seconds a move"),
    h("option", { value: "120" }, "2 minutes a move (live play)"),
    h("option", { value: "86400" }, "1 day a move"),
    h("option", { value: "259200" }, "3 days a move (turn-based)")) as HTMLSelectElement;
  const err = h("div.error");
  // a rated game needs a signed-in creator, and its people's seats signed-in players (docs/server.md "Ratings")
  const rated = currentAccount() ? h("input", { name: "rated", type: "checkbox" }) as HTMLInputElement : null;
  let seatSels: HTMLSelectElement[] = [];

  const meta = () => metas.find((m) => m.name === gameSel.value)!;
  function drawPlayers(): void {
    const [lo, hi] = meta().players;
    const keep = Number(playersSel.value) || 3;
    mount(playersSel, Array.from({ length: hi - lo + 1 }, (_, i) => h("option", { value: String(lo + i) }, String(lo + i))));
    playersSel.value = String(Math.min(hi, Math.max(lo, keep)));
  }
  function drawOptions(): void {
    mount(optBox, meta().options.filter((o) => !o.multi).map((o) =>
      h("label.opt", h("span.doc", o.doc), " ",
        h("select", { name: `opt:${o.name}`, dataset: { option: o.name } },
          o.choices.map((c) => h("option", { value: String(c), selected: String(c) === String(o.default) }, String(c)))))),
      meta().options.filter((o) => o.multi).map((o) =>
        h("div.opt.multi", { dataset: { multi: o.name } }, h("span.doc", o.doc), " ",
          o.choices.map((c) => h("label", h("input", {
            type: "checkbox", value: String(c), checked: Array.isArray(o.default) && o.default.map(String).includes(String(c)),
          }), ` ${String(c)} `)))));
  }
  function drawSeats(): void {
    const n = Number(playersSel.value);
    const old = seatSels.map((s) => s.value);
    const choices = seatChoices(n, meta().policies);
    seatSels = Array.from({ length: n }, (_, i) => {
      const s = h("select", { name: `seat${i}`, dataset: { seat: String(i) } },
        choices.map(([c, label]) => h("option", { value: c }, label))) as HTMLSelectElement;
      const keep = old[i];  // a policy offered for the old game or player count only falls back to the default
      s.value = keep !== undefined && choices.some(([c]) => c === keep) ? keep : (i === 0 ? "me" : "ai:medium");
      return s;
    });
    mount(seatBox, seatSels.map((s, i) => h("label.seat", `Seat ${i + 1}: `, s)));
  }
  gameSel.onchange = () => { drawPlayers(); drawOptions(); drawSeats(); };
  playersSel.onchange = drawSeats;
  drawPlayers(); drawOptions(); drawSeats();

  form.onsubmit = async (e) => {
    e.preventDefault();
    err.textContent = "";
    const m = meta();
    const options: Record<string, unknown> = {};
    for (const o of m.options.filter((x) => !x.multi)) {
      const sel = optBox.querySelector<HTMLSelectElement>(`select[data-option="${o.name}"]`)!;
      options[o.name] = optionValue(sel.value, o.choices);
    }
    for (const o of m.options.filter((x) => x.multi)) {
      const boxes = optBox.querySelectorAll<HTMLInputElement>(`[data-multi="${o.name}"] input:checked`);
      options[o.name] = Array.from(boxes, (b) => optionValue(b.value, o.choices));
    }
    try {
      const choices = seatSels.map((s) => s.value as SeatChoice);
      const name = nameIn.value.trim() || currentAccount()?.username || "host";
      localStorage.setItem("tabletop.name", nameIn.value.trim());
      const seats = seatRequests(choices);
      if (seats[0] && choices.indexOf("me") >= 0) seats[choices.indexOf("me")].name = name;
      const c = await api.create({ game: m.name, players: Number(playersSel.value), options, visibility: vis.value as "public" | "private", creator_name: name, seats,
        ...(clockSel.value ? { move_seconds: Number(clockSel.value) } : {}), ...(rated?.checked ? { rated: true } : {}) });
      if (c.seat !== null && c.token) {
        store.add({ id: c.id, game: m.name, title: m.title, seat: c.seat, token: c.token, creatorToken: c.creator_token, name, added: Date.now() });
      }
      onCreated(c);
    } catch (x) {
      err.textContent = (x as Error).message;
    }
  };
  mount(form,
    h("h2", "New game"),
    h("label", "Game ", gameSel), " ",
    h("label", "Players ", playersSel), " ",
    h("label", "Your name ", nameIn),
    optBox,
    h("label", "Who can join ", vis),
    h("label", { title: "when a person's time runs out, the game's heuristic moves for them" }, " Move clock ", clockSel),
    h("fieldset", h("legend", "Seats"), seatBox),
    rated ? h("label.rated", rated, " rated (signed-in players only; AI seats are not counted)") : null,
    err,
    h("button.primary", { type: "submit" }, "Create game"));
  return form;
}

function turnText(info: GameInfo, toMove: unknown, mySeat: number): string {
  if (info.status === "waiting") return "waiting for players";
  if (info.status === "over") return "over";
  if (info.status === "expired") return "expired (its seats were not all taken in time)";
  const who = deciders(toMove);
  if (who.includes(mySeat)) return "your turn";
  const names = seatNames(info);
  return who.length ? `${who.map((p) => names[p]).join(", ")} to play` : "in play";
}

async function myGames(store: SeatStore): Promise<HTMLElement> {
  const held = store.all().slice(0, 20);
  const rows = await Promise.all(held.map(async (s: HeldSeat) => {
    try {
      const info = await api.info(s.id);
      const st = info.status === "playing" ? await api.state(s.id, s.token) : null;
      const text = turnText(info, st?.to_move, s.seat);
      const many = store.ofGame(s.id).length > 1;
      return h(`li.mygame${text === "your turn" ? ".yours" : ""}`, { dataset: { id: s.id } },
        h("a", { href: `/g/${s.id}${many ? `?seat=${s.seat}` : ""}`, "data-link": "" }, `${info.title} `, h("span.when", new Date(info.created).toLocaleString())),
        ` · seat ${s.seat + 1} · `, h("span.status", text));
    } catch {
      return h("li.mygame.gone", `${s.title}: no longer on this server `,
        h("button.small", { onclick: (e: Event) => { store.remove(s.id, s.seat); (e.target as HTMLElement).parentElement?.remove(); } }, "forget"));
    }
  }));
  return h("section.mygames", h("h2", "My games"), rows.length ? h("ul", rows) : h("p.empty", "No games yet in this browser."));
}

async function openGames(store: SeatStore, go: (path: string) => void): Promise<HTMLElement> {
  let games: GameInfo[] = [];
  try {
    games = await api.lobby();
  } catch {
    /* shown as empty */
  }
  const rows = games.map((g) => {
    const free = g.seats.filter((s) => !s.taken);
    const join = g.status === "waiting" && free.length
      ? h("button.small", {
          onclick: async () => {
            try {
              const name = localStorage.getItem("tabletop.name") || undefined;
              const r = await api.join(g.id, name);
              store.add({ id: g.id, game: g.game, title: g.title, seat: r.seat, token: r.token, name, added: Date.now() });
              go(`/g/${g.id}`);
            } catch (e) {
              alert((e as Error).message);
            }
          },
        }, `join (${free.length} free)`)
      : null;
    const bots = g.seats.filter((s) => s.bot).length;
    const botText = bots ? ` · ${bots} bot${bots > 1 ? "s" : ""}` : "";
    return h("li", { dataset: { id: g.id } }, `${g.title} by ${g.creator} · ${g.players} players${botText} · ${g.status} `, join, " ",
      h("a.small", { href: `/g/${g.id}`, "data-link": "" }, "watch"));
  });
  return h("section.open", h("h2", "Open games"), rows.length ? h("ul", rows) : h("p.empty", "No public games right now."));
}

export async function showLobby(root: HTMLElement, store: SeatStore, go: (path: string) => void): Promise<void> {
  document.title = "tabletop";
  let metas: GameMeta[];
  try {
    metas = await api.meta();
  } catch (e) {
    mount(root, h("div.page", h("h1", "tabletop"), h("p.error", `The server cannot be reached: ${(e as Error).message}`)));
    return;
  }
  const created = h("div");
  const form = createForm(metas, store, (c) => {
    mount(created, createdPanel(c));
    void myGames(store).then((m) => mine.replaceWith(m));
  });
  let mine = h("section.mygames", h("h2", "My games"), h("p", "…"));
  const open = h("section.open");
  mount(root, h("div.page.lobby", accountBar(go), h("h1", "tabletop"), h("p.sub", `${gamesLine(metas)} with friends and AI.`),
    h("div.cols", h("div", form, created), h("div", mine, open))));
  const [m, o, learn] = await Promise.all([myGames(store), openGames(store, go), learnSection(store, go)]);
  if (learn) root.querySelector(".lobby .sub")?.after(learn);
  mine.replaceWith(m);
  mine = m;
  open.replaceWith(o);
}

export async function showJoin(root: HTMLElement, id: string, code: string, store: SeatStore, go: (path: string) => void): Promise<void> {
  let info: GameInfo;
  try {
    info = await api.info(id);
  } catch (e) {
    mount(root, h("div.page", h("h1", "Invitation"), h("p.error", (e as Error).message), h("a", { href: "/", "data-link": "" }, "lobby")));
    return;
  }
  const nameIn = h("input", { value: localStorage.getItem("tabletop.name") ?? "", placeholder: "your name", maxLength: 40 }) as HTMLInputElement;
  const err = h("div.error");
  const take = h("button.primary", {
    onclick: async () => {
      try {
        const name = nameIn.value.trim() || undefined;
        if (name) localStorage.setItem("tabletop.name", name);
        const r = await api.claimInvite(id, code, name);
        store.add({ id, game: info.game, title: info.title, seat: r.seat, token: r.token, name, added: Date.now() });
        go(`/g/${id}`);
      } catch (e) {
        err.textContent = (e as Error).message;
      }
    },
  }, "Take my seat");
  const names = seatNames(info);
  mount(root, h("div.page.join",
    h("h1", `${info.creator} invites you to ${info.title}`),
    h("p", `${info.players} players: ${names.join(", ")}`),
    h("label", "Your name ", nameIn), " ", take, err,
    code ? null : h("p.error", "This link has no invitation code: ask for a new one.")));
}
