// The turn chime (a short WebAudio beep) and the Sound switch that turns it off.

import { toggle } from "./ui.js";

const KEY = "domino.sound";
let context = null;
let gestured = false;

// Browsers start audio only after a user gesture; until then the chime stays silent.
for (const kind of ["pointerdown", "keydown"]) {
  window.addEventListener(kind, () => (gestured = true), { once: true, capture: true });
}

export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

export function chime() {
  if (!soundOn() || !gestured || !window.AudioContext) return false;
  context = context || new AudioContext();
  const now = context.currentTime;
  for (const [offset, freq] of [
    [0, 660],
    [0.12, 880],
  ]) {
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + offset);
    gain.gain.exponentialRampToValueAtTime(0.2, now + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + offset + 0.25);
    osc.connect(gain).connect(context.destination);
    osc.start(now + offset);
    osc.stop(now + offset + 0.3);
  }
  document.body.dataset.chimes = String(Number(document.body.dataset.chimes || 0) + 1);
  return true;
}

/** Wire the header's Sound button (aria-pressed shows the state). */
export function soundSwitch(button) {
  toggle(button, KEY, "Sound");
}
