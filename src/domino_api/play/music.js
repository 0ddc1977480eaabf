// Background music made in the page: a slow pentatonic tune over a bass note, scheduled a
// little ahead on the AudioContext's own clock (a timer tops the schedule up; nothing spins).

const SCALE = [0, 2, 4, 7, 9, 12, 14, 16]; // major pentatonic steps, in semitones over ROOT
const ROOT = 261.63; // C4
const BEAT = 0.42; // seconds per note
const AHEAD = 0.8; // how far ahead notes are scheduled, in seconds

let timer = null;
let bus = null;
let nextAt = 0;
let step = 0;

const pitch = (semitones) => ROOT * 2 ** (semitones / 12);

function note(ctx, freq, at, length, level, type) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(level, at + 0.04);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(bus);
  osc.start(at);
  osc.stop(at + length + 0.05);
}

/** The melody wanders the scale by small steps (a fixed pseudo-random walk: no two bars alike). */
function melody(n) {
  const walk = [0, 2, 1, 3, 4, 2, 5, 4, 3, 1, 2, 0, 4, 6, 5, 3];
  return SCALE[walk[n % walk.length] + (Math.floor(n / walk.length) % 2)];
}

function schedule(ctx) {
  while (nextAt < ctx.currentTime + AHEAD) {
    note(ctx, pitch(melody(step)), nextAt, BEAT * 0.9, 0.05, "triangle");
    if (step % 4 === 0)
      note(ctx, pitch(SCALE[step % 8 === 0 ? 0 : 3] - 24), nextAt, BEAT * 3.8, 0.04, "sine");
    nextAt += BEAT;
    step += 1;
    document.body.dataset.musicNotes = String(step);
  }
}

export function startMusic(ctx) {
  if (timer !== null) return;
  ctx.resume();
  bus = ctx.createGain();
  bus.gain.value = 1;
  bus.connect(ctx.destination);
  nextAt = ctx.currentTime + 0.05;
  schedule(ctx);
  timer = setInterval(() => schedule(ctx), 200);
  document.body.dataset.musicPlaying = "true";
}

export function stopMusic() {
  if (timer === null) return;
  clearInterval(timer);
  timer = null;
  bus.disconnect(); // notes already scheduled fall silent with it
  bus = null;
  document.body.dataset.musicPlaying = "false";
}
