// A few helpers to build DOM without a framework: h() makes an element, text is
// always set as text (never HTML), so nothing a reply carries can run.
type Child = Node | string | number | false | null | undefined;
type Attrs = { [name: string]: string | boolean | number | ((ev: Event) => void) | undefined };

export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const name of Object.keys(attrs)) {
    const v = attrs[name];
    if (v === undefined || v === false) continue;
    if (typeof v === "function") el.addEventListener(name.slice(2), v);
    else if (v === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(v));
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    el.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
}

export function clear(el: Element, ...children: Child[]): void {
  el.textContent = "";
  append(el, children);
}

let toastTimer = 0;
/** A short message read out by screen readers (role=status). */
export function toast(message: string): void {
  const el = document.getElementById("toast")!;
  el.textContent = message;
  window.clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => (el.textContent = ""), 4000);
}

let idCounter = 0;
/** A labelled field: the label's for= points at the control. */
export function field(label: string, control: HTMLElement): HTMLElement {
  const id = control.id || `f${++idCounter}`;
  control.id = id;
  return h("div", {}, h("label", { for: id }, label), control);
}

export function button(text: string, onclick: () => void, cls = ""): HTMLElement {
  return h("button", { type: "button", class: cls || undefined, onclick: () => onclick() }, text);
}

/** A form whose submit runs `onsubmit` (Enter works from any field). */
export function form(onsubmit: (f: HTMLFormElement) => void, ...children: Child[]): HTMLFormElement {
  const f = h("form", {}, ...children) as HTMLFormElement;
  f.addEventListener("submit", (ev) => {
    ev.preventDefault();
    onsubmit(f);
  });
  return f;
}

export function value(f: HTMLFormElement, name: string): string {
  const el = f.elements.namedItem(name) as HTMLInputElement | null;
  return el ? el.value : "";
}

export function when(ms: number): string {
  return new Date(ms).toLocaleString();
}
