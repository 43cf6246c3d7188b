// Sound: WebAudio beeps for moves and turns, off by default, and the header's switch.

import { $ } from "./dom.js";
import { _ } from "./i18n.js";

const sound = { on: localStorage.getItem("seq-sound") === "1", ctx: null };

export function beep(notes, length = 0.09, type = "sine") {
  if (!sound.on) return;
  try {
    sound.ctx = sound.ctx || new AudioContext();
    const t0 = sound.ctx.currentTime;
    notes.forEach((freq, i) => {
      const osc = sound.ctx.createOscillator(), gain = sound.ctx.createGain();
      osc.type = type; osc.frequency.value = freq;
      const t = t0 + i * length;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.15, t + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + length * 0.95);
      osc.connect(gain).connect(sound.ctx.destination);
      osc.start(t); osc.stop(t + length);
    });
  } catch { /* no audio here: stay silent */ }
}

function syncSoundButton() {
  const b = $("sound-btn");
  b.setAttribute("aria-pressed", sound.on);
  b.textContent = sound.on ? _("♪ Sound on") : _("♪ Sound off");
}

/** The header's switch: the choice is remembered in this browser. */
export function setupSound() {
  syncSoundButton();
  $("sound-btn").addEventListener("click", () => {
    sound.on = !sound.on;
    localStorage.setItem("seq-sound", sound.on ? "1" : "0");
    syncSoundButton();
    beep([660], 0.08);
  });
}
