// Small DOM helpers shared by every page: element builder, live announcements, errors.

/** el("button", {class: "x", onclick: f}, "text", child...) -> HTMLElement */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      node.className = value;
    } else if (key === "style") {
      node.style.cssText = value; // the CSSOM: a style attribute would need 'unsafe-inline'
    } else if (key === "html") {
      node.innerHTML = value; // only ever our own SVG strings
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A labelled form control: <label>text <input ...></label> */
export function field(label, control, hint) {
  return el(
    "label",
    { class: "field" },
    el("span", {}, label),
    control,
    hint ? el("small", {}, hint) : null,
  );
}

export function select(name, options, value) {
  const node = el("select", { name, id: name });
  for (const option of options) {
    const [val, text] = Array.isArray(option) ? option : [option, option];
    node.append(el("option", { value: val, selected: String(val) === String(value) }, text));
  }
  return node;
}

/** Say something to screen readers (and show it in the status line). */
export function announce(text) {
  const live = document.getElementById("live");
  if (live) live.textContent = text;
}

/** Show a problem (from the API or the page) where the user is looking. */
export function showError(error) {
  const box = document.getElementById("error");
  if (!box) return;
  box.textContent = error ? String(error.message || error) : "";
  box.hidden = !error;
}

/** Replace `node`'s children, leaving out the nulls of optional parts. */
export function fill(node, ...children) {
  node.replaceChildren(
    ...children.flat().filter((c) => c !== null && c !== undefined && c !== false),
  );
  return node;
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

/** mm:ss until `deadline` (ISO), given the server/local clock offset in ms. */
export function countdown(deadline, offsetMs) {
  const left = Math.max(0, Date.parse(deadline) - (Date.now() + offsetMs));
  const seconds = Math.ceil(left / 1000);
  // A correspondence table's turn lasts hours or days (docs/PLAY.md): no minutes by the 1,000.
  if (seconds >= 48 * 3600) return `${Math.floor(seconds / 86400)} days`;
  if (seconds >= 3600)
    return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

export function seatName(seat) {
  return seat.name || `Seat ${seat.seat + 1}`;
}

/**
 * A header switch kept in localStorage (`key` "on"/"off", unset: `byDefault`); `changed(on)`
 * runs on each flip.
 * @param {HTMLElement} button
 * @param {string} key
 * @param {string} label
 * @param {(on: boolean) => void} [changed]
 * @param {boolean} [byDefault]
 */
export function toggle(button, key, label, changed = () => {}, byDefault = true) {
  const on = () => {
    const saved = localStorage.getItem(key);
    return saved === null ? byDefault : saved !== "off";
  };
  const show = () => {
    button.setAttribute("aria-pressed", String(on()));
    button.textContent = `${label}: ${on() ? "on" : "off"}`;
    document.body.dataset[key.split(".")[1]] = on() ? "on" : "off";
  };
  button.addEventListener("click", () => {
    localStorage.setItem(key, on() ? "off" : "on");
    show();
    changed(on());
  });
  show();
  return on;
}

/** Tile hints (seed 004's setting): playable tiles raised, the points of each play shown. */
export const hints = () => localStorage.getItem("domino.hints") !== "off";
