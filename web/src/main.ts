// The single-page app: `/` the lobby, `/g/<id>` a table (`?seat=N` when this browser holds several seats),
// `/join/<id>#<code>` an invitation.
import { accountRoute, loadAccount } from "./account";
import { h, mount } from "./dom";
import { showJoin, showLobby } from "./lobby";
import { browserStore } from "./store";
import { showTable } from "./table";
import "./style.css";

const root = document.getElementById("app")!;
const store = browserStore();
let leave: () => void = () => {};

export function route(path: string, search: string, hash: string): void {
  leave();
  leave = () => {};
  const game = path.match(/^\/g\/([0-9a-f]{1,32})\/?$/);
  const join = path.match(/^\/join\/([0-9a-f]{1,32})\/?$/);
  if (game) {
    const seat = new URLSearchParams(search).get("seat");
    void showTable(root, game[1], store, seat !== null && /^\d+$/.test(seat) ? Number(seat) : null).then((f) => (leave = f));
  } else if (join) {
    const code = decodeURIComponent(hash.replace(/^#/, ""));
    history.replaceState(null, "", path); // the code leaves the address bar
    void showJoin(root, join[1], code, store, go);
  } else if (accountRoute(root, path, hash, go)) {
    // an account page (account.ts), or the page of a mailed password-reset link
  } else if (path === "/" || path === "") {
    void showLobby(root, store, go);
  } else {
    mount(root, h("div.page", h("h1", "Not found"), h("a", { href: "/", "data-link": "" }, "Back to the lobby")));
  }
}

export function go(path: string): void {
  history.pushState(null, "", path);
  const u = new URL(path, location.href);
  route(u.pathname, u.search, u.hash);
}

document.addEventListener("click", (e) => {
  const a = (e.target as Element).closest?.("a[data-link]") as HTMLAnchorElement | null;
  if (a && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0) {
    e.preventDefault();
    go(a.getAttribute("href")!);
  }
});
window.addEventListener("popstate", () => route(location.pathname, location.search, location.hash));
// who this browser is signed in as (a guest when not) is known before the first page is drawn
void loadAccount().finally(() => route(location.pathname, location.search, location.hash));
