// The account pages (issue 23; the server side is docs/server.md's "Accounts"): sign up, sign in and out, my games,
// a profile, a leaderboard per game, account settings, and the page a mailed password-reset link opens. Guest play
// needs none of this. A signed-in page sends its session's CSRF token with every state-changing request (api.ts).
import { ApiError, request, SESSION_SEAT, setCsrf, type GameInfo } from "./api";
import { h, mount } from "./dom";
import { passkeyApi, registerPasskey, signInWithPasskey, type PasskeyInfo } from "./passkeys";

export interface Me {
  username: string;
  created: string;
  csrf: string;
  session: string;
}

export interface MyGame {
  id: string;
  game: string;
  title: string;
  status: "waiting" | "playing" | "over" | "expired";
  seat: number;
  players: string[];
  created: string;
  your_turn: boolean;
  to_move: { seat: number; name: string }[];
  clock: { move_seconds: number; deadline: string | null; seconds_left: number | null } | null;
}

export interface Shown {
  mu: number;
  sigma: number;
  ordinal: number;
}

export interface Profile {
  username: string;
  ratings: (Shown & { game: string; games: number; wins: number })[];
  records: { game: string; players: number; variant: string; games: number; perfect: number;
    average_cards_left: number; fewest_cards_left: number }[];
  recent: { game_id: string; game: string; players: number; variant: string; seat: number; place: number;
    score: number; won: boolean; rated: boolean; rating: Shown | null; time: string; record: string; replay: string }[];
}

export interface SessionRow {
  id: string;
  agent: string;
  created: string;
  last_seen: string;
  expires: string;
  current: boolean;
}

export const accountApi = {
  me: () => request<Me>("GET", "/api/account/me"),
  signup: (username: string, password: string) => request<Me>("POST", "/api/account/signup", null, { username, password }),
  signin: (username: string, password: string) => request<Me>("POST", "/api/account/signin", null, { username, password }),
  signout: () => request<unknown>("POST", "/api/account/signout"),
  games: () => request<MyGame[]>("GET", "/api/account/games"),
  sessions: () => request<SessionRow[]>("GET", "/api/account/sessions"),
  revoke: (id: string) => request<unknown>("DELETE", `/api/account/sessions/${id}`),
  password: (old_password: string, new_password: string) =>
    request<{ changed: boolean; sessions_closed: number }>("POST", "/api/account/password", null, { old_password, new_password }),
  mail: () => request<{ email: string | null; turn_mail: boolean }>("GET", "/api/account/mail"),
  setMail: (email: string | null, turn_mail: boolean) =>
    request<{ email: string | null; turn_mail: boolean }>("POST", "/api/account/mail", null, { email, turn_mail }),
  remove: (password: string) => request<unknown>("POST", "/api/account/delete", null, { password }),
  reset: (username: string) => request<{ sent: string }>("POST", "/api/account/reset", null, { username }),
  confirmReset: (token: string, new_password: string) =>
    request<unknown>("POST", "/api/account/reset/confirm", null, { token, new_password }),
  profile: (username: string) => request<Profile>("GET", `/api/players/${encodeURIComponent(username)}`),
  leaderboard: (game: string) =>
    request<{ game: string; players: (Shown & { rank: number; username: string; games: number; wins: number })[] }>(
      "GET", `/api/leaderboard/${encodeURIComponent(game)}`),
  attach: (id: string, token: string) => request<unknown>("POST", `/api/account/games/${id}/attach`, token),
};

let me: Me | null = null;

/** The signed-in account of this page (null: a guest). */
export function currentAccount(): Me | null {
  return me;
}

function signedIn(m: Me | null): void {
  me = m;
  setCsrf(m?.csrf ?? null);
}

/** Ask the server who this browser is signed in as (once, before the first page is drawn). */
export async function loadAccount(): Promise<Me | null> {
  try {
    signedIn(await accountApi.me());
  } catch {
    signedIn(null); // 401: a guest (or a server without accounts)
  }
  return me;
}

/** "2 days 3 h", "5 h 10 min", "4 min", "less than a minute": the time left on a move clock. */
export function timeLeft(seconds: number | null): string {
  if (seconds === null) return "";
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400), hr = Math.floor((s % 86400) / 3600), min = Math.floor((s % 3600) / 60);
  if (d) return `${d} day${d > 1 ? "s" : ""}${hr ? ` ${hr} h` : ""}`;
  if (hr) return `${hr} h${min ? ` ${min} min` : ""}`;
  return min ? `${min} min` : "less than a minute";
}

/** A rating with its uncertainty: "25.1 ± 8.3 (ordinal 0.2)"; ± is three sigma, what the ordinal takes off. */
export function ratingText(r: Shown): string {
  return `${r.mu.toFixed(1)} ± ${(3 * r.sigma).toFixed(1)} (ranked by ${r.ordinal.toFixed(1)})`;
}

/** Whose turn in one of my games, in words. */
export function turnLine(g: Pick<MyGame, "status" | "your_turn" | "to_move">): string {
  if (g.status === "waiting") return "waiting for players";
  if (g.status === "over") return "over";
  if (g.status === "expired") return "expired";
  if (g.your_turn) return "your turn";
  return g.to_move.length ? `${g.to_move.map((t) => t.name).join(", ")} to play` : "in play";
}

/** The page's account line: sign in / sign up for a guest, the account's pages and sign-out when signed in. */
export function accountBar(go: (path: string) => void): HTMLElement {
  const link = (href: string, text: string) => h("a", { href, "data-link": "" }, text);
  if (!me) {
    return h("nav.accountbar", { "aria-label": "account" }, link("/signin", "Sign in"), " · ", link("/signup", "Sign up"),
      h("span.note", " (optional: guests play by invite link)"));
  }
  const out = h("button.small", { type: "button", onclick: async () => {
    try { await accountApi.signout(); } catch { /* the session is gone either way */ }
    signedIn(null);
    go("/");
  } }, "Sign out");
  return h("nav.accountbar", { "aria-label": "account" }, "Signed in as ", h("strong", me.username), " · ",
    link("/account/games", "My games"), " · ", link(`/players/${encodeURIComponent(me.username)}`, "Profile"), " · ",
    link("/account", "Settings"), " ", out);
}

function field(label: string, input: HTMLInputElement): HTMLElement {
  return h("p", h("label", label, " ", input));
}

function input(name: string, type: string, autocomplete: string, extra: Record<string, unknown> = {}): HTMLInputElement {
  return h("input", { name, type, autocomplete, required: true, ...extra }) as HTMLInputElement;
}

function errorBox(): HTMLElement {
  return h("p.error", { role: "alert" });
}

function message(e: unknown): string {
  return e instanceof ApiError ? e.detail : (e as Error).message;
}

function page(root: HTMLElement, cls: string, title: string, go: (path: string) => void, ...body: HTMLElement[]): void {
  document.title = `${title} · tabletop`;
  mount(root, h(`main.page.${cls}`, accountBar(go), h("h1", title), ...body,
    h("p", h("a", { href: "/", "data-link": "" }, "Back to the lobby"))));
}

/** Sign in, or sign up (`signup`): a username and a password; then to my games (or where `next` says). */
export function showSignIn(root: HTMLElement, go: (path: string) => void, signup: boolean): void {
  const user = input("username", "text", "username", { minLength: 3, maxLength: 24 });
  const pass = input("password", "password", signup ? "new-password" : "current-password", { minLength: signup ? 8 : 1, maxLength: 256 });
  const err = errorBox();
  const form = h("form.account", { dataset: { testid: signup ? "signup" : "signin" } },
    field("Username", user), field("Password", pass),
    signup ? h("p.note", "3 to 24 letters, digits, _ . or -; a password of at least 8 characters, not the username.") : null,
    err, h("button.primary", { type: "submit" }, signup ? "Create my account" : "Sign in")) as HTMLFormElement;
  form.onsubmit = async (e) => {
    e.preventDefault();
    err.textContent = "";
    try {
      const got = signup ? await accountApi.signup(user.value.trim(), pass.value) : await accountApi.signin(user.value.trim(), pass.value);
      pass.value = "";
      signedIn(got);
      go("/account/games");
    } catch (x) {
      err.textContent = message(x);
    }
  };
  const forgot = signup ? null : forgotForm();
  const withKey = signup || !("credentials" in navigator) ? null : h("p", h("button", { type: "button", dataset: { testid: "passkey-signin" },
    onclick: async () => {
      err.textContent = "";
      try {
        signedIn(await signInWithPasskey<Me>());
        go("/account/games");
      } catch (x) {
        err.textContent = message(x);
      }
    } }, "Sign in with a passkey"));
  page(root, "signin", signup ? "Sign up" : "Sign in", go, form, ...(withKey ? [withKey] : []),
    h("p", signup ? h("a", { href: "/signin", "data-link": "" }, "I have an account: sign in")
      : h("a", { href: "/signup", "data-link": "" }, "No account yet? Sign up")), ...(forgot ? [forgot] : []));
  user.focus();
}

function forgotForm(): HTMLElement {
  const user = input("username", "text", "username", { maxLength: 40 });
  const out = h("p", { role: "status" });
  const form = h("form.forgot", h("h2", "Forgot your password?"), field("Username", user), out,
    h("button", { type: "submit" }, "Mail me a reset link")) as HTMLFormElement;
  form.onsubmit = async (e) => {
    e.preventDefault();
    try {
      out.textContent = (await accountApi.reset(user.value.trim())).sent;
    } catch (x) {
      out.textContent = message(x);
    }
  };
  return h("details.forgot", h("summary", "Forgot your password?"), form);
}

/** The page a mailed reset link opens (`/#reset=<token>`): a new password, then sign in. */
export function showReset(root: HTMLElement, token: string, go: (path: string) => void): void {
  const pass = input("new_password", "password", "new-password", { minLength: 8, maxLength: 256 });
  const err = errorBox();
  const form = h("form.account", { dataset: { testid: "reset" } }, field("New password", pass), err,
    h("button.primary", { type: "submit" }, "Set my password")) as HTMLFormElement;
  form.onsubmit = async (e) => {
    e.preventDefault();
    err.textContent = "";
    try {
      await accountApi.confirmReset(token, pass.value);
      mount(form, h("p", { role: "status" }, "Your password is set and every session was signed out. "),
        h("a", { href: "/signin", "data-link": "" }, "Sign in"));
    } catch (x) {
      err.textContent = message(x);
    }
  };
  page(root, "reset", "Choose a new password", go, form);
}

function needSignIn(root: HTMLElement, go: (path: string) => void, title: string): void {
  page(root, "signin-needed", title, go, h("p", "This page is for a signed-in player: ",
    h("a", { href: "/signin", "data-link": "" }, "sign in"), " or ", h("a", { href: "/signup", "data-link": "" }, "sign up"), "."));
}

/** My games: every game of the account, where it is my turn first; whose turn it is and the clock left. */
export async function showMyGames(root: HTMLElement, go: (path: string) => void): Promise<void> {
  if (!me) return needSignIn(root, go, "My games");
  let games: MyGame[];
  try {
    games = await accountApi.games();
  } catch (e) {
    return page(root, "mygames", "My games", go, h("p.error", message(e)));
  }
  const rows = games.map((g) => {
    const turn = turnLine(g);
    const clock = g.clock?.seconds_left !== undefined && g.clock?.seconds_left !== null ? ` · ${timeLeft(g.clock.seconds_left)} left` : "";
    return h(`li.mygame${g.your_turn ? ".yours" : ""}`, { dataset: { id: g.id } },
      h("a", { href: `/g/${g.id}`, "data-link": "" }, g.title), ` · seat ${g.seat + 1} · ${g.players.join(", ")} · `,
      h("span.status", turn), h("span.clock", clock));
  });
  page(root, "mygames", "My games", go,
    rows.length ? h("ul.mygames", { dataset: { testid: "mygames" } }, rows) : h("p.empty", "No games yet: create one in the lobby."));
}

/** A player's profile: ratings per game with their uncertainty, Silencio's records, recent finished games. */
export async function showProfile(root: HTMLElement, username: string, go: (path: string) => void): Promise<void> {
  let p: Profile;
  try {
    p = await accountApi.profile(username);
  } catch (e) {
    return page(root, "profile", username, go, h("p.error", message(e)));
  }
  const ratings = p.ratings.length
    ? h("table.ratings", h("caption", "Ratings (openskill; ± is three standard deviations)"),
      h("thead", h("tr", ["Game", "Rating", "Games", "Wins", ""].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", p.ratings.map((r) => h("tr", { dataset: { game: r.game } }, h("td", r.game), h("td.rating", ratingText(r)),
        h("td", String(r.games)), h("td", String(r.wins)),
        h("td", h("a", { href: `/leaderboard/${r.game}`, "data-link": "" }, "leaderboard"))))))
    : h("p.empty", "No rated games yet.");
  const records = p.records.length
    ? h("table.records", h("caption", "Cooperative games: records (no rating)"),
      h("thead", h("tr", ["Game", "Players", "Variant", "Games", "Perfect", "Cards left (average)", "Fewest left"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", p.records.map((r) => h("tr", h("td", r.game), h("td", String(r.players)), h("td", r.variant || "standard"), h("td", String(r.games)),
        h("td", String(r.perfect)), h("td", String(r.average_cards_left)), h("td", String(r.fewest_cards_left))))))
    : null;
  const recent = p.recent.length
    ? h("ul.recent", { dataset: { testid: "recent" } }, p.recent.map((r) => h("li", { dataset: { id: r.game_id } },
      `${r.game} · ${r.players} players · `, h("span.result", r.won ? "won" : `place ${r.place}`), ` · score ${r.score}`,
      r.rated ? " · rated" : "", " · ", new Date(r.time).toLocaleDateString(), " · ",
      h("a", { href: `/g/${r.game_id}`, "data-link": "" }, "replay"), " · ", h("a", { href: r.record }, "record"))))
    : h("p.empty", "No finished games yet.");
  page(root, "profile", p.username, go, h("section", h("h2", "Ratings"), ratings), records ? h("section", records) : h("div"),
    h("section", h("h2", "Recent games"), recent));
}

/** A game's leaderboard: its rated players ranked by mu - 3 sigma. */
export async function showLeaderboard(root: HTMLElement, game: string, go: (path: string) => void): Promise<void> {
  let board: Awaited<ReturnType<typeof accountApi.leaderboard>>;
  try {
    board = await accountApi.leaderboard(game);
  } catch (e) {
    return page(root, "leaderboard", `Leaderboard: ${game}`, go, h("p.error", message(e)));
  }
  page(root, "leaderboard", `Leaderboard: ${game}`, go, board.players.length
    ? h("table.leaderboard", h("caption", "Ranked by the rating less three standard deviations"),
      h("thead", h("tr", ["Rank", "Player", "Rating", "Games", "Wins"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", board.players.map((r) => h("tr", h("td", String(r.rank)),
        h("td", h("a", { href: `/players/${encodeURIComponent(r.username)}`, "data-link": "" }, r.username)),
        h("td", ratingText(r)), h("td", String(r.games)), h("td", String(r.wins))))))
    : h("p.empty", "No rated games of this game yet."));
}

/** Account settings: the password, the sessions (revoke), "your turn" mail and its opt-out, deleting the account. */
export async function showSettings(root: HTMLElement, go: (path: string) => void): Promise<void> {
  if (!me) return needSignIn(root, go, "Account settings");
  const account = me;
  const [sessions, mail] = await Promise.all([accountApi.sessions().catch(() => [] as SessionRow[]),
    accountApi.mail().catch(() => ({ email: null, turn_mail: false }))]);

  const oldPass = input("old_password", "password", "current-password");
  const newPass = input("new_password", "password", "new-password", { minLength: 8 });
  const passOut = h("p", { role: "status" });
  const passForm = h("form.password", h("h2", "Password"), field("Current password", oldPass), field("New password", newPass), passOut,
    h("button", { type: "submit" }, "Change my password")) as HTMLFormElement;
  passForm.onsubmit = async (e) => {
    e.preventDefault();
    try {
      const r = await accountApi.password(oldPass.value, newPass.value);
      passOut.textContent = `Changed; ${r.sessions_closed} other session${r.sessions_closed === 1 ? "" : "s"} signed out.`;
      oldPass.value = newPass.value = "";
    } catch (x) {
      passOut.textContent = message(x);
    }
  };

  const list = h("ul.sessions", { dataset: { testid: "sessions" } }, sessions.map((s) => {
    const li = h("li", { dataset: { id: s.id } }, `${s.agent || "a browser"} · signed in ${new Date(s.created).toLocaleString()} · last used ${new Date(s.last_seen).toLocaleString()}`,
      s.current ? h("strong", " (this one)") : null, " ");
    li.append(h("button.small", { type: "button", onclick: async () => {
      try {
        await accountApi.revoke(s.id);
        if (s.current) { signedIn(null); go("/"); } else li.remove();
      } catch (x) {
        li.append(h("span.error", ` ${message(x)}`));
      }
    } }, s.current ? "Sign out here" : "Revoke"));
    return li;
  }));

  const email = h("input", { name: "email", type: "email", autocomplete: "email", value: mail.email ?? "", maxLength: 254 }) as HTMLInputElement;
  const on = h("input", { name: "turn_mail", type: "checkbox", checked: mail.turn_mail }) as HTMLInputElement;
  const mailOut = h("p", { role: "status" });
  const mailForm = h("form.mail", h("h2", "“Your turn” e-mail"),
    h("p.note", "One mail a game per turn, when the server has mail configured; every mail has a one-click opt-out."),
    field("E-mail address", email), h("p", h("label", on, " Mail me when it is my turn")), mailOut,
    h("button", { type: "submit" }, "Save")) as HTMLFormElement;
  mailForm.onsubmit = async (e) => {
    e.preventDefault();
    try {
      const r = await accountApi.setMail(email.value.trim() || null, on.checked);
      mailOut.textContent = r.turn_mail && r.email ? `Mails go to ${r.email}.` : "No mails.";
    } catch (x) {
      mailOut.textContent = message(x);
    }
  };

  const delPass = input("password", "password", "current-password");
  const delOut = errorBox();
  const delForm = h("form.delete", h("h2", "Delete my account"),
    h("p.note", "Your sessions close and your seats are renamed “a former player”; finished games stay."),
    field("Password", delPass), delOut, h("button.danger", { type: "submit" }, "Delete my account")) as HTMLFormElement;
  delForm.onsubmit = async (e) => {
    e.preventDefault();
    if (!confirm(`Delete the account ${account.username} for good?`)) return;
    try {
      await accountApi.remove(delPass.value);
      signedIn(null);
      go("/");
    } catch (x) {
      delOut.textContent = message(x);
    }
  };
  page(root, "settings", "Account settings", go, passForm, h("section", h("h2", "Sessions"), list),
    await passkeySection(), mailForm, delForm);
}

async function passkeySection(): Promise<HTMLElement> {
  const keys = await passkeyApi.list().catch(() => [] as PasskeyInfo[]);
  const out = h("p", { role: "status" });
  const row = (k: PasskeyInfo): HTMLElement => {
    const li = h("li", { dataset: { id: k.id } }, `${k.name} · added ${new Date(k.created).toLocaleString()} `);
    li.append(h("button.small", { type: "button", onclick: async () => {
      try { await passkeyApi.remove(k.id); li.remove(); } catch (x) { out.textContent = message(x); }
    } }, "Remove"));
    return li;
  };
  const list = h("ul.passkeys", { dataset: { testid: "passkeys" } }, keys.map(row));
  const name = h("input", { name: "passkey_name", value: "passkey", maxLength: 60 }) as HTMLInputElement;
  const add = h("button", { type: "button", onclick: async () => {
    out.textContent = "";
    try {
      const k = await registerPasskey(name.value.trim() || "passkey");
      list.append(row(k));
      out.textContent = "Passkey added: you can sign in with it.";
    } catch (x) {
      out.textContent = message(x);
    }
  } }, "Add a passkey");
  return h("section.passkeys", h("h2", "Passkeys"), list, field("Name", name), out, add);
}

/**
 * The seat this browser's account plays in a game it holds no token for (another device): the table plays it
 * through the session (SESSION_SEAT). Null for a guest, or an account without a seat there.
 */
export async function accountSeat(info: GameInfo): Promise<{ seat: number; token: string } | null> {
  if (!me) return null;
  try {
    const st = await request<{ seat: number | null }>("GET", `/api/games/${info.id}/state`);
    return st.seat === null || st.seat === undefined ? null : { seat: st.seat, token: SESSION_SEAT };
  } catch {
    return null;
  }
}

/** The account page for a path, or false when the path is not one of them. */
export function accountRoute(root: HTMLElement, path: string, hash: string, go: (path: string) => void): boolean {
  const reset = hash.match(/^#reset=([A-Za-z0-9_-]{1,100})$/);
  const player = path.match(/^\/players\/([^/]{1,40})\/?$/);
  const board = path.match(/^\/leaderboard\/([a-z0-9_]{1,40})\/?$/);
  if (reset && (path === "/" || path === "")) {
    history.replaceState(null, "", "/"); // the token leaves the address bar
    showReset(root, reset[1], go);
  } else if (path === "/signin" || path === "/signup") showSignIn(root, go, path === "/signup");
  else if (path === "/account/games") void showMyGames(root, go);
  else if (path === "/account") void showSettings(root, go);
  else if (player) void showProfile(root, decodeURIComponent(player[1]), go);
  else if (board) void showLeaderboard(root, board[1], go);
  else return false;
  return true;
}
