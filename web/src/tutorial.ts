// The guided first games (issue 22): the lobby's "Learn to play <game>" buttons, and the lesson box over a tutorial
// game's table. The script is the server's (games/<game>/tutorial.toml, /api/tutorials): it plays the other seats
// and tells this browser only the step the learner is at. A move other than the step's is explained here and not
// sent (the table stays as it was); "Show me" lights the move, "Play it for me" makes it.
import { api, request } from "./api";
import { h, mount } from "./dom";
import type { SeatStore } from "./store";
import "./tutorial.css";

export interface LessonStep {
  action: string;
  text: string;
  wrong: string;
  rule: string;
}

export interface Lesson {
  game: string;
  title: string;
  intro: string;
  /** Actions made so far in the script. */
  at: number;
  /** The learner's steps: how many in all, how many made. */
  steps: number;
  done: number;
  next: LessonStep | null;
  outro?: string;
  /** What the other seats' moves just made mean (the script's words). */
  told: string[];
}

const KEY = "tabletop.tutorials.v1";

/** The tutorial games this browser started: game id -> game name. */
function started(): Record<string, string> {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? "{}") as unknown;
    return raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function remember(id: string, game: string): void {
  const all = started();
  all[id] = game;
  const ids = Object.keys(all).slice(-50);
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(ids.map((k) => [k, all[k]]))));
}

/** What to say when the learner tries `action` at `step`: null when it is the step's move. */
export function wrongMove(step: LessonStep | null, action: string): string | null {
  if (step === null) return "Wait a moment: the other player is moving (the lesson tells you when it is your turn).";
  if (action === step.action) return null;
  const why = step.wrong || `${action} is a legal move, but this lesson follows a fixed deal, so it asks for ${step.action} here.`;
  return `Not this one. ${why} ${step.text}`;
}

/** The lesson now shown (null: this page is not a tutorial's table). Read by the table before it sends a move. */
let current: LessonBox | null = null;

/** Whether the table may send `action` now; when not, the lesson box explains why. */
export function tutorialAllows(action: string): boolean {
  return current === null ? true : current.allows(action);
}

/** The table was drawn again: the move "Show me" rings is ringed again (a redraw in place keeps no foreign class). */
export function tableRedrawn(): void {
  current?.reRing();
}

export const tutorialApi = {
  list: () => request<{ game: string; title: string }[]>("GET", "/api/tutorials"),
  start: (game: string, name?: string) =>
    request<{ id: string; seat: number; token: string; tutorial: Lesson }>("POST", `/api/tutorials/${game}`, null, name ? { name } : {}),
  advance: (game: string, id: string, token: string) =>
    request<Lesson>("POST", `/api/tutorials/${game}/${id}/advance`, token),
};

/** The lobby's "Learn to play" section: one button per game with a tutorial (nothing when the server has none). */
export async function learnSection(store: SeatStore, go: (path: string) => void): Promise<HTMLElement | null> {
  let list: { game: string; title: string }[];
  try {
    list = await tutorialApi.list();
  } catch {
    return null;
  }
  if (!list.length) return null;
  const err = h("p.error", { role: "alert" });
  return h("section.learn", { "aria-labelledby": "learn-h" },
    h("h2", { id: "learn-h" }, "New to a game?"),
    h("p", "A guided first game: a whole game on a fixed deal, every rule explained as it comes up."),
    h("div.buttons", list.map((t) => h("button.learnbtn", {
      type: "button",
      dataset: { tutorial: t.game },
      onclick: async () => {
        err.textContent = "";
        try {
          const name = localStorage.getItem("tabletop.name") || undefined;
          const r = await tutorialApi.start(t.game, name);
          store.add({ id: r.id, game: t.game, title: t.title, seat: r.seat, token: r.token, name, added: Date.now() });
          remember(r.id, t.game);
          go(`/g/${r.id}`);
        } catch (e) {
          err.textContent = `The tutorial could not start: ${(e as Error).message}`;
        }
      },
    }, t.title))),
    err);
}

class LessonBox {
  readonly el = h("section.tutorial", { role: "region", "aria-label": "Tutorial", dataset: { testid: "tutorial" } });
  private lesson: Lesson | null = null;
  private said = "";
  private told: string[] = [];
  private seq = -1;
  private busy = false;
  private again = false;
  /** The game's introduction is open at first on a wide screen; on a phone it waits to be opened, under the step. */
  private introOpen = typeof matchMedia === "function" && matchMedia("(min-width: 700px)").matches;

  constructor(private root: HTMLElement, private id: string, private game: string, private token: string) {}

  /** When the learner's last move was let through: until the lesson moves on (or 3 s, a refused move) it is stale. */
  private sentAt = 0;

  allows(action: string): boolean {
    const stale = this.sentAt > 0 && Date.now() - this.sentAt < 3000;
    const why = wrongMove(stale ? null : this.lesson?.next ?? null, action);
    if (why === null) {
      this.said = "";
      this.sentAt = Date.now();
      return true;
    }
    this.said = why;
    this.draw();
    (this.el.querySelector(".wrong") as HTMLElement | null)?.focus();
    return false;
  }

  /** The table drew a new picture (seq `seq`): the other seats' scripted moves now due are made, the step read. */
  async refresh(seq: number): Promise<void> {
    if (seq === this.seq) return;
    this.seq = seq;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    try {
      const got = await tutorialApi.advance(this.game, this.id, this.token);
      if (got.at !== this.lesson?.at) {
        this.said = "";
        this.sentAt = 0;
      }
      this.told = got.told.length ? got.told : this.lesson && got.at === this.lesson.at ? this.told : [];
      this.lesson = got;
    } catch (e) {
      this.said = `The lesson could not go on: ${(e as Error).message}`;
    } finally {
      this.busy = false;
    }
    this.draw();
    if (this.again) {
      this.again = false;
      this.seq = -1;
      void this.refresh(this.tableSeq());
    }
  }

  tableSeq(): number {
    const t = this.root.querySelector<HTMLElement>(".table > [data-seq]");
    return t ? Number(t.dataset.seq) : -1;
  }

  private openRules(rule: string): void {
    const d = this.root.querySelector<HTMLDetailsElement>("details.rules");
    if (!d) return;
    d.open = true;
    const sec = Array.from(d.querySelectorAll<HTMLElement>("section.rule")).find((s) => s.querySelector("h4")?.textContent === rule);
    (sec ?? d).scrollIntoView({ block: "nearest" });
    sec?.classList.add("flash");
    setTimeout(() => sec?.classList.remove("flash"), 1500);
  }

  /** The move "Show me" rings until the step changes (the table redraws itself: the ring is put back each time). */
  private ring: string | null = null;

  /** The step's button, or the lit components whose key ends in one of the action's words ("card:y8" of "give y8"). */
  private pieces(action: string): HTMLElement[] {
    const button = Array.from(this.root.querySelectorAll<HTMLElement>(".actions > .buttons button.act")).find((b) => b.dataset.action === action);
    if (button) return [button];
    const words = new Set(action.split(" ").slice(1));
    return Array.from(this.root.querySelectorAll<HTMLElement>(".table .target"))
      .filter((el) => words.has((el.dataset.key ?? "").split(":").pop() ?? ""));
  }

  reRing(): void {
    if (this.ring === null) return;
    if (this.ring !== this.lesson?.next?.action) {
      this.ring = null;
      return;
    }
    for (const el of this.pieces(this.ring)) if (!el.classList.contains("tutor-hint")) el.classList.add("tutor-hint");
  }

  private show(action: string): void {
    this.ring = action;
    const lit = this.pieces(action);
    this.said = `The move is ${action}.` + (lit.length
      ? " What to press is ringed, and has the focus: press Enter (then the next ringed piece, if there is one)."
      : " Click its pieces on the table in turn (the lit ones), or use Play it for me.");
    this.draw();
    this.reRing();
    requestAnimationFrame(() => this.pieces(action)[0]?.focus());
  }

  private async playForMe(action: string): Promise<void> {
    try {
      await api.act(this.id, this.token, action, this.tableSeq(), `tutorial-${Date.now()}`);
    } catch (e) {
      this.said = (e as Error).message;
      this.draw();
    }
  }

  draw(): void {
    const l = this.lesson;
    if (!l) {
      mount(this.el, h("p", "Loading the lesson…"));
      return;
    }
    const step = l.next;
    const first = l.done === 0;
    mount(this.el,
      h("h2", l.title, " ", h("span.progress", l.outro ? "· finished" : `· step ${Math.min(l.done + 1, l.steps)} of ${l.steps}`)),
      first && step
        ? h("details.intro", { open: this.introOpen, ontoggle: (e: Event) => (this.introOpen = (e.target as HTMLDetailsElement).open) },
            h("summary", "About this game"), h("p", l.intro))
        : null,
      this.told.length ? h("ul.told", { "aria-label": "What the other player just did" }, this.told.map((t) => h("li", t))) : null,
      step
        ? h("div.step", { "aria-live": "polite" },
            h("p.do", step.text),
            h("p.move", "Your move: ", h("code", step.action)),
            h("div.buttons",
              h("button.small", { type: "button", onclick: () => this.show(step.action) }, "Show me"),
              h("button.small", { type: "button", dataset: { testid: "tutorial-play" }, onclick: () => void this.playForMe(step.action) }, "Play it for me"),
              step.rule ? h("button.small", { type: "button", onclick: () => this.openRules(step.rule) }, `Rules: ${step.rule}`) : null))
        : l.outro
          ? h("div.step.end", { "aria-live": "polite" }, h("p.do", l.outro),
              h("div.buttons", h("button.small", { type: "button", onclick: () => this.openRules("") }, "Open the rules help")),
              h("p", h("a", { href: "/", "data-link": "" }, "Back to the lobby"), " to play a real game, against AI or with friends."))
          : h("p.wait", { "aria-live": "polite" }, "The other player is moving…"),
      this.said ? h("p.wrong", { tabIndex: -1, role: "alert" }, this.said) : null);
  }
}

/** On a tutorial game's table (one this browser started), the lesson box under the header; the stop function. */
export function attachTutorial(root: HTMLElement, id: string, token: string | null): () => void {
  const game = started()[id];
  if (!game || !token) return () => {};
  const box = new LessonBox(root, id, game, token);
  current = box;
  const page = root.querySelector(".tablepage");
  const head = root.querySelector(".tablehead");
  if (page && head) page.insertBefore(box.el, head.nextSibling);
  else root.prepend(box.el);
  box.draw();
  const watch = new MutationObserver(() => {
    box.reRing();
    void box.refresh(box.tableSeq());
  });
  watch.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-seq"] });
  void box.refresh(box.tableSeq());
  return () => {
    watch.disconnect();
    if (current === box) current = null;
  };
}
