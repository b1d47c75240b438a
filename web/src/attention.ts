// The call to act: the tab's title and favicon say when it is the player's turn; when the turn comes while the tab
// is hidden, a short generated tone (Web Audio: no sound file) and a desktop notification (Notification API: only
// once the player has allowed it by a click on the table's "notify me" button) say it too.

const SOUND_KEY = "tabletop.sound";

/** A favicon drawn as an SVG data address: a filled dot on the player's turn, a plain ring otherwise. */
export function faviconHref(mine: boolean): string {
  const dot = mine
    ? "<circle cx='16' cy='16' r='13' fill='%23d9480f'/><circle cx='16' cy='16' r='6' fill='white'/>"
    : "<circle cx='16' cy='16' r='12' fill='none' stroke='%23555' stroke-width='4'/>";
  return `data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'>${dot}</svg>`;
}

/** The tab's title at a table: it leads with the call when the player must act. */
export function tableTitle(base: string, mine: boolean, over: boolean): string {
  return mine ? `● Your turn · ${base}` : over ? `Game over · ${base}` : base;
}

export function setFavicon(mine: boolean): void {
  let link = document.querySelector<HTMLLinkElement>("link[rel~=icon]");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.appendChild(link);
  }
  link.href = faviconHref(mine);
  link.dataset.turn = mine ? "mine" : "other";
}

export function soundOn(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) !== "0";
  } catch {
    return true;
  }
}

export function setSound(on: boolean): void {
  try {
    localStorage.setItem(SOUND_KEY, on ? "1" : "0");
  } catch {
    /* not kept */
  }
}

let audio: AudioContext | null = null;

/** Browsers start sound only after a gesture: the player's first click at the table readies it. */
export function unlockAudio(): void {
  try {
    audio ??= new AudioContext();
    if (audio.state === "suspended") void audio.resume();
  } catch {
    /* no sound */
  }
}

/** Two short rising tones, generated. Silent where the browser allows no sound (the title still says it). */
export function chime(): void {
  try {
    audio ??= new AudioContext();
    const ctx = audio;
    for (const [i, f] of [523, 784].entries()) {
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      const t = ctx.currentTime + i * 0.16;
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, t);
      g.gain.exponentialRampToValueAtTime(0.08, t + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t + 0.15);
      o.connect(g).connect(ctx.destination);
      o.start(t);
      o.stop(t + 0.16);
    }
  } catch {
    /* no sound */
  }
}

export function notifyAllowed(): boolean {
  return typeof Notification !== "undefined" && Notification.permission === "granted";
}

export function canAskNotify(): boolean {
  return typeof Notification !== "undefined" && Notification.permission === "default";
}

/** Ask for the permission: only from a click of the player's. */
export async function askNotify(): Promise<boolean> {
  if (typeof Notification === "undefined") return false;
  try {
    return (await Notification.requestPermission()) === "granted";
  } catch {
    return false;
  }
}

/** The turn came: sound and notification when the tab is hidden (the title and favicon change in any case). */
export function callToAct(title: string, body: string): void {
  if (document.visibilityState !== "hidden") return;
  if (soundOn()) chime();
  if (notifyAllowed()) {
    try {
      const n = new Notification(title, { body, tag: "tabletop-turn" });
      n.onclick = () => {
        window.focus();
        n.close();
      };
    } catch {
      /* a browser that only notifies from a service worker: the title says it */
    }
  }
}
