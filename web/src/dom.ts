// A tiny hyperscript: h("div.card.red", {onclick}, children). No framework; each screen redraws its own subtree.

export type Child = Node | string | number | null | undefined | false | Child[];
export type Attrs = Record<string, unknown>;

/** A redraw in place keeps a node's listeners, so it may keep a node only for one that listens the same way (see
 * patchTree): the tables' components listen through handlers bound to their `data-key` alone (KEYED); any other
 * handler (h's `on...` attributes: BOUND) may hold anything, so such a node is never kept for another. */
const KEYED = new WeakSet<Node>();
const BOUND = new WeakSet<Node>();

/** Mark `el` as listening through handlers that depend on its `data-key` alone (a table's component). */
export function listensByKey(el: HTMLElement): void {
  KEYED.add(el);
}

export function h(tag: string, attrs?: Attrs | Child, ...children: Child[]): HTMLElement {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  if (attrs !== undefined && (attrs === null || typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs as Child);
  } else if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") {
        el.addEventListener(k.slice(2), v as EventListener);
        BOUND.add(el);
      } else if (k === "class") {
        el.className = [el.className, String(v)].filter(Boolean).join(" ");
      } else if (k === "style" && typeof v === "object") {
        Object.assign(el.style, v);
      } else if (k === "dataset" && typeof v === "object") {
        Object.assign(el.dataset, v);
      } else if (k in el && typeof v !== "string") {
        (el as unknown as Record<string, unknown>)[k] = v;
      } else {
        el.setAttribute(k, v === true ? "" : String(v));
      }
    }
  }
  append(el, children);
  return el;
}

function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replace the children of `el` with `children`. */
export function mount(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/**
 * Bring `old` in place to what `fresh` shows when both trees have the same shape (the same tags and component keys, the same
 * number of children at every level): attributes and texts are copied, no node is replaced, so the focus, a click under way
 * and the elements' listeners survive a redraw that changed only classes, tooltips or texts. False (and `old`
 * untouched) when the shapes differ: the caller mounts `fresh` instead.
 */
export function patchTree(old: Element, fresh: Element): boolean {
  if (!sameShape(old, fresh)) return false;
  copyInto(old, fresh);
  return true;
}

function sameShape(a: Node, b: Node): boolean {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName || a.childNodes.length !== b.childNodes.length) return false;
  // a component's listeners are bound to its key: a node keyed otherwise, or listening otherwise, is another one
  if (a instanceof HTMLElement && b instanceof HTMLElement && a.dataset.key !== b.dataset.key) return false;
  if (KEYED.has(a) !== KEYED.has(b) || BOUND.has(a) || BOUND.has(b)) return false;
  for (let i = 0; i < a.childNodes.length; i++) if (!sameShape(a.childNodes[i], b.childNodes[i])) return false;
  return true;
}

function copyInto(a: Node, b: Node): void {
  if (a instanceof Element && b instanceof Element) {
    for (const name of a.getAttributeNames()) if (!b.hasAttribute(name)) a.removeAttribute(name);
    for (const name of b.getAttributeNames()) {
      const v = b.getAttribute(name)!;
      if (a.getAttribute(name) !== v) a.setAttribute(name, v);
    }
  } else if (a.nodeValue !== b.nodeValue) {
    a.nodeValue = b.nodeValue;
  }
  for (let i = 0; i < a.childNodes.length; i++) copyInto(a.childNodes[i], b.childNodes[i]);
}

/** The `data-key` of the focused component inside `root`, if any: to give the focus back after `root` is drawn again. */
export function focusedKey(root: Element): string | null {
  const el = document.activeElement;
  return el instanceof HTMLElement && root.contains(el) && el.dataset.key ? el.dataset.key : null;
}

/** Give the focus to the component keyed `key` in `root` (when it is still there and can take it). */
export function refocus(root: Element, key: string | null): void {
  if (key === null) return;
  const el = Array.from(root.querySelectorAll<HTMLElement>("[data-key]")).find((x) => x.dataset.key === key);
  if (el && el !== document.activeElement && el.tabIndex >= 0) el.focus({ preventScroll: true });
}
