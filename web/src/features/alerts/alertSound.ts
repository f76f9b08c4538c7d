import type { Priority } from '../../api/contract';

/** One beep: its pitch, when it starts after the first, and how long it lasts (seconds). */
export interface Tone { hz: number; at: number; dur: number }

/**
 * Priority 1 is a fast, high, three-times-repeated two-tone (it cannot be mistaken for the
 * others); every other alert is one soft rising chime. Made in the browser: no audio files.
 */
export function tonePattern(priority: Priority): Tone[] {
  if (priority === 1) {
    return [0, 0.36, 0.72].flatMap((start) => [
      { hz: 1175, at: start, dur: 0.14 },
      { hz: 880, at: start + 0.16, dur: 0.14 },
    ]);
  }
  return [{ hz: 660, at: 0, dur: 0.18 }, { hz: 880, at: 0.22, dur: 0.28 }];
}

type AudioCtor = typeof AudioContext;
let ctx: AudioContext | undefined;

/** The page's one AudioContext, made on first use (browsers allow a few per page). */
function context(): AudioContext | undefined {
  if (ctx) return ctx;
  const Ctor: AudioCtor | undefined = window.AudioContext ?? (window as unknown as { webkitAudioContext?: AudioCtor }).webkitAudioContext;
  if (!Ctor) return undefined;
  ctx = new Ctor();
  // Autoplay rules keep a context made without a gesture suspended: the next key or click wakes it.
  const wake = () => void ctx?.resume().catch(() => {});
  window.addEventListener('pointerdown', wake, { once: true, capture: true });
  window.addEventListener('keydown', wake, { once: true, capture: true });
  return ctx;
}

/** Plays the priority's pattern; silently nothing where the browser has no Web Audio. */
export function playAlertSound(priority: Priority): void {
  try {
    const ac = context();
    if (!ac) return;
    if (ac.state === 'suspended') void ac.resume().catch(() => {});
    const t0 = ac.currentTime + 0.02;
    for (const tone of tonePattern(priority)) {
      const osc = ac.createOscillator();
      const gain = ac.createGain();
      osc.type = priority === 1 ? 'square' : 'sine';
      osc.frequency.value = tone.hz;
      // A short ramp in and out: no clicks at the edges of each beep.
      gain.gain.setValueAtTime(0.0001, t0 + tone.at);
      gain.gain.exponentialRampToValueAtTime(priority === 1 ? 0.25 : 0.2, t0 + tone.at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + tone.at + tone.dur);
      osc.connect(gain).connect(ac.destination);
      osc.start(t0 + tone.at);
      osc.stop(t0 + tone.at + tone.dur + 0.02);
    }
  } catch {
    // A sound is an extra: the notice on screen carries the alert.
  }
}
