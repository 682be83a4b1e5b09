/**
 * Photo-like test images made by the tests (docs/immich-compatibility.md, "Duplicates"): a scene
 * drawn from a seed — a sky and a ground in gradients, a horizon, a sun, buildings and trees as
 * shapes, grain — rendered as a JPEG at any size, optionally looked at from a little aside
 * (`shiftX`), closer (`zoom`) or brighter (`gain`): two renders of one seed are two shots of one
 * scene, two seeds two different photos.
 */
import { makeJpeg } from './photos.ts';

type Rgb = [number, number, number];

/** A small deterministic PRNG (mulberry32). */
const random = (seed: number) => {
  let state = seed >>> 0;
  return (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

interface Shape {
  kind: 'disc' | 'box';
  /** Centre and half sizes, in the scene's units (0–1 both ways). */
  x: number;
  y: number;
  w: number;
  h: number;
  color: Rgb;
}

/** A scene: the colour at a point (u, v) of it (0–1 both ways; outside, it goes on). */
export type Scene = (u: number, v: number) => Rgb;

const colour = (next: () => number): Rgb => [Math.floor(next() * 256), Math.floor(next() * 256), Math.floor(next() * 256)];

export const makeScene = (seed: number): Scene => {
  const next = random(seed);
  const skyTop = colour(next);
  const skyBottom = colour(next);
  const ground = colour(next);
  const groundFar = colour(next);
  const horizon = 0.35 + next() * 0.3;
  const tilt = (next() - 0.5) * 0.3;
  const shapes: Shape[] = [];
  const count = 5 + Math.floor(next() * 8);
  for (let i = 0; i < count; i++)
    shapes.push({
      kind: next() < 0.5 ? 'disc' : 'box',
      x: next(),
      y: 0.15 + next() * 0.8,
      w: 0.03 + next() * 0.15,
      h: 0.03 + next() * 0.25,
      color: colour(next),
    });
  const mix = (a: Rgb, b: Rgb, t: number): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
  return (u, v) => {
    const line = horizon + tilt * (u - 0.5);
    let pixel: Rgb =
      v < line ? mix(skyTop, skyBottom, Math.max(0, v / line)) : mix(groundFar, ground, Math.min(1, (v - line) / (1 - line)));
    for (const shape of shapes) {
      const dx = (u - shape.x) / shape.w;
      const dy = (v - shape.y) / shape.h;
      if (shape.kind === 'disc' ? dx * dx + dy * dy <= 1 : Math.abs(dx) <= 1 && Math.abs(dy) <= 1)
        pixel = mix(shape.color, [0, 0, 0], shape.kind === 'box' ? Math.max(0, dy) * 0.3 : 0);
    }
    return pixel;
  };
};

export interface ShotOptions {
  width?: number;
  height?: number;
  /** Looked at from aside: the scene moved by this share of its width. */
  shiftX?: number;
  /** Closer (> 1) or farther: the scene's centre stays. */
  zoom?: number;
  /** Exposure: each channel times this. */
  gain?: number;
  /** Grain's strength (0–255) and seed: another shot has other grain. */
  grain?: number;
  grainSeed?: number;
}

/** A JPEG of a scene, as a camera would take it. */
export const shootScene = (scene: Scene, options: ShotOptions = {}): Buffer => {
  const width = options.width ?? 960;
  const height = options.height ?? 720;
  const zoom = options.zoom ?? 1;
  const gain = options.gain ?? 1;
  const grain = options.grain ?? 12;
  const noise = random(options.grainSeed ?? 1);
  const clamp = (value: number) => Math.max(0, Math.min(255, Math.round(value)));
  return makeJpeg({
    width,
    height,
    paint: (x, y) => {
      const u = (x / width - 0.5) / zoom + 0.5 + (options.shiftX ?? 0);
      const v = (y / height - 0.5) / zoom + 0.5;
      const [r, g, b] = scene(u, v);
      const n = (noise() - 0.5) * grain;
      return [clamp(r * gain + n), clamp(g * gain + n), clamp(b * gain + n)];
    },
  });
};
