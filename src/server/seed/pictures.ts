/**
 * The demo's pictures, drawn as SVG (posts' pictures, avatars, icons, medals, book covers and
 * banners); the texts on them come from seed-data/ (seed-content.ts).
 */
import { createHash } from 'node:crypto';
import type { Rng } from './random.ts';

export function imageId(key: string): string {
  return createHash('sha256').update(`seed-image:${key}`).digest('hex').slice(0, 32);
}

export const PALETTES: [string, string][] = [
  ['#fa8919', '#f5576c'],
  ['#4facfe', '#00c6fb'],
  ['#43e97b', '#38a9d7'],
  ['#667eea', '#764ba2'],
  ['#f093fb', '#f5576c'],
  ['#30cfd0', '#330867'],
  ['#f6d365', '#fda085'],
  ['#5ee7df', '#b490ca'],
  ['#0ba360', '#3cba92'],
  ['#ff9a9e', '#a18cd1'],
  ['#2b5876', '#4e4376'],
  ['#e96443', '#904e95'],
];

export const IMAGE_SIZES: [number, number][] = [
  [1200, 800],
  [800, 1200],
  [1080, 1080],
  [1280, 720],
  [750, 1334],
  [1000, 750],
];

const FONT = "'PingFang SC','Microsoft YaHei','Noto Sans CJK SC',sans-serif";

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function svgPicture(rng: Rng, width: number, height: number, label: string, caption: string): string {
  const [c1, c2] = rng.pick(PALETTES);
  const min = Math.min(width, height);
  const parts: string[] = [];
  const variant = rng.int(0, 2);
  if (variant === 0) {
    for (let i = 0; i < 5; i++) {
      parts.push(
        `<circle cx="${rng.int(0, width)}" cy="${rng.int(0, height)}" r="${rng.int(min / 10, min / 3)}" fill="#fff" fill-opacity="${(0.06 + rng.next() * 0.14).toFixed(2)}"/>`,
      );
    }
  } else if (variant === 1) {
    const bars = rng.int(5, 9);
    const bw = (width * 0.7) / bars;
    for (let i = 0; i < bars; i++) {
      const bh = Math.round(height * (0.15 + rng.next() * 0.35));
      parts.push(
        `<rect x="${Math.round(width * 0.15 + i * bw + bw * 0.15)}" y="${Math.round(height * 0.88 - bh)}" width="${Math.round(bw * 0.7)}" height="${bh}" rx="6" fill="#fff" fill-opacity="0.22"/>`,
      );
    }
  } else {
    for (let i = 0; i < 4; i++) {
      const y = rng.int(0, height);
      const amp = rng.int(20, Math.round(min / 6));
      parts.push(
        `<path d="M0 ${y} Q ${Math.round(width / 4)} ${y - amp} ${Math.round(width / 2)} ${y} T ${width} ${y} V ${height} H 0 Z" fill="#fff" fill-opacity="${(0.05 + rng.next() * 0.08).toFixed(2)}"/>`,
      );
    }
  }
  // Wide banners (topic covers) get a larger label than pictures.
  const fs = Math.round(width / height > 2 ? height / 5 : min / 9);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#g)"/>` +
    parts.join('') +
    `<text x="50%" y="46%" text-anchor="middle" dominant-baseline="middle" font-family="${FONT}" font-size="${fs}" font-weight="600" fill="#fff">${xml(label)}</text>` +
    `<text x="50%" y="${Math.round(height * 0.46 + fs * 1.1)}" text-anchor="middle" dominant-baseline="middle" font-family="${FONT}" font-size="${Math.round(fs * 0.38)}" fill="#fff" fill-opacity="0.85">${xml(caption)}</text>` +
    `</svg>`
  );
}

export function svgAvatar(nick: string, color: string): string {
  const ch = xml(Array.from(nick)[0] ?? '?');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">` +
    `<circle cx="100" cy="100" r="100" fill="${color}"/>` +
    `<text x="100" y="104" text-anchor="middle" dominant-baseline="middle" font-family="${FONT}" font-size="92" font-weight="600" fill="#fff">${ch}</text>` +
    `</svg>`
  );
}

export function svgIcon(text: string, c1: string, c2: string, size: number): string {
  const ch = xml(Array.from(text)[0] ?? '?');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs>` +
    `<rect width="${size}" height="${size}" rx="${Math.round(size / 5)}" fill="url(#g)"/>` +
    `<text x="50%" y="53%" text-anchor="middle" dominant-baseline="middle" font-family="${FONT}" font-size="${Math.round(size * 0.48)}" font-weight="700" fill="#fff">${ch}</text>` +
    `</svg>`
  );
}

export function svgMedal(name: string, c1: string, c2: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs>` +
    `<path d="M56 8h48l-8 40H64z" fill="${c2}" fill-opacity="0.8"/>` +
    `<circle cx="80" cy="96" r="56" fill="url(#g)" stroke="#fff" stroke-width="6"/>` +
    `<text x="80" y="100" text-anchor="middle" dominant-baseline="middle" font-family="${FONT}" font-size="22" font-weight="700" fill="#fff">${xml(name.slice(0, 4))}</text>` +
    `</svg>`
  );
}

/** Text cut into lines of at most `width` characters, at most `lines` of them (the last ends in … when cut). */
function wrapText(text: string, width: number, lines: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length && out.length < lines; i += width) out.push(chars.slice(i, i + width).join(''));
  if (chars.length > width * lines) out[lines - 1] = `${Array.from(out[lines - 1]!).slice(0, width - 1).join('')}…`;
  return out;
}

/** A book's cover (3:4): its title in up to four lines, a rule, its author at the foot. */
export function svgBookCover(title: string, author: string, c1: string, c2: string): string {
  const [w, h] = BOOK_COVER_SIZE;
  const lines = wrapText(title, 7, 4);
  const byline = wrapText(author, 16, 1)[0] ?? '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs>` +
    `<rect width="${w}" height="${h}" fill="url(#g)"/>` +
    `<rect x="0" y="0" width="18" height="${h}" fill="#000" fill-opacity="0.12"/>` +
    lines
      .map(
        (line, i) =>
          `<text x="44" y="${96 + i * 46}" font-family="${FONT}" font-size="34" font-weight="700" fill="#fff">${xml(line)}</text>`,
      )
      .join('') +
    `<rect x="44" y="${120 + lines.length * 46}" width="64" height="4" fill="#fff" fill-opacity="0.8"/>` +
    `<text x="44" y="${h - 44}" font-family="${FONT}" font-size="18" fill="#fff" fill-opacity="0.9">${xml(byline)}</text>` +
    `</svg>`
  );
}

/**
 * A book list's banner (3:1): its title large, in two lines where it has a colon (the name, then
 * what it is about), beside a shelf of book spines.
 */
export function svgBooklistBanner(title: string, c1: string, c2: string): string {
  const [w, h] = BOOKLIST_COVER_SIZE;
  const colon = title.search(/[：:]/);
  const [head, tail] = colon > 0 ? [title.slice(0, colon), title.slice(colon + 1)] : wrapText(title, 12, 2);
  const spines = [0, 1, 2, 3, 4, 5]
    .map((i) => {
      const sh = 200 + ((i * 37) % 5) * 16;
      return `<rect x="${w - 470 + i * 66}" y="${h - 60 - sh}" width="${48 + (i % 3) * 6}" height="${sh}" rx="6" fill="#fff" fill-opacity="${(0.14 + (i % 3) * 0.06).toFixed(2)}"/>`;
    })
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs>` +
    `<rect width="${w}" height="${h}" fill="url(#g)"/>` +
    spines +
    `<rect x="${w - 500}" y="${h - 60}" width="440" height="10" rx="5" fill="#fff" fill-opacity="0.35"/>` +
    `<text x="80" y="${tail ? 176 : 216}" font-family="${FONT}" font-size="64" font-weight="700" fill="#fff">${xml(head ?? '')}</text>` +
    (tail ? `<text x="80" y="256" font-family="${FONT}" font-size="40" fill="#fff" fill-opacity="0.9">${xml(tail)}</text>` : '') +
    `</svg>`
  );
}

export const BOOK_COVER_SIZE = [300, 400] as const;
export const BOOKLIST_COVER_SIZE = [1200, 400] as const;
