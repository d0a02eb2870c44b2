/**
 * The manifest's screenshots are what the install dialog shows: each entry's sizes are its PNG's
 * real pixels (read from the file's header), its form factor matches its shape (narrow: a
 * portrait phone, wide: a landscape window), both form factors are there, each is the window
 * `npm run screenshots` takes it in (tests/e2e/screenshots.ts), and each shows today's palette:
 * the primary buttons' colour of the design tokens. Needs `npm run build` first.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './support/app.ts';
import { sharedApp } from './support/fixtures.ts';
import { SCREENSHOTS, SCREENSHOTS_DIR } from './screenshots.ts';

const app = sharedApp();

interface Screenshot {
  src: string;
  sizes: string;
  type: string;
  form_factor: string;
  label: string;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from a PNG's header (its IHDR chunk, first after the signature). */
function pngHeader(bytes: Uint8Array): { width: number; height: number } {
  expect(Array.from(bytes.subarray(0, 8)), 'PNG signature').toEqual(PNG_SIGNATURE);
  expect(new TextDecoder().decode(bytes.subarray(12, 16)), 'first chunk').toBe('IHDR');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** The light scheme's fill of primary buttons (发动态, 登录), as the design tokens say today. */
function primaryFill(): [number, number, number] {
  const tokens = readFileSync(join(PROJECT_ROOT, 'src/client/styles/tokens.css'), 'utf8');
  const hex = /--color-brand-strong:\s*#([0-9a-f]{6})\b/i.exec(tokens)?.[1];
  if (!hex) throw new Error('tokens.css names no --color-brand-strong');
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** Pixels of exactly `rgb` in a PNG. */
async function pixelsOf(png: Uint8Array, [r, g, b]: [number, number, number]): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let n = 0;
  for (let i = 0; i < data.length; i += info.channels) if (data[i] === r && data[i + 1] === g && data[i + 2] === b) n++;
  return n;
}

describe('the manifest’s screenshots', () => {
  it('are PNGs whose sizes and form factors are their pixels, one narrow and one wide, as the script takes them', async () => {
    const manifest = (await (await fetch(`${app.url}/manifest.webmanifest`)).json()) as { screenshots: Screenshot[] };
    expect(manifest.screenshots.map((shot) => shot.form_factor).sort()).toEqual(['narrow', 'wide']);
    for (const shot of manifest.screenshots) {
      const response = await fetch(`${app.url}${shot.src}`);
      expect(response.status, shot.src).toBe(200);
      expect(shot.type).toBe('image/png');
      expect(response.headers.get('content-type'), shot.src).toContain('image/png');
      const bytes = new Uint8Array(await response.arrayBuffer());
      const { width, height } = pngHeader(bytes);
      expect(`${width}x${height}`, shot.src).toBe(shot.sizes);
      // Narrow is a phone held upright, wide a window on a desk.
      expect(shot.form_factor === 'narrow' ? height > width : width > height, `${shot.src} is ${shot.form_factor}`).toBe(true);
      expect(shot.label).not.toBe('');
      // The file of the repository, taken in the script's window at its scale.
      const taken = SCREENSHOTS.find((entry) => `/screenshots/${entry.file}` === shot.src);
      expect(taken, shot.src).toBeDefined();
      expect(taken!.formFactor).toBe(shot.form_factor);
      expect(`${taken!.viewport.width * taken!.deviceScaleFactor}x${taken!.viewport.height * taken!.deviceScaleFactor}`).toBe(shot.sizes);
      expect(Buffer.compare(Buffer.from(bytes), readFileSync(join(SCREENSHOTS_DIR, taken!.file))), `${shot.src} is the repository's file`).toBe(0);
    }
  });

  it('show today’s palette: the primary buttons’ colour of the design tokens', async () => {
    const fill = primaryFill();
    for (const { file } of SCREENSHOTS) {
      // 发动态 and 登录 are a few thousand pixels of it; an older palette has none.
      expect(await pixelsOf(readFileSync(join(SCREENSHOTS_DIR, file)), fill), file).toBeGreaterThan(1000);
    }
  });
});
