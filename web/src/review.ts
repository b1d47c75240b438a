// The post-game review in the replay viewer (issue 24): a finished game's player asks the server to review their own
// decisions (POST /api/games/{id}/review), the panel follows its progress as the server pushes it (server-sent events
// of GET .../review/events; polling GET .../review where they cannot be had), then draws the seat's estimated result over
// the game (a click on a point goes to that move in the replay) and lists the mistakes with their one-line reasons.
import { ApiError, request, SESSION_SEAT } from "./api";
import { h, mount } from "./dom";

/** One reviewed decision (tabletop.agents.review.Decision). */
export interface ReviewDecision {
  step: number;
  played: string;
  played_value: number;
  best: string;
  best_value: number;
  loss: number;
  samples: number;
  options: number;
  estimate: number;
  reason: string;
  mistake: boolean;
  played_score: number | null;
  best_score: number | null;
}

/** The answer of GET/POST /api/games/{id}/review. */
export interface ReviewAnswer {
  game_id: string;
  seat: number;
  status: "none" | "running" | "done" | "failed";
  done?: number;
  total?: number;
  seconds?: number | null;
  detail?: string;
  review?: { game: string; seat: number; measure: string; score_label: string; decisions: ReviewDecision[] };
}

/** A point of the graph: the replay step it goes to (the move itself), and its value on the graph's scale. */
export interface CurvePoint {
  step: number;
  y: number;
  mistake: boolean;
}

/**
 * The curve of a review: only the decisions with a choice (a forced move has no estimate). A competitive game's
 * curve is the win chance (0-1); a cooperative game's (Silencio) is the team's expected cards left, from the
 * search's expected team score (minus the cards left), where the review has it.
 */
export function curve(r: NonNullable<ReviewAnswer["review"]>): { points: CurvePoint[]; label: string; cards: boolean } {
  const chosen = r.decisions.filter((d) => d.options > 1);
  const cards = r.measure === "team result" && chosen.length > 0 && chosen.every((d) => d.best_score !== null);
  const points = chosen.map((d) => ({ step: d.step + 1, y: cards ? -(d.best_score ?? 0) : d.estimate, mistake: d.mistake }));
  const label = cards ? "The team's expected cards left (lower is better), as the search saw it from your seat"
    : r.measure === "team result" ? "The team's expected result (0-1), as the search saw it from your seat"
      : "Your chance of winning, as the search saw it from your seat";
  return { points, label, cards };
}

const W = 600;
const H = 160;
const PAD = 24;

function svg(tag: string, attrs: Record<string, string>, ...kids: Element[]): SVGElement {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...kids);
  return el;
}

/** The review panel above the replay: a button, the progress, then the graph and the mistakes. */
export class ReviewPanel {
  el = h("section.review", { dataset: { testid: "review" } });
  answer: ReviewAnswer | null = null;
  error = "";
  private timer: number | undefined;
  private source: EventSource | undefined;
  /** The pushed progress failed once (no EventSource, a proxy that buffers): polled from then on. */
  private polling = false;
  /** Progress answers received pushed, not polled (the browser test reads it). */
  pushed = 0;

  constructor(private id: string, private token: string, private goTo: (step: number) => void, private steps: () => number) {}

  /** Read what exists already (a stored review is shown at once). */
  async load(): Promise<void> {
    try {
      this.answer = await request<ReviewAnswer>("GET", `/api/games/${this.id}/review`, this.token);
      this.error = "";
      if (this.answer.status === "running") this.follow();
    } catch (e) {
      this.error = e instanceof ApiError ? e.detail : "the review could not be loaded";
    }
    this.draw();
  }

  async ask(): Promise<void> {
    try {
      this.answer = await request<ReviewAnswer>("POST", `/api/games/${this.id}/review`, this.token);
      this.error = "";
      if (this.answer.status === "running") this.follow();
    } catch (e) {
      this.error = e instanceof ApiError ? e.detail : "the server cannot be reached";
    }
    this.draw();
  }

  close(): void {
    clearTimeout(this.timer);
    this.unfollow();
  }

  /** Follow a running review: its answers pushed by the server as they change, else polled. */
  private follow(): void {
    if (this.source) return;
    if (this.polling || typeof EventSource === "undefined") {
      this.poll();
      return;
    }
    const q = this.token && this.token !== SESSION_SEAT ? `?token=${encodeURIComponent(this.token)}` : "";
    const source = new EventSource(`/api/games/${this.id}/review/events${q}`);
    this.source = source;
    source.onmessage = (e: MessageEvent<string>) => {
      this.answer = JSON.parse(e.data) as ReviewAnswer;
      this.error = "";
      this.pushed += 1;
      this.el.dataset.pushed = String(this.pushed);
      if (this.answer.status !== "running") this.unfollow(); // the server ends the stream: no reconnection
      this.draw();
    };
    source.onerror = () => {
      // the stream broke before the end (or never opened): poll from here on
      this.unfollow();
      if (this.answer?.status === "running") {
        this.polling = true;
        this.poll();
      }
    };
  }

  private unfollow(): void {
    this.source?.close();
    this.source = undefined;
  }

  private poll(): void {
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.load(), 700);
  }

  draw(): void {
    const a = this.answer;
    const parts: (Node | null)[] = [h("h3", "Review of your moves")];
    if (this.error) parts.push(h("div.error", { role: "alert" }, this.error));
    if (!a || a.status === "none" || a.status === "failed") {
      if (a?.status === "failed") parts.push(h("p.error", a.detail ?? "the review failed"));
      parts.push(h("button.askreview", { dataset: { testid: "review-ask" }, onclick: () => void this.ask() },
        "Review my moves"));
      parts.push(h("p.hintline", "The server's search values each of your decisions from what you knew then."));
    } else if (a.status === "running") {
      const done = a.done ?? 0;
      const total = a.total ?? 0;
      parts.push(h("p", { dataset: { testid: "review-progress" } }, `Reviewing… ${done} of ${total} decisions`),
        h("progress", { max: String(Math.max(1, total)), value: String(done) }));
    } else if (a.review) {
      parts.push(...this.result(a.review));
    }
    mount(this.el, ...parts);
  }

  private result(r: NonNullable<ReviewAnswer["review"]>): Node[] {
    const { points, label, cards } = curve(r);
    if (!points.length) return [h("p", "You had no choice to make in this game: nothing to review.")];
    const last = Math.max(1, this.steps(), ...points.map((p) => p.step));
    const lo = cards ? Math.min(0, ...points.map((p) => p.y)) : 0;
    const hi = cards ? Math.max(1, ...points.map((p) => p.y)) : 1;
    const x = (s: number) => PAD + ((W - 2 * PAD) * s) / last;
    const y = (v: number) => H - PAD - ((H - 2 * PAD) * (v - lo)) / (hi - lo || 1);
    const line = svg("polyline", { points: points.map((p) => `${x(p.step)},${y(p.y)}`).join(" "), fill: "none",
      stroke: "currentColor", "stroke-width": "1.5" });
    const dots = points.map((p) => {
      const c = svg("circle", { cx: String(x(p.step)), cy: String(y(p.y)), r: p.mistake ? "5" : "3.5",
        class: p.mistake ? "pt mistake" : "pt", "data-testid": "review-point", "data-step": String(p.step),
        tabindex: "0", role: "button" },
      svg("title", {}));
      c.firstElementChild!.textContent = `move ${p.step}: ${cards ? `${p.y.toFixed(1)} cards left` : `${Math.round(p.y * 100)}%`}`;
      c.addEventListener("click", () => this.goTo(p.step));
      c.addEventListener("keydown", (e) => {
        if ((e as KeyboardEvent).key === "Enter") this.goTo(p.step);
      });
      return c;
    });
    const axis = [svg("line", { x1: String(PAD), y1: String(H - PAD), x2: String(W - PAD), y2: String(H - PAD), stroke: "#888" }),
      svg("text", { x: "2", y: String(PAD), "font-size": "10" }), svg("text", { x: "2", y: String(H - PAD), "font-size": "10" })];
    axis[1].textContent = cards ? hi.toFixed(0) : "100%";
    axis[2].textContent = cards ? lo.toFixed(0) : "0%";
    const graph = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "reviewgraph", role: "img", "aria-label": label,
      "data-testid": "review-graph" }, ...axis, line, ...dots);
    const mistakes = r.decisions.filter((d) => d.mistake);
    const worth = (v: number, score: number | null) =>
      cards && score !== null ? `${(-score).toFixed(1)} cards left` : `${Math.round(v * 100)}%`;
    const list = mistakes.length
      ? h("ol.mistakes", { dataset: { testid: "review-mistakes" } }, mistakes.map((d) =>
        h("li", h("button.linklike", { onclick: () => this.goTo(d.step + 1) }, `move ${d.step + 1}`),
          `: you chose “${d.played}” (${worth(d.played_value, d.played_score)}); “${d.best}” looked better `
          + `(${worth(d.best_value, d.best_score)})`,
          d.reason ? ` — ${d.reason}` : "")))
      : h("p", { dataset: { testid: "review-mistakes" } }, "No mistakes found.");
    return [h("p.reviewlabel", label), graph, h("h4", `Mistakes (${mistakes.length})`), list];
  }
}
