/**
 * Draws the app icons into public/ as real PNGs (no image tools needed): the brand orange with a
 * white speech bubble holding three dots. Run `npx tsx tests/support/make-icons.ts` after a change
 * of the design; the PNGs are committed.
 *
 * - icon-192.png, icon-512.png: rounded square on a transparent ground ("any" purpose).
 * - icon-maskable-512.png: full-bleed orange, glyph inside the 80% safe zone.
 * - apple-touch-icon.png (180): full-bleed orange (iOS rounds the corners itself).
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const BRAND: Rgb = [0xfa, 0x89, 0x19];
const WHITE: Rgb = [0xff, 0xff, 0xff];

type Rgb = [number, number, number];
/** Signed distance: negative inside. Coordinates are fractions of the icon size. */
type Shape = (x: number, y: number) => number;

function roundedRect(x0: number, y0: number, x1: number, y1: number, r: number): Shape {
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const hx = (x1 - x0) / 2 - r;
  const hy = (y1 - y0) / 2 - r;
  return (x, y) => {
    const dx = Math.abs(x - cx) - hx;
    const dy = Math.abs(y - cy) - hy;
    return Math.hypot(Math.max(dx, 0), Math.max(dy, 0)) + Math.min(Math.max(dx, dy), 0) - r;
  };
}

function circle(cx: number, cy: number, r: number): Shape {
  return (x, y) => Math.hypot(x - cx, y - cy) - r;
}

/** Triangle by its corners, listed clockwise (y down). */
function triangle(a: [number, number], b: [number, number], c: [number, number]): Shape {
  const edges = [
    [a, b],
    [b, c],
    [c, a],
  ] as const;
  return (x, y) => {
    let d = -Infinity;
    for (const [p, q] of edges) {
      const ex = q[0] - p[0];
      const ey = q[1] - p[1];
      const len = Math.hypot(ex, ey);
      // Outward normal of a clockwise edge (y down) is (ey, -ex).
      d = Math.max(d, ((x - p[0]) * ey - (y - p[1]) * ex) / len);
    }
    return d;
  };
}

const union =
  (...shapes: Shape[]): Shape =>
  (x, y) =>
    Math.min(...shapes.map((s) => s(x, y)));

/** The glyph in a 1x1 box, scaled about the centre. */
function glyph(scale: number): { bubble: Shape; dots: Shape } {
  const t = (v: number) => 0.5 + (v - 0.5) * scale;
  const k = scale;
  const bubble = union(
    roundedRect(t(0.2), t(0.24), t(0.8), t(0.68), 0.13 * k),
    triangle([t(0.3), t(0.6)], [t(0.46), t(0.6)], [t(0.27), t(0.8)]),
  );
  const dots = union(
    circle(t(0.35), t(0.46), 0.05 * k),
    circle(t(0.5), t(0.46), 0.05 * k),
    circle(t(0.65), t(0.46), 0.05 * k),
  );
  return { bubble, dots };
}

function render(size: number, opts: { background: Shape; glyphScale: number }): Buffer {
  const { bubble, dots } = glyph(opts.glyphScale);
  const samples = 4;
  const rows: Buffer[] = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4); // filter byte 0, then RGBA
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          if (opts.background(x, y) > 0) continue;
          const color = bubble(x, y) <= 0 && dots(x, y) > 0 ? WHITE : BRAND;
          r += color[0];
          g += color[1];
          b += color[2];
          a += 1;
        }
      }
      const n = samples * samples;
      const o = 1 + px * 4;
      if (a > 0) {
        row[o] = Math.round(r / a);
        row[o + 1] = Math.round(g / a);
        row[o + 2] = Math.round(b / a);
      }
      row[o + 3] = Math.round((a / n) * 255);
    }
    rows.push(row);
  }
  return png(size, size, Buffer.concat(rows));
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(width: number, height: number, filteredRows: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(filteredRows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const fullBleed: Shape = () => -1;
const rounded = roundedRect(0, 0, 1, 1, 0.22);

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '../../public');
const outputs: Array<[string, Buffer]> = [
  ['icons/icon-192.png', render(192, { background: rounded, glyphScale: 1 })],
  ['icons/icon-512.png', render(512, { background: rounded, glyphScale: 1 })],
  ['icons/icon-maskable-512.png', render(512, { background: fullBleed, glyphScale: 0.8 })],
  ['apple-touch-icon.png', render(180, { background: fullBleed, glyphScale: 0.9 })],
];
for (const [path, data] of outputs) {
  writeFileSync(join(publicDir, path), data);
  console.log(`${path}: ${data.length} bytes`);
}
