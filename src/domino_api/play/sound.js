// The page's sound, all made here with WebAudio (no sound files): the turn chime (an effect)
// and background music, each with its own switch in the header (seed 003), kept in
// localStorage. Browsers start audio only after a user gesture; until then both stay silent.

import { startMusic, stopMusic } from "./music.js";
import { toggle } from "./ui.js";

const EFFECTS = "domino.sound"; // the key the single Sound switch used: a saved "off" holds
const MUSIC = "domino.music";
let context = null;
let gestured = false;

function audio() {
  context = context || new AudioContext();
  return context;
}

for (const kind of ["pointerdown", "keydown"]) {
  window.addEventListener(
    kind,
    () => {
      gestured = true;
      if (musicOn()) startMusic(audio());
    },
    { once: true, capture: true },
  );
}

export function soundOn() {
  return localStorage.getItem(EFFECTS) !== "off";
}

function musicOn() {
  return localStorage.getItem(MUSIC) === "on";
}

export function chime() {
  if (!soundOn() || !gestured || !window.AudioContext) return false;
  const ctx = audio();
  const now = ctx.currentTime;
  for (const [offset, freq] of [
    [0, 660],
    [0.12, 880],
  ]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + offset);
    gain.gain.exponentialRampToValueAtTime(0.2, now + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + offset + 0.25);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + offset);
    osc.stop(now + offset + 0.3);
  }
  document.body.dataset.chimes = String(Number(document.body.dataset.chimes || 0) + 1);
  return true;
}

/** Wire the header's two switches: sound effects (the turn chime) and music, independent. */
export function soundSwitches(effects, music) {
  toggle(effects, EFFECTS, "Sound effects");
  toggle(
    music,
    MUSIC,
    "Music",
    (on) => {
      if (!on) stopMusic();
      else if (gestured && window.AudioContext) startMusic(audio());
    },
    false,
  );
}
