// Draws the app's shield icon and tray images and writes them to resources/ as PNG, plus the
// SVG of the same outline. No image libraries: a small rasteriser with 4×4 supersampling and a
// minimal PNG encoder on node:zlib, so the output depends only on this file.
//   node tools/icons.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

type Rgba = readonly [number, number, number, number];
/** Colour of the point (u, v) of the unit square, or undefined where it is transparent. */
type Painter = (u: number, v: number) => Rgba | undefined;

const ROOT = path.resolve(import.meta.dirname, '..', 'resources');
const BLUE: Rgba = [37, 99, 235, 255];
const NAVY: Rgba = [30, 58, 138, 255];
const WHITE: Rgba = [255, 255, 255, 255];
const BLACK: Rgba = [0, 0, 0, 255];

const TOP = 0.07;
const SHOULDER = 0.52;
const TIP = 0.95;
const HALF_WIDTH = 0.4;

/** Half the shield's width at height v (0 outside): straight sides, then an elliptic taper to the tip. */
function shieldHalfWidth(v: number): number {
  if (v < TOP || v > TIP) return 0;
  if (v < SHOULDER) return HALF_WIDTH;
  const t = (v - SHOULDER) / (TIP - SHOULDER);
  return HALF_WIDTH * Math.sqrt(Math.max(0, 1 - t * t));
}

function insideShield(u: number, v: number, inset = 0): boolean {
  // A shallow dip in the top edge, as on a heater shield.
  const dip = 0.03 * (1 - ((u - 0.5) / HALF_WIDTH) ** 2);
  if (v < TOP + dip + inset) return false;
  return Math.abs(u - 0.5) <= shieldHalfWidth(v + inset * 0.6) - inset;
}

function distanceToSegment(u: number, v: number, a: readonly [number, number], b: readonly [number, number]): number {
  const [ax, ay] = a;
  const [bx, by] = b;
  const t = Math.max(0, Math.min(1, ((u - ax) * (bx - ax) + (v - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
  return Math.hypot(u - (ax + t * (bx - ax)), v - (ay + t * (by - ay)));
}

const CHECK = [
  [0.33, 0.5],
  [0.45, 0.63],
  [0.68, 0.37],
] as const;

function onCheck(u: number, v: number, half: number): boolean {
  return distanceToSegment(u, v, CHECK[0], CHECK[1]) <= half || distanceToSegment(u, v, CHECK[1], CHECK[2]) <= half;
}

const appIcon: Painter = (u, v) => {
  if (!insideShield(u, v)) return undefined;
  if (!insideShield(u, v, 0.035)) return NAVY;
  return onCheck(u, v, 0.05) ? WHITE : BLUE;
};

/** Tray images are small: a thicker check and no border. */
const trayIcon: Painter = (u, v) => (insideShield(u, v) ? (onCheck(u, v, 0.075) ? WHITE : BLUE) : undefined);

/** macOS template: only the alpha channel counts; the check is cut out of the shield. */
const trayTemplate: Painter = (u, v) => (insideShield(u, v) && !onCheck(u, v, 0.075) ? BLACK : undefined);

const SAMPLES = 4;

/** RGBA pixels, premultiplied while averaging so edges blend towards transparent, not black. */
export function rasterise(size: number, paint: Painter): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const colour = paint((x + (sx + 0.5) / SAMPLES) / size, (y + (sy + 0.5) / SAMPLES) / size);
          if (!colour) continue;
          const alpha = colour[3] / 255;
          r += colour[0] * alpha;
          g += colour[1] * alpha;
          b += colour[2] * alpha;
          a += alpha;
        }
      }
      const offset = (y * size + x) * 4;
      if (a > 0) {
        pixels[offset] = Math.round(r / a);
        pixels[offset + 1] = Math.round(g / a);
        pixels[offset + 2] = Math.round(b / a);
      }
      pixels[offset + 3] = Math.round((a / SAMPLES ** 2) * 255);
    }
  }
  return pixels;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** An 8-bit RGBA PNG, each row with filter 0. */
export function encodePng(size: number, pixels: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** The same outline as a path, for places that take vector art. */
export function shieldSvg(): string {
  const steps = 48;
  const right: string[] = [];
  for (let i = 0; i <= steps; i++) {
    const v = SHOULDER + ((TIP - SHOULDER) * i) / steps;
    right.push(`${((0.5 + shieldHalfWidth(v)) * 512).toFixed(1)} ${(v * 512).toFixed(1)}`);
  }
  const left = right.map((point) => {
    const [x, y] = point.split(' ').map(Number) as [number, number];
    return `${(512 - x).toFixed(1)} ${y.toFixed(1)}`;
  });
  const top = TOP * 512;
  const outline = [
    `M ${((0.5 - HALF_WIDTH) * 512).toFixed(1)} ${top.toFixed(1)}`,
    `Q 256 ${(top + 0.06 * 512).toFixed(1)} ${((0.5 + HALF_WIDTH) * 512).toFixed(1)} ${top.toFixed(1)}`,
    ...right.map((point) => `L ${point}`),
    ...left.reverse().map((point) => `L ${point}`),
    'Z',
  ].join(' ');
  const check = CHECK.map(([u, v]) => `${u * 512} ${v * 512}`).join(' L ');
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">',
    `  <path d="${outline}" fill="rgb(${BLUE.slice(0, 3).join(',')})" stroke="rgb(${NAVY.slice(0, 3).join(',')})" stroke-width="36" stroke-linejoin="round" paint-order="stroke"/>`,
    `  <path d="M ${check}" fill="none" stroke="#fff" stroke-width="51" stroke-linecap="round" stroke-linejoin="round"/>`,
    '</svg>',
    '',
  ].join('\n');
}

function write(relative: string, data: Buffer | string): void {
  const file = path.join(ROOT, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, data);
  console.log(`wrote resources/${relative}`);
}

export function writeIcons(): void {
  write('icon.svg', shieldSvg());
  for (const size of [16, 32, 256, 512]) write(`icons/${size}x${size}.png`, encodePng(size, rasterise(size, appIcon)));
  write('tray/tray.png', encodePng(16, rasterise(16, trayIcon)));
  write('tray/tray@2x.png', encodePng(32, rasterise(32, trayIcon)));
  write('tray/trayTemplate.png', encodePng(16, rasterise(16, trayTemplate)));
  write('tray/trayTemplate@2x.png', encodePng(32, rasterise(32, trayTemplate)));
}

if (import.meta.main) writeIcons();
