/** Default avatars: a coloured disc with the first character of the nick, as SVG. */
import { createHash } from 'node:crypto';

const PALETTE = ['#fa8919', '#f25f5c', '#3d9970', '#2b7bb9', '#8e6cc2', '#d4a017', '#16a2a2', '#c2577e'];

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function avatarSvg(nick: string, seed: string = nick): string {
  const digest = createHash('sha256').update(seed).digest();
  const colour = PALETTE[digest[0]! % PALETTE.length];
  const initial = escapeXml(Array.from(nick.trim())[0] ?? '极');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128"><circle cx="64" cy="64" r="64" fill="${colour}"/><text x="64" y="64" dy=".35em" text-anchor="middle" font-family="PingFang SC, Microsoft YaHei, Noto Sans CJK SC, sans-serif" font-size="60" fill="#fff">${initial}</text></svg>`;
}
