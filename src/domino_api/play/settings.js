// The bar's Settings menu (tile hints, sound, music): a <details> that closes, as menus do, on
// Escape (the focus back on its summary) and on a click or focus anywhere else.

/** @param {HTMLDetailsElement} menu */
export function settingsMenu(menu) {
  const summary = menu.querySelector("summary");
  menu.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !menu.open) return;
    menu.open = false;
    summary?.focus();
    event.preventDefault();
  });
  const away = (event) => {
    if (menu.open && event.target instanceof Node && !menu.contains(event.target))
      menu.open = false;
  };
  document.addEventListener("click", away);
  document.addEventListener("focusin", away);
}
