/** The envelope of every API answer: `{code: 0, data}`, or `{code: -1, error: {code, msg}}` with a code of errors.ts. */

export interface OkEnvelope<T> {
  code: 0;
  data: T;
}

export interface ErrorEnvelope {
  code: -1;
  error: { code: number; msg: string };
}

export type Envelope<T> = OkEnvelope<T> | ErrorEnvelope;

export function ok<T>(data: T): OkEnvelope<T> {
  return { code: 0, data };
}

export function fail(code: number, msg: string): ErrorEnvelope {
  return { code: -1, error: { code, msg } };
}

export function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'number';
}
