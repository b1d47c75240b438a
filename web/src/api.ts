// The server's public API (docs/server.md), exactly as bots and tests use it. Nothing here knows any game.

export interface OptionMeta {
  name: string;
  default: unknown;
  choices: unknown[];
  multi: boolean;
  doc: string;
}

export interface GameMeta {
  name: string;
  title: string;
  players: [number, number];
  cooperative: boolean;
  version: string;
  score: string;
  /** Whether the game's tables have chat; `no_chat` says why not ("" when they do): the game's own fact. */
  chat: boolean;
  no_chat: string;
  options: OptionMeta[];
  ai: string[];
  /** Trained policies the server offers as AI seats (labels from its own directory), with the player count each plays. */
  policies?: PolicyMeta[];
}

export interface PolicyMeta {
  label: string;
  game: string;
  players: number;
  /** Its place among the strengths by its measured result (easy 0, medium 1, hard 2; 2.5 when not measured). */
  position?: number;
}

export interface SeatPublic {
  seat: number;
  kind: "human" | "ai";
  mode: string;
  ai: string | null;
  name: string;
  /** A program plays this person's seat (`tabletop bot`, docs/bots.md). */
  bot?: boolean;
  taken: boolean;
}

export interface GameInfo {
  id: string;
  game: string;
  title: string;
  /** Whether its table has chat (a fact of the game, as in its GameMeta): without, the table shows notices only. */
  chat: boolean;
  rules_version: string;
  players: number;
  options: Record<string, unknown>;
  visibility: "public" | "private";
  status: "waiting" | "playing" | "over" | "expired";
  creator: string;
  created: string;
  seats: SeatPublic[];
  seq?: number;
}

export interface LogEntry {
  seat: number | null;
  text: string;
}

/** A seat's picture of the game: GET state, an action's answer, or a socket message. */
export interface SeatState {
  seq: number;
  seat: number | null;
  status: "waiting" | "playing" | "over" | "expired";
  to_move: number | null;
  view: Record<string, unknown> & { log_pos?: number; decision?: string; result?: unknown };
  legal: string[];
  log_pos: number | null;
  game_id?: string;
  /** Seats that owe a decision now, and those that decided ahead (simultaneous decisions; public). */
  deciding?: number[];
  decided?: number[];
  /** For a seat: whether it owes a decision, since which event it has stood, how many actions it may take back. */
  owes_decision?: boolean;
  decision_seq?: number;
  undoable?: number;
}

export interface Hint {
  action: string;
  value: number;
  visits: number;
  /** A one-line reason (what the action changes at once); empty or absent where the search gives none. */
  reason?: string;
}

export interface ChatMessage {
  index: number;
  /** `rematch`: a rematch was made of this finished game; `text` is its game id (docs/server.md). */
  kind: "chat" | "notice" | "rematch";
  seat: number | null;
  name: string;
  text: string;
  time: string;
}

export interface ChatBatch {
  type?: "chat";
  start: number;
  messages: ChatMessage[];
  chat_pos: number;
}

export interface ClockInfo {
  move_seconds: number;
  seq: number;
  deadline: string | number;
}

/** A finished game's position after its first `step` actions, seen from every seat (GET .../replay/{k}). */
export interface ReplayStep {
  step: number;
  steps: number;
  action: string | null;
  to_move: number | null;
  over: boolean;
  views: Record<string, unknown>[];
}

export interface StateMessage extends SeatState {
  type: "state";
  log_start: number;
  log: LogEntry[];
}

export type SeatKind = "creator" | "invite" | "open" | "ai";

export interface SeatRequest {
  kind: SeatKind;
  ai?: string;
  name?: string;
}

export interface CreateRequest {
  game: string;
  players: number;
  options: Record<string, unknown>;
  visibility: "public" | "private";
  creator_name: string;
  seats: SeatRequest[];
  /** A move clock: seconds per decision (none when absent). */
  move_seconds?: number;
  /** A rated game (a signed-in creator only; docs/server.md "Ratings"). */
  rated?: boolean;
}

export interface Created {
  id: string;
  creator_token: string;
  seat: number | null;
  token: string | null;
  invites: { seat: number; code: string; url: string }[];
  info: GameInfo;
}

export class ApiError extends Error {
  constructor(
    public status: number,
    public detail: string,
    public body: Record<string, unknown>,
  ) {
    super(detail);
  }
}

function detailText(body: unknown, status: number): string {
  const d = (body as { detail?: unknown } | null)?.detail;
  if (typeof d === "string") return d;
  if (Array.isArray(d)) return d.map((e) => (e as { msg?: string }).msg ?? JSON.stringify(e)).join("; ");
  return `request failed (${status})`;
}

/**
 * A seat this browser plays through its account's session (docs/server.md, "Seats follow the account"): no seat
 * token is sent, the session cookie and its CSRF token say who acts. Used in place of a seat token.
 */
export const SESSION_SEAT = "session";
let csrfToken: string | null = null;

/** The signed-in session's CSRF token, sent in `X-CSRF-Token` with every state-changing request (null: none). */
export function setCsrf(token: string | null): void {
  csrfToken = token;
}

export async function request<T>(method: string, path: string, token?: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (token && token !== SESSION_SEAT) headers.Authorization = `Bearer ${token}`;
  if (csrfToken && method !== "GET" && method !== "HEAD") headers["X-CSRF-Token"] = csrfToken;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { detail: text.slice(0, 200) };
  }
  if (!r.ok) throw new ApiError(r.status, detailText(parsed, r.status), (parsed ?? {}) as Record<string, unknown>);
  return parsed as T;
}

/** A game's rules help and explanations (GET /api/meta/games/{game}/help; data: games/<game>/help.toml). */
export interface GameHelp {
  title: string;
  rules: { title: string; text: string }[];
  actions: Record<string, string>;
  terms: Record<string, string>;
}

/** The explanation of the longest `actions` key that is a prefix of the action's text ("" when none). */
export function explainAction(help: GameHelp | null, action: string): string {
  if (!help) return "";
  let best = "";
  for (const k of Object.keys(help.actions)) if (action.startsWith(k) && k.length > best.length) best = k;
  return best ? help.actions[best] : "";
}

export const api = {
  meta: () => request<GameMeta[]>("GET", "/api/meta/games"),
  help: (game: string) => request<GameHelp>("GET", `/api/meta/games/${game}/help`),
  lobby: () => request<GameInfo[]>("GET", "/api/games"),
  info: (id: string) => request<GameInfo>("GET", `/api/games/${id}`),
  create: (req: CreateRequest) => request<Created>("POST", "/api/games", null, req),
  claimInvite: (id: string, invite: string, name?: string) =>
    request<{ seat: number; token: string }>("POST", `/api/games/${id}/claim`, null, name ? { invite, name } : { invite }),
  join: (id: string, name?: string, seat?: number) =>
    request<{ seat: number; token: string }>("POST", `/api/games/${id}/claim`, null, {
      ...(name ? { name } : {}),
      ...(seat !== undefined ? { seat } : {}),
    }),
  state: (id: string, token: string | null) => request<SeatState>("GET", `/api/games/${id}/state`, token),
  log: (id: string, token: string | null, start: number) =>
    request<{ seq: number; start: number; entries: LogEntry[]; log_pos: number }>(
      "GET", `/api/games/${id}/log?start=${start}`, token),
  undo: (id: string, token: string, count: number, seq: number, clientActionId: string) =>
    request<{ seq: number; state?: SeatState }>("POST", `/api/games/${id}/undo`, token, { count, seq, client_action_id: clientActionId }),
  hints: (id: string, token: string) =>
    request<{ seat: number; seq: number; seconds: number; hints: Hint[] }>("POST", `/api/games/${id}/hints`, token),
  chat: (id: string, start: number) => request<ChatBatch>("GET", `/api/games/${id}/chat?start=${start}`),
  say: (id: string, token: string, text: string) => request<unknown>("POST", `/api/games/${id}/chat`, token, { text }),
  clock: (id: string) => request<{ clock: ClockInfo | null }>("GET", `/api/games/${id}/clock`),
  replay: (id: string, step: number) => request<ReplayStep>("GET", `/api/games/${id}/replay/${step}`),
  rematch: (id: string, token: string) =>
    request<{ id: string; seat: number; token: string; creator_token?: string; created: boolean; info: GameInfo }>(
      "POST", `/api/games/${id}/rematch`, token),
  leave: (id: string, token: string) => request<{ seat: number; ai: string }>("POST", `/api/games/${id}/leave`, token),
  takeBack: (id: string, token: string) => request<{ seat: number }>("POST", `/api/games/${id}/takeback`, token),
  concede: (id: string, token: string) =>
    request<{ seat: number; over: boolean; ai: string | null }>("POST", `/api/games/${id}/concede`, token),
  act: (id: string, token: string, action: string, seq: number, clientActionId: string) =>
    request<{ seq: number; action: string; duplicate: boolean; state: SeatState }>(
      "POST", `/api/games/${id}/actions`, token, { action, seq, client_action_id: clientActionId }),
};

/**
 * Endpoints that other parts of the server add over time (chat, hints, clocks, undo). The client asks once per
 * game whether the server has them (404 means no) and shows their controls only then.
 */
export async function hasEndpoint(path: string): Promise<boolean> {
  // OPTIONS does nothing on the server: an unknown path answers 404, a known one 405 (or 200 with CORS on).
  try {
    const r = await fetch(path, { method: "OPTIONS" });
    return r.status !== 404;
  } catch {
    return false;
  }
}

export function socketUrl(loc: { protocol: string; host: string }, id: string, token: string | null, since: number, chatSince = 0): string {
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  const q = new URLSearchParams({ since: String(since) });
  if (chatSince) q.set("chat_since", String(chatSince));
  if (token && token !== SESSION_SEAT) q.set("token", token);
  return `${scheme}//${loc.host}/api/games/${id}/ws?${q}`;
}
