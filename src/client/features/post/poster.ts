/**
 * The post as a picture (/message/detail/poster): drawn on a canvas as a PNG to save or share.
 * Only same-origin images are drawn (a foreign one would taint the canvas and forbid the PNG).
 */
import type { ImageAttach, Post } from '#shared/schemas.ts';
import { cutText } from '#shared/text-length.ts';

const WIDTH = 750;
const PAD = 48;
const TEXT_SIZE = 30;
const LINE = Math.round(TEXT_SIZE * 1.7);
const MAX_LINES = 12;
const FONT = '"PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif';
const BRAND = '#fa8919';
// Words drawn into the picture are text too (WCAG 1.4.3): the palette's shades that read 4.5:1 on
// white (styles/tokens.css --color-brand-strong and --color-text-tertiary); the bright orange is the bar.
const BRAND_TEXT = '#ad5700';
const TIME_TEXT = '#656f7b';

function loadImage(src: string): Promise<HTMLImageElement | null> {
  const url = new URL(src, window.location.href);
  if (url.origin !== window.location.origin) return Promise.resolve(null);
  return new Promise((resolve) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => resolve(null);
    image.src = url.href;
  });
}

/** Lines of at most `width` pixels; CJK text breaks between any two characters. */
function wrap(ctx: CanvasRenderingContext2D, text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const char of paragraph) {
      if (ctx.measureText(line + char).width > width && line) {
        lines.push(line);
        line = char;
      } else line += char;
    }
    lines.push(line);
  }
  return lines;
}

export async function drawPoster(post: Post, brand: string, time: string): Promise<Blob> {
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('canvas unavailable');
  ctx.font = `${TEXT_SIZE}px ${FONT}`;
  let lines = wrap(ctx, cutText(post.content, 300), WIDTH - PAD * 2);
  if (lines.length > MAX_LINES) lines = [...lines.slice(0, MAX_LINES - 1), `${lines[MAX_LINES - 1]}…`];
  const attach = post.attach.find((a): a is ImageAttach => a.type === 'image');
  const [avatar, picture] = await Promise.all([post.user.avatar ? loadImage(post.user.avatar) : null, attach ? loadImage(attach.url) : null]);
  const pictureHeight = picture && attach ? Math.round(((WIDTH - PAD * 2) * attach.height) / attach.width) : 0;
  const height = PAD + 88 + 32 + lines.length * LINE + (pictureHeight ? pictureHeight + 32 : 0) + 40 + 64 + PAD;

  canvas.width = WIDTH;
  canvas.height = height;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, WIDTH, height);
  ctx.fillStyle = BRAND;
  ctx.fillRect(0, 0, WIDTH, 12);

  // The author.
  let y = PAD;
  ctx.save();
  ctx.beginPath();
  ctx.arc(PAD + 40, y + 40, 40, 0, Math.PI * 2);
  ctx.clip();
  if (avatar) ctx.drawImage(avatar, PAD, y, 80, 80);
  else {
    ctx.fillStyle = '#dfe3e8';
    ctx.fillRect(PAD, y, 80, 80);
  }
  ctx.restore();
  ctx.fillStyle = '#222222';
  ctx.font = `bold 30px ${FONT}`;
  ctx.fillText(post.user.nick, PAD + 104, y + 34);
  ctx.fillStyle = TIME_TEXT;
  ctx.font = `24px ${FONT}`;
  ctx.fillText(time, PAD + 104, y + 72);

  // The words, then the first picture.
  y += 88 + 32;
  ctx.fillStyle = '#222222';
  ctx.font = `${TEXT_SIZE}px ${FONT}`;
  for (const line of lines) {
    ctx.fillText(line, PAD, y + TEXT_SIZE);
    y += LINE;
  }
  if (picture && pictureHeight) {
    y += 32;
    ctx.drawImage(picture, PAD, y, WIDTH - PAD * 2, pictureHeight);
    y += pictureHeight;
  }

  // The brand.
  y += 40;
  ctx.fillStyle = '#eef0f3';
  ctx.fillRect(PAD, y, WIDTH - PAD * 2, 2);
  ctx.fillStyle = BRAND_TEXT;
  ctx.font = `bold 26px ${FONT}`;
  ctx.fillText(brand, PAD, y + 48);

  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG failed'))), 'image/png'));
}

/** Saves the PNG as a download. */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
