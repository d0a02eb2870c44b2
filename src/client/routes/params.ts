import { clientMessages } from '#shared/errors.ts';

/** A link with a broken id (e.g. /message/detail/abc). */
export class InvalidLinkError extends Error {
  constructor() {
    super(clientMessages.badLink);
    this.name = 'InvalidLinkError';
  }
}

/** A positive integer path parameter, or InvalidLinkError. */
export function parseId(value: string): number {
  const n = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidLinkError();
  return n;
}

/** An optional positive integer search parameter; anything else reads as absent. */
export function optionalId(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
